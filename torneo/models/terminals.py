"""A pair's private link (issue 32, Tabbycat's private URLs): the pair's phones are its terminal
without anybody making an account.

The mesa prints the pair's *tarjeta* at check-in with a QR of the link; whoever opens it signs that
phone in as the pair's terminal account (``user``: no password, never typed, named «Pareja N» where
people read it), for as long as the tournament lasts. Several phones per pair are fine: each opens
the same link. A new link for the pair (``terminal_issue``) or its withdrawal (``terminal_revoke``)
stops the old link at once and signs out every phone that used it (the account's session hash
changes). The player role (torneo.permissions: ``member_pairs``, ``own_pair_numbers``) follows
from ``user`` as it does from a player's own account.

Only a keyed hash of the link's secret is stored (torneo/services/terminals.py)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from torneo.models.tournaments import Pair


class PairTerminal(models.Model):
    pair = models.OneToOneField(Pair, verbose_name=_("pareja"), on_delete=models.CASCADE, related_name="terminal")
    # The account the pair's phones are signed in as (no password; never typed).
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, verbose_name=_("cuenta"), on_delete=models.CASCADE, related_name="pair_terminal"
    )
    # The link's public half (finds the row) and the keyed hash of its secret half; empty: withdrawn.
    selector = models.CharField(max_length=16, blank=True, db_index=True, editable=False)
    secret_hash = models.CharField(max_length=64, blank=True, editable=False)
    issued_at = models.DateTimeField(_("emitido el"), null=True, blank=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("emitido por"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # How many links the pair has had: the tarjeta says which one it carries.
    issues = models.PositiveIntegerField(_("enlaces emitidos"), default=0)

    class Meta:
        verbose_name = _("terminal de pareja")
        verbose_name_plural = _("terminales de pareja")

    def __str__(self) -> str:
        return str(_("Terminal de la pareja %(n)s")) % {"n": self.pair.number}

    @property
    def is_active(self) -> bool:
        return bool(self.selector)
