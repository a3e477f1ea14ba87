"""Rate limits: password guessing on the login form and the API token, and bulk public registration.

One home per rule, for the pages and the API alike. Each rule is a DRF throttle (DRF's sliding
window, its rate syntax and its 429 + `Retry-After` answer in the API); the pages ask the same
classes and answer 429 with the site's own page (templates/429.html).

- `login_ip` and `login_username`: *failed* logins per client IP and per username tried. Every
  `authenticate()` that fails with a request (the login form, the admin's login, the API token)
  records one through Django's `user_login_failed` signal; while a window is full, the next
  attempt is refused before the password is even checked, the right one too: a lockout that
  lasts until the oldest failure of the window ages out. A successful login counts nothing.
- `login_device`: a browser that signed in as a user before is that user's *known device*
  (OWASP's device cookies, https://owasp.org/www-community/Slow_Down_Online_Guessing_Attacks_with_Device_Cookies).
  Every sign-in (`user_logged_in`) gives the browser a signed cookie, DEVICE_COOKIE: the account's
  pk and a random nonce, for a year, HttpOnly, SameSite=Lax, Secure over HTTPS; one cookie holds
  the last DEVICE_COOKIE_ACCOUNTS accounts of a shared browser (the mesa's tablet). An attempt for
  that account from that browser is limited by that device's own window of failures only, never
  by the username's or the IP's: strangers who know a username (staff usernames were once public)
  can slow down strangers, not lock the owner's devices out. Once the device's window is full
  (a stolen cookie guessing; 10 failures a day unless the rates set `login_device`), it is a
  stranger again until its failures age out.
- `registration`: public registrations per client IP, whatever the tournament. Every POST
  counts (valid or not). The tournament's staff (any role in *that* tournament) are never
  limited: the mesa de control's own pages and endpoints have no limit at all.

The rates live in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (settings, from the environment), read
on every request. The windows live in the "ratelimit" cache, which all the web server's workers
must share (settings.py: a file-system cache under var/, or Redis). The client is REMOTE_ADDR;
X-Forwarded-For only counts behind as many trusted proxies as REST_FRAMEWORK["NUM_PROXIES"] says.
An IPv6 client is its /64 network (one machine usually holds a whole /64).
"""

import hashlib
import ipaddress
import math
import secrets
import time
import unicodedata
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core import signing
from django.core.cache import BaseCache, caches
from django.core.exceptions import ImproperlyConfigured
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy, ngettext
from rest_framework import exceptions
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from torneo.models import Tournament
from torneo.permissions import roles_for

CACHE_ALIAS = "ratelimit"

DEVICE_COOKIE = "torneo_dispositivo"
DEVICE_COOKIE_SALT = "torneo.ratelimit.device"
DEVICE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60  # seconds: a year
DEVICE_COOKIE_ACCOUNTS = 5  # the accounts one browser is a known device of (the latest sign-ins)
_SIGNED_IN = "_torneo_signed_in"  # on the request: the pk of the user who signed in during it

LOGIN_REFUSED = gettext_lazy("Demasiados intentos fallidos de entrar con este usuario o desde esta conexión.")
REGISTRATION_REFUSED = gettext_lazy(
    "Demasiadas inscripciones desde esta conexión. Si tu club inscribe muchas parejas, "
    "pide a la mesa de control del torneo que las dé de alta."
)


def client_ip(request: Any) -> str:
    """REMOTE_ADDR, or the address the NUM_PROXIES-th trusted proxy saw (never a spoofable header
    by default). IPv6 addresses count by their /64 network."""
    remote = request.META.get("REMOTE_ADDR") or ""
    proxies = api_settings.NUM_PROXIES or 0  # DRF's None would trust any X-Forwarded-For
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",")]
        remote = hops[-min(proxies, len(hops))]
    try:
        address = ipaddress.ip_address(remote)
    except ValueError:
        return remote[:64] or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class RateThrottle(SimpleRateThrottle):
    """DRF's throttle on the shared "ratelimit" cache, with the rate read when it is used."""

    cache_format = "throttle:%(scope)s:%(ident)s"

    @property
    def cache(self) -> BaseCache:  # type: ignore[override]
        return caches[CACHE_ALIAS]

    def get_rate(self) -> str | None:
        rates = api_settings.DEFAULT_THROTTLE_RATES  # not the class attribute: settings may change
        if self.scope not in rates:
            raise ImproperlyConfigured(f"REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'] has no rate for {self.scope!r}")
        return rates[self.scope] or None

    def get_ident(self, request: Any) -> str:
        return client_ip(request)

    def key_of(self, ident: str) -> str:
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request: Any, view: Any) -> bool:
        return self.allow_key(self.get_cache_key(request, view))

    def allow_key(self, key: str | None) -> bool:
        """DRF's sliding window (`SimpleRateThrottle.allow_request`) for a key given here."""
        if self.rate is None or key is None:
            return True
        self.key, self.now = key, self.timer()
        self.history = self._recent(key)
        if len(self.history) >= self.num_requests:
            return self.throttle_failure()
        return self.throttle_success()

    def _recent(self, key: str) -> list[float]:
        return [t for t in self.cache.get(key, []) if t > self.now - self.duration]

    def wait(self) -> float:
        """Seconds until the window has room again: the lockout's real end, not DRF's average."""
        if len(self.history) < self.num_requests:
            return 0.0
        return max(1.0, self.history[self.num_requests - 1] + self.duration - self.now)

    def refusal(self, key: str | None) -> float | None:
        """None when allowed (and counted, for counting rules); else the seconds to wait."""
        return None if self.allow_key(key) else self.wait()


