"""Accounts without the admin: players claim theirs with a code from the mesa, staff are invited
with a link, and the organizer hands out password links. Everything is per tournament.

**Players: a one-time code from the mesa de control** (not the registration's DNI and phone: the
mesa has just seen the person at check-in, while a DNI and a phone are known to friends, clubs and
whoever typed the registration, and would turn the claim page into a way to test whether a DNI is
registered). At check-in the mesa opens the pair's *Cuentas* page and prints or shows one code per
player, with a QR of the claim address (``/torneos/<slug>/cuenta/?codigo=…``). The player types
the code (or scans the QR), then chooses a username and a password — or, signed in already, links
the player to the account they use — and from then on ``Player.user`` is that account: the player
role of ``torneo.permissions`` (``is_member_of``, ``member_pairs``) follows from that link, as for
an account the admin linked.

- **Shape**: 12 characters from a 31-letter alphabet without look-alikes (no 0/O, 1/I/L), shown
  as ``ABCD-EFGH-JKMN``; case, spaces and dashes do not matter when typed. The first four are the
  *selector*, which finds the row; the last eight are the *secret* (31⁸ ≈ 8.5·10¹¹, 39.6 bits).
  Both come from ``secrets``.
- **Stored hashed**: only HMAC-SHA256 of the secret, keyed by the site's SECRET_KEY (Django's
  ``salted_hmac``, as its password-reset tokens), is stored, and it is compared in constant time.
  A slow password hash is for secrets people choose; these are random, live a day and allow a
  handful of tries, and a copy of the database alone is not enough to test a guess.
- **Single use, expiring**: a code works once, for 24 hours (``PLAYER_CODE_TTL``); a new code for
  the same player annuls the previous one.
- **Per tournament**: the claim page is the tournament's, and a code is looked up only among that
  tournament's codes: tournament A's code is «not valid» on tournament B's page.
- **Rate-limited** (torneo/views/accounts.py, on torneo/ratelimit.py's failure windows): failed
  attempts per client IP (``account_claim_ip``, 20 an hour) and per code (``account_claim_code``,
  5 an hour for the same tournament and selector), so neither one client nor many clients guessing
  one printed code's secret get anywhere.
- **Nothing for strangers**: a wrong, used, annulled or expired code gets the same answer, which
  names nobody; only a right code shows the player's first name and pair number, to the person
  holding it. The user account copies nothing from the registration (no name, DNI, phone or e-mail:
  those stay the tournament's, DESIGN «Personal data»).
- **Accounts that already exist**: a player already linked to an account that has a password is
  not given a code (the person signs in; a forgotten password is the organizer's reset link). An
  account made for them without a password (e.g. in the admin) gets its password from the code.
  A signed-in user may link only themself, and only to one player per tournament.

**Staff: invitations.** From *Funciones* the organizer invites a mesa de control or a juez: a name
or e-mail and the role give a one-time link (and its QR) to hand over; whoever opens it chooses a
username and password (or uses the account they are signed in with) and gets that role in that
tournament only. Links carry a 40-character token (8-letter selector + 32 characters of
``secrets.token_urlsafe``, 192 bits), stored hashed like the codes, valid for 7 days
(``INVITATION_TTL``), single use; the organizer can annul a pending one. Organizers are not invited
by link (a tournament's organizer grants the role by username, on purpose).

**Password resets by the organizer.** The organizer may make a one-time link (24 hours) that sets
the password of an account that belongs to *their* tournaments only: the account holds a role or a
player record in this tournament, and every tournament where it holds one is organized by them.
Never for superusers or admin staff, for any organizer (of any tournament), for themself (they sign
in and change it), nor for an account also used in someone else's tournament: an organizer could
otherwise take over a mesa, juez or player account of another tournament. That check is made again,
against the link's issuer, when the link is opened and when it is used (the account may have joined
another tournament, or the issuer lost the role, in between), and an account's pending password
links are annulled as soon as it gains a role or a player in any tournament
(``password_resets_revoke``). A new password, set by the person or by a link, revokes the account's
API tokens (``credentials_revoke``).
"""

