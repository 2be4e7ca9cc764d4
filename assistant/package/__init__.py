"""assistant/package."""