class FailureThrottle(RateThrottle):
    """A request only checks the window; what fills it is `record`, called on each failure."""

    def throttle_success(self) -> bool:
        return True

    def record(self, key: str) -> None:
        if self.rate is None:
            return
        self.now = self.timer()
        history = [self.now, *self._recent(key)]
        self.cache.set(key, history[: self.num_requests], self.duration)  # all that `wait` needs


class DefaultRateThrottle(FailureThrottle):
    """A failure window whose rate REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] may set, with a default
    here (a site whose settings predate the rule still limits)."""

    default_rate = ""

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope, self.default_rate) or None


class LoginIPThrottle(FailureThrottle):
    scope = "login_ip"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if known_device(request, _posted_username(request)):
            return None
        return self.key_of(self.get_ident(request))


class LoginUsernameThrottle(FailureThrottle):
    scope = "login_username"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        username = _posted_username(request)
        return None if known_device(request, username) else self.key_for(username)

    def key_for(self, username: str) -> str | None:
        """Case, spacing and Unicode forms of a name share one window (hashed: any text is a key)."""
        username = unicodedata.normalize("NFKC", username).strip().casefold()
        return self.key_of(_digest(username)) if username else None


class LoginDeviceThrottle(DefaultRateThrottle):
    """Failed logins from one known device (one account's entry in a browser's device cookie)."""

    scope = "login_device"
    default_rate = "10/day"

    def key_for(self, nonce: str) -> str:
        return self.key_of(_digest(nonce))


class RegistrationThrottle(RateThrottle):
    """Public registrations per client IP; `view` is the API view (it knows its tournament)."""

    scope = "registration"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.key_for(request, view.get_tournament()) if request.method == "POST" else None

    def key_for(self, request: Any, tournament: Tournament) -> str | None:
        if request.method != "POST" or registration_exempt(request.user, tournament):
            return None
        return self.key_of(self.get_ident(request))


def registration_exempt(user: User | AnonymousUser, tournament: Tournament) -> bool:
    """The tournament's staff register as many pairs as they need."""
    return bool(roles_for(user, tournament))


def _posted_username(request: Any) -> str:
    data = getattr(request, "data", None)  # a DRF request: JSON or form
    if not isinstance(data, Mapping):
        data = request.POST
    value = data.get(get_user_model().USERNAME_FIELD)
    return value if isinstance(value, str) else ""