import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.authtoken.models import Token

from torneo.errors import NotAllowed, TournamentError
from torneo.identity import clean_text
from torneo.models import AccountToken, Pair, PairTerminal, Player, Tournament, TournamentRole
from torneo.permissions import Action, can
from torneo.typing import AuthUser, User, signed_in, signed_in_or_none

Kind = AccountToken.Kind
Role = TournamentRole.Role

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L
CODE_SELECTOR_LENGTH = 4
CODE_SECRET_LENGTH = 8
LINK_SELECTOR_LENGTH = 8
LINK_SECRET_BYTES = 24  # 32 characters of token_urlsafe

PLAYER_CODE_TTL = timedelta(hours=24)
INVITATION_TTL = timedelta(days=7)
RESET_TTL = timedelta(hours=24)
INVITABLE_ROLES = (Role.CONTROL, Role.JUEZ)

_HMAC_SALT = "torneo.services.accounts"


class InvalidCode(TournamentError):
    """Wrong, used, annulled or expired: one answer for all, which names nobody."""

    code = "invalid_code"
    default_message = gettext_lazy(
        "El código no es válido, ya se ha usado o ha caducado. Pide otro en la mesa de control."
    )


class InvalidLink(TournamentError):
    code = "invalid_link"
    http_status = 404
    default_message = gettext_lazy(
        "El enlace no es válido, ya se ha usado o ha caducado. Pide otro a la organización del torneo."
    )


@dataclass(frozen=True)
class Issued:
    """A code or link just made: ``secret`` is what the person types or opens, shown only now."""

    token: AccountToken
    secret: str

    @property
    def code(self) -> str:
        """A player code as printed: ABCD-EFGH-JKMN."""
        return format_code(self.secret)


# --- the codes and links themselves --------------------------------------------------------------


