"""Incidents and sanctions (AMM chapter V): what a juez, a player or the organizer reported about a
partida (5.3, 5.3.a), and what the juez decided (the ladder of 5.4, or the article's own penalty).

A sanction is never edited: each decision is a version (the pattern of the actas), and undoing one
is a new version, with its reason, that leaves the first superseded — so the record of who decided
what, and why, stays whole."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from scoring.models import ClockJuego, DelayWarning, HandRuling, ResultSubmission
from torneo.models import Match, Pair, Player, Tournament


class Incident(models.Model):
    """Something that happened at a table (or in the venue), cited by the reglamento's article."""

    class Source(models.TextChoices):
        JUEZ = "juez", _("Juez (por iniciativa propia)")  # 5.3.a motu proprio
        PLAYER = "player", _("Jugador")  # 5.3: the players report to the jueces
        ORGANIZER = "organizer", _("Organización")

    class Status(models.TextChoices):
        OPEN = "open", _("Abierta")
        SANCTIONED = "sanctioned", _("Sancionada")
        DISMISSED = "dismissed", _("Archivada sin sanción")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("torneo"), on_delete=models.CASCADE, related_name="incidents"
    )
    match = models.ForeignKey(
        Match, verbose_name=_("partida"), on_delete=models.CASCADE, null=True, blank=True, related_name="incidents"
    )
    pair = models.ForeignKey(
        Pair, verbose_name=_("pareja"), on_delete=models.CASCADE, null=True, blank=True, related_name="incidents"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("jugador"), on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    article = models.CharField(_("artículo"), max_length=12)
    minute = models.FloatField(_("minuto de la partida"), null=True, blank=True)
    # Private: the staff of the tournament read it, the public never does.
    description = models.TextField(_("descripción"), blank=True)
    source = models.CharField(_("origen"), max_length=10, choices=Source.choices)
    # AMM 3.20.c: the juez's ruling on a hand that called for the generic warning of 5.4.
    ruling = models.ForeignKey(
        HandRuling, verbose_name=_("fallo"), null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_at = models.DateTimeField(_("a las"), auto_now_add=True)
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.OPEN)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    resolution = models.TextField(_("resolución"), blank=True)
    # A player's call from the table (issue 32, «llamar al juez»): the juez who answered «voy», and when.
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("atendido por"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    answered_at = models.DateTimeField(_("atendido a las"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("incidencia")
        verbose_name_plural = _("incidencias")
        ordering = ["-reported_at", "-pk"]
        indexes = [models.Index(fields=["tournament", "status"], name="incident_open")]

    def __str__(self) -> str:
        return f"{self.article} · {self.pair or '—'}"


class Sanction(models.Model):
    """A step of AMM 5.4 (or an article's own penalty) given to a pair, one version of it."""

    class Step(models.IntegerChoices):
        APERCIBIMIENTO = 1, _("Apercibimiento")
        JUEGO = 2, _("Pérdida de un juego")
        PARTIDA = 3, _("Pérdida de la partida")
        EXPULSION = 4, _("Expulsión del torneo")

    class Status(models.TextChoices):
        IN_FORCE = "in_force", _("En vigor")
        SUPERSEDED = "superseded", _("Sustituida")
        UNDONE = "undone", _("Anulada")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("torneo"), on_delete=models.CASCADE, related_name="sanctions"
    )
    number = models.PositiveIntegerField(_("número"))
    version = models.PositiveIntegerField(_("versión"), default=1)
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.IN_FORCE)
    incident = models.ForeignKey(
        Incident,
        verbose_name=_("incidencia"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sanctions",
    )
    match = models.ForeignKey(
        Match, verbose_name=_("partida"), on_delete=models.CASCADE, null=True, blank=True, related_name="sanctions"
    )
    pair = models.ForeignKey(Pair, verbose_name=_("pareja"), on_delete=models.CASCADE, related_name="sanctions")
    article = models.CharField(_("artículo"), max_length=12)
    step = models.PositiveSmallIntegerField(_("sanción"), choices=Step.choices)
    proposed = models.PositiveSmallIntegerField(
        _("propuesta por la escala"), choices=Step.choices, null=True, blank=True
    )
    delay = models.BooleanField(_("por retraso"), default=False)  # 6.3: counts for 6.5.b and 6.6
    reason = models.TextField(_("motivo"), blank=True)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    given_at = models.DateTimeField(_("a las"), auto_now_add=True)
    # What it changed, to show it and to take it back: the juego the other pair won on the clock,
    # the delay warning the clock reads (6.5.b, 6.6), the result it set.
    juego = models.ForeignKey(ClockJuego, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # related_name: the clock's notes leave out the warnings a sanction gave (its own note says it).
    warning = models.ForeignKey(
        DelayWarning, null=True, blank=True, on_delete=models.SET_NULL, related_name="sanctions"
    )
    result = models.ForeignKey(ResultSubmission, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    history = HistoricalRecords()  # the organizer's log of changes (torneo/selectors/audit.py)

    class Meta:
        verbose_name = _("sanción")
        verbose_name_plural = _("sanciones")
        ordering = ["number", "version"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number", "version"], name="sanction_version_once"),
        ]
        indexes = [models.Index(fields=["pair", "status"], name="sanction_pair_status")]

    def __str__(self) -> str:
        return f"{self.get_step_display()} · {self.pair} ({self.article})"
