"""Tests of circuits: rankings across tournaments (issue 35)."""
