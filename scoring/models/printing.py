"""Printables built in the background (a round's actas, the wall sheets, the standings): one row per
document and version of its data, with its progress and, once done, the PDF itself.

The PDF is kept in the database rather than on a disk: a worker on another host writes it and any
web server reads it, with nothing shared but PostgreSQL. ``digest`` fingerprints everything printed
(scoring.selectors.actas.digest and its siblings): a request for the same document with the same
digest reuses the row (its PDF, or the job still running), so a round's actas are rendered once
until its data change. Rows are never edited but by the job that builds them.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from torneo.models import Tournament

__all__ = ["PrintJob"]


class PrintJob(models.Model):
    class Kind(models.TextChoices):
        ACTAS = "actas", _("Actas de la ronda")
        DRAW_TABLES = "draw_tables", _("Sorteo por mesas")
        DRAW_PLAYERS = "draw_players", _("Sorteo por jugadores")
        STANDINGS = "standings", _("Clasificación")
        CLASSIFICATION = "classification", _("Clasificación final")
        BRACKET_A3 = "bracket_a3", _("Cuadro (A3 apaisado)")
        BRACKET_A4 = "bracket_a4", _("Cuadro (A4)")

    class Status(models.TextChoices):
        QUEUED = "queued", _("En cola")
        RUNNING = "running", _("Preparándose")
        DONE = "done", _("Listo")
        FAILED = "failed", _("Ha fallado")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("torneo"), on_delete=models.CASCADE, related_name="print_jobs"
    )
    kind = models.CharField(_("documento"), max_length=16, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField(_("ronda"), default=0)  # 0: not a round's document
    digest = models.CharField(max_length=64)
    # The site's address (settings.SITE_URL, never a request's Host) when it was asked for: the QR
    # codes' links, which the digest covers.
    base_url = models.CharField(max_length=200)
    status = models.CharField(_("estado"), max_length=8, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    pages = models.PositiveIntegerField(null=True, blank=True)
    pdf = models.BinaryField(null=True, blank=True, editable=False)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("documento para imprimir")
        verbose_name_plural = _("documentos para imprimir")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "kind", "round_number", "digest"], name="one_print_job_per_version"
            ),
        ]

    def __str__(self) -> str:
        label = self.get_kind_display()
        return f"{label} · {self.round_number}" if self.round_number else str(label)

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0
