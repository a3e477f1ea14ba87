"""Accounts without the admin: one-time codes and links, each for one tournament.

- A *player code* (kind ``player``): the mesa de control prints it at check-in for one player of a
  pair; whoever types it on the tournament's claim page gets an account linked to that player.
- An *invitation* (``invite``): the organizer hands over a link; whoever opens it gets the mesa
  de control or juez role in the tournament, with a new account or the one they are signed in with.
- A *password reset* (``reset``): the organizer hands over a link to one of the tournament's own
  staff or players; whoever opens it sets that account's password.

Only a keyed hash of each secret is stored (torneo/services/accounts.py explains the scheme): the
code or link is shown once, when it is made, and can never be read back from the database.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from torneo.models.tournaments import Player, Tournament, TournamentRole


class AccountToken(models.Model):
    """A one-time code or link of one tournament (see the module docstring)."""

    class Kind(models.TextChoices):
        PLAYER = "player", _("Código de jugador")
        INVITATION = "invite", _("Invitación")
        RESET = "reset", _("Nueva contraseña")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("torneo"), on_delete=models.CASCADE, related_name="account_tokens"
    )
    kind = models.CharField(_("tipo"), max_length=10, choices=Kind.choices)
    # The public half of the code or link: finds the row (unique within the tournament).
    selector = models.CharField(max_length=16, editable=False)
    # HMAC-SHA256 of the secret half, keyed by the site's SECRET_KEY (hex).
    secret_hash = models.CharField(max_length=64, editable=False)
    player = models.ForeignKey(
        Player,
        verbose_name=_("jugador"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="account_tokens",
    )
    role = models.CharField(_("función"), max_length=10, choices=TournamentRole.Role.choices, blank=True)
    # Who the organizer meant to invite (a name or an e-mail), for the list of pending invitations.
    label = models.CharField(_("para"), max_length=150, blank=True)
    # A reset's account.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("usuario"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("creado por"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("creado"), auto_now_add=True)
    expires_at = models.DateTimeField(_("caduca"))
    used_at = models.DateTimeField(_("usado"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("usado por"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # Annulled by the organizer, or replaced by a newer code or link for the same player or account.
    revoked_at = models.DateTimeField(_("anulado"), null=True, blank=True)

    class Meta:
        verbose_name = _("código o enlace de cuenta")
        verbose_name_plural = _("códigos y enlaces de cuenta")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["tournament", "kind"])]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "selector"], name="unique_account_token_selector"),
            models.CheckConstraint(
                condition=(
                    Q(kind="player", player__isnull=False)
                    | Q(kind="invite", role__in=["control", "juez"])
                    | Q(kind="reset", user__isnull=False)
                ),
                name="account_token_kind_fields",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.selector} — {self.tournament}"

    @property
    def is_pending(self) -> bool:
        """Not used, not annulled, not expired: it still works."""
        return self.used_at is None and self.revoked_at is None and self.expires_at > timezone.now()

    @property
    def state(self) -> str:
        if self.used_at is not None:
            return str(_("usado"))
        if self.revoked_at is not None:
            return str(_("anulado"))
        if self.expires_at <= timezone.now():
            return str(_("caducado"))
        return str(_("pendiente"))
