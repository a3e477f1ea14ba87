"""What a partida's acta carries (AMM 3.16): the tournament, round and table, the two pairs and
their players, the juegos to win and the tantos per juego, the maximum time (6.2) and the clock's
start, a box per possible juego, the result and the losing pair's signature, the notes the apps
add (the juez's sanctions 5.4, suplentes 5.8, rulings on hands chapter IV: ``scoring.acta``), and a
QR code to the partida's page. Built once per acta; the print template only lays it out.

A round's actas are read together (``round_actas``: the matches, pairs, players and clocks in four
queries, then each partida's notes), and their ``digest`` says whether a stored batch still
matches the round (scoring.services.printing reuses it until the round's data change).
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
from collections.abc import Callable, Sequence

import segno
from django.utils import timezone

from scoring import acta
from scoring.models import MatchClock
from torneo.clock.times import max_duration_minutes
from torneo.models import Match, Pair, Round, Tournament

JUEGO_BOX_MM = 30
"""The height of a juego's box on the acta, its gap below included."""


@dataclasses.dataclass(frozen=True)
class ActaPair:
    number: int
    name: str
    players: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Acta:
    tournament: str
    venue: str
    round_number: int | None
    """None on a blank acta (the mesa writes it)."""
    table: int | None
    pair_a: ActaPair | None
    pair_b: ActaPair | None
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
    def blank(self) -> bool:
        return self.pair_a is None

    @property
    def sides(self) -> tuple[tuple[str, ActaPair | None], ...]:
        return (("A", self.pair_a), ("B", self.pair_b))

    @property
    def columns(self) -> int:
        """Juego boxes per row: all in one row up to five, else two rows."""
        count = len(self.juegos)
        return count if count <= 5 else (count + 1) // 2

    @property
    def box_width(self) -> float:
        """Each juego box's width in % of the line, leaving room for the gaps."""
        return round(100 / self.columns - 1.2, 1)

    @property
    def juego_boxes(self) -> list[tuple[int, float, int]]:
        """Each juego box: its number, its left edge (% of the line) and its top (mm). Placed, not
        floated: WeasyPrint lays out a positioned box once, a float again for every line near it."""
        return [
            (n, round(100 * (i % self.columns) / self.columns, 2), JUEGO_BOX_MM * (i // self.columns))
            for i, n in enumerate(self.juegos)
        ]

    @property
    def juegos_height(self) -> int:
        return JUEGO_BOX_MM * -(-len(self.juegos) // self.columns)


def qr_svg(url: str) -> str:
    """The address as an inline SVG QR code (segno; no image file, nothing fetched)."""
    svg: str = segno.make(url, error="m").svg_inline(scale=3, border=2, title=url)
    return svg


def _pair(pair: Pair) -> ActaPair:
    return ActaPair(pair.number, pair.display_name, tuple(m.player.full_name for m in pair.ordered_members()))


def _terms(tournament: Tournament) -> dict[str, object]:
    games = tournament.games_to_win
    return {
        "tournament": tournament.name,
        "venue": tournament.venue,
        "games_to_win": games,
        "points_per_game": tournament.points_per_game,
        "max_minutes": max_duration_minutes(games),
        "juegos": tuple(range(1, 2 * games)),
    }


def _acta(match: Match, *, url: str, started: datetime.datetime | None) -> Acta:
    assert match.pair_a is not None and match.pair_b is not None, "an exenta has no acta"
    return Acta(
        **_terms(match.round.tournament),  # type: ignore[arg-type]
        round_number=match.round.number,
        table=match.table_number,
        pair_a=_pair(match.pair_a),
        pair_b=_pair(match.pair_b),
        clock_started=None if started is None else timezone.localtime(started),
        notes=tuple(acta.notes(match)),
        url=url,
        qr_svg=qr_svg(url),
    )


def acta_for(match: Match, *, url: str) -> Acta:
    """The acta of a played partida (``url``: the absolute address of its page, for the QR code)."""
    started = MatchClock.objects.filter(match=match).values_list("started_at", flat=True).first()
    return _acta(match, url=url, started=started)


def round_matches(round_: Round) -> list[Match]:
    """The round's partidas that need an acta (never an exenta), by table: one query plus the
    pairs' players."""
    rows = (
        Match.objects.filter(round=round_, pair_b__isnull=False)
        .select_related("round__tournament", "pair_a", "pair_b")
        .prefetch_related("pair_a__members__player", "pair_b__members__player")
        .order_by("table_number", "pool", "slot", "pk")
    )
    return list(rows)


def round_actas(round_: Round, *, url_for: Callable[[Match], str]) -> list[Acta]:
    """Every acta of a round, by table (``url_for``: each partida's absolute address)."""
    matches = round_matches(round_)
    started = dict(MatchClock.objects.filter(match__round=round_).values_list("match_id", "started_at"))
    return [_acta(match, url=url_for(match), started=started.get(match.pk)) for match in matches]


def blank_actas(tournament: Tournament, *, count: int) -> list[Acta]:
    """``count`` actas with the tournament's terms and nothing else, for manual use."""
    blank = Acta(
        **_terms(tournament),  # type: ignore[arg-type]
        round_number=None,
        table=None,
        pair_a=None,
        pair_b=None,
        clock_started=None,
        notes=(),
        url="",
        qr_svg="",
    )
    return [blank] * count


def digest(actas: Sequence[Acta]) -> str:
    """A fingerprint of everything printed on these actas: equal digests, equal papers."""
    payload = json.dumps([dataclasses.asdict(a) for a in actas], default=str, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()
