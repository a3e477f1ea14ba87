"""Models of the scoring app: result submissions (versions of each acta), recorded hands, the
juez's rulings on them (AMM chapter IV), the match clocks (AMM chapter VI) and the printables
built in the background."""

from scoring.models.clocks import ClockEvent, ClockJuego, ClockPause, DelayWarning, JuegoClaim, MatchClock
from scoring.models.hands import *  # noqa: F403 - recorded hands (their module lists its models)
from scoring.models.hands import __all__ as _hands_all
from scoring.models.printing import PrintJob
from scoring.models.results import ResultSubmission
from scoring.models.rulings import HandRuling

__all__ = [
    "ClockEvent",
    "ClockJuego",
    "JuegoClaim",
    "ClockPause",
    "DelayWarning",
    "HandRuling",
    "MatchClock",
    "PrintJob",
    "ResultSubmission",
    *_hands_all,
]
