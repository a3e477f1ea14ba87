"""The referees' records (AMM chapter V)."""

from referees.models.incidents import Incident, Sanction
from referees.models.substitutes import Substitution

__all__ = ["Incident", "Sanction", "Substitution"]
