"""learning/evaluation."""
