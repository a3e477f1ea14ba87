"""Writes for the referees (AMM chapter V)."""