def _random(length: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def _hash(token_kind: str, tournament_id: int, selector: str, secret: str) -> str:
    value = f"{token_kind}:{tournament_id}:{selector}:{secret}"
    return salted_hmac(_HMAC_SALT, value, algorithm="sha256").hexdigest()


def format_code(code: str) -> str:
    """'ABCDEFGHJKMN' -> 'ABCD-EFGH-JKMN'."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def normalize_code(text: str) -> str:
    """What a person typed, as the code it means: full-width forms folded, upper case, without
    spaces, dashes or dots."""
    folded = unicodedata.normalize("NFKC", text or "").upper()
    return "".join(c for c in folded if c.isascii() and c.isalnum())


def _split(token_kind: str, raw: str) -> tuple[str, str] | None:
    """(selector, secret) of a typed code or a link's token; None when it cannot be one."""
    if token_kind == Kind.PLAYER:
        code = normalize_code(raw)
        if len(code) != CODE_SELECTOR_LENGTH + CODE_SECRET_LENGTH or any(c not in ALPHABET for c in code):
            return None
        return code[:CODE_SELECTOR_LENGTH], code[CODE_SELECTOR_LENGTH:]
    raw = (raw or "").strip()
    if len(raw) < LINK_SELECTOR_LENGTH + 20 or len(raw) > 100:
        return None
    return raw[:LINK_SELECTOR_LENGTH], raw[LINK_SELECTOR_LENGTH:]


def code_selector(raw: str) -> str | None:
    """The selector of a typed player code (for the per-code rate limit), if it has the shape."""
    parts = _split(Kind.PLAYER, raw)
    return parts[0] if parts else None


def _issue(*, tournament: Tournament, token_kind: str, by: User, ttl: timedelta, **fields: object) -> Issued:
    """A new token with a selector unique in the tournament (a clash is retried)."""
    for _attempt in range(20):
        if token_kind == Kind.PLAYER:
            selector, secret = _random(CODE_SELECTOR_LENGTH), _random(CODE_SECRET_LENGTH)
        else:
            selector, secret = _random(LINK_SELECTOR_LENGTH), secrets.token_urlsafe(LINK_SECRET_BYTES)
        if AccountToken.objects.filter(tournament=tournament, selector=selector).exists():
            continue
        try:
            with transaction.atomic():
                token = AccountToken.objects.create(
                    tournament=tournament,
                    kind=token_kind,
                    selector=selector,
                    secret_hash=_hash(token_kind, tournament.pk, selector, secret),
                    created_by=signed_in_or_none(by),
                    expires_at=timezone.now() + ttl,
                    **fields,
                )
        except IntegrityError:  # the same selector, made at the same moment
            continue
        return Issued(token, selector + secret)
    raise TournamentError(_("No se ha podido generar el código; vuelve a intentarlo."))


def _find(*, tournament: Tournament, token_kind: str, raw: str, lock: bool = False) -> AccountToken:
    """The pending token that ``raw`` is, in this tournament; else InvalidCode / InvalidLink."""
    error = InvalidCode if token_kind == Kind.PLAYER else InvalidLink
    parts = _split(token_kind, raw)
    if parts is None:
        raise error()
    selector, secret = parts
    qs = AccountToken.objects.filter(tournament=tournament, kind=token_kind, selector=selector)
    if lock:
        qs = qs.select_for_update(of=("self",))  # PostgreSQL locks no outer-joined row
    token = qs.select_related("player", "user", "created_by").first()
    given = _hash(token_kind, tournament.pk, selector, secret)
    # Compared even when no row was found, so that a wrong selector answers as fast as a wrong secret.
    matches = constant_time_compare(given, token.secret_hash if token else "0" * 64)
    if token is None or not matches or not token.is_pending:
        raise error()
    return token


def _use(token: AccountToken, account: AuthUser) -> None:
    token.used_at = timezone.now()
    token.used_by = account
    token.save(update_fields=["used_at", "used_by"])


def _revoke_pending(qs: "QuerySet[AccountToken]") -> int:
    return qs.filter(used_at__isnull=True, revoked_at__isnull=True).update(revoked_at=timezone.now())


def token_revoke(*, token: AccountToken) -> AccountToken:
    """Annul a code or link that has not been used (idempotent)."""
    if token.used_at is None and token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


# --- accounts ------------------------------------------------------------------------------------


def account_is_claimable(user: AuthUser, tournament: Tournament) -> bool:
    """An account made for someone who has never had a password, that nothing else relies on: not a
    superuser or admin staff, with no role in any tournament and no player record in another one.
    Its password may come from this tournament's player code."""
    return (
        not user.has_usable_password()
        and not user.is_superuser
        and not user.is_staff
        and not TournamentRole.objects.filter(user=user).exists()
        and not Player.objects.filter(user=user).exclude(tournament=tournament).exists()
    )


def _check_password(password: str, user: AuthUser) -> None:
    try:
        password_validation.validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from exc


def _create_account(username: str, password: str) -> AuthUser:
    """A new account with this username and password (checked here too: forms are not the only way in)."""
    username = (username or "").strip()
    if not username:
        raise ValidationError({"username": _("Elige un nombre de usuario.")})
    try:
        AuthUser.username_validator(username)
    except ValidationError as exc:
        raise ValidationError({"username": exc.messages}) from exc
    if AuthUser.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": _("Ya existe un usuario con ese nombre. Elige otro.")})
    account = AuthUser(username=username)
    _check_password(password, account)
    account.set_password(password)
    try:
        with transaction.atomic():
            account.save()
    except IntegrityError:
        raise ValidationError({"username": _("Ya existe un usuario con ese nombre. Elige otro.")}) from None
    return account


# --- players: codes from the mesa ----------------------------------------------------------------


@dataclass(frozen=True)
class PlayerAccount:
    """A player of a pair as the Cuentas page shows them: their account, and whether a code helps."""

    position: int
    player: Player
    state: str  # "none": no account; "claimable": an account without password; "linked"

    @property
    def needs_code(self) -> bool:
        return self.state != "linked"


def pair_accounts(pair: Pair) -> list[PlayerAccount]:
    """The pair's players in seat order, with the state of their account."""
    result = []
    for member in pair.members.select_related("player__user").order_by("position"):
        user = member.player.user
        claimable = user is not None and account_is_claimable(user, pair.tournament)
        state = "none" if user is None else ("claimable" if claimable else "linked")
        result.append(PlayerAccount(member.position, member.player, state))
    return result


def player_codes_issue(*, pair: Pair, by: User, positions: Sequence[int] | None = None) -> list[tuple[Player, Issued]]:
    """One new code for each player of the pair (or those in ``positions``) who has no account
    to sign in with; each annuls the player's previous codes. The caller shows them once."""
    tournament = pair.tournament
    if not can(by, tournament, Action.CHECK_IN):
        raise NotAllowed()
    if not tournament.is_visible_to_public:
        raise TournamentError(_("Los códigos de cuenta se dan cuando el torneo ya es público (no en borrador)."))
    if pair.is_out:
        raise TournamentError(_("Esta pareja ya no está en el torneo."))
    issued = []
    with transaction.atomic():
        for entry in pair_accounts(pair):
            if (positions is not None and entry.position not in positions) or not entry.needs_code:
                continue
            _revoke_pending(AccountToken.objects.filter(kind=Kind.PLAYER, player=entry.player))
            token = _issue(
                tournament=tournament, token_kind=Kind.PLAYER, by=by, ttl=PLAYER_CODE_TTL, player=entry.player
            )
            issued.append((entry.player, token))
    if not issued:
        raise TournamentError(_("Los jugadores de esta pareja ya tienen cuenta: que entren con su usuario."))
    return issued


def _not_a_pair_phone(user: AuthUser) -> None:
    """A pair's terminal account (its tarjeta's phones, torneo/services/terminals.py) never becomes
    a player's or a member of the staff's: every phone holding that pair's tarjeta would become
    them (issue 32: the link does only that pair's actions)."""
    if PairTerminal.objects.filter(user_id=user.pk).exists():
        raise NotAllowed(
            _(
                "Este móvil es el de una pareja (entró con su tarjeta): sal («Salir») y entra con tu propia "
                "cuenta, o crea una, para usar este enlace o este código."
            )
        )


def player_code_verify(*, tournament: Tournament, code: str) -> AccountToken:
    """The pending player code typed on this tournament's claim page; else InvalidCode."""
    return _find(tournament=tournament, token_kind=Kind.PLAYER, raw=code)


def player_code_claim(
    *, tournament: Tournament, token_id: int, user: User, username: str = "", password: str = ""
) -> AuthUser:
    """Use a verified code (``token_id``, from ``player_code_verify``): link its player to the
    signed-in ``user``; or, for someone not signed in, to a new account (``username`` and
    ``password``), or to the player's account without password, which gets ``password``."""
    with transaction.atomic():
        token = (
            AccountToken.objects.select_for_update()
            .filter(pk=token_id, tournament=tournament, kind=Kind.PLAYER)
            .first()
        )
        if token is None or not token.is_pending or token.player_id is None:
            raise InvalidCode()
        player = Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=token.player_id)
        account: AuthUser
        if isinstance(user, AuthUser):
            _not_a_pair_phone(user)
            if player.user_id not in (None, user.pk):
                raise TournamentError(
                    _("Este jugador ya tiene otra cuenta. Entra con ella, o pide ayuda a la organización.")
                )
            if Player.objects.filter(tournament=tournament, user=user).exclude(pk=player.pk).exists():
                raise TournamentError(_("Tu cuenta ya es la de otro jugador de este torneo."))
            account = user
        elif player.user is not None:
            if not account_is_claimable(player.user, tournament):
                raise TournamentError(_("Este jugador ya tiene cuenta: entra con tu usuario y tu contraseña."))
            account = player.user
            _check_password(password, account)
            account.set_password(password)
            account.save(update_fields=["password"])
        else:
            account = _create_account(username, password)
        if player.user_id != account.pk:
            player.user = account
            player.save(update_fields=["user"])
            password_resets_revoke(account=account)
        _use(token, account)
        _revoke_pending(AccountToken.objects.filter(kind=Kind.PLAYER, player=player))
    return account


