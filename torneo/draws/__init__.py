"""Pure draw generators (sorteos) for Mus tournaments: no Django here, only plain ids and data.

The Django side (``torneo.draws.manager``) reads the tournament state, calls these functions and
writes the matches; everything here can be run and checked on its own, also with
``python -m torneo.draws`` (see docs/draws.md).
"""

from torneo.draws.bracket import (
    BracketRound,
    Seeding,
    bracket_from_seeds,
    bracket_round,
    next_line,
    seed_positions,
    seeds_from_standings,
)
from torneo.draws.errors import DrawError, DrawFatalError, DrawUserError
from torneo.draws.formats import (
    DrawRequest,
    PairState,
    RepescaRules,
    RoundPlan,
    is_final_round,
    plan_ceros,
    plan_repesca,
    plan_swiss,
    request_for,
)
from torneo.draws.generator import ALGORITHM_VERSION, DrawResult, make_draw
from torneo.draws.liguilla import (
    RoundRobinRound,
    allocate_liguillas,
    liguilla_members,
    pots_by_strength,
    round_robin,
)
from torneo.draws.problem import GroupLabel, PairId
from torneo.draws.rng import DrawRandom
from torneo.draws.verify import check_commitment, commitment, derive_seed, new_secret

__all__ = [
    "ALGORITHM_VERSION",
    "BracketRound",
    "DrawError",
    "DrawFatalError",
    "DrawRandom",
    "DrawRequest",
    "DrawResult",
    "DrawUserError",
    "GroupLabel",
    "PairId",
    "PairState",
    "RepescaRules",
    "RoundPlan",
    "RoundRobinRound",
    "Seeding",
    "allocate_liguillas",
    "bracket_from_seeds",
    "bracket_round",
    "check_commitment",
    "commitment",
    "derive_seed",
    "is_final_round",
    "liguilla_members",
    "make_draw",
    "new_secret",
    "next_line",
    "plan_ceros",
    "plan_repesca",
    "plan_swiss",
    "pots_by_strength",
    "request_for",
    "round_robin",
    "seed_positions",
    "seeds_from_standings",
]
