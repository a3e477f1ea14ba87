"""Reads for the juez's rulings on recorded hands (AMM chapter IV): a hand's rulings, the acta's
notes of a partida's rulings, and the hands a juez still has to rule on.

Every function here runs a fixed number of queries whatever the tournament's size.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.models import HandRuling, RecordedHand
from torneo.models import Match
from torneo.people import JUEZ, public_name

# The findings that call for a juez's ruling: false declarations (AMM 4.1a) and what the engine
# finds of the betting that only a false declaration explains (AMM 3.8).
RULING_CODES = frozenset({"declaracion_falsa", "envite_sin_jugada", "envite_sin_contrario"})


def hand_rulings(hand: RecordedHand) -> QuerySet[HandRuling]:
    """Every ruling on this version of the hand, the current one first, then the newest."""
    return hand.rulings.select_related("ruled_by", "withdrawn_by").order_by("-is_current", "-ruled_at", "-pk")


def current_ruling(hand: RecordedHand) -> HandRuling | None:
    return hand.rulings.select_related("ruled_by").filter(is_current=True).first()


def _who(ruling: HandRuling) -> str:
    return public_name(ruling.ruled_by, fallback=JUEZ)  # never the username (torneo.people)


def ruling_notes(matches: Sequence[Match]) -> dict[int, list[str]]:
    """The acta's notes of each partida's rulings in force, by match id (scoring.acta's source,
    one query): juego, mano, articles, the tantos after the hand, who and when («el juez … hará
    constar en el acta», AMM 5.4.1's way for rulings)."""
    rulings = (
        HandRuling.objects.filter(is_current=True, hand__is_current=True, hand__game__match__in=[m.pk for m in matches])
        .select_related("hand__game", "ruled_by")
        .order_by("hand__game__number", "hand__number")
    )
    notes: dict[int, list[str]] = {}
    for ruling in rulings:
        when = date_format(timezone.localtime(ruling.ruled_at), "SHORT_DATETIME_FORMAT")
        notes.setdefault(ruling.hand.game.match_id, []).append(
            _(
                "Fallo del juez en el juego %(g)d, mano %(n)d (AMM %(articles)s): %(a)d-%(b)d tras la mano; "
                "%(who)s, %(when)s."
            )
            % {
                "g": ruling.hand.game.number,
                "n": ruling.hand.number,
                "articles": ", ".join(ruling.articles) or "—",
                "a": ruling.score_a,
                "b": ruling.score_b,
                "who": _who(ruling) or _("juez"),
                "when": when,
            }
        )
    return notes


def needs_ruling(hand: RecordedHand) -> bool:
    """A current hand with cards whose findings call for a juez (``RULING_CODES``)."""
    return hand.has_cards and any(f.get("code") in RULING_CODES for f in hand.findings)


@dataclasses.dataclass(frozen=True)
class AwaitingRuling:
    """A hand the juez has to rule on, and the first finding that calls for it (its message)."""

    hand: RecordedHand
    reason: str

    @property
    def match(self) -> Match:
        return self.hand.game.match


def hands_awaiting_ruling(matches: Sequence[Match]) -> list[AwaitingRuling]:
    """The current hands of these matches that call for a ruling and have none in force, by table,
    juego and hand (for the juez's desk)."""
    ruled = HandRuling.objects.filter(hand=OuterRef("pk"), is_current=True)
    candidates = (
        RecordedHand.objects.filter(game__match__in=list(matches), is_current=True, has_cards=True, valid=False)
        .annotate(ruled=Exists(ruled))
        .filter(ruled=False)
        .select_related("game__match")
        .order_by("game__match__table_number", "game__number", "number")
    )
    return [
        AwaitingRuling(hand, next(f["message"] for f in hand.findings if f.get("code") in RULING_CODES))
        for hand in candidates
        if needs_ruling(hand)
    ]
