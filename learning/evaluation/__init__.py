"""Evaluation: figures on held-out data for make eval and the floors in tests/eval/."""
