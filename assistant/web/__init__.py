"""assistant/web."""
