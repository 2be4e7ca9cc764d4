"""Training the rankers and the criterion evidence model."""
