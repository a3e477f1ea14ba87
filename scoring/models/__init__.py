"""Models of the scoring app: result submissions (versions of each acta) and recorded hands."""

from scoring.models.hands import *  # noqa: F403 - recorded hands (their module lists its models)
from scoring.models.hands import __all__ as _hands_all
from scoring.models.results import ResultSubmission

__all__ = ["ResultSubmission", *_hands_all]
