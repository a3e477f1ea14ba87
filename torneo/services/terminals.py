"""The pairs' private links (issue 32): issue, withdraw and open them (torneo/models/terminals.py).

- **Shape**: an 8-character selector from the player codes' alphabet (finds the row) and a secret
  of 32 characters of ``secrets.token_urlsafe`` (192 bits); the link is
  ``/torneos/<slug>/tarjeta/<selector><secret>/``. Only HMAC-SHA256 of the secret, keyed by the
  site's SECRET_KEY, is stored, compared in constant time (as the accounts' links: a copy of the
  database alone cannot open a pair's terminal).
- **Many uses, one pair, until replaced**: the link opens the pair's terminal on any number of
  phones until the mesa issues a new one or withdraws it, or the tournament ends. Replacing or
  withdrawing it also signs out every phone signed in with it: the terminal account's password
  (unusable, never typed) is drawn again, which changes its session hash, so Django ends those
  sessions at their next request.
- **Per tournament**: a link is looked up among its tournament's pairs only, and a pair that
  withdrew or was removed has no terminal.
- **Nothing for strangers**: a wrong, replaced or withdrawn link gets the same answer, which names
  no pair (the views count it as a failure, as the accounts' links).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from torneo.errors import NotAllowed, TournamentError
from torneo.models import Pair, PairTerminal, PushSubscription, Tournament
from torneo.pagecache import frames_forget
from torneo.people import TERMINAL_USERNAME_PREFIX
from torneo.permissions import Action, can
from torneo.services.accounts import ALPHABET
from torneo.typing import AuthUser, User, signed_in_or_none

SELECTOR_LENGTH = 8
SECRET_BYTES = 24  # 32 characters of token_urlsafe
_HMAC_SALT = "torneo.services.terminals"
CLOSED = (Tournament.Status.FINISHED,)


class InvalidTerminalLink(TournamentError):
    """Every link that does not open a terminal, whatever the reason: the same words."""

    def __init__(self) -> None:
        super().__init__(
            gettext_lazy(
                "Este enlace de pareja no es válido: se ha cambiado por otro, se ha retirado o el torneo ha "
                "terminado. Pide en la mesa de control la tarjeta de tu pareja."
            ),
            code="invalid_link",
        )


@dataclass(frozen=True)
class IssuedTerminal:
    """A link just issued: the only moment its secret is known."""

    terminal: PairTerminal
    token: str


def _hash(tournament_id: int, selector: str, secret: str) -> str:
    return salted_hmac(_HMAC_SALT, f"{tournament_id}:{selector}:{secret}", algorithm="sha256").hexdigest()


def _may_manage(by: User, tournament: Tournament) -> None:
    if not can(by, tournament, Action.CHECK_IN):
        raise NotAllowed(_("Solo la organización y la mesa de control dan las tarjetas de pareja."))


def _terminal_account(pair: Pair) -> AuthUser:
    """A new account for the pair's phones: a username nobody types or sees, no usable password."""
    model = get_user_model()
    account = model(username=f"{TERMINAL_USERNAME_PREFIX}{pair.tournament_id}-{pair.pk}-{secrets.token_hex(6)}")
    account.first_name = str(_("Pareja %(n)s")) % {"n": pair.number}
    account.set_unusable_password()
    account.save()
    return account


def terminal_issue(*, pair: Pair, by: User) -> IssuedTerminal:
    """A new private link for ``pair`` (the organizer or the mesa de control): the previous link,
    if any, stops working and every phone signed in with it is signed out."""
    tournament = pair.tournament
    _may_manage(by, tournament)
    if pair.status in Pair.Status.out():
        raise TournamentError(_("La pareja %(n)s no está en el torneo: no tiene tarjeta.") % {"n": pair.number})
    if tournament.status in CLOSED:
        raise TournamentError(_("El torneo ha terminado: ya no hay tarjetas de pareja."), code="finished")
    with transaction.atomic():
        terminal = PairTerminal.objects.select_for_update().filter(pair=pair).first()
        if terminal is None:
            terminal = PairTerminal(pair=pair, user=_terminal_account(pair))
        else:
            _sign_out_phones(terminal)
        selector = "".join(secrets.choice(ALPHABET) for _ in range(SELECTOR_LENGTH))
        secret = secrets.token_urlsafe(SECRET_BYTES)
        terminal.selector = selector
        terminal.secret_hash = _hash(tournament.pk, selector, secret)
        terminal.issued_at = timezone.now()
        terminal.issued_by = signed_in_or_none(by)
        terminal.issues += 1
        terminal.save()
    return IssuedTerminal(terminal, selector + secret)


