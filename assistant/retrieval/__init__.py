"""assistant/retrieval."""
