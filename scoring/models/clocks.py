"""Match clocks (AMM chapter VI): the truth is timestamps — when the clock started, its pauses
(3.15), each juego's end, the pairs missing at the start (6.1.b), the delay warnings (6.3) — and
what is due is derived from them by the pure rules (torneo.clock). What has been applied is a
ClockEvent, one row per clock and event key (a unique constraint), so the beat task applies each
penalty once, whatever the workers do."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from torneo.models import Match, Pair

SIDE_CHOICES = [("A", "A"), ("B", "B")]


class MatchClock(models.Model):
    """The clock of one partida (a table of a round). Not started: ``started_at`` is empty."""

    match = models.OneToOneField(Match, verbose_name=_("partida"), on_delete=models.CASCADE, related_name="clock")
    started_at = models.DateTimeField(_("en marcha desde"), null=True, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("puesto en marcha por"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    absent_a = models.BooleanField(_("pareja A incompleta al empezar"), default=False)
    arrived_a_at = models.DateTimeField(_("pareja A completa a las"), null=True, blank=True)
    absent_b = models.BooleanField(_("pareja B incompleta al empezar"), default=False)
    arrived_b_at = models.DateTimeField(_("pareja B completa a las"), null=True, blank=True)
    tantos_a = models.PositiveSmallIntegerField(_("tantos de A en el juego"), null=True, blank=True)
    tantos_b = models.PositiveSmallIntegerField(_("tantos de B en el juego"), null=True, blank=True)
    phase = models.CharField(_("fase"), max_length=12, default="normal")
    finished_at = models.DateTimeField(_("terminada a las"), null=True, blank=True)
    updated_at = models.DateTimeField(_("actualizado"), auto_now=True)

    class Meta:
        verbose_name = _("reloj de partida")
        verbose_name_plural = _("relojes de partida")
        indexes = [models.Index(fields=["finished_at", "started_at"], name="clock_running")]

    def __str__(self) -> str:
        return f"{self.match}"


class ClockPause(models.Model):
    """AMM 3.15: an interruption authorised by the juez; its minutes do not count."""

    clock = models.ForeignKey(MatchClock, on_delete=models.CASCADE, related_name="pauses")
    started_at = models.DateTimeField(_("desde"))
    ended_at = models.DateTimeField(_("hasta"), null=True, blank=True)
    reason = models.CharField(_("motivo"), max_length=200)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["started_at", "pk"]
        constraints = [
            # One pause open at a time per clock.
            models.UniqueConstraint(
                fields=["clock"], condition=models.Q(ended_at__isnull=True), name="clock_one_open_pause"
            )
        ]

    def __str__(self) -> str:
        return f"{self.clock} · {self.reason}"


class ClockJuego(models.Model):
    """A juego won: tapped by the juez or the table when it ends, or adjudicated — a juego lost by
    sanction (AMM 5.4.2), a fact of the partida the juez decided, with its article. The clock's
    «Deshacer último juego» never removes an adjudicated one: only undoing its sanction does."""

    clock = models.ForeignKey(MatchClock, on_delete=models.CASCADE, related_name="juegos")
    number = models.PositiveSmallIntegerField(_("juego"))
    winner = models.CharField(_("ganadora"), max_length=1, choices=SIDE_CHOICES)
    ended_at = models.DateTimeField(_("terminó a las"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    article = models.CharField(
        _("artículo"), max_length=12, blank=True, help_text=_("Vacío: anotado en la mesa. Si no, lo dio el juez.")
    )

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["clock", "number"], name="clock_juego_once")]

    def __str__(self) -> str:
        return f"{self.clock} · juego {self.number}: {self.winner}"

    @property
    def adjudicated(self) -> bool:
        """Given by the juez (a sanction), not won at the table."""
        return bool(self.article)


class JuegoClaim(models.Model):
    """A juego a player taps for their own pair (issue 32, AMM 3.16: each juego is marked in the
    acta as it ends, and the losing pair signs): it counts only when the other pair confirms it, or
    when the mesa or the juez taps it. A tap *against* one's own pair (the losers marking the rivals'
    juego) counts at once and needs no claim. At most one claim waits per clock; once answered it
    stays as the record of who claimed, when, and how it ended."""

    class Outcome(models.TextChoices):
        PENDING = "", _("pendiente de la otra pareja")
        CONFIRMED = "confirmed", _("confirmado")
        WITHDRAWN = "withdrawn", _("retirado por quien lo anotó")
        OVERRULED = "overruled", _("anotado de otro modo por la mesa o el juez")

    clock = models.ForeignKey(MatchClock, on_delete=models.CASCADE, related_name="claims")
    winner = models.CharField(_("pareja que dice haberlo ganado"), max_length=1, choices=SIDE_CHOICES)
    claimed_at = models.DateTimeField(_("anotado a las"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    outcome = models.CharField(_("resultado"), max_length=10, choices=Outcome.choices, default="", blank=True)
    resolved_at = models.DateTimeField(_("respondido a las"), null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    juego = models.ForeignKey(ClockJuego, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("juego anotado por una pareja")
        verbose_name_plural = _("juegos anotados por las parejas")
        ordering = ["claimed_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["clock"], condition=models.Q(resolved_at__isnull=True), name="juego_claim_one_pending"
            )
        ]

    def __str__(self) -> str:
        return f"{self.clock} · {self.winner} ({self.outcome or 'pendiente'})"


class DelayWarning(models.Model):
    """AMM 6.3: a delay warning (apercibimiento por retraso) the juez gave a pair in a partida.
    They decide 6.5.b and, counted over earlier partidas, 6.6."""

    clock = models.ForeignKey(MatchClock, on_delete=models.CASCADE, related_name="warnings")
    pair = models.ForeignKey(Pair, verbose_name=_("pareja"), on_delete=models.CASCADE, related_name="delay_warnings")
    side = models.CharField(max_length=1, choices=SIDE_CHOICES)
    at = models.DateTimeField(_("a las"))
    note = models.CharField(_("nota"), max_length=200, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.clock} · {self.side}"


class ClockEvent(models.Model):
    """Something chapter VI made due and the beat task applied: a juego lost by lateness, the
    partida lost by lateness (6.1.b), a phase (6.4, 6.5.a), the forced end (6.5.b), an alert (6.6).
    ``key`` is unique per clock, so an event is applied exactly once."""

    clock = models.ForeignKey(MatchClock, on_delete=models.CASCADE, related_name="events")
    key = models.CharField(max_length=40)
    article = models.CharField(_("artículo"), max_length=10)
    at = models.DateTimeField(_("a las"))
    minute = models.FloatField(_("minuto"))
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [models.UniqueConstraint(fields=["clock", "key"], name="clock_event_once")]

    def __str__(self) -> str:
        return f"{self.clock} · {self.key}"
