"""learning/management/commands."""
