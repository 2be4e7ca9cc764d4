"""assistant/pipeline."""
