"""The organizer's announcements to the hall (issue 34): a short text with its time, shown on the
projector (torneo/views/projector.py) and on the tournament's page until the staff remove it."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from torneo.models.tournaments import Tournament

ANNOUNCEMENT_MAX_LENGTH = 280  # what a screen shows at a glance, and a phone without scrolling


class Announcement(models.Model):
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("torneo"), on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(_("texto"), max_length=ANNOUNCEMENT_MAX_LENGTH)
    created_at = models.DateTimeField(_("hora"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("escrito por"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    history = HistoricalRecords()  # the organizer's log of changes (torneo/selectors/audit.py)

    class Meta:
        verbose_name = _("aviso")
        verbose_name_plural = _("avisos")
        ordering = ["tournament", "-created_at", "-id"]

    def __str__(self) -> str:
        return self.text
