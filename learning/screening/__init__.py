"""learning/screening."""
