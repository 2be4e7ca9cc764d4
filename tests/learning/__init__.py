"""Tests for the learning tools."""
