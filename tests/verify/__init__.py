"""Tests of the independent verifier of the open record (issue 35)."""
