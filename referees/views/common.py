"""Helpers the juez's pages share: the round asked for, the partida at a table, the articles'
titles, and the rows of incidents as the lists show them."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from referees.models import Incident, Sanction
from referees.selectors.sanctions import (
    articles,
)
from scoring.selectors.hands import matches_with_players
from torneo.models import Match, Round, Tournament
from torneo.numbers import parse_int


def _round(rounds: list[Round], number: object) -> Round | None:
    """The published round ``number`` names (404 if none), or the latest."""
    if number in (None, ""):
        return rounds[-1] if rounds else None
    value = parse_int(number)
    found = next((r for r in rounds if r.number == value), None) if value is not None else None
    if found is None:
        raise Http404
    return found


def table_names(round_: Round | None) -> dict[str, dict[str, Any]]:
    """The round's tables as the juez's forms name them (issue 30: nobody sanctions the wrong
    table): table number -> each pair's number and name, and its players by seat. Read by
    static/js/referees-tables.js, which writes them on the pair and player choices as the table is
    typed. Two queries (the matches, their players)."""
    if round_ is None:
        return {}
    names: dict[str, dict[str, Any]] = {}
    rows = matches_with_players().filter(round=round_, pair_b__isnull=False, table_number__isnull=False)
    for match in rows:
        entry: dict[str, Any] = {}
        for side, pair in (("A", match.pair_a), ("B", match.pair_b)):
            assert pair is not None
            entry[side] = {
                "pair": f"{pair.number} · {pair.display_name}",
                "players": [m.player.full_name for m in pair.ordered_members()],
            }
        names[str(match.table_number)] = entry
    return names


def _match_at(round_: Round | None, table: int | None) -> Match | None:
    if round_ is None or table is None:
        return None
    return (
        Match.objects.filter(round=round_, table_number=table)
        .select_related("round__tournament", "pair_a", "pair_b")
        .first()
    )


def _titles(tournament: Tournament) -> dict[str, str]:
    """Each article's title, translated once per page."""
    return {a.code: _(a.title) for a in articles(tournament)}


@dataclasses.dataclass
class Row:
    """An incident as the lists show it."""

    incident: Incident
    title: str

    @property
    def versions(self) -> list[Sanction]:
        return sorted(self.incident.sanctions.all(), key=lambda s: (s.number, s.version))


def _rows(rows: Any, tournament: Tournament) -> list[Row]:
    titles = _titles(tournament)
    return [Row(i, titles.get(i.article, i.article)) for i in rows]
