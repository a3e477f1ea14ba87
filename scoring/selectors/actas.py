"""What a partida's acta carries (AMM 3.16): the tournament, round and table, the two pairs and
their players, the juegos to win and the tantos per juego, the maximum time (6.2) and the clock's
start, a box per possible juego, the result and the losing pair's signature, the notes the apps
add (the juez's sanctions 5.4, suplentes 5.8, rulings on hands chapter IV: ``scoring.acta``), and a
QR code to the partida's page. Built once per acta; the print template only lays it out.
"""

from __future__ import annotations

import dataclasses
import datetime

import segno
from django.utils import timezone

from scoring import acta
from scoring.models import MatchClock
from torneo.clock.times import max_duration_minutes
from torneo.models import Match, Pair


@dataclasses.dataclass(frozen=True)
class ActaPair:
    number: int
    name: str
    players: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Acta:
    tournament: str
    venue: str
    round_number: int
    table: int | None
    pair_a: ActaPair
    pair_b: ActaPair
    games_to_win: int
    points_per_game: int
    max_minutes: int
    clock_started: datetime.datetime | None
    juegos: tuple[int, ...]
    """1 … the most juegos a partida can have (2 × juegos to win − 1): a box each."""
    notes: tuple[str, ...]
    url: str
    qr_svg: str

    @property
    def columns(self) -> int:
        """Juego boxes per row: all in one row up to five, else two rows."""
        count = len(self.juegos)
        return count if count <= 5 else (count + 1) // 2


def _pair(pair: Pair) -> ActaPair:
    return ActaPair(pair.number, pair.display_name, tuple(m.player.full_name for m in pair.ordered_members()))


def qr_svg(url: str) -> str:
    """The address as an inline SVG QR code (segno; no image file, nothing fetched)."""
    svg: str = segno.make(url, error="m").svg_inline(scale=3, border=2, title=url)
    return svg


def acta_for(match: Match, *, url: str) -> Acta:
    """The acta of a played partida (``url``: the absolute address of its page, for the QR code)."""
    tournament = match.round.tournament
    assert match.pair_a is not None and match.pair_b is not None, "an exenta has no acta"
    clock = MatchClock.objects.filter(match=match).values_list("started_at", flat=True).first()
    games = tournament.games_to_win
    return Acta(
        tournament=tournament.name,
        venue=tournament.venue,
        round_number=match.round.number,
        table=match.table_number,
        pair_a=_pair(match.pair_a),
        pair_b=_pair(match.pair_b),
        games_to_win=games,
        points_per_game=tournament.points_per_game,
        max_minutes=max_duration_minutes(games),
        clock_started=None if clock is None else timezone.localtime(clock),
        juegos=tuple(range(1, 2 * games)),
        notes=tuple(acta.notes(match)),
        url=url,
        qr_svg=qr_svg(url),
    )