# --- staff: invitations --------------------------------------------------------------------------


def invitation_create(*, tournament: Tournament, by: User, role: str, label: str) -> Issued:
    """A one-time link that gives ``role`` (mesa de control or juez) in this tournament."""
    if not can(by, tournament, Action.ROLES_MANAGE):
        raise NotAllowed()
    if role not in INVITABLE_ROLES:
        raise ValidationError({"role": _("Solo se invita a la mesa de control o a un juez.")})
    label = clean_text(label)[:150]
    if not label:
        raise ValidationError({"label": _("Escribe el nombre o el correo de la persona invitada.")})
    return _issue(tournament=tournament, token_kind=Kind.INVITATION, by=by, ttl=INVITATION_TTL, role=role, label=label)


def invitation_find(*, tournament: Tournament, token: str) -> AccountToken:
    return _find(tournament=tournament, token_kind=Kind.INVITATION, raw=token)


def invitation_accept(
    *, tournament: Tournament, token: str, user: User, username: str = "", password: str = ""
) -> AuthUser:
    """Use an invitation: its role, in its tournament, for the signed-in ``user`` or a new account."""
    with transaction.atomic():
        invitation = _find(tournament=tournament, token_kind=Kind.INVITATION, raw=token, lock=True)
        if isinstance(user, AuthUser):
            _not_a_pair_phone(user)
        account = user if isinstance(user, AuthUser) else _create_account(username, password)
        _role, created = TournamentRole.objects.get_or_create(tournament=tournament, user=account, role=invitation.role)
        if created:
            password_resets_revoke(account=account)
        _use(invitation, account)
    return account


