"""A circuit (issue 35): a season of tournaments whose final places give points (its table) toward
a ranking of pairs and of players and the qualifiers for its final («Máster»).

A tournament joins a circuit only by a user who manages the circuit and organizes the tournament
(circuits.services): an organizer consents to their tournament being ranked. The ranking reads
each tournament's published final classification; nothing personal is kept here."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from torneo.models import Tournament

POINTS_TABLE_MAX = 128
"""Places a points table may list (the places past it give 0)."""


class Circuit(models.Model):
    name = models.CharField(_("nombre"), max_length=200)
    slug = models.SlugField(_("identificador en la dirección"), max_length=80, unique=True)
    season = models.CharField(_("temporada"), max_length=40, help_text=_("Por ejemplo, 2026-2027."))
    description = models.TextField(_("descripción"), blank=True)
    points_table = models.JSONField(
        _("puntos por puesto"),
        default=list,
        help_text=_("Los puntos del 1.º, del 2.º…, de mayor a menor; los puestos que no figuran no dan puntos."),
    )
    best_of = models.PositiveSmallIntegerField(
        _("resultados que cuentan"),
        null=True,
        blank=True,
        help_text=_("Los N mejores resultados de cada pareja o jugador. Vacío: todos."),
    )
    final_spots = models.PositiveSmallIntegerField(
        _("plazas para la final"),
        default=0,
        help_text=_("Cuántas parejas de la clasificación van a la final del circuito. 0: no hay final."),
    )
    managers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("gestores"), related_name="managed_circuits", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(excluded_fields=["updated_at"])

    class Meta:
        verbose_name = _("circuito")
        verbose_name_plural = _("circuitos")
        ordering = ["-season", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.season})"

    def get_absolute_url(self) -> str:
        return reverse("circuits:detail", args=[self.slug])


class CircuitTournament(models.Model):
    """A tournament of a circuit: its final classification gives the circuit's points."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="entries")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="circuit_entries")
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("torneo del circuito")
        verbose_name_plural = _("torneos del circuito")
        ordering = ["tournament__start_date", "tournament__name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["circuit", "tournament"], name="one_entry_per_circuit_and_tournament")
        ]

    def __str__(self) -> str:
        return f"{self.circuit} · {self.tournament}"


class PlayerRating(models.Model):
    """A person's rating (circuits.rating) after every partida played in a circuit's tournaments,
    recomputed from scratch (circuits.ratings): ``person`` is the identity the rankings use — «u:12»
    for a user account, «p:34» for a registration not linked to one."""

    person = models.CharField(max_length=24, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    player = models.ForeignKey("torneo.Player", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating de jugador")
        verbose_name_plural = _("ratings de jugadores")

    def __str__(self) -> str:
        return f"{self.person} {self.ordinal:.1f}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class PersonLink(models.Model):
    """Two registrations of one person in two tournaments, joined by an organizer of both with the
    person's consent (RGPD), which is recorded here: how it was given. Without a link (or the same
    account on both), two registrations are two people, whatever their names."""

    player_a = models.ForeignKey("torneo.Player", on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey("torneo.Player", on_delete=models.CASCADE, related_name="+")
    consent = models.TextField(_("consentimiento"), help_text=_("Cómo y cuándo lo consintió la persona."))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("misma persona")
        verbose_name_plural = _("mismas personas")
        constraints = [
            models.UniqueConstraint(fields=["player_a", "player_b"], name="one_link_per_two_registrations"),
            models.CheckConstraint(condition=~models.Q(player_a=models.F("player_b")), name="link_two_registrations"),
        ]

    def __str__(self) -> str:
        return f"{self.player_a_id} = {self.player_b_id}"
