"""Reads for the referees (AMM chapter V)."""