def invitations_of(tournament: Tournament) -> "QuerySet[AccountToken]":
    """The tournament's invitations, newest first, with who made and who used them."""
    return AccountToken.objects.filter(tournament=tournament, kind=Kind.INVITATION).select_related(
        "created_by", "used_by"
    )


# --- password resets by the organizer ------------------------------------------------------------


def _tournaments_of(account: AuthUser) -> set[int]:
    roles = TournamentRole.objects.filter(user=account).values_list("tournament_id", flat=True)
    players = Player.objects.filter(user=account).values_list("tournament_id", flat=True)
    return set(roles) | set(players)


def _resettable_at_all(account: AuthUser) -> bool:
    return (
        account.is_active
        and not account.is_superuser
        and not account.is_staff
        and not TournamentRole.objects.filter(user=account, role=Role.ORGANIZER).exists()
    )


def password_reset_allowed(*, by: User, tournament: Tournament, account: AuthUser) -> bool:
    """The organizer ``by`` may hand out a password link for ``account`` (module docstring)."""
    if not can(by, tournament, Action.ROLES_MANAGE) or account.pk == by.pk or not _resettable_at_all(account):
        return False
    theirs = _tournaments_of(account)
    if tournament.pk not in theirs:
        return False
    if by.is_superuser:
        return True
    organized = set(
        TournamentRole.objects.filter(user=signed_in(by), role=Role.ORGANIZER, tournament_id__in=theirs).values_list(
            "tournament_id", flat=True
        )
    )
    return theirs <= organized


