"""The bracket on paper (issue 34, item 6): the page's tree (``BracketView.tree``, drawn ahead to
the final) laid out on A3 landscape or A4 sheets, every box and connector placed in millimetres.

A bracket wider than a sheet holds (more first-round matches than ``Paper.leaves``) is cut: the
first sheet draws the rounds nearest the final, down to the deepest round that fits; each match on
its lowest row that has earlier rounds says «sigue en la hoja N», and that sheet draws it again as
its top with the rounds that feed it — so a 64-pair cuadro is one A3 sheet, and a 1,000-pair one
a few dozen, each readable on the wall on its own.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils.translation import gettext as _

from scoring.selectors.standings import AheadMatch, AheadSeat
from torneo.snapshot import MatchInfo


@dataclasses.dataclass(frozen=True)
class Paper:
    """A sheet size: its CSS ``@page`` size, its drawing area (mm, inside the margins and under
    the titles) and how many boxes a column may stack before the bracket is cut."""

    key: str
    css_size: str
    width: float
    height: float
    leaves: int


MARGIN = 10.0
"""The sheet's margin (mm), the same on every side."""
HEADER = 16.0
"""The titles' band above the drawing (mm)."""
A3_LANDSCAPE = Paper("a3", "A3 landscape", 420 - 2 * MARGIN, 297 - 2 * MARGIN - HEADER, 32)
A4_PORTRAIT = Paper("a4", "A4 portrait", 210 - 2 * MARGIN, 297 - 2 * MARGIN - HEADER, 16)


@dataclasses.dataclass(frozen=True)
class Side:
    number: str
    name: str
    games: str
    state: str  # "won", "lost", "tbd" (a seat still empty: its label says whose), "bye" or ""


@dataclasses.dataclass(frozen=True)
class Box:
    """One match of the bracket on the sheet (mm from the drawing's top left)."""

    x: float
    y: float
    w: float
    h: float
    head: str
    a: Side
    b: Side
    note: str = ""
    link: str = ""  # «→ hoja 3 (B)»: where its earlier rounds go on; «← hoja 1 (B)»: where it came from

    @property
    def sides(self) -> tuple[Side, Side]:
        return (self.a, self.b)


@dataclasses.dataclass(frozen=True)
class Rule:
    """A connector: a horizontal (h == 0) or vertical (w == 0) line, mm."""

    x: float
    y: float
    w: float
    h: float


@dataclasses.dataclass(frozen=True)
class BracketSheet:
    title: str
    section: str
    boxes: tuple[Box, ...]
    rules: tuple[Rule, ...]
    font_pt: float
    caption_pt: float
    number: int = 0
    of: int = 0


def match_head(round_number: int, *, table: int | None = None, pool: str = "", redrawn: bool = False) -> str:
    """A bracket box's caption, on the page and on paper: «R2 · Mesa 5 · A», «R3 · por sortear»."""
    head = _("R%(n)d") % {"n": round_number}
    if table:
        head += " · " + _("Mesa %(t)d") % {"t": table}
    if pool:
        head += f" · {pool}"
    if redrawn:
        head += " · " + _("por sortear")
    return head


def _played_side(m: MatchInfo, side: str) -> Side:
    pair = m.a if side == "a" else m.b
    if pair is None:
        return Side("", _("exenta"), "", "bye")
    games = m.games_a if side == "a" else m.games_b
    state = "won" if m.winner_side == side else ("lost" if m.decided else "")
    return Side(str(pair.number), pair.name, "" if games is None else str(games), state)


def _ahead_side(seat: AheadSeat) -> Side:
    if seat.bye:
        return Side("", _("exenta"), "", "bye")
    if seat.pair is not None:
        return Side(str(seat.pair.number), seat.pair.name, "", "")
    label = _("Ganadora de la mesa %(t)d") % {"t": seat.after_table} if seat.after_table else ""
    return Side("", label, "", "tbd")


def _content(node: dict[str, Any]) -> tuple[str, Side, Side, str]:
    m: MatchInfo | None = node["match"]
    if m is None:
        ahead: AheadMatch = node["ahead"]
        head = match_head(ahead.round_number, pool=ahead.pool, redrawn=ahead.redrawn)
        return head, _ahead_side(ahead.a), _ahead_side(ahead.b), ""
    head = match_head(m.round_number, table=m.table, pool=m.pool)
    return head, _played_side(m, "a"), _played_side(m, "b"), m.outcome_label if m.special else ""


def _levels(root: dict[str, Any], leaves: int) -> list[list[dict[str, Any]]]:
    """The root's rows of matches, nearest the final first, down to the deepest whose boxes (with
    the matches above it that nothing feeds) still fit one column of the sheet."""
    levels = [[root]]
    while True:
        below = [c for n in levels[-1] for c in n["children"]]
        ended = sum(1 for row in levels for n in row if not n["children"])
        if not below or ended + len(below) > leaves:
            return levels
        levels.append(below)


@dataclasses.dataclass
class _Part:
    """A piece of the bracket drawn on one sheet: a match and the rounds below it that fit."""

    root: dict[str, Any]
    levels: list[list[dict[str, Any]]]
    key: str = ""  # the letter joining it to the box it continues («B»), "" for a tree's top
    parent: _Part | None = None
    sheet: int = 0

    @property
    def rows(self) -> int:
        return sum(1 for row in self.levels for n in row if not n["children"] or row is self.levels[-1])


