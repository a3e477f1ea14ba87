"""What a juez's ruling on a hand brings to the desk (AMM 3.20.c): «siempre conllevará además la
amonestación genérica del art. 5.4». Confirming a ruling that calls for it (the engine's
``sanctions``, by seat) records an incident of 3.20.c linked to the ruling and its apercibimiento
on the ladder; a new ruling on the same hand, or withdrawing it, undoes what the earlier one
recorded. Connected to ``scoring.signals.ruling_changed`` in the app's ``ready``: it runs inside
the ruling's transaction, so both stand or fall together."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from referees.models import Incident, Sanction
from referees.services.sanctions import sanction_give, sanction_undo
from scoring.models import HandRuling
from scoring.models.hands import Side
from torneo.typing import User, signed_in_or_none

MANO_PAIR_SEATS = (0, 2)
"""The engine's seats of the mano pair (scoring.mus.core: mano 0 … postre 3, pair A = 0 and 2)."""


def on_ruling_changed(*, ruling: HandRuling, by: User, withdrawn: bool, **_kwargs: Any) -> None:
    hand = ruling.hand
    earlier = Sanction.objects.filter(
        incident__ruling__hand_id=hand.pk, status=Sanction.Status.IN_FORCE
    ).select_related("tournament")
    for sanction in earlier:
        sanction_undo(
            sanction=sanction,
            by=by,
            reason=_("Fallo de la mano n.º %(n)d retirado o sustituido por otro.") % {"n": hand.number},
        )
    if withdrawn:
        return
    match = hand.game.match
    for item in ruling.ruling.get("sanctions", []):
        seat, article = item.get("seat"), item.get("article", "3.20.c")
        mano_is_a = hand.mano_side == Side.A
        pair = match.pair_a if (seat in MANO_PAIR_SEATS) == mano_is_a else match.pair_b
        if pair is None or pair.status == pair.Status.EXPELLED:
            continue
        words = _("Fallo de la mano n.º %(n)d: meterse en baraja conlleva la amonestación genérica (AMM %(a)s).") % {
            "n": hand.number,
            "a": article,
        }
        incident = Incident.objects.create(
            tournament=match.round.tournament,
            match=match,
            pair=pair,
            article=article,
            description=words,
            source=Incident.Source.JUEZ,
            reported_by=signed_in_or_none(by),
            ruling=ruling,
        )
        sanction_give(
            by=by,
            pair=pair,
            article=article,
            step=Sanction.Step.APERCIBIMIENTO,
            match=match,
            incident=incident,
            reason=words,
        )
