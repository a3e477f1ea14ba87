"""Player ratings (issue 35), pure: Weng-Lin's Bayesian rating for teams (openskill's
Plackett-Luce model), a pair being a team of two (a trío's three), one partida at a time in the
order they were played.

Each person starts at mu 25, sigma 25/3 (openskill's defaults); a won partida moves both teams'
players by what the model expects of them. What the site shows is the *ordinal* mu − 3·sigma: a
conservative figure that only rises with evidence (a newcomer shows 0). Only partidas played count
(a walkover, an exenta or a double loss tells nothing of who plays better). Nothing here knows
Django: people are any hashable keys (the selectors use a player account's identity).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from openskill.models import PlackettLuce

Person = TypeVar("Person", bound=Hashable)


@dataclass(frozen=True)
class Game(Generic[Person]):
    """One partida played: its two teams and which one won."""

    a: Sequence[Person]
    b: Sequence[Person]
    winner: Literal["a", "b"]


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The conservative figure shown: mu − 3·sigma."""
        return self.mu - 3 * self.sigma


def rate(games: Iterable[Game[Person]]) -> dict[Person, Rating]:
    """Every person's rating after ``games``, in their order."""
    model = PlackettLuce()
    current: dict[Person, tuple[float, float, int]] = {}
    default = (model.mu, model.sigma, 0)
    for game in games:
        if not game.a or not game.b or set(game.a) & set(game.b):
            raise ValueError("una partida necesita dos equipos distintos")
        teams = [[model.rating(*current.get(p, default)[:2]) for p in team] for team in (game.a, game.b)]
        ranks = [1.0, 2.0] if game.winner == "a" else [2.0, 1.0]
        new_a, new_b = model.rate(teams, ranks=ranks)
        for team, rated in ((game.a, new_a), (game.b, new_b)):
            for person, rating in zip(team, rated, strict=True):
                current[person] = (rating.mu, rating.sigma, current.get(person, default)[2] + 1)
    return {person: Rating(mu, sigma, n) for person, (mu, sigma, n) in current.items()}
