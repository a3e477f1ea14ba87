"""The documents the mesa de control prints, as data: which template, which sheets, and the digest
of everything printed (scoring.services.printing renders each once per digest).

One builder per ``PrintJob.Kind``; each reads its data in a few queries and never renders. A
document with a round (``round_number`` > 0) names a round of the tournament; an unknown round is
a ValidationError naming the field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.models import PrintJob
from scoring.selectors.actas import digest, round_actas
from torneo.models import Match, Round, Tournament


@dataclasses.dataclass(frozen=True)
class Printable:
    template: str
    items: Sequence[Any]
    """The sheets (or rows) the template lays out, in chunks, under ``key``."""
    context: dict[str, Any]
    digest: str
    filename: str
    key: str = "actas"


Builder = Callable[[Tournament, int, str], Printable]


def _round(tournament: Tournament, number: int) -> Round:
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if round_ is None:
        raise ValidationError({"round": _("La ronda %(n)s no existe en este torneo.") % {"n": number}})
    return round_


def round_actas_printable(tournament: Tournament, number: int, base_url: str) -> Printable:
    """All actas of a round, by table (AMM 3.16), each with its QR code to the partida's page."""
    round_ = _round(tournament, number)
    base = base_url.rstrip("/")

    def url_for(match: Match) -> str:
        return base + reverse("scoring:hands_match", kwargs={"slug": tournament.slug, "match_id": match.pk})

    actas = round_actas(round_, url_for=url_for)
    if not actas:
        raise ValidationError({"round": _("La ronda %(n)s no tiene partidas que jugar.") % {"n": number}})
    title = _("Actas · ronda %(n)s") % {"n": number}
    return Printable(
        template="scoring/print/actas.html",
        items=actas,
        context={"title": title},
        digest=digest(actas),
        filename=f"actas-ronda-{number}.pdf",
    )


BUILDERS: dict[str, Builder] = {
    PrintJob.Kind.ACTAS: round_actas_printable,
}
