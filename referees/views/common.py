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
from torneo.models import Match, Round, Tournament


def _round(rounds: list[Round], number: object) -> Round | None:
    """The published round ``number`` names (404 if none), or the latest."""
    text = str(number or "")
    if not text:
        return rounds[-1] if rounds else None
    if not (text.isascii() and text.isdigit()):
        raise Http404
    found = next((r for r in rounds if r.number == int(text)), None)
    if found is None:
        raise Http404
    return found


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
