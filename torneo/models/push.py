"""A browser's Web Push subscription (issue 33): where the site sends a notification for one
account on one device — a player's own account, a pair's terminal account (torneo.PairTerminal) or
a member of the staff. The browser makes it (``PushManager.subscribe`` with the site's VAPID public
key, torneo/push/keys.py) and hands the API its ``endpoint`` (the push service's URL for this
device, a capability: whoever knows it may ask for pushes to it, which the service accepts only
when signed with our key) and its two keys, with which every payload is encrypted for this device
alone (RFC 8291).

It belongs to the device, not to a tournament: not in the tournament's backup (torneo/backup.py).
``tournament`` only says where it was turned on (for the events of that tournament), and is
emptied when that tournament is deleted."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from torneo.models.tournaments import Tournament


class PushSubscription(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("cuenta"),
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
    )
    endpoint = models.URLField(_("dirección del servicio de notificaciones"), max_length=1000, unique=True)
    # The browser's keys, base64url as it gives them: its P-256 public point (65 bytes) and the
    # authentication secret (16 bytes).
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("torneo"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("creada el"), auto_now_add=True)
    last_ok_at = models.DateTimeField(_("último envío entregado"), null=True, blank=True)
    # Failed sends since the last one delivered (a 404/410 from the push service deletes the row).
    failures = models.PositiveIntegerField(_("envíos fallidos"), default=0)

    class Meta:
        verbose_name = _("suscripción a notificaciones")
        verbose_name_plural = _("suscripciones a notificaciones")

    def __str__(self) -> str:
        return f"{self.user} · {self.endpoint[:60]}"

    def subscription_info(self) -> dict[str, object]:
        """The subscription as the browser gave it (what ``pywebpush.webpush`` takes)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
