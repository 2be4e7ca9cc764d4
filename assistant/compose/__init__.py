"""assistant/compose."""
