"""assistant/domain."""
