"""Reads for the recorded-hands pages and the API: a match's juegos and hands with the engine's
findings, what the form for the next hand is prefilled with, a hand's versions, and the staff's
index of a round's tables.

Every function here runs a fixed number of queries whatever the tournament's size.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils.translation import gettext_lazy

from scoring.models import RecordedGame, RecordedHand
from scoring.services.hands import article_label, juegos_result, next_mano, other
from torneo.models import Match, Pair, Round, Tournament
from torneo.selectors.registrations import members_prefetch

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class CurrentHands(TypedDict):
    """What `match_hands` prefetches on each juego: its current hands, in order."""

    current_hands: list[RecordedHand]


class HandCounts(TypedDict):
    """What `matches_for_hands` annotates each match with."""

    hand_count: int
    game_count: int


# --- recorded hands --------------------------------------------------------------------------

SEAT_LABELS = (
    gettext_lazy("mano"),
    gettext_lazy("segundo"),
    gettext_lazy("compañero del mano"),
    gettext_lazy("postre"),
)


def pair_label(pair: Pair | None) -> str:
    """A pair as the hands pages name it: «12 · García / López»."""
    return "" if pair is None else f"{pair.number} · {pair.display_name}"


def frame(hand: RecordedHand, match: Match) -> dict[str, str]:
    """What «A» and «B» of a hand's record are, by name: A the hand's mano pair, B the other (the
    engine's frame, docs/engine.md)."""
    mano, other_pair = (match.pair_a, match.pair_b) if hand.mano_side == "a" else (match.pair_b, match.pair_a)
    return {"A": pair_label(mano), "B": pair_label(other_pair)}


def notes(hand: RecordedHand, match: Match) -> list[dict[str, Any]]:
    """A hand's findings (its own and the sequence's) for a page: the seat named, the article as
    people read it (``article_label``: «Reglamento AMM, art. 3.8», never «seed 000») and the pair
    at fault by name (A is the hand's mano pair). The code stays in the dict for the templates'
    logic; the pages do not show it."""
    names = frame(hand, match)
    found = []
    for f in hand.all_findings:
        seat, pair = f.get("seat"), f.get("pair")
        pair_name = names.get(pair, "") if isinstance(pair, str) else ""
        found.append(
            {
                **f,
                "seat_label": SEAT_LABELS[seat] if isinstance(seat, int) and 0 <= seat < 4 else "",
                "article_label": article_label(str(f.get("article", ""))),
                "pair_label": f"{pair} ({pair_name})" if pair_name else (pair or ""),
            }
        )
    return found


def matches_with_players() -> QuerySet[Match]:
    """Matches with their round and pairs and the pairs' players: what the hands pages show and
    the player role reads (the queryset handed to torneo.permissions.access_match)."""
    return Match.objects.select_related("round__tournament", "pair_a", "pair_b").prefetch_related(
        members_prefetch("pair_a__members"), members_prefetch("pair_b__members")
    )


@dataclasses.dataclass
class NextHand:
    """What the form for the next hand is prefilled with."""

    game_number: int
    number: int
    mano: str | None  # None: the first hand of the match, the table says who is mano
    tantos: tuple[int, int]  # the running tantos, in the match's frame
    new_game: bool

    @property
    def score_before(self) -> tuple[int, int] | None:
        """The score before the hand as the engine writes it (A = this hand's mano pair)."""
        if self.mano is None:
            return None
        a, b = self.tantos
        return (a, b) if self.mano == "a" else (b, a)


@dataclasses.dataclass
class MatchHands:
    match: Match
    games: list[WithAnnotations[RecordedGame, CurrentHands]]
    next: NextHand | None  # None when the recorded juegos already decide the match
    decided: tuple[int, int, list[list[int]]] | None

    @property
    def juegos(self) -> tuple[int, int]:
        won_a = sum(1 for g in self.games if g.winner == "a")
        return won_a, sum(1 for g in self.games if g.winner == "b")


def _games(match: Match) -> list[WithAnnotations[RecordedGame, CurrentHands]]:
    hands = RecordedHand.objects.filter(is_current=True).select_related("recorded_by").order_by("number")
    return list(
        match.recorded_games.order_by("number").prefetch_related(
            Prefetch("hands", queryset=hands, to_attr="current_hands")
        )
    )


def next_hand(match: Match, games: Sequence[WithAnnotations[RecordedGame, CurrentHands]]) -> NextHand | None:
    open_game = next((g for g in games if not g.is_closed), None)
    if open_game is not None:
        hands = open_game.current_hands
        return NextHand(
            open_game.number,
            (hands[-1].number if hands else 0) + 1,
            next_mano(open_game, hands),
            (open_game.tantos_a, open_game.tantos_b),
            new_game=False,
        )
    if juegos_result(list(games), match.round.tournament.games_to_win) is not None:
        return None
    mano = None
    if games:
        last = games[-1]
        mano = other(last.current_hands[-1].mano_side) if last.current_hands else other(last.first_mano)
    return NextHand(len(games) + 1, 1, mano, (0, 0), new_game=True)


def match_hands(match: Match) -> MatchHands:
    games = _games(match)
    for game in games:
        for hand in game.current_hands:
            hand.notes = notes(hand, match)
    return MatchHands(match, games, next_hand(match, games), juegos_result(games, match.round.tournament.games_to_win))


def hand_versions(hand: RecordedHand) -> QuerySet[RecordedHand]:
    """Every version of the same hand (same juego and number), newest first."""
    return (
        RecordedHand.objects.filter(game_id=hand.game_id, number=hand.number)
        .select_related("recorded_by", "deleted_by")
        .order_by("-version")
    )


def matches_for_hands(
    tournament: Tournament, round_number: int | None = None
) -> tuple[Round | None, list[WithAnnotations[Match, HandCounts]]]:
    """The staff's index: a round's matches (the latest published by default) with their hands."""
    rounds = Round.objects.filter(tournament=tournament, status=Round.Status.PUBLISHED)
    round_ = (rounds.filter(number=round_number) if round_number else rounds.order_by("-number")).first()
    if round_ is None:
        return None, []
    matches = list(
        Match.objects.filter(round=round_, pair_b__isnull=False)
        .select_related("pair_a", "pair_b")
        .prefetch_related(members_prefetch("pair_a__members"), members_prefetch("pair_b__members"))
        .annotate(
            hand_count=Count("recorded_games__hands", filter=Q(recorded_games__hands__is_current=True), distinct=True),
            game_count=Count("recorded_games", distinct=True),
        )
        .order_by("pool", "table_number", "id")
    )
    return round_, matches
