"""learning/management."""
