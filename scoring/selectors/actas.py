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

import base64
import dataclasses
import datetime
import functools
import hashlib
import io
import json
from collections.abc import Callable, Sequence
from typing import Any, cast

import zxingcpp
from django.utils import timezone
from PIL import Image

from scoring import acta
from scoring.models import MatchClock
from scoring.selectors.clocks import clock_notes, clock_notes_by_match
from scoring.selectors.hands import matches_with_players
from torneo.clock.times import max_duration_minutes
from torneo.models import Match, Pair, Round, Tournament


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

    @functools.cached_property
    def qr(self) -> str:
        """The QR code of ``url`` (none on a blank acta): made when printed, by the worker."""
        return qr_png(self.url) if self.url else ""

    @property
    def blank(self) -> bool:
        return self.pair_a is None

    @property
    def sides(self) -> tuple[tuple[str, ActaPair | None], ...]:
        return (("A", self.pair_a), ("B", self.pair_b))

    @property
    def terms(self) -> tuple[object, ...]:
        """What the printed frame shows (scoring/print/_acta_frame.html): equal terms, equal frame."""
        return (self.tournament, self.venue, self.games_to_win, self.points_per_game, self.max_minutes)

    @property
    def layout(self) -> ActaLayout:
        return ActaLayout.for_juegos(len(self.juegos))

    @property
    def shown_notes(self) -> tuple[str, ...]:
        """The notes that fit in the notes' box; the rest are counted in ``more_notes``."""
        return self.notes[: self.layout.notes_fit]

    @property
    def more_notes(self) -> int:
        return max(len(self.notes) - self.layout.notes_fit, 0)


@dataclasses.dataclass(frozen=True)
class ActaLayout:
    """Where each block of the acta sits on the page, in mm from the top of the printable area
    (A4 with 12 mm margins: 186 × 275 mm). Every block is placed, none flows: the frame (lines,
    boxes and labels) is the same on every acta of a tournament and is laid out once per round's
    PDF, and each acta only writes its own text on it (scoring.printing.pdf_of_sheets). Only the
    number of juego boxes moves the blocks below them."""

    columns: int
    juego_width: float
    juegos_top: float
    result_top: float
    notes_top: float
    notes_height: float
    notes_fit: int
    boxes: tuple[tuple[int, float, float], ...]
    """(juego, left, top) of each juego's box."""
    rules: tuple[float, ...]
    """The ruled lines of the notes' box (their tops)."""

    WIDTH = 186.0
    BOTTOM = 262.0  # the notes' box ends here; the foot takes the rest
    BOX = 30.0  # a juego box's height with the gap below it

    @classmethod
    def for_juegos(cls, count: int) -> ActaLayout:
        columns = count if count <= 5 else (count + 1) // 2
        rows = -(-count // columns)
        step = cls.WIDTH / columns
        juegos_top = 93.0
        result_top = juegos_top + rows * cls.BOX + 2
        notes_top = result_top + 38
        height = cls.BOTTOM - (notes_top + 6)
        return cls(
            columns=columns,
            juego_width=round(step - 2.5, 2),
            juegos_top=juegos_top,
            result_top=result_top,
            notes_top=notes_top,
            notes_height=height,
            notes_fit=max(int((height - 6) // 10), 1),
            boxes=tuple(
                (n, round((i % columns) * step, 2), juegos_top + (i // columns) * cls.BOX)
                for i, n in enumerate(range(1, count + 1))
            ),
            rules=tuple(notes_top + 6 + y for y in range(12, int(height), 9)),
        )


def qr_png(url: str) -> str:
    """The address as a QR code (zxing-cpp, error correction M): a PNG data URI of one pixel per
    module with its quiet zone, a few hundred bytes, that the print stylesheet scales to 30 mm
    without smoothing (sharp on paper). About half a millisecond (segno, pure Python, took eight
    times as long: a tenth of a round's printing); WeasyPrint draws an image at no cost, where an
    SVG's path is parsed and drawn for every acta."""
    code = zxingcpp.create_barcode(url, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    image: Any = code.to_image(scale=1, add_quiet_zones=True)  # a buffer of one byte per pixel
    pixels = memoryview(image)
    height, width = cast(tuple[int, int], pixels.shape)
    png = io.BytesIO()
    Image.frombytes("L", (width, height), pixels.tobytes()).save(png, "PNG")
    return "data:image/png;base64," + base64.b64encode(png.getvalue()).decode()


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


def _acta(match: Match, *, url: str, started: datetime.datetime | None, notes: list[str]) -> Acta:
    assert match.pair_a is not None and match.pair_b is not None, "an exenta has no acta"
    return Acta(
        **_terms(match.round.tournament),  # type: ignore[arg-type]
        round_number=match.round.number,
        table=match.table_number,
        pair_a=_pair(match.pair_a),
        pair_b=_pair(match.pair_b),
        clock_started=None if started is None else timezone.localtime(started),
        notes=tuple(notes),
        url=url,
    )


def acta_for(match: Match, *, url: str) -> Acta:
    """The acta of a played partida (``url``: the absolute address of its page, for the QR code)."""
    started = MatchClock.objects.filter(match=match).values_list("started_at", flat=True).first()
    return _acta(match, url=url, started=started, notes=clock_notes(match) + acta.notes(match))


def round_matches(round_: Round) -> list[Match]:
    """The round's partidas that need an acta (never an exenta), by table: one query, and one for
    each side's players (joined: prefetching the players by id builds, on SQLite, an expression
    too deep for a round of 500 tables)."""
    rows = matches_with_players().filter(round=round_, pair_b__isnull=False)
    return list(rows.order_by("table_number", "pool", "slot", "pk"))


def round_actas(round_: Round, *, url_for: Callable[[Match], str]) -> list[Acta]:
    """Every acta of a round, by table (``url_for``: each partida's absolute address), in a fixed
    number of queries: the matches and their players, the clocks, one per source of notes."""
    matches = round_matches(round_)
    started = dict(MatchClock.objects.filter(match__round=round_).values_list("match_id", "started_at"))
    notes = acta.notes_by_match(matches)
    clock = clock_notes_by_match(matches)  # what the clock recorded and decided goes first (AMM 6.1.b, 6.5.b)
    for match_id, lines in clock.items():
        notes[match_id] = lines + notes[match_id]
    return [
        _acta(match, url=url_for(match), started=started.get(match.pk), notes=notes[match.pk]) for match in matches
    ]


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
    )
    return [blank] * count


def acta_frame(actas: Sequence[Acta]) -> tuple[str, dict[str, object]]:
    """The print template of the frame these actas share, and its context (one tournament's actas
    share their terms, hence their frame)."""
    assert len({a.terms for a in actas}) == 1, "actas of one tournament share their frame"
    return "scoring/print/acta_frame.html", {"acta": actas[0]}


def digest(actas: Sequence[Acta]) -> str:
    """A fingerprint of everything printed on these actas: equal digests, equal papers."""
    payload = json.dumps([dataclasses.asdict(a) for a in actas], default=str, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()
