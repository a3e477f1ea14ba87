"""A player's wish to get the tournament's notices by e-mail (issue 33, item 4): an address given
on the pair's own page (its phone or a player's account), with the player's explicit consent,
recorded with its date once the player confirmed the address from the e-mail sent to it (so that
nobody signs up someone else's address). Deleted by the one-click unsubscribe link every e-mail
carries, with the pair, and a day after the tournament's last day or when it is finished
(``email_notices_purge``, hourly on beat; an address never confirmed, after the link's 7 days).

The same tournament's notices as the phones' (torneo/notices.py), in the language the page was in
when the address was given. Personal data (RGPD): the address is used for these notices only."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from torneo.models.tournaments import Pair


class EmailSubscription(models.Model):
    pair = models.ForeignKey(Pair, verbose_name=_("pareja"), on_delete=models.CASCADE, related_name="+")
    email = models.EmailField(_("correo electrónico"))
    language = models.CharField(_("idioma"), max_length=10, default="es")
    asked_at = models.DateTimeField(_("pedido el"), auto_now_add=True)
    # The player's consent: when the address was confirmed from the e-mail (None: not yet, nothing sent).
    consented_at = models.DateTimeField(_("consentimiento el"), null=True, blank=True)

    class Meta:
        verbose_name = _("aviso por correo")
        verbose_name_plural = _("avisos por correo")
        constraints = [models.UniqueConstraint(fields=["pair", "email"], name="email_subscription_once_per_pair")]

    def __str__(self) -> str:
        return f"{self.pair_id} · {self.email}"
