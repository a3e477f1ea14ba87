"""The organizer's announcements to the hall (issue 34): a short text with its time, written and
removed by whoever runs the rounds (Action.DRAWS_MANAGE: the organizer, the mesa de control; the
pages check it) and shown on the projector (torneo/views/projector.py) and the tournament's page.

Each write moves the tournament's shared pages on (``live_bump`` without pairs: no pair's page
changes), so that the projector, which reads its own page again at each turn, shows it at the next
one. The history (django-simple-history) keeps who wrote and who removed each one
(torneo/selectors/audit.py)."""

import unicodedata

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from torneo.errors import TournamentError
from torneo.models import ANNOUNCEMENT_MAX_LENGTH, Announcement, Tournament
from torneo.services.live import live_bump
from torneo.typing import User, signed_in_or_none

# A hall's screen shows them all in turn: a bound keeps a turn short (the staff remove old ones).
MAX_ANNOUNCEMENTS = 30

# The form says the same (torneo/forms/announcements.py).
TEXT_REQUIRED = gettext_lazy("Escribe el texto del aviso.")
TEXT_TOO_LONG = gettext_lazy("El texto del aviso no puede pasar de %(limit_value)d caracteres (tiene %(show_value)d).")
TEXT_INVALID = gettext_lazy("El texto del aviso tiene caracteres no válidos.")


def announcement_text(text: object) -> str:
    """The text as it is kept: one line, its spaces collapsed; a ValidationError on ``text`` (in
    Spanish) when it is empty, too long or has control characters (a NUL byte would be a database
    error, not a message)."""
    if not isinstance(text, str):
        raise ValidationError({"text": TEXT_REQUIRED}, code="required")
    cleaned = " ".join(text.split())
    if not cleaned:
        raise ValidationError({"text": TEXT_REQUIRED}, code="required")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in cleaned):
        raise ValidationError({"text": TEXT_INVALID}, code="invalid")
    if len(cleaned) > ANNOUNCEMENT_MAX_LENGTH:
        raise ValidationError(
            {"text": str(TEXT_TOO_LONG) % {"limit_value": ANNOUNCEMENT_MAX_LENGTH, "show_value": len(cleaned)}},
            code="max_length",
        )
    return cleaned


def announcement_create(*, tournament: Tournament, by: User, text: str) -> Announcement:
    """Publish an announcement now (its time is the server's)."""
    cleaned = announcement_text(text)
    with transaction.atomic():
        if Announcement.objects.filter(tournament=tournament).count() >= MAX_ANNOUNCEMENTS:
            raise TournamentError(
                _("Este torneo ya tiene %(n)d avisos: borra alguno antes de escribir otro.") % {"n": MAX_ANNOUNCEMENTS},
                code="too_many",
            )
        announcement = Announcement(tournament=tournament, text=cleaned, created_by=signed_in_or_none(by))
        announcement._history_user = signed_in_or_none(by)  # type: ignore[attr-defined]
        announcement.save()
        live_bump(tournament_id=tournament.pk, pairs=())
    return announcement


def announcement_delete(*, tournament: Tournament, announcement_id: int, by: User) -> None:
    """Remove one of the tournament's announcements (from the screen and the page; the history
    keeps it)."""
    with transaction.atomic():
        announcement = (
            Announcement.objects.select_for_update().filter(tournament=tournament, pk=announcement_id).first()
        )
        if announcement is None:
            raise TournamentError(_("Ese aviso ya no existe: quizá otra persona lo ha borrado."), code="gone")
        announcement._history_user = signed_in_or_none(by)  # type: ignore[attr-defined]
        announcement.delete()
        live_bump(tournament_id=tournament.pk, pairs=())