def password_reset_create(*, tournament: Tournament, by: User, account: AuthUser) -> Issued:
    """A one-time link (24 hours) that sets ``account``'s password; annuls its previous ones here."""
    if not password_reset_allowed(by=by, tournament=tournament, account=account):
        raise NotAllowed(_("Solo puedes dar enlaces de contraseña a cuentas que son solo de tus torneos."))
    with transaction.atomic():
        _revoke_pending(AccountToken.objects.filter(tournament=tournament, kind=Kind.RESET, user=account))
        return _issue(tournament=tournament, token_kind=Kind.RESET, by=by, ttl=RESET_TTL, user=account)


def _still_allowed(reset: AccountToken, tournament: Tournament) -> bool:
    """The check made when the link was issued, made again against its issuer as things are now:
    since then the account may have joined someone else's tournament or become an organizer, and
    the issuer may have lost the role (or their account). Any of these and the link does not work."""
    issuer, account = reset.created_by, reset.user
    if issuer is None or account is None:
        return False
    return password_reset_allowed(by=issuer, tournament=tournament, account=account)


def password_reset_find(*, tournament: Tournament, token: str) -> AccountToken:
    reset = _find(tournament=tournament, token_kind=Kind.RESET, raw=token)
    if not _still_allowed(reset, tournament):
        raise InvalidLink()
    return reset


def password_reset_use(*, tournament: Tournament, token: str, password: str) -> AuthUser:
    """Set the link's account's password; every pending password link of that account is annulled."""
    with transaction.atomic():
        reset = _find(tournament=tournament, token_kind=Kind.RESET, raw=token, lock=True)
        account = reset.user
        if account is None or not _still_allowed(reset, tournament):
            raise InvalidLink()
        _check_password(password, account)
        account.set_password(password)
        account.save(update_fields=["password"])
        _use(reset, account)
        password_resets_revoke(account=account)
        credentials_revoke(account=account)
    return account


def password_resets_revoke(*, account: AuthUser) -> int:
    """Annul every pending password link of ``account``. Called whenever the account gains a role or
    a player in a tournament: a link was allowed for the account as it was when it was issued, and
    the organizer who issued it may no longer be the only one the account answers to. The use-time check
    (``_still_allowed``) also refuses such a link; annulling it keeps the list honest and covers
    the window between the two. The organizer makes a new one if it is still theirs to make."""
    return _revoke_pending(AccountToken.objects.filter(kind=Kind.RESET, user=account))


def credentials_revoke(*, account: AuthUser) -> None:
    """After a new password (changed by the person, or set with the organizer's link): the account's
    API tokens stop working, so whoever held the old password cannot keep using the API with a
    token made with it. Its browser sessions need nothing here: Django keeps a hash of the password
    in each session and signs out every session whose hash no longer matches (the view that changed
    the password keeps its own with ``update_session_auth_hash``)."""
    Token.objects.filter(user=account).delete()


@dataclass(frozen=True)
class StaffAccount:
    account: AuthUser
    roles: list[str]
    can_reset: bool


def staff_accounts(*, tournament: Tournament, by: User) -> list[StaffAccount]:
    """The tournament's staff accounts, with their roles here and whether ``by`` may reset them."""
    by_user: dict[int, StaffAccount] = {}
    roles = TournamentRole.objects.filter(tournament=tournament).select_related("user").order_by("user__username")
    for role in roles:
        entry = by_user.get(role.user_id)
        if entry is None:
            entry = by_user[role.user_id] = StaffAccount(
                role.user, [], password_reset_allowed(by=by, tournament=tournament, account=role.user)
            )
        entry.roles.append(role.get_role_display())
    return list(by_user.values())


def account_in_tournament(*, tournament: Tournament, user_id: int) -> AuthUser | None:
    """The account ``user_id`` if it holds a role or a player record in this tournament."""
    return (
        AuthUser.objects.filter(pk=user_id)
        .filter(Q(tournament_roles__tournament=tournament) | Q(players__tournament=tournament))
        .distinct()
        .first()
    )
