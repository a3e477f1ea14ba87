"""Tests of the open tournament record (issue 35)."""
