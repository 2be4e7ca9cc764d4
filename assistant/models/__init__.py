"""assistant/models."""
