"""Rounds, their public draws (sorteos, AMM 5.5) and their matches (mesas), exentas included.

A match's result *summary* lives here (outcome, juegos, winner), written only by the results
services in `scoring`, which keep every submitted version; the draws read only this summary.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from torneo.models.tournaments import Pair, Session, Tournament


class Round(models.Model):
    class Kind(models.TextChoices):
        DRAW = "draw", _("Sorteo público")
        SCHEDULE = "schedule", _("Jornada de liguilla")
        BRACKET = "bracket", _("Cuadro")

    class Status(models.TextChoices):
        PREPARED = "prepared", _("Preparada")
        PUBLISHED = "published", _("Publicada")

    class Phase(models.TextChoices):
        MAIN = "main", _("Fase principal")
        LIGUILLAS = "groups", _("Liguillas")
        BRACKET = "bracket", _("Cuadro final")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("torneo"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("ronda"))
    session = models.ForeignKey(
        Session, verbose_name=_("jornada"), on_delete=models.SET_NULL, null=True, blank=True, related_name="rounds"
    )
    kind = models.CharField(_("tipo"), max_length=10, choices=Kind.choices)
    phase = models.CharField(_("fase"), max_length=10, choices=Phase.choices, default=Phase.MAIN)
    # AMM 5.8.d: no suplentes in the rondas finales.
    is_final = models.BooleanField(_("ronda final"), default=False)
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.PREPARED)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(_("publicada"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("ronda")
        verbose_name_plural = _("rondas")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")]

    def __str__(self) -> str:
        return _("Ronda %(n)d") % {"n": self.number}

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED


class Draw(models.Model):
    """One public draw of a round (all its pools share the seed). Immutable once published; a
    redraw supersedes it with a new draw that names it and gives the organizer's reason."""

    class Status(models.TextChoices):
        COMMITTED = "committed", _("Compromiso publicado")
        PUBLISHED = "published", _("Publicado")
        SUPERSEDED = "superseded", _("Anulado por un nuevo sorteo")

    round = models.ForeignKey(Round, verbose_name=_("ronda"), on_delete=models.CASCADE, related_name="draws")
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.COMMITTED)
    # The site's secret: shown only after publication, so that anyone can recompute the draw.
    secret = models.CharField(max_length=64, editable=False)
    commitment = models.CharField(_("compromiso (SHA-256)"), max_length=64, editable=False)
    public_value = models.CharField(_("valor público"), max_length=200, blank=True)
    seed = models.CharField(_("semilla"), max_length=64, blank=True)
    # What will be drawn, frozen when the commitment is published: one entry per pool,
    # {"label", "pairs", "history", "byes", "group"} with pair numbers as ids.
    requests = models.JSONField(_("entrada del sorteo"), default=list)
    # The generator's output per pool (the `python -m torneo.draws` output), after publication.
    results = models.JSONField(_("resultado del sorteo"), default=dict, blank=True)
    witness = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("juez presente"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    committed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    committed_at = models.DateTimeField(auto_now_add=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    published_at = models.DateTimeField(null=True, blank=True)
    replaces = models.OneToOneField(
        "self",
        verbose_name=_("sustituye a"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
    )
    reason = models.TextField(_("motivo del nuevo sorteo"), blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("sorteo")
        verbose_name_plural = _("sorteos")
        ordering = ["round", "committed_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round"],
                condition=~Q(status="superseded"),
                name="one_live_draw_per_round",
                violation_error_message=_("La ronda ya tiene un sorteo en curso."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.get_status_display()}"

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED


class Match(models.Model):
    """A mesa of a round: two pairs, or one pair with the exenta (pair_b empty, AMM 5.6)."""

    class Outcome(models.TextChoices):
        PENDING = "pending", _("Pendiente")
        PLAYED = "played", _("Jugada")
        BYE = "bye", _("Exenta")
        WALKOVER = "walkover", _("Incomparecencia")
        RETIRED = "retired", _("Retirada")
        DOUBLE_LOSS = "double_loss", _("Perdida por ambas parejas")
        RULING = "ruling", _("Decidida por el juez")

    round = models.ForeignKey(Round, verbose_name=_("ronda"), on_delete=models.CASCADE, related_name="matches")
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, null=True, blank=True, related_name="matches")
    # "" (one pool), "A"/"B" (repesca), or the liguilla's number.
    pool = models.CharField(_("grupo"), max_length=10, blank=True)
    table_number = models.PositiveSmallIntegerField(_("mesa"), null=True, blank=True)
    # Position in the round's bracket line (fixed brackets: winners of slots 2k and 2k+1 meet).
    slot = models.PositiveSmallIntegerField(null=True, blank=True)
    pair_a = models.ForeignKey(Pair, verbose_name=_("pareja A"), on_delete=models.PROTECT, related_name="+")
    pair_b = models.ForeignKey(
        Pair, verbose_name=_("pareja B"), on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The current result (written by scoring.services.results only).
    outcome = models.CharField(_("resultado"), max_length=12, choices=Outcome.choices, default=Outcome.PENDING)
    games_a = models.PositiveSmallIntegerField(_("juegos A"), null=True, blank=True)
    games_b = models.PositiveSmallIntegerField(_("juegos B"), null=True, blank=True)
    # Sum of the tantos of the juegos, when the acta recorded them (a tiebreak).
    tantos_a = models.PositiveIntegerField(_("tantos A"), null=True, blank=True)
    tantos_b = models.PositiveIntegerField(_("tantos B"), null=True, blank=True)
    winner = models.ForeignKey(
        Pair, verbose_name=_("ganadora"), on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    result_version = models.PositiveIntegerField(default=0)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("partida")
        verbose_name_plural = _("partidas")
        ordering = ["round", "pool", "table_number", "slot", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table_number"], condition=Q(table_number__isnull=False), name="one_match_per_table"
            ),
            models.UniqueConstraint(fields=["round", "pair_a"], name="pair_a_once_per_round"),
            models.UniqueConstraint(
                fields=["round", "pair_b"], condition=Q(pair_b__isnull=False), name="pair_b_once_per_round"
            ),
            models.CheckConstraint(condition=~Q(pair_a=models.F("pair_b")), name="two_different_pairs"),
        ]
        indexes = [models.Index(fields=["round", "outcome"])]

    def __str__(self) -> str:
        if self.pair_b_id is None:
            return _("%(a)s — exenta") % {"a": self.pair_a}
        return f"{self.pair_a} – {self.pair_b}"

    @property
    def is_bye(self) -> bool:
        return self.pair_b_id is None

    @property
    def is_decided(self) -> bool:
        return self.outcome != self.Outcome.PENDING

    def loser_ids(self) -> list[int]:
        """The pairs that lost this match (both in a double loss, AMM 6.5.b; none for an exenta)."""
        if self.outcome == self.Outcome.DOUBLE_LOSS:
            return [self.pair_a_id, self.pair_b_id] if self.pair_b_id else [self.pair_a_id]
        if self.outcome in (self.Outcome.PENDING, self.Outcome.BYE) or self.winner_id is None:
            return []
        return [p for p in (self.pair_a_id, self.pair_b_id) if p is not None and p != self.winner_id]