def bracket_sheets(title: str, tree: list[dict[str, Any]], paper: Paper) -> list[BracketSheet]:
    """The sheets of the bracket, numbered «hoja n de m»: the tops of ``tree`` (each pool's
    bracket, an earlier round's leftover) first, then the parts they continue on, as many to a
    sheet as fit one column (``Paper.leaves``). A box whose earlier rounds go on elsewhere and the
    same box drawn again there share a letter: «→ hoja 3 (B)», «← hoja 1 (B)»."""
    parts = [_Part(root, _levels(root, paper.leaves)) for root in tree]
    k = 0
    while k < len(parts):  # breadth first: a sheet's continuations follow every earlier part
        part = parts[k]
        for node in _cut_nodes(part.levels):
            key = _letters(sum(1 for p in parts if p.key) + 1)
            parts.append(_Part(node, _levels(node, paper.leaves), key, part))
        k += 1
    groups: list[list[_Part]] = []
    for part in parts:  # in order, as many to a sheet as fit
        if groups and groups[-1][0].key and part.key and sum(p.rows for p in groups[-1]) + part.rows <= paper.leaves:
            groups[-1].append(part)
        else:
            groups.append([part])
        part.sheet = len(groups)
    sheets = []
    for group in groups:
        sources = sorted({p.parent.sheet for p in group if p.parent is not None})
        section = (_("viene de la hoja %(n)s") % {"n": ", ".join(map(str, sources))}) if sources else ""
        sheets.append(_draw(title, section, group, paper, parts))
    return [dataclasses.replace(s, number=i, of=len(sheets)) for i, s in enumerate(sheets, start=1)]


def _letters(n: int) -> str:
    """1 → A, 26 → Z, 27 → AA: the keys joining a cut box to where it goes on."""
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("A") + r) + out
    return out


PT_PER_MM = 72 / 25.4


def _chars(node: dict[str, Any]) -> int:
    """The longest line a box prints: a side's number, name and games (the caption is smaller)."""
    _head, a, b, _note = _content(node)
    return max(len(s.number) + len(s.name) + len(s.games) + 2 for s in (a, b))


def _cut_nodes(levels: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return [n for n in levels[-1] if n["children"]]


def _draw(title: str, section: str, group: list[_Part], paper: Paper, parts: list[_Part]) -> BracketSheet:
    """One sheet: each part's rows as columns (the earliest round on the left, every part's top
    on the right), each box centred between the boxes that feed it, the lowest boxes evenly
    spaced down the sheet, part below part."""
    going_on = {id(p.root): p for p in parts if p.parent is not None}
    columns = max(len(p.levels) for p in group)
    column_w = min(paper.width / columns, 140.0)
    box_w = column_w * (0.84 if columns > 1 else 1.0)
    centre: dict[tuple[int, int], float] = {}  # (part, match): its row, counted down the sheet
    order: list[tuple[dict[str, Any], int, _Part]] = []
    rows = 0

    def place(node: dict[str, Any], level: int, part: _Part, drawn: set[int]) -> None:
        nonlocal rows
        children = [c for c in node["children"] if id(c) in drawn]
        for child in children:
            place(child, level + 1, part, drawn)
        order.append((node, level, part))
        if children:
            centre[id(part), id(node)] = sum(centre[id(part), id(c)] for c in children) / len(children)
        else:
            centre[id(part), id(node)] = float(rows)
            rows += 1

    for part in group:
        place(part.root, 0, part, {id(n) for row in part.levels[1:] for n in row})
    slot = paper.height / rows
    box_h = min(slot * 0.88, 26.0)
    # As large as a box's three lines allow, and as its longest line fits across it (DejaVu Sans:
    # about 0.65 em a character, digits included); never under 6 pt: a longer name is cut with «…».
    longest = max(_chars(node) for node, _level, _part in order)
    by_height = box_h / 3 * PT_PER_MM * 0.72
    by_width = (box_w - 2.5) * PT_PER_MM / (longest * 0.65)
    font_pt = max(6.0, min(11.0, by_height, by_width))
    caption_pt = max(5.5, min(8.0, by_height * 0.8, font_pt * 0.9))
    boxes: list[Box] = []
    rules: list[Rule] = []
    for node, level, part in order:
        x = (columns - 1 - level) * column_w
        y_mid = (centre[id(part), id(node)] + 0.5) * slot
        head, a, b, note = _content(node)
        link = ""
        if level == 0 and part.parent is not None:
            link = _("← hoja %(n)d (%(k)s)") % {"n": part.parent.sheet, "k": part.key}
        elif level == len(part.levels) - 1 and id(node) in going_on:
            on = going_on[id(node)]
            link = _("→ hoja %(n)d (%(k)s)") % {"n": on.sheet, "k": on.key}
        boxes.append(Box(x, y_mid - box_h / 2, box_w, box_h, head, a, b, note, link))
        children = [c for c in node["children"] if (id(part), id(c)) in centre]
        if children and level < len(part.levels) - 1:
            gap = column_w - box_w
            joint = x - gap / 2
            ys = [(centre[id(part), id(c)] + 0.5) * slot for c in children]
            for y in ys:
                rules.append(Rule(x - gap, y, gap / 2, 0))
            top, bottom = min(*ys, y_mid), max(*ys, y_mid)
            rules.append(Rule(joint, top, 0, bottom - top))
            rules.append(Rule(joint, y_mid, gap / 2, 0))
    return BracketSheet(title, section, tuple(boxes), tuple(rules), round(font_pt, 1), round(caption_pt, 1))
