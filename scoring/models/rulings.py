"""The juez's rulings on recorded hands (AMM chapter IV): what the engine answered, from which
facts, who confirmed it and when.

A ruling belongs to one version of one hand: a correction of the hand (a new version) leaves the
ruling with the version it judged, and the new version counts as the engine counts it until a
juez rules again. Rows are never edited: a new ruling on the same hand replaces the current one
(``is_current``), withdrawing one marks it; the history stays for the acta and the jueces.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.models.hands import RecordedHand, Side

__all__ = ["HandRuling"]


class HandRuling(models.Model):
    """A confirmed ruling on a recorded hand; with ``is_current`` it is what the hand counts."""

    hand = models.ForeignKey(RecordedHand, verbose_name=_("mano"), on_delete=models.CASCADE, related_name="rulings")
    # The juez's facts as the engine reads them (scoring/mus/rulings_io.py: rectifications,
    # declined_by_error, senas, into_deck, wrong_cards, mano_repetida, rival_showed_cards, obligadas).
    facts = models.JSONField(_("hechos"), default=dict, blank=True)
    # The engine's answer, as the ruling command prints it (errors, events, score, articles…).
    ruling = models.JSONField(_("fallo"))
    articles = models.JSONField(_("artículos"), default=list)
    # The tantos after the hand in the match's frame, and the juego's winner if the hand ends it.
    score_a = models.PositiveSmallIntegerField()
    score_b = models.PositiveSmallIntegerField()
    winner = models.CharField(_("ganadora del juego"), max_length=1, choices=Side.choices, blank=True)
    won_by_ordago = models.BooleanField(default=False)
    ruled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    ruled_at = models.DateTimeField(_("confirmado el"), auto_now_add=True)
    is_current = models.BooleanField(default=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords()  # the organizer's log of changes (torneo/selectors/audit.py)

    class Meta:
        verbose_name = _("fallo del juez")
        verbose_name_plural = _("fallos del juez")
        ordering = ["hand", "-ruled_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["hand"], condition=Q(is_current=True), name="one_current_hand_ruling"),
        ]

    def __str__(self) -> str:
        return _("Fallo sobre %(h)s") % {"h": self.hand}

    @property
    def explanation(self) -> list[str]:
        return list(self.ruling.get("explanation", []))
