"""assistant/verify."""
