"""Suplentes (AMM 5.8): a person who replaces a pair's player in a partida, authorised by a juez.

One row per partida: a suplente for three partidas is three rows. The suplente's data are personal
data of this tournament (RGPD): the staff see the document; the public sees the name."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from torneo.models import Match, Pair, Player, Tournament


class Substitution(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Autorizada")
        CANCELLED = "cancelled", _("Anulada")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("torneo"), on_delete=models.CASCADE, related_name="substitutions"
    )
    match = models.ForeignKey(Match, verbose_name=_("partida"), on_delete=models.CASCADE, related_name="substitutions")
    pair = models.ForeignKey(Pair, verbose_name=_("pareja"), on_delete=models.CASCADE, related_name="substitutions")
    replaced = models.ForeignKey(Player, verbose_name=_("sustituye a"), on_delete=models.CASCADE, related_name="+")
    first_name = models.CharField(_("nombre del suplente"), max_length=100)
    last_name = models.CharField(_("apellidos del suplente"), max_length=150)
    id_document = models.CharField(_("documento del suplente"), max_length=20, blank=True)
    # The registrations' identity rule (torneo.identity.identity_key): 5.8.c compares it.
    identity = models.CharField(max_length=300, editable=False)
    force_majeure = models.BooleanField(_("fuerza mayor"), default=False)
    reason = models.TextField(_("motivo"), blank=True)
    status = models.CharField(_("estado"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    authorised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    authorised_at = models.DateTimeField(_("autorizada a las"), auto_now_add=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cancelled_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("suplencia")
        verbose_name_plural = _("suplencias")
        ordering = ["match__round__number", "match__table_number", "pk"]
        constraints = [
            # One active suplente per player replaced and partida.
            models.UniqueConstraint(
                fields=["match", "replaced"],
                condition=models.Q(status="active"),
                name="substitution_one_per_place",
            )
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name} → {self.replaced}"

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"
