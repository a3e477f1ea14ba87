"""Recorded hands (manos anotadas) of a match, validated by the mus engine.

A match's recorded juegos (`RecordedGame`) hold their hands in order (`RecordedHand`). Each hand
row keeps the engine's JSON record exactly as validated (`record`, the format of docs/engine.md:
pair A is the pair that is mano in that hand) and which of the match's pairs was mano
(`mano_side`), so the A/B of the record maps to the match's pair_a/pair_b without guessing.

Rows are never edited in place: an edit is a new version of the same hand (same juego and
number, `replaces` the old row), a deletion marks the row; so every id stays valid for the
jueces' rulings (chapter IV) and every record stays as it was typed. The fields under "derived"
are recomputed by scoring.services.hands whenever the juego changes.
"""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from torneo.models import Match

__all__ = ["RecordedGame", "RecordedHand"]


class Side(models.TextChoices):
    """One of the match's two pairs (Match.pair_a / Match.pair_b)."""

    A = "a", _("pareja A de la mesa")
    B = "b", _("pareja B de la mesa")


class RecordedGame(models.Model):
    """One juego of a match, as recorded hand by hand."""

    Side = Side

    match = models.ForeignKey(Match, verbose_name=_("partida"), on_delete=models.CASCADE, related_name="recorded_games")
    number = models.PositiveSmallIntegerField(_("juego n.º"))
    # Which of the match's pairs is mano in the juego's first hand; mano then alternates (AMM 2.8).
    first_mano = models.CharField(_("mano en la primera mano"), max_length=1, choices=Side.choices)
    # The rules the hands are validated with: the tournament's preset and tantos per juego when
    # the juego started (the preset's target replaced by `target`, AMM 1.7.a).
    rule_set = models.CharField(_("reglamento"), max_length=30)
    target = models.PositiveSmallIntegerField(_("tantos por juego"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # Derived (scoring.services.hands): the running tantos after the last counted hand, in the
    # match's frame, and the juego's winner once a pair reaches the target or wins an órdago.
    tantos_a = models.PositiveSmallIntegerField(_("tantos A"), default=0)
    tantos_b = models.PositiveSmallIntegerField(_("tantos B"), default=0)
    winner = models.CharField(_("ganadora"), max_length=1, choices=Side.choices, blank=True)
    won_by_ordago = models.BooleanField(_("ganado a órdago"), default=False)
    # The first hand (number) that stops the count because it has errors; None when none does.
    stopped_at = models.PositiveSmallIntegerField(_("detenido en la mano"), null=True, blank=True)

    class Meta:
        verbose_name = _("juego anotado")
        verbose_name_plural = _("juegos anotados")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_recorded_game_number"),
        ]

    def __str__(self) -> str:
        return _("%(m)s · juego %(n)d") % {"m": self.match, "n": self.number}

    @property
    def is_closed(self) -> bool:
        return bool(self.winner)


class RecordedHand(models.Model):
    """One version of one recorded hand. The current version of a hand has `is_current`."""

    Side = Side

    class RecordedAs(models.TextChoices):
        STAFF = "staff", _("Organización, mesa de control o juez")
        PLAYER = "player", _("Jugador de la partida")

    game = models.ForeignKey(RecordedGame, verbose_name=_("juego"), on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("mano n.º"))
    version = models.PositiveSmallIntegerField(_("versión"), default=1)
    replaces = models.OneToOneField(
        "self",
        verbose_name=_("sustituye a"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
    )
    # False once replaced by a new version or deleted; the row itself is kept.
    is_current = models.BooleanField(default=True)
    mano_side = models.CharField(_("pareja mano"), max_length=1, choices=Side.choices)
    # The engine's recorded hand (docs/engine.md), as validated: A = the mano pair of this hand.
    # "hands" is [] when the cards were not recorded.
    record = models.JSONField(_("mano anotada"))
    has_cards = models.BooleanField(_("con cartas"), default=True)
    # The hand's own findings (scoring.mus.finding_to_json), computed when it was saved.
    findings = models.JSONField(_("observaciones"), default=list, blank=True)
    # No finding of severity "error" among its own findings.
    valid = models.BooleanField(_("válida"), default=False)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recorded_as = models.CharField(max_length=6, choices=RecordedAs.choices, default=RecordedAs.STAFF)
    recorded_at = models.DateTimeField(auto_now_add=True)
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    deleted_at = models.DateTimeField(null=True, blank=True)

    # Derived from the juego's replay (scoring.services.hands): findings about the sequence
    # (score before, mano twice, a hand after the end), whether the hand counts toward the
    # running tantos, and the tantos after it in the match's frame when it does.
    sequence_findings = models.JSONField(default=list, blank=True)
    counted = models.BooleanField(_("contada"), default=False)
    score_a = models.PositiveSmallIntegerField(null=True, blank=True)
    score_b = models.PositiveSmallIntegerField(null=True, blank=True)

    # Not a column: the hands pages' findings with the seat named, set by
    # scoring.selectors.hands.match_hands on the hands it returns (absent elsewhere).
    notes: list[dict[str, Any]]

    class Meta:
        verbose_name = _("mano anotada")
        verbose_name_plural = _("manos anotadas")
        ordering = ["game", "number", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number", "version"], name="unique_recorded_hand_version"),
            models.UniqueConstraint(
                fields=["game", "number"], condition=Q(is_current=True), name="one_current_recorded_hand"
            ),
        ]
        indexes = [models.Index(fields=["game", "is_current", "number"])]

    def __str__(self) -> str:
        return _("%(g)s · mano %(n)d (v%(v)d)") % {"g": self.game, "n": self.number, "v": self.version}

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def all_findings(self) -> list[dict[str, Any]]:
        return [*self.findings, *self.sequence_findings]

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.all_findings if f.get("severity") == "error"]
