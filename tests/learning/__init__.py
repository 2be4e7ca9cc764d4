"""Tests of the learning side: corpora, converters, evaluation."""
