"""The answers to API writes sent with an ``Idempotency-Key`` (issue 33): a phone that queued a
write offline, or lost the answer on a bad connection, sends it again with the same key and gets
the first answer back, with nothing written twice (torneo/idempotency.py)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class IdempotentRequest(models.Model):
    """One key of one account: the request it named (method, path and a hash of the body) and, once
    answered, the answer. ``status`` is 0 while the first request is still being answered."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(_("clave"), max_length=100)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=500)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(default=0)
    content_type = models.CharField(max_length=100, blank=True)
    body = models.BinaryField(default=b"")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("petición idempotente")
        verbose_name_plural = _("peticiones idempotentes")
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key} {self.method} {self.path} → {self.status or '…'}"
