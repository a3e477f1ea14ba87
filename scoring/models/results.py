"""Results: every submitted acta kept as a version (the Tabbycat pattern); the match's current
result is the latest confirmed version, copied onto the Match summary by scoring.services.results."""

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from torneo.models import Match, Pair


class ResultSubmission(models.Model):
    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Pendiente de confirmar")
        CONFIRMED = "confirmed", _("Confirmado")
        REJECTED = "rejected", _("Rechazado")
        SUPERSEDED = "superseded", _("Sustituido")
        # Double check (AMM 3.16): two people entered different actas; neither counts until the
        # organizer or a juez decides (scoring.services.results.result_resolve).
        DISPUTED = "disputed", _("En desacuerdo")
        # AMM 3.18: after the next draw nothing of a result changes; the organizer may add a note
        # to its history (scoring.services.results.result_note), which counts for nothing.
        NOTE = "note", _("Nota")

    class Source(models.TextChoices):
        CONTROL = "control", _("Mesa de control")
        PLAYER = "player", _("Jugador")
        JUEZ = "juez", _("Juez")
        API = "api", _("API")
        HANDS = "hands", _("Manos anotadas")
        RESOLUTION = "resolution", _("Decisión de un desacuerdo")
        # What the table's clock decided (AMM 6.1.b lateness, 6.5.b forced end, juegos tapped): a
        # rule's result counts at once; juegos tapped to the end are a proposal that the mesa, a
        # juez or the losing pair confirms.
        CLOCK = "clock", _("Reloj de la partida")
        NOTE = "note", _("Nota de la organización")

    match = models.ForeignKey(Match, verbose_name=_("partida"), on_delete=models.CASCADE, related_name="submissions")
    version = models.PositiveIntegerField(_("versión"))
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices)
    source = models.CharField(_("origen"), max_length=10, choices=Source.choices, default=Source.CONTROL)
    outcome = models.CharField(_("resultado"), max_length=12, choices=Match.Outcome.choices)
    games_a = models.PositiveSmallIntegerField(_("juegos A"), null=True, blank=True)
    games_b = models.PositiveSmallIntegerField(_("juegos B"), null=True, blank=True)
    # Tantos of each juego, [[a, b], ...], when the acta has them.
    tantos = models.JSONField(_("tantos por juego"), default=list, blank=True)
    winner = models.ForeignKey(
        Pair, verbose_name=_("ganadora"), on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reason = models.TextField(_("motivo"), blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # Who rejected a proposal, and when: its own submitter withdrawing it, or the rival pair (or the
    # staff) refusing to sign it (AMM 3.16) — the mesa's desk marks the table for the latter.
    rejected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("rechazado por"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    rejected_at = models.DateTimeField(_("rechazado a las"), null=True, blank=True)

    history = HistoricalRecords()

    # Not a column: the match seen from the pair, set by scoring.selectors.players.pair_page on the
    # results awaiting the pair's confirmation (absent elsewhere).
    # (a scoring.selectors.players.MatchLine; typed Any: a model never imports the selectors above it).
    line: Any

    class Meta:
        verbose_name = _("acta entregada")
        verbose_name_plural = _("actas entregadas")
        ordering = ["match", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="unique_submission_version"),
        ]

    def __str__(self) -> str:
        return f"{self.match} v{self.version} ({self.get_status_display()})"