def terminals_for_cards(*, tournament: Tournament, by: User, renew: bool = False) -> list[IssuedTerminal]:
    """The links to print on the pairs' tarjetas (a PDF for all pairs, at check-in): a new link for
    every registered pair (not on the waiting list nor out) that has none — or, ``renew``, for every
    one of them, whose old links stop. A link's secret exists only when it is issued, so a card is
    printed at the moment its link is made; a pair whose card is already out keeps it unless
    ``renew``. In pair order."""
    _may_manage(by, tournament)
    pairs = Pair.objects.select_related("tournament").filter(tournament=tournament, status=Pair.Status.CONFIRMED)
    if not renew:
        pairs = pairs.exclude(terminal__selector__gt="")
    return [terminal_issue(pair=pair, by=by) for pair in pairs.order_by("number")]


def terminal_url(tournament: Tournament, token: str) -> str:
    """The link as printed on the tarjeta: the site's configured address, never a request's Host."""
    path = reverse("torneo:pair_terminal", kwargs={"slug": tournament.slug, "token": token})
    return f"{settings.SITE_URL}{path}"


def terminal_revoke(*, pair: Pair, by: User) -> PairTerminal | None:
    """Withdraw the pair's link without a new one (a lost tarjeta before a new one is printed): it
    stops working and its phones are signed out. None when the pair had none."""
    _may_manage(by, pair.tournament)
    with transaction.atomic():
        terminal = PairTerminal.objects.select_for_update().filter(pair=pair).first()
        if terminal is None:
            return None
        _sign_out_phones(terminal)
        terminal.selector = terminal.secret_hash = ""
        terminal.save(update_fields=["selector", "secret_hash"])
    return terminal


def _sign_out_phones(terminal: PairTerminal) -> None:
    """A new unusable password: a new session hash, so every session of the account ends. Its
    phones' push subscriptions go too: a lost tarjeta's phone would otherwise go on receiving the
    pair's table, the results to sign and the juez's answers (the phones of the new link subscribe
    again)."""
    terminal.user.set_unusable_password()
    terminal.user.save(update_fields=["password"])
    PushSubscription.objects.filter(user_id=terminal.user_id).delete()
    user_id = terminal.user_id
    transaction.on_commit(lambda: frames_forget(user_id=user_id))  # its phones' kept page frames too


def terminal_find(*, tournament: Tournament, token: str) -> PairTerminal:
    """The pair terminal ``token`` opens in this tournament; else InvalidTerminalLink."""
    raw = (token or "").strip()
    if not SELECTOR_LENGTH + 20 <= len(raw) <= 100:
        raise InvalidTerminalLink()
    selector, secret = raw[:SELECTOR_LENGTH], raw[SELECTOR_LENGTH:]
    terminal = (
        PairTerminal.objects.select_related("pair", "user")
        .filter(pair__tournament=tournament, selector=selector)
        .exclude(selector="")
        .first()
    )
    given = _hash(tournament.pk, selector, secret)
    # Compared even when no row was found: a wrong selector answers as fast as a wrong secret.
    matches = constant_time_compare(given, terminal.secret_hash if terminal else "0" * 64)
    if terminal is None or not matches or tournament.status in CLOSED or terminal.pair.status in Pair.Status.out():
        raise InvalidTerminalLink()
    return terminal


def terminal_of(user: User, tournament: Tournament) -> PairTerminal | None:
    """The pair terminal this account is, in this tournament (None for anybody else)."""
    if not isinstance(user, AuthUser):
        return None
    return PairTerminal.objects.select_related("pair").filter(user=user, pair__tournament=tournament).first()
