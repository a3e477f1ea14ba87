"""Play whole tournaments through the services: prepare each round, draw it before a juez with a
public value, enter every result, until the format says the tournament is decided."""

import random
from collections import Counter
from dataclasses import dataclass, field

from scoring.services.results import result_submit
from tests.factories import TournamentFactory, UserFactory, grant, make_pair
from torneo.errors import TournamentError
from torneo.models import Match, Pair, Round, Tournament
from torneo.services.registrations import pair_check_in
from torneo.services.rounds import draw_publish, live_draw, round_prepare, round_publish


@dataclass
class Simulation:
    tournament: Tournament
    organizer: object
    juez: object
    rng: random.Random
    rounds: list[Round] = field(default_factory=list)

    def play_round(self) -> Round | None:
        """One round: prepare, publish (drawn or fixed), results. None when the tournament is decided."""
        try:
            round_ = round_prepare(tournament=self.tournament, by=self.organizer)
        except TournamentError as exc:
            if exc.code == "decided":
                return None
            raise
        if round_.kind == Round.Kind.DRAW:
            draw_publish(
                draw=live_draw(round_),
                public_value=str(self.rng.randint(1, 6)) * 3,
                witness=self.juez,
                by=self.organizer,
            )
        else:
            round_publish(round=round_, by=self.organizer)
        round_.refresh_from_db()
        self.rounds.append(round_)
        for match in round_.matches.filter(outcome=Match.Outcome.PENDING).select_related("round__tournament"):
            self.enter_result(match)
        return round_

    def enter_result(self, match: Match) -> None:
        target = self.tournament.games_to_win
        loser_games = self.rng.randint(0, target - 1)
        a_wins = self.rng.random() < 0.5
        games = (target, loser_games) if a_wins else (loser_games, target)
        result_submit(match=match, by=self.organizer, games_a=games[0], games_b=games[1])

    def play_all(self, limit: int = 60) -> None:
        for _ in range(limit):
            if self.play_round() is None:
                return
        raise AssertionError("the tournament never ended")


def new_tournament(pairs: int, *, seed: int = 1, checked_in: int | None = None, **fields: object) -> Simulation:
    tournament = TournamentFactory(**fields)
    organizer = grant(UserFactory(), tournament, "organizer")
    juez = grant(UserFactory(), tournament, "juez")
    created = [make_pair(tournament) for _ in range(pairs)]
    for pair in created[: pairs if checked_in is None else checked_in]:
        pair_check_in(pair=pair)
    tournament.refresh_from_db()
    return Simulation(tournament, organizer, juez, random.Random(seed))


def appearances(round_: Round) -> Counter[int]:
    counts: Counter[int] = Counter()
    for m in round_.matches.all():
        counts[m.pair_a_id] += 1
        if m.pair_b_id:
            counts[m.pair_b_id] += 1
    return counts


def byes_so_far(tournament: Tournament, before: int) -> Counter[int]:
    return Counter(
        Match.objects.filter(
            round__tournament=tournament, round__number__lt=before, pair_b__isnull=True, outcome=Match.Outcome.BYE
        ).values_list("pair_a_id", flat=True)
    )


def active_pair_ids(tournament: Tournament) -> set[int]:
    return set(Pair.objects.filter(tournament=tournament, status=Pair.Status.CONFIRMED).values_list("id", flat=True))
