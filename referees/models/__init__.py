"""The referees' records (AMM chapter V)."""

from referees.models.incidents import Incident, Sanction

__all__ = ["Incident", "Sanction"]