@receiver(user_login_failed, dispatch_uid="torneo.ratelimit.login_failed")
def _login_failed(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    if request is None:  # a script or the shell: no client to limit
        return
    by_ip = LoginIPThrottle()
    by_ip.record(by_ip.key_of(by_ip.get_ident(request)))
    username = credentials.get(get_user_model().USERNAME_FIELD)
    username = username if isinstance(username, str) else ""
    by_name = LoginUsernameThrottle()
    if device := known_device(request, username):
        LoginDeviceThrottle().record(device)  # the owner's typo, or a stolen cookie guessing
    elif key := by_name.key_for(username):
        by_name.record(key)


# --- Known devices: the signed cookie of a browser that signed in before ----------------------------


def _device_entries(request: Any) -> list[tuple[str, str, int]]:
    """(user pk, nonce, issued at) of each account this browser's device cookie vouches for; [] for
    no cookie, a forged or expired one, or anything else."""
    raw = request.COOKIES.get(DEVICE_COOKIE)
    if not raw:
        return []
    try:
        data = signing.loads(raw, salt=DEVICE_COOKIE_SALT, max_age=DEVICE_COOKIE_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired too
        return []
    oldest = time.time() - DEVICE_COOKIE_MAX_AGE
    entries = []
    for item in data if isinstance(data, list) else []:
        if isinstance(item, list) and len(item) == 3:
            pk, nonce, issued = item
            if isinstance(pk, str) and isinstance(nonce, str) and isinstance(issued, int) and issued > oldest:
                entries.append((pk, nonce, issued))
    return entries


def known_device(request: Any, username: str) -> str | None:
    """The device window's key when this browser signed in as `username` before and has not failed
    too often since; None: a stranger for this username (no cookie, another account's, forged)."""
    entries = _device_entries(request)
    username = unicodedata.normalize("NFKC", username)  # as the login form's UsernameField
    if not entries or not username:
        return None
    model = get_user_model()
    pk = model._default_manager.filter(**{model.USERNAME_FIELD: username}).values_list("pk", flat=True).first()
    nonce = next((n for p, n, _issued in entries if pk is not None and p == str(pk)), None)
    if nonce is None:
        return None
    throttle = LoginDeviceThrottle()
    key = throttle.key_for(nonce)
    return key if throttle.allow_key(key) else None


@receiver(user_logged_in, dispatch_uid="torneo.ratelimit.logged_in")
def _logged_in(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    if request is not None and user is not None:
        setattr(request, _SIGNED_IN, str(user.pk))  # DeviceCookieMiddleware puts the cookie on the answer


class DeviceCookieMiddleware:
    """Gives the browser that signed in during a request its device cookie (wherever it signed in:
    the login forms, a claimed player code, an accepted invitation)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (pk := getattr(request, _SIGNED_IN, None)) is not None:
            remember_device(request, response, pk)
        return response


def remember_device(request: HttpRequest, response: HttpResponse, pk: str) -> None:
    """This browser becomes a known device of account `pk`: a new nonce (a fresh window of
    failures), ahead of the other accounts it already knew."""
    entries = [entry for entry in _device_entries(request) if entry[0] != pk]
    entries.insert(0, (pk, secrets.token_urlsafe(16), int(time.time())))
    value = signing.dumps([list(entry) for entry in entries[:DEVICE_COOKIE_ACCOUNTS]], salt=DEVICE_COOKIE_SALT)
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=DEVICE_COOKIE_MAX_AGE,
        secure=request.is_secure() or settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


# --- The API: throttle classes for the views, and the refusal's message ---------------------------


class ThrottleMessage:
    """A view mixin: a Spanish 429 message (DRF adds «Se espera que esté disponible en N segundos»)."""

    throttle_message: Any = None  # None: DRF's own

    def throttled(self, request: Any, wait: float | None) -> None:
        raise exceptions.Throttled(wait=wait, detail=str(self.throttle_message) if self.throttle_message else None)


LOGIN_THROTTLES = [LoginIPThrottle, LoginUsernameThrottle]  # the API token endpoint's


# --- Failed links and codes at a venue: per browser, with a ceiling per address --------------------
#
# At a venue every phone reaches the site from the same address (the venue's Wi-Fi, its NAT): a limit
# per address would let twenty stale cards or mistyped codes lock every phone of the room out for an
# hour. So such failures are counted per browser (a random cookie of its own, BROWSER_COOKIE, set by
# the pages that count them), and per address only under a ceiling a room never reaches, which also
# bounds a client that drops the cookie to start again. What is guessed is long (a tarjeta's link:
# 26 random characters; a player's code: 39.6 bits, one use, a day, 5 tries an hour for each printed
# code): the limits are against hammering, not guessing.

BROWSER_COOKIE = "torneo_navegador"


class BrowserFailureThrottle(DefaultRateThrottle):
    """Failures of one browser (its BROWSER_COOKIE); none counted for a browser without it."""

    default_rate = "20/hour"

    def key_for(self, request: HttpRequest) -> str | None:
        browser = request.COOKIES.get(BROWSER_COOKIE, "")
        return self.key_of(browser) if 16 <= len(browser) <= 64 and browser.isalnum() else None


class AddressFailureThrottle(DefaultRateThrottle):
    """Failures from one client address: the ceiling (600 an hour by default)."""

    default_rate = "600/hour"

    def key_for(self, request: HttpRequest) -> str | None:
        return self.key_of(self.get_ident(request))


Windows = list[tuple[FailureThrottle, str | None]]  # each failure window with this request's key in it


def venue_windows(
    request: HttpRequest, browser: type[BrowserFailureThrottle], address: type[AddressFailureThrottle]
) -> Windows:
    """This browser's window of failures and its address's."""
    return [(throttle, throttle.key_for(request)) for throttle in (browser(), address())]


def windows_refusal(windows: Windows) -> float | None:
    """Seconds before a request counted in ``windows`` may try again; None: now."""
    waits = [throttle.refusal(key) for throttle, key in windows]
    return max((w for w in waits if w is not None), default=None)


def windows_failed(windows: Windows) -> None:
    """One failure, counted in each of ``windows``."""
    for throttle, key in windows:
        if key is not None:
            throttle.record(key)


def with_browser_cookie(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page that counts failures per browser: its answers give a browser without one its
    BROWSER_COOKIE (random, a year, HttpOnly, SameSite=Lax, Secure over HTTPS)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if BROWSER_COOKIE not in request.COOKIES:
            response.set_cookie(
                BROWSER_COOKIE,
                secrets.token_hex(16),
                max_age=365 * 24 * 3600,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
        return response

    return wrapped


# --- Pages: the same rules, answered with the site's 429 page ---------------------------------------


def refused_page(request: HttpRequest, wait: float, message: Any, extra: dict[str, Any] | None = None) -> HttpResponse:
    """The site's 429 page: what happened and when to try again (also in `Retry-After`)."""
    minutes = max(1, math.ceil(wait / 60))
    retry = ngettext(
        "Vuelve a intentarlo dentro de %(n)d minuto.", "Vuelve a intentarlo dentro de %(n)d minutos.", minutes
    ) % {"n": minutes}
    response = render(request, "429.html", {**(extra or {}), "message": message, "retry": retry}, status=429)
    response["Retry-After"] = str(math.ceil(wait))
    return response


def login_refusal(request: Any) -> float | None:
    """Seconds before this client may try to log in with the posted username; None: now."""
    throttles = [throttle() for throttle in LOGIN_THROTTLES]
    waits = [throttle.refusal(throttle.get_cache_key(request, None)) for throttle in throttles]
    return max((w for w in waits if w is not None), default=None)


def limit_login(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap a login page (ours, the admin's): a POST during a lockout gets the 429 page."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST" and (wait := login_refusal(request)) is not None:
            return refused_page(request, wait, LOGIN_REFUSED)
        return view(request, *args, **kwargs)

    return wrapped


def registration_refused(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    """The public registration form: counts this POST, or answers the 429 page."""
    throttle = RegistrationThrottle()
    wait = throttle.refusal(throttle.key_for(request, tournament))
    if wait is None:
        return None
    return refused_page(request, wait, REGISTRATION_REFUSED, {"tournament": tournament})


__all__ = [
    "DEVICE_COOKIE",
    "LOGIN_THROTTLES",
    "DeviceCookieMiddleware",
    "LoginDeviceThrottle",
    "LoginIPThrottle",
    "LoginUsernameThrottle",
    "RegistrationThrottle",
    "ThrottleMessage",
    "client_ip",
    "limit_login",
    "registration_refused",
]


# --- what the players write from their table (issue 32) --------------------------------------------

TABLE_WRITE_REFUSED = gettext_lazy(
    "Demasiados envíos desde la mesa en poco tiempo (actas, confirmaciones, avisos al juez). "
    "Espera un poco o acude a la mesa de control."
)


class TableWriteThrottle(RateThrottle):
    """What a pair writes from its phone — a result reported, confirmed or refused, a call to the
    juez — per account and tournament. A pair's link is a key anyone holding the card has: a pair
    sends a report, a confirmation and perhaps a call each round, so a loop is cut long before it
    fills the mesa's queue or the juez's dashboard. The tournament's staff are never limited here
    (the mesa confirms hundreds of actas); every attempt counts, accepted or refused."""

    scope = "table_write"
    default_rate = "20/hour"

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope, self.default_rate) or None

    def key_for(self, user: Any, tournament: Tournament) -> str | None:
        if not getattr(user, "is_authenticated", False) or user.is_superuser or roles_for(user, tournament):
            return None
        return self.key_of(f"{user.pk}:{tournament.pk}")


def table_write_wait(user: Any, tournament: Tournament) -> float | None:
    """Count this write from a table: None when allowed, else the seconds to wait."""
    throttle = TableWriteThrottle()
    return throttle.refusal(throttle.key_for(user, tournament))


def table_write_refused(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    """The pages' writes from a table: counts this one, or answers the site's 429 page."""
    wait = table_write_wait(request.user, tournament)
    if wait is None:
        return None
    return refused_page(request, wait, TABLE_WRITE_REFUSED, {"tournament": tournament})


def table_write_check(user: Any, tournament: Tournament) -> None:
    """The API's writes from a table: a Spanish 429 with Retry-After past the limit."""
    if (wait := table_write_wait(user, tournament)) is not None:
        raise exceptions.Throttled(wait=wait, detail=str(TABLE_WRITE_REFUSED))
