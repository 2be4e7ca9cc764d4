"""Learning material and corpora built from public sources for evaluating the assistant."""
