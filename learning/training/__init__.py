"""learning/training."""
