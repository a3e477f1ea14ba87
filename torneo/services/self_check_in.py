"""Self check-in with the venue's code (issue 32, item 5): a pair confirms its presence from its own
phone (its tarjeta's terminal or a player's account) by typing — or scanning from the projector — a
code that only someone in the room can read.

- **The code** changes every ``CODE_SECONDS`` (5 minutes): six characters of the player codes'
  alphabet, an HMAC of the tournament and the five-minute window keyed by the site's SECRET_KEY, so
  nothing is stored and every web process computes the same one. The code of the previous window is
  still accepted (someone who read it a moment before it changed); a photo sent home is useless ten
  minutes later.
- **When**: from ``OPENS_BEFORE`` (two hours) before the first jornada starts — at any time when the
  tournament has no jornada — until round 1 is drawn; after that the mesa checks a pair in (its
  one-tap check-in stays, always).
- **Guessing**: failures are limited per account (``self_check_in``, 10 an hour), on the same
  shared windows as the logins (torneo/ratelimit.py).
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from torneo.errors import NotAllowed, TournamentError
from torneo.models import Pair, Round, Tournament
from torneo.services.accounts import ALPHABET, normalize_code
from torneo.services.registrations import pair_check_in
from torneo.typing import AuthUser, User

CODE_SECONDS = 300
CODE_LENGTH = 6
OPENS_BEFORE = datetime.timedelta(hours=2)
_HMAC_SALT = "torneo.services.self_check_in"


def _window(at: datetime.datetime) -> int:
    return int(at.timestamp()) // CODE_SECONDS


def _code_for(tournament: Tournament, window: int) -> str:
    digest = salted_hmac(_HMAC_SALT, f"{tournament.pk}:{window}", algorithm="sha256").digest()
    return "".join(ALPHABET[b % len(ALPHABET)] for b in digest[:CODE_LENGTH])


def venue_code(tournament: Tournament, *, at: datetime.datetime | None = None) -> str:
    """The code the projector shows now."""
    return _code_for(tournament, _window(at or timezone.now()))


def code_changes_at(*, at: datetime.datetime | None = None) -> datetime.datetime:
    """When the projector's code changes next."""
    now = at or timezone.now()
    return datetime.datetime.fromtimestamp((_window(now) + 1) * CODE_SECONDS, tz=datetime.UTC)


def venue_code_valid(tournament: Tournament, code: str, *, at: datetime.datetime | None = None) -> bool:
    """The code of this window or of the previous one (compared in constant time, both always)."""
    typed = normalize_code(code)
    window = _window(at or timezone.now())
    results = [constant_time_compare(typed, _code_for(tournament, w)) for w in (window, window - 1)]
    return len(typed) == CODE_LENGTH and any(results)


def self_check_in_refusal(tournament: Tournament, *, at: datetime.datetime | None = None) -> str | None:
    """Why pairs cannot check themselves in now; None when they can."""
    now = at or timezone.now()
    if tournament.status == Tournament.Status.FINISHED:
        return _("El torneo ha terminado.")
    first_round = Round.objects.filter(tournament=tournament, number=1).values_list("status", flat=True).first()
    if first_round == Round.Status.PUBLISHED:
        return _("La primera ronda ya está sorteada: confirmad la presencia en la mesa de control.")
    if first_round == Round.Status.PREPARED:
        # Its commitment names the pairs to draw (AMM 5.5): a pair checked in now would make the
        # draw's publication fail, and the mesa prepare it again in front of the room.
        return _(
            "El sorteo de la primera ronda ya está preparado con las parejas presentes: confirmad la presencia en "
            "la mesa de control."
        )
    first = tournament.sessions.order_by("starts_at").first()
    if first is not None and now < first.starts_at - OPENS_BEFORE:
        opens = timezone.localtime(first.starts_at - OPENS_BEFORE)
        return _("La confirmación de presencia se abre a las %(t)s del %(d)s.") % {
            "t": opens.strftime("%H:%M"),
            "d": opens.strftime("%d/%m"),
        }
    return None


def pair_self_check_in(*, tournament: Tournament, by: User, code: str, at: datetime.datetime | None = None) -> Pair:
    """Check in the pair of ``by`` (its terminal or one of its players) with the venue's code."""
    if not isinstance(by, AuthUser):
        raise NotAllowed(_("Entra con la tarjeta de tu pareja o con tu cuenta de jugador."))
    pair = (
        Pair.objects.select_related("tournament")
        .filter(tournament=tournament)
        .filter(pk__in=_own_pairs(by, tournament))
        .first()
    )
    if pair is None:
        raise NotAllowed(_("Solo las parejas del torneo confirman aquí su presencia."))
    if (refusal := self_check_in_refusal(tournament, at=at)) is not None:
        raise TournamentError(refusal, code="closed")
    if not venue_code_valid(tournament, code, at=at):
        raise TournamentError(
            _("Ese no es el código de la sala: escribe el que muestra ahora la pantalla (cambia cada 5 minutos)."),
            code="code",
        )
    with transaction.atomic():
        # Asked again under the tournament row's lock, which round_prepare holds while it writes the
        # commitment: a check-in that waited for it finds round 1 prepared and is refused, not written
        # after the commitment (its publication would then fail as stale, AMM 5.5).
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        if (refusal := self_check_in_refusal(tournament, at=at)) is not None:
            raise TournamentError(refusal, code="closed")
        return pair_check_in(pair=pair)


def _own_pairs(user: AuthUser, tournament: Tournament) -> list[int]:
    return list(
        Pair.objects.filter(Q(members__player__user=user) | Q(terminal__user=user), tournament=tournament)
        .values_list("pk", flat=True)
        .distinct()
    )
