"""assistant/review."""
