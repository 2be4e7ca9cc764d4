"""Convert public documentation repositories into package-format artifacts (docs/package-format.md)."""
