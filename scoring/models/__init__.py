"""Models of the scoring app: result submissions (versions of each acta), recorded hands and the
match clocks (AMM chapter VI)."""

from scoring.models.clocks import ClockEvent, ClockJuego, ClockPause, DelayWarning, MatchClock
from scoring.models.hands import *  # noqa: F403 - recorded hands (their module lists its models)
from scoring.models.hands import __all__ as _hands_all
from scoring.models.results import ResultSubmission

__all__ = ["ClockEvent", "ClockJuego", "ClockPause", "DelayWarning", "MatchClock", "ResultSubmission", *_hands_all]
