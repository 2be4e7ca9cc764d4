"""Training and measuring the screening models (intent, answerability, topics)."""
