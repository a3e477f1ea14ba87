"""Public pages that a whole room reloads at once: computed and rendered once per change.

After each draw or result, a hundred phones ask for the same round, standings or bracket. What
such a page shows is the same for everyone, so its body (and the data behind it) is cached under
the tournament's *stamp*, a key that changes whenever anything public changes, and the small
per-user part of the page (navigation, staff links) is rendered around it on every request.

The stamp: draws and results bump the tournament's `live_version`; editing the tournament moves
its `updated_at`; a new or renamed pair or player, a changed partner or an edited jornada adds a
historical record (django-simple-history records every change, the admin's too). One statement of
four index lookups, in plain SQL because it runs on every request of these pages.

Coalesced (issue 18): a change never makes every request render. The first request that finds a
page older than the stamp takes the page's render lock (``cache.add``: atomic in every backend)
and renders it; the requests that come meanwhile get the last rendered bytes at once, and the page
says which version they show (``data-live-version``), so static/js/live.js asks again if they were
older than the tournament. With no bytes yet (a cold cache), they wait for the renderer's instead of
rendering the same page side by side. And a page younger than PAGES_RENDER_EVERY_SECONDS is
served as it is: during a burst of results (two a second at a big event) each page is rendered at
most that often, whatever the number of changes and requests, by one process of all those that
share the cache (a file cache under var/ on one host, CACHE_URL=redis://… for several).
"""

import dataclasses
import gzip
import hashlib
import logging
import re
import struct
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache, wraps
from typing import Any, Generic, Protocol, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import connection, models
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from torneo import crc32
from torneo.models import Pair, PairMember, Player, Session, Tournament
from torneo.numbers import canonical_int

T = TypeVar("T")
logger = logging.getLogger(__name__)
TTL = 24 * 3600
RENDER_LOCK_SECONDS = 30  # past it, a renderer is taken for dead and another request renders
COLD_WAIT_SECONDS = 10  # how long a request waits for the first rendering of a page
_MARK = "<!--cuerpo-cacheado-->"


_AHEAD: ContextVar[bool] = ContextVar("rendering_ahead", default=False)


@contextmanager
def rendering_ahead() -> Iterator[None]:
    """A worker renders pages before anyone asks (torneo.views.prerender): a page older than its
    stamp is rendered now, however young (PAGES_RENDER_EVERY_SECONDS is for requests)."""
    token = _AHEAD.set(True)
    try:
        yield
    finally:
        _AHEAD.reset(token)


def is_rendering_ahead() -> bool:
    """Whether this is a worker rendering pages ahead (`rendering_ahead`), not a request."""
    return _AHEAD.get()


@lru_cache(maxsize=4)
def _changes_sql(vendor: str) -> str:
    """The query for the latest change of the pairs, players and sessions (their history tables),
    written once per database vendor: each ``Model.history`` builds a new manager class (~0.5 ms
    apiece), and a worker takes a stamp twice for each of the 2,300 pair pages it renders while the
    pairs report (benchmarks/load.py --mode players)."""
    quote = connection.ops.quote_name
    tables = [model.history.model._meta.db_table for model in (Pair, PairMember, Player, Session)]
    return "SELECT " + ", ".join(f"(SELECT MAX(history_id) FROM {quote(t)})" for t in tables)


def tournament_stamp(tournament: Tournament, *, version: int | None = None) -> str:
    """Changes whenever anything a public page of this tournament shows changes. ``version``: a
    page's own live version instead of the tournament's (a pair's page: torneo.services.live)."""
    with connection.cursor() as cursor:
        cursor.execute(_changes_sql(connection.vendor))
        changes = cursor.fetchone()
    created, updated = (int(d.timestamp() * 1_000_000) for d in (tournament.created_at, tournament.updated_at))
    live = tournament.live_version if version is None else version
    return f"{tournament.pk}.{created}.{updated}.{live}." + ".".join(map(str, changes))


def stamp_version(stamp: str) -> int:
    """The tournament's live version a stamp was taken at (its fourth part)."""
    return int(stamp.split(".")[3])


def cached_with_stamp(
    key: str, stamp: str, build: Callable[[], T], *, every: float = 0, max_age: float | None = None
) -> tuple[str, T]:
    """`build()` once per stamp, coalesced (see the module's docstring); returns the value with the
    stamp it was built at: ``stamp`` itself, or an older one while another request renders it, or
    while the last one is younger than ``every`` seconds (a burst of changes: one render per
    ``every`` seconds, whatever the number of changes and requests). ``max_age``: seconds past which
    a value is built again though the stamp is the same (HTML that says the minute).

    One cache entry per key (holding its stamp and when it was built), so that a busy tournament's
    many versions never pile up in memory: a different stamp is a miss."""
    key = f"{key}:{get_language()}"
    entry = cache.get(key)
    current = entry is not None and entry[0] == stamp and (max_age is None or time.time() - entry[2] < max_age)
    if entry is not None and (current or (not _AHEAD.get() and time.time() - entry[2] < every)):
        return entry[0], entry[1]
    lock = f"{key}:rendering"
    owner = cache.add(lock, stamp, RENDER_LOCK_SECONDS)
    if not owner:
        if entry is not None:
            return entry[0], entry[1]
        deadline = time.monotonic() + COLD_WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.05)
            entry = cache.get(key)
            if entry is not None:
                return entry[0], entry[1]
    try:
        value = build()
        cache.set(key, (stamp, value, time.time()), TTL)
    finally:
        if owner:
            cache.delete(lock)
    return stamp, value


def cached(key: str, stamp: str, build: Callable[[], T]) -> T:
    """`build()` once per stamp, coalesced: the value (an older one while another request builds)."""
    return cached_with_stamp(key, stamp, build)[1]


@dataclass(frozen=True)
class Body:
    """A page body as kept (`cached_body`): the stamp it was rendered at (for `page_with_body`),
    when it was rendered (``time.time()``) and its HTML as UTF-8 bytes (never re-escaped or
    re-encoded): as it is (``content``: a small body, or one with a clock, whose server time is
    written in at each request), or, for a large one, only deflated once when it was rendered (raw
    deflate ended by a sync flush: `gzip_around` sends it inside a signed-in visitor's gzip), with
    the CRC-32 and length of its HTML for the gzip trailer. Kept deflated only, a 573-table round is
    a 62 KB entry, not 153 KB (1.1 MB unpickled), for each web process to read from the shared
    cache after each change: 0.3 ms instead of 2.1, and 2.3 ms to write instead of 8.4 (README,
    *Speed*); the rare browser that takes no gzip gets it inflated (`html`)."""

    content: bytes | None
    stamp: str
    at: float = 0.0
    deflated: bytes | None = None
    key: str = ""  # its key in `recent_bodies` and the shared cache ("": a body of its request's own)
    max_age: float | None = None  # seconds it stays true though its stamp does not change (a clock)
    crc: int = 0  # of its HTML, kept deflated only (with ``content``, computed from it)
    length: int = 0
    ahead: bool = False  # a shared page's, which the worker renders ahead: served as it is longer (`shared_every`)

    @property
    def html(self) -> bytes:
        if self.content is not None:
            return self.content
        return zlib.decompressobj(-15).decompress(self.deflated or b"")

    @property
    def size(self) -> int:
        return len(self.content or b"") + len(self.deflated or b"")

    def current(self, stamp: str) -> bool:
        """Whether it may be served for ``stamp``: rendered at it (and not past its age), or
        younger than PAGES_RENDER_EVERY_SECONDS, or `shared_every` for a shared page's (a burst of
        changes: see `cached_with_stamp`)."""
        age = time.time() - self.at
        if self.max_age is not None and age >= self.max_age:
            return False
        every = shared_every() if self.ahead else settings.PAGES_RENDER_EVERY_SECONDS
        return self.stamp == stamp or (not _AHEAD.get() and age < every)


def cached_body(key: str, stamp: str, template: str, context: Callable[[], dict[str, Any]]) -> Body:
    """A shared page's body (the standings, the results, a round's draw: the pages the worker
    renders ahead after each change), rendered from ``template`` once per stamp, at most once every
    `shared_every` seconds by a web request (see `kept_body`)."""
    render = lambda: render_to_string(template, context()).encode()  # noqa: E731
    return kept_body(f"body:{key}:{template}", stamp, render, ahead=True)


def shared_every() -> float:
    """How long a web request serves a shared page's body as it is after a change, rather than
    render it: PAGES_RENDER_EVERY_SECONDS, and PAGES_WORKER_GRACE_SECONDS more while a worker
    renders these pages ahead (PAGES_PRERENDER). The worker renders them at most every
    PAGES_RENDER_EVERY_SECONDS during a burst, at a lower priority (scripts/run.sh); a web request
    that found the body that old and rendered it itself (the standings of 1,146 pairs: 80-230 ms
    of a core) or went through the view for it (~10 ms) was the tail of every page while the pairs
    reported (benchmarks/load.py --mode players: 1.1% of the shared pages' requests, README
    *Speed*). Past the grace, the worker is taken for late or gone and the request renders."""
    every = settings.PAGES_RENDER_EVERY_SECONDS
    return every + settings.PAGES_WORKER_GRACE_SECONDS if every and settings.PAGES_PRERENDER else every


def kept_body(
    key: str, stamp: str, render: Callable[[], bytes], *, max_age: float | None = None, ahead: bool = False
) -> Body:
    """A page body, ``render()`` once per stamp, at most once every PAGES_RENDER_EVERY_SECONDS (see
    `cached_with_stamp`; ``ahead``: a shared page's, `shared_every`), and again past ``max_age`` seconds.

    Each web process also keeps the bodies it used lately in memory (`recent_bodies`), under the
    same rule: a signed-in phone's page (a pair's terminal on the round's draw, 900 KB of a 573-table
    round) is rendered around a body read from memory, not unpickled from the shared cache at each
    request. Kept under the same key in both (`_shared_body` reads it back)."""
    recent, local = recent_bodies(), f"{key}:{get_language()}"
    kept = recent.get(local)
    if kept is not None and kept.current(stamp):
        return kept

    def build() -> tuple[bytes | None, float, bytes | None, int, int]:
        html = render()
        # A clock's page is sent with the time of each request written in (`_with_server_now`).
        if len(html) < GZIP_FROM_BYTES or _CLOCK_DATA in html:
            return html, time.time(), None, 0, 0
        return None, time.time(), _deflated(html), zlib.crc32(html), len(html)

    every = shared_every() if ahead else settings.PAGES_RENDER_EVERY_SECONDS
    built, value = cached_with_stamp(key, stamp, build, every=every, max_age=max_age)
    body = _body_of(local, built, value, max_age, ahead)
    recent.put(local, body)
    return body


def _body_of(key: str, stamp: str, value: Any, max_age: float | None, ahead: bool = False) -> Body:
    if isinstance(value, bytes):  # kept by an earlier version of this code
        value = (value, 0.0, None)
    if len(value) == 3:  # kept by an earlier version too: the HTML beside its deflate
        value = (*value, 0, 0)
    return Body(value[0], stamp, value[1], value[2], key, max_age, value[3], value[4], ahead)


def _shared_body(key: str, max_age: float | None, ahead: bool = False) -> Body | None:
    """The body `kept_body` keeps under ``key`` (with its language) in the shared cache, as another
    process rendered it; None if none."""
    entry = cache.get(key)
    value = entry[1] if isinstance(entry, tuple) and len(entry) == 3 else None
    if not isinstance(value, tuple) or len(value) not in (3, 5):
        return None
    return _body_of(key, entry[0], entry[1], max_age, ahead)


def _deflated(html: bytes) -> bytes:
    """Raw deflate ended by a sync flush (byte-aligned, not final): a piece that may stand between
    others in one deflate stream (`gzip_around`)."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return packer.compress(html) + packer.flush(zlib.Z_SYNC_FLUSH)


def _stored(data: bytes, *, final: bool) -> bytes:
    """``data`` as deflate's stored (uncompressed) blocks."""
    packer = zlib.compressobj(0, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush(zlib.Z_FINISH if final else zlib.Z_SYNC_FLUSH)


_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, no time, OS unknown


def gzip_around(head: bytes, body: Body, tail: bytes) -> bytes:
    """The gzip of ``head + body.html + tail`` with the body deflated once when it was rendered and
    the frame around it *stored*: never compressed. The frame is the visitor's own (the CSRF token
    of the «Salir» form, the address, the name): compressed with anything an attacker can put in a
    page, its bytes could be guessed from the size of the answers (BREACH); stored, they give
    nothing away, and the body, the same for everyone, holds nothing secret. So a signed-in phone
    gets a 573-table round as 80 KB, not 900 KB, for the cost of a CRC."""
    assert body.deflated is not None
    if body.content is not None:
        crc, length = zlib.crc32(body.content, zlib.crc32(head)), len(body.content)
    else:
        crc, length = crc32.combine(zlib.crc32(head), body.crc, body.length), body.length
    crc = zlib.crc32(tail, crc)
    size = len(head) + length + len(tail)
    trailer = struct.pack("<II", crc, size & 0xFFFFFFFF)
    return b"".join((_GZIP_HEADER, _stored(head, final=False), body.deflated, _stored(tail, final=True), trailer))


def page_with_body(request: HttpRequest, template: str, context: dict[str, Any], body: Body) -> HttpResponse:
    """Render the per-user page around the cached body: the template prints `{{ body }}` once, and
    `{{ live_version }}` is the version the body shows (static/js/live.js compares it). The response
    keeps the stamp (``page_stamp``) and its parts (``page_parts``) for `anonymous_page`, and,
    for a player signed in, the frame to use again (``page_frame``: see `Frame`); a browser that
    takes gzip gets a large body as it was deflated once (`gzip_around`). A request rendered ahead
    for the body alone (`for_the_body_only`) gets no frame: nobody reads it."""
    if _AHEAD.get() and getattr(request, _BODY_ONLY_ATTR, False):
        response = HttpResponse()
        response.page_stamp = body.stamp  # type: ignore[attr-defined]
        return response
    printed = _context_print(context)
    frame = _kept_frame(request, body, printed)
    if frame is None:
        page = {**context, "body": mark_safe(_MARK), "live_version": _VERSION_MARK}
        html = render_to_string(template, page, request)
        head, mark, tail = html.partition(_MARK)
        if not mark:
            raise ValueError(f"{template} does not print {{{{ body }}}}")
        frame = _frame(request, context.get("tournament"), head.encode(), tail.encode(), body, printed)
        framed = (head.encode(), tail.encode())
    else:
        framed = (frame.head, frame.tail)
    mark, version = _VERSION_MARK.encode(), str(stamp_version(body.stamp)).encode()
    response = _framed_response(request, framed[0].replace(mark, version), body, framed[1].replace(mark, version))
    response.page_stamp = body.stamp  # type: ignore[attr-defined]
    response.page_frame = frame  # type: ignore[attr-defined]
    return response


_BODY_ONLY_ATTR = "_pagecache_body_only"


def for_the_body_only(request: HttpRequest) -> HttpRequest:
    """A request the worker renders a pair's own page for, ahead (torneo.views.prerender): what it
    keeps is the body, which the pair's phones read in frames of their own; the frame around it
    (the page's template, its menu, the account's roles and pairs: ~8 ms and three queries) would
    be rendered for nobody."""
    setattr(request, _BODY_ONLY_ATTR, True)
    return request


def _framed_response(request: HttpRequest, head: bytes, body: Body, tail: bytes) -> HttpResponse:
    """The page of ``head + body + tail``; a body with a table's clock (kept, scoring.views.players)
    gets the server's time now, from which static/js/clocks.js counts. The response keeps its
    three parts (``page_parts``) for `anonymous_page` to keep it whole."""
    if body.deflated is not None and _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(gzip_around(head, body, tail))
        response["Content-Encoding"] = "gzip"
    else:
        html = body.html if body.deflated is not None else _with_server_now(body.html)
        response = HttpResponse(b"".join((head, html, tail)))
    patch_vary_headers(response, ("Accept-Encoding",))
    response.page_parts = (head, body, tail)  # type: ignore[attr-defined]
    return response


# --- the players signed in: their page's frame kept, its body from memory -------------------------
#
# A pair's phones are signed in (its tarjeta: torneo/services/terminals.py): 2,292 phones at a
# 1,146-pair event, reading the round's draw, the standings and the results again at every change,
# as the anonymous visitors do. Their page is the public one in a frame of their own (the «Salir»
# form and its CSRF token, their name, «Tu pareja»), so it cannot be kept whole for everyone; but
# what makes the frame is the same from one change to the next. So the frame a player's request
# rendered is kept FRAME_SECONDS under that browser's own cookies (the session's and the CSRF
# token's, hashed: nobody else's request finds it), and the next request of that browser for that
# page puts the body kept in the process's memory (`recent_bodies`) into it, without a query: as
# cheap as an anonymous visitor's. Only for players: a frame is kept only from a request whose
# session was valid, of an account without a staff role in the tournament, that showed no message.
# A pair's page, with its table's clock, too: its body with the clock is kept per change and per
# minute (scoring.views.players), the server's time written in at each request. A body this process
# does not have is read from the shared cache, as another process rendered it. A phone signed out by the
# mesa (a new tarjeta) forgets its frames at once (`frames_forget`), and so does any change of what a
# frame shows of its user, saved through the ORM (a role granted, a password changed elsewhere, a
# pair joined: torneo/frame_changes.py). Past FRAME_SECONDS a frame is also checked again
# (`_checked_again`: the session, and who the frame says the user is), for what no signal sees (a
# session ended otherwise, a bulk update), and used again, not rendered again, for
# FRAME_KEEP_SECONDS. A phone reads its page again every 10 s during a burst of results, so a
# check every FRAME_SECONDS costs one read in FRAME_SECONDS / 10 three queries: once a minute, that
# was one in six, the p95 of the public pages while the pairs report (benchmarks/load.py --mode
# players); once in five minutes, one in thirty, still a third of that tail (~10 ms of a core each
# under load): so the check runs once the page is sent (`_check_after`), and a frame it finds false
# is dropped for the next request. Before the check (stop 41) each was a whole view.

FRAME_SECONDS = 300
FRAME_KEEP_SECONDS = 3600  # past it, rendered again whatever the checks say
_VERSION_MARK = "0000version0de0la0pagina0000"  # the frame's live version, written in at each request


@dataclass(frozen=True)
class Frame:
    """A player's page around its body: the HTML before and after the body (the live version as
    ``_VERSION_MARK``), the body's key in `recent_bodies`, the tournament it was rendered for (the
    first three parts of its stamp: its name and settings), whose it is and when it was rendered."""

    head: bytes
    tail: bytes
    body_key: str
    tournament: str
    user_id: int
    at: float
    max_age: float | None = None  # the body's (`Body.max_age`)
    who: tuple[Any, ...] = ()  # what of the user the frame shows (`_who`)
    checked: float = 0.0  # when it was last found true (`_checked_again`); 0: when rendered (``at``)
    context: str = ""  # what of the view's context it was rendered from (`_context_print`)
    body_ahead: bool = False  # the body's (`Body.ahead`)


def _tournament_part(stamp: str) -> str:
    return ".".join(stamp.split(".")[:3])


def _frame(
    request: HttpRequest, tournament: Any, head: bytes, tail: bytes, body: Body, printed: str = ""
) -> Frame | None:
    """The frame to keep from this request, or None (see above)."""
    from torneo.permissions import roles_for

    user = getattr(request, "user", None)
    if not body.key or user is None or not user.is_authenticated or not isinstance(tournament, Tournament):
        return None
    if roles_for(user, tournament) or b'<ul class="messages">' in head:
        return None
    now = time.time()
    who = _who(user, tournament)
    return Frame(
        head, tail, body.key, _tournament_part(body.stamp), user.pk, now, body.max_age, who, now, printed, body.ahead
    )


def _context_print(context: dict[str, Any]) -> str:
    """What a page's frame is rendered from, besides the request's user and the tournament's name
    and settings (its stamp's first parts): the view's context (a pair's name in the title, whether
    its table's clock runs, for its script), a model by what it is and how it reads."""
    parts = []
    for name, value in sorted(context.items()):
        if isinstance(value, models.Model):
            value = (value._meta.label, value.pk, str(value))
        parts.append(f"{name}={value!r}")
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


_FRAME_ATTR = "_pagecache_frame"


def _kept_frame(request: HttpRequest, body: Body, printed: str) -> Frame | None:
    """The frame this browser kept of this page (`anonymous_page` found it and checked it, but not
    the body it expected), when it frames the body the view rendered: the same body key, the same
    tournament's name and settings, the same context, an account not signed out since. A view
    that renders a body after a change then renders no frame: a pair's phone reading its own page
    after each report or confirmation (benchmarks/load.py --mode players) paid the page's template
    and menu again (~8 ms) for the frame it already had."""
    frame = getattr(request, _FRAME_ATTR, None)
    user = getattr(request, "user", None)
    if not isinstance(frame, Frame) or user is None or user.pk != frame.user_id:
        return None
    if frame.body_key != body.key or frame.context != printed or frame.tournament != _tournament_part(body.stamp):
        return None
    out = cache.get(_signed_out_key(frame.user_id))
    return None if out is not None and out >= frame.at else frame


def _who(user: Any, tournament: Tournament) -> tuple[Any, ...]:
    """What a player's frame shows of the user: the name on its «Salir» button, the pairs its menu
    links («Tu pareja») and the staff roles it holds (none: a frame is kept only without)."""
    from torneo.permissions import own_pair_numbers, roles_for

    return (
        user.pk,
        user.get_username(),
        tuple(own_pair_numbers(user, tournament)),
        tuple(sorted(roles_for(user, tournament))),
    )


def _checked_again(request: HttpRequest, key: str, frame: Frame, tournament_id: int) -> Frame | None:
    """A frame older than FRAME_SECONDS, checked rather than rendered again: the request's session
    still signs in the frame's user (django.contrib.auth checks it, with the hash of the password),
    who has the same name, pairs and no roles; then kept another FRAME_SECONDS. None: through the
    view (and past FRAME_KEEP_SECONDS from its rendering, always)."""
    if time.time() - frame.at >= FRAME_KEEP_SECONDS:
        return None
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.pk != frame.user_id:
        return None
    if _who(user, Tournament(pk=tournament_id)) != frame.who:
        return None
    frame = dataclasses.replace(frame, checked=time.time())
    cache.set(key, frame, FRAME_KEEP_SECONDS)
    return frame


def _check_after(response: HttpResponse, request: HttpRequest, key: str, frame: Frame, tournament_id: int) -> None:
    """The frame's check (`_checked_again`) once the page is sent: when the WSGI server closes the
    response, after its last byte. The check (the session and the account read, the user's pairs
    and roles: ~6 ms and three queries, 10 under load) fell on one page read in thirty of every
    signed-in phone, and those reads were a third of the shared pages' tail while the pairs
    reported (benchmarks/load.py --mode players, README *Speed*). A frame found false is dropped:
    the browser's next request goes through the view. What the check is for (a session ended
    otherwise, a bulk update no signal sees: torneo/frame_changes.py) thus shows one request later,
    within FRAME_SECONDS and a poll."""

    def check() -> None:
        try:
            if _checked_again(request, key, frame, tournament_id) is None:
                cache.delete(key)
        except Exception:  # a closer's exception is swallowed by Django: say it, and drop the frame
            logger.warning("No se ha podido comprobar el marco %s", key, exc_info=True)
            cache.delete(key)

    # Django calls a response's closers when the server closes it, before request_finished (whose
    # handler closes the database connection): the same mechanism that closes a FileResponse's file.
    response._resource_closers.append(check)


def _signed_in_key(request: HttpRequest, params: tuple[str, ...]) -> str | None:
    """The key of this browser's frame of this page: a plain GET with a session and a CSRF cookie and
    no message waiting, of a query this page takes (as `_anonymous_key`)."""
    cookies = request.COOKIES
    session, token = cookies.get(settings.SESSION_COOKIE_NAME), cookies.get(settings.CSRF_COOKIE_NAME)
    if request.method != "GET" or not session or not token or "messages" in cookies:
        return None
    for name, values in request.GET.lists():
        if name not in params or len(values) != 1 or canonical_int(values[0], high=999_999) is None:
            return None
    query = "&".join(f"{name}={request.GET[name]}" for name in params if name in request.GET)
    browser = hashlib.sha256(f"{session}\x00{token}".encode()).hexdigest()
    return f"marco:{request.path}?{query}:{get_language()}:{browser}"


def _signed_out_key(user_id: int) -> str:
    return f"marcos-fuera:{user_id}"


def frames_forget(*, user_id: int) -> None:
    """The account's sessions were ended (torneo.services.terminals), or what its frames show of it
    changed (torneo/frame_changes.py): its frames kept until now are not used again (each is
    rendered again by a request that goes through the view). Marked for FRAME_KEEP_SECONDS: no
    frame is used past that age, so none kept before the mark outlives it."""
    cache.set(_signed_out_key(user_id), time.time(), FRAME_KEEP_SECONDS)


def _frame_page(request: HttpRequest, frame: Frame, expected: str) -> HttpResponse | None:
    """This browser's page from its kept frame and the body in memory (or as another process
    rendered it, from the shared cache), or None (go through the view): a frame of another state of
    the tournament, of an account signed out since, or a body that nobody rendered at ``expected``
    (see `Body.current`)."""
    if frame.tournament != _tournament_part(expected):
        return None
    recent = recent_bodies()
    body = recent.get(frame.body_key)
    if body is None or not body.current(expected):
        body = _shared_body(frame.body_key, frame.max_age, frame.body_ahead)
        if body is None or not body.current(expected):
            return None
        recent.put(frame.body_key, body)
    out = cache.get(_signed_out_key(frame.user_id))
    if out is not None and out >= frame.at:
        return None
    mark, version = _VERSION_MARK.encode(), str(stamp_version(body.stamp)).encode()
    response = _framed_response(request, frame.head.replace(mark, version), body, frame.tail.replace(mark, version))
    patch_vary_headers(response, ("Cookie",))
    return response


# --- the anonymous visitors' pages: served whole, without a query ---------------------------------
#
# Five hundred phones of people who never log in poll live.json and fetch the draw, the standings
# and the results again at every change. For them the whole page (the frame too) is the same, so
# it is kept whole, per address and language, under the stamp of the body it shows; the stamp
# itself (the tournament's public state) is computed when a draw or a result commits
# (torneo.services.live) and again PAGES_STATE_SECONDS later by one request. A request of an
# anonymous visitor then costs two cache reads and no query. Nothing in such a page is per visitor
# (the frame's language form has no token: torneo/views/language.py), so it is kept gzipped,
# compressed once when it is stored: a 573-table round is 900 KB of HTML and 80 KB on the wire,
# for the venue's Wi-Fi and for the web processes that read it and send it a few times a second.


@dataclass(frozen=True)
class PublicState:
    """What anonymous requests need of a tournament that the public may see (not a draft)."""

    pk: int
    stamp: str
    live_version: int
    live_all_version: int


_NOT_PUBLIC = "no-publico"
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
GZIP_FROM_BYTES = 1024  # smaller pages gain nothing worth a header


def _state_key(slug: str) -> str:
    return f"torneo:estado:{slug}"


def _versions_key(tournament_id: int) -> str:
    return f"torneo:estado:{tournament_id}:parejas"


def _kept(key: str, compute: Callable[[], Any]) -> Any:
    """A value of the tournament's state kept PAGES_STATE_SECONDS: past that, the first request
    computes it again (and takes a lock, ``cache.add``) while the others, in every process, go on
    with the last one: at a big event one request a second pays for it, not each one that comes
    while it is computed. A change committed does not wait for it (`refresh_state`)."""
    ttl = settings.PAGES_STATE_SECONDS
    if not ttl or _AHEAD.get():  # a worker rendering ahead must render the state just committed
        return compute()
    entry = _read_state(key)
    if entry is not None and (time.time() - entry[1] < ttl or not cache.add(f"{key}:calculando", 1, 10)):
        return entry[0]
    try:
        value = compute()
        if value is None:
            cache.delete(key)
        else:
            cache.set(key, (value, time.time()), _state_ttl())
    finally:
        if entry is not None:
            cache.delete(f"{key}:calculando")
    return value


def _read_state(key: str) -> Any:
    """A kept state as `_kept` keeps it; read through the file cache's `get_shared` (torneo/filecache.py)
    when that is the cache: nobody changes what it hands out."""
    read = getattr(cache, "get_shared", cache.get)
    return read(key)


def _state_of(tournament: Tournament | None) -> PublicState | str | None:
    """What `public_state` keeps: None for no tournament (never kept: a slug that names nothing
    would make a key), ``_NOT_PUBLIC`` for a draft."""
    if tournament is None:
        return None
    if not tournament.is_visible_to_public:
        return _NOT_PUBLIC
    return PublicState(
        tournament.pk, tournament_stamp(tournament), tournament.live_version, tournament.live_all_version
    )


def public_state(slug: str) -> PublicState | None:
    """The public state of the tournament with this slug; None when it does not exist or is a
    draft (the views then answer as they always do: 404, or the page for its staff)."""
    state = _kept(_state_key(slug), lambda: _state_of(Tournament.objects.filter(slug=slug).first()))
    return None if state is None or state == _NOT_PUBLIC else state


def pair_versions(tournament_id: int) -> dict[int, int]:
    """Every pair's own live version by number (torneo.services.live), kept PAGES_STATE_SECONDS
    like the tournament's state and refreshed with it: each pair's phone polls its live.json every
    10 s, so a key per pair would always have expired; one entry for the whole tournament is read
    once a second at most, with one query, however many phones poll."""
    return _kept(_versions_key(tournament_id), lambda: _versions_of(tournament_id))


def _versions_of(tournament_id: int) -> dict[int, int]:
    return dict(Pair.objects.filter(tournament_id=tournament_id).values_list("number", "live_version"))


def refresh_state(*, tournament_id: int) -> None:
    """A change the public sees is committed: the tournament's state and its pairs' versions are
    computed now, by the request or the task that made the change, and kept, so that no phone's
    request pays for them (two results a second at a big event would otherwise make a few of
    every second's live.json queries: their p95).

    Two changes committed at once (a result and a clock's tick) may store their states in either
    order: a state is never kept over one of a later live version, and after storing one the
    tournament's live version is read again; if a change committed meanwhile, its state is
    computed and stored again. So the last state stored is never older than the last commit (a
    plain cache has no compare-and-set to do it in one step)."""
    if not settings.PAGES_STATE_SECONDS:
        return
    for _ in range(_STATE_ATTEMPTS):
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return
        state, versions = _state_of(tournament), _versions_of(tournament_id)
        kept = cache.get(_state_key(tournament.slug))
        if kept is not None and isinstance(kept[0], PublicState) and kept[0].live_version > tournament.live_version:
            return
        now = time.time()
        cache.set_many(
            {_state_key(tournament.slug): (state, now), _versions_key(tournament_id): (versions, now)}, _state_ttl()
        )
        latest = Tournament.objects.filter(pk=tournament_id).values_list("live_version", flat=True).first()
        if latest is None or latest <= tournament.live_version:
            return


_STATE_ATTEMPTS = 5  # each further attempt means another change committed meanwhile


def _state_ttl() -> int:
    """How long a kept state stays in the cache: past PAGES_STATE_SECONDS it is still served while
    one request computes it again (`_kept`)."""
    return max(60, 10 * settings.PAGES_STATE_SECONDS)


def _anonymous_key(request: HttpRequest, params: tuple[str, ...]) -> str | None:
    """The key of this request's whole page, or None when it is not an anonymous visitor's plain
    GET: logged in (or a session, or messages to show), or a query this page does not take (the
    key space stays bounded: only ``params``, which are numbers, each given once and written the
    one way, `canonical_int`: '?ronda=03' or '?ronda=٣' goes through the view and is not kept)."""
    if request.method != "GET" or request.COOKIES.keys() & {settings.SESSION_COOKIE_NAME, "messages"}:
        return None
    for name, values in request.GET.lists():
        if name not in params or len(values) != 1 or canonical_int(values[0], high=999_999) is None:
            return None
    query = "&".join(f"{name}={request.GET[name]}" for name in params if name in request.GET)
    return anonymous_key(request.path, query)


def anonymous_key(path: str, query: str = "") -> str:
    """The cache key of an anonymous visitor's whole page at this address, in the active language."""
    return f"anonima:{path}?{query}:{get_language()}"


def is_watched(path: str) -> bool:
    """Whether an anonymous visitor has had this page (without a query) lately: its whole page is
    kept (torneo.views.prerender renders ahead only the pair pages someone has open)."""
    return cache.get(anonymous_key(path)) is not None


# A pair's own phones read its page signed in, in a version of their own (the report form, the
# results they are to sign, their apercibimientos: scoring.views.players), not the anonymous one.
# Its view marks the page as theirs when it renders it for them; torneo.views.prerender then renders
# that version ahead after each change of the pair, as the pair's account would get it, and their
# next request finds it in the shared cache (`_frame_page`) without going through the view.
MEMBERS_WATCH_SECONDS = 3 * 3600  # longer than a round: a pair's page may not change for an hour


def _members_key(path: str) -> str:
    return f"de-la-pareja:{path}"


def watched_by_members(path: str) -> None:
    """A pair's own phone (its terminal) was rendered this page, its own version: render it ahead."""
    cache.set(_members_key(path), 1, MEMBERS_WATCH_SECONDS)


def is_watched_by_members(path: str) -> bool:
    """Whether a pair's own phone has had its own version of this page lately."""
    return cache.get(_members_key(path)) is not None


_CLOCK_DATA = b'id="clock-data"'
_SERVER_NOW = re.compile(rb'(<script id="clock-data" type="application/json">\{"server_now": ")[^"]*(")')


def _with_server_now(html: bytes) -> bytes:
    """A page with a clock as sent now: the clocks' data say the server's time of this request
    (their deadlines are absolute: they hold whenever the page was rendered). Such a page is never
    kept gzipped (`Page.of`, `GZIP_FROM_BYTES`: a pair's page is far smaller)."""
    if _CLOCK_DATA not in html:
        return html
    now = timezone.now().isoformat().encode()
    return _SERVER_NOW.sub(lambda m: m.group(1) + now + m.group(2), html, count=1)


@dataclass(frozen=True)
class Page:
    """An anonymous visitor's whole page as kept: the stamp it shows, when it was rendered
    (``time.time()``), and its HTML, either as it is (``content``: a small page, or one with a
    clock, whose server time is written in at each request) or gzipped only (``gzipped``). Kept
    gzipped only, a 573-table round is an 80 KB entry, not 960 KB, for each web process to read
    from the shared cache after each change; the rare browser that takes no gzip gets it
    decompressed."""

    stamp: str
    at: float
    content: bytes | None
    gzipped: bytes | None = None
    counted: int = 0  # the day (`_today`) it was counted in its tournament's bound (`_counted`)

    @classmethod
    def of(cls, stamp: str, content: bytes, *, counted: int = 0) -> "Page":
        if len(content) >= GZIP_FROM_BYTES and _CLOCK_DATA not in content:
            return cls(stamp, time.time(), None, gzip.compress(content, compresslevel=6, mtime=0), counted)
        return cls(stamp, time.time(), content, None, counted)

    @classmethod
    def of_response(cls, stamp: str, response: HttpResponse, *, counted: int = 0) -> "Page":
        """The page a view answered, kept: a body kept deflated (`page_with_body`) sent gzipped is
        kept as it was sent (its frame stored around the body's deflate: `gzip_around`), not
        inflated and compressed again, 900 KB of a 573-table round."""
        parts = getattr(response, "page_parts", None)
        if parts is None:
            return cls.of(stamp, response.content, counted=counted)
        head, body, tail = parts
        if response.get("Content-Encoding") == "gzip":
            return cls(stamp, time.time(), None, response.content, counted)
        return cls.of(stamp, head + body.html + tail, counted=counted)

    @property
    def html(self) -> bytes:
        if self.content is not None:
            return self.content
        return gzip.decompress(self.gzipped or b"")

    @property
    def size(self) -> int:
        return len(self.content or b"") + len(self.gzipped or b"")


class _Sized(Protocol):
    @property
    def size(self) -> int: ...


E = TypeVar("E", bound=_Sized)


class RecentPages(Generic[E]):
    """The whole pages this process served lately, by key, each with the stamp it shows: a request
    whose page has that stamp still is answered from memory, without reading the shared cache
    (a file, or Redis) and unpickling a 1,146-pair page at every request. The stamp says whether a
    page is current, so this layer is never staler than the shared cache; it is bounded by
    ``budget`` bytes (the least recently used pages go first) and shared by the process's threads."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._pages: OrderedDict[str, E] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> E | None:
        with self._lock:
            entry = self._pages.get(key)
            if entry is not None:
                self._pages.move_to_end(key)
            return entry

    def put(self, key: str, entry: E) -> None:
        if entry.size > self.budget:
            return
        with self._lock:
            old = self._pages.pop(key, None)
            if old is not None:
                self._size -= old.size
            self._pages[key] = entry
            self._size += entry.size
            while self._size > self.budget:
                _, dropped = self._pages.popitem(last=False)
                self._size -= dropped.size

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self._size = 0

    @property
    def size(self) -> int:
        return self._size


_recent: RecentPages[Page] = RecentPages(0)
_recent_bodies: RecentPages[Body] = RecentPages(0)


def recent_pages() -> RecentPages[Page]:
    """This process's `RecentPages`, of PAGES_RECENT_BYTES (0: none kept)."""
    return _budgeted(_recent)


def recent_bodies() -> RecentPages[Body]:
    """This process's page bodies used lately (`cached_body`), of PAGES_RECENT_BYTES too (0: none)."""
    return _budgeted(_recent_bodies)


def _budgeted(recent: RecentPages[E]) -> RecentPages[E]:
    budget = settings.PAGES_RECENT_BYTES
    if recent.budget != budget:
        recent.budget = budget
        recent.clear()
    return recent


View = Callable[..., HttpResponse]


def anonymous_page(
    *,
    params: tuple[str, ...] = (),
    stamp: Callable[[PublicState, dict[str, Any]], str | None] | None = None,
    max_age: float | None = None,
) -> Callable[[View], View]:
    """A public page's view (its first URL argument, ``slug``) that anonymous visitors get whole
    from the cache (see above); ``params``: the query parameters it takes. Everyone else, and a
    tournament the public may not see, go through the view. ``stamp``: the stamp this page must
    have now, from the tournament's state and the view's other URL arguments (by default the
    tournament's; None: go through the view); ``max_age``: seconds past which a page is rendered
    again though nothing changed (a page whose HTML counts minutes)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def page(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
            canonical = _canonical_path(request)
            if canonical is not None:
                query = request.META.get("QUERY_STRING", "")
                return HttpResponsePermanentRedirect(f"{canonical}?{query}" if query else canonical)
            key = _anonymous_key(request, params)
            if key is None:
                return _signed_in(request, slug, kwargs)
            state = public_state(slug)
            expected = None if state is None else stamp(state, kwargs) if stamp else state.stamp
            if state is None or expected is None:
                return view(request, slug, **kwargs)
            recent = recent_pages()
            entry = recent.get(key)
            if entry is not None and entry.stamp == expected and (max_age is None or time.time() - entry.at < max_age):
                return _served(request, entry)
            entry = cache.get(key)
            if not isinstance(entry, Page):  # nothing kept (or kept by an earlier version of this code)
                entry = None
            if entry is not None:
                age = time.time() - entry.at
                current = entry.stamp == expected and (max_age is None or age < max_age)
                if current or (not _AHEAD.get() and age < settings.PAGES_RENDER_EVERY_SECONDS):
                    if current:
                        recent.put(key, entry)
                    return _served(request, entry)
            response = view(request, slug, **kwargs)
            built = getattr(response, "page_stamp", None)
            whole = response.status_code == 200 and built is not None and not response.cookies
            if whole and _without_token(response):
                today = _today()
                if (entry is not None and entry.counted == today) or _counted(state.pk, today):
                    entry = Page.of_response(built, response, counted=today)
                    cache.set(key, entry, TTL)
                    if built == expected:
                        recent.put(key, entry)
            patch_vary_headers(response, ("Accept-Encoding",))
            return response

        def _signed_in(request: HttpRequest, slug: str, kwargs: dict[str, Any]) -> HttpResponse:
            """A player's browser: its kept frame around the body in memory, else the view (which
            gives the frame to keep)."""
            key = _signed_in_key(request, params)
            frame = cache.get(key) if key is not None else None
            if isinstance(frame, Frame) and key is not None and time.time() - frame.at < FRAME_KEEP_SECONDS:
                # (the public state is read only then: a pair's page keeps none)
                state = public_state(slug)
                expected = None if state is None else stamp(state, kwargs) if stamp else state.stamp
                due = state is not None and time.time() - (frame.checked or frame.at) >= FRAME_SECONDS
                served = None if expected is None else _frame_page(request, frame, expected)
                if served is not None and state is not None:
                    if due:
                        _check_after(served, request, key, frame, state.pk)
                    return served
                if due and state is not None:
                    frame = _checked_again(request, key, frame, state.pk)
                if expected is not None and frame is not None:
                    setattr(request, _FRAME_ATTR, frame)  # the body changed, not the frame: `_kept_frame`
            response = view(request, slug, **kwargs)
            frame = getattr(response, "page_frame", None)
            if key is not None and frame is not None and response.status_code == 200 and not response.cookies:
                cache.set(key, frame, FRAME_KEEP_SECONDS)
            return response

        return page

    return decorate


_LEADING_ZERO = re.compile(r"/0[0-9]")


def _canonical_path(request: HttpRequest) -> str | None:
    """This page's address written the one way, when the request's is another: Django's int
    converter takes '/rondas/03/' for '/rondas/3/', and each spelling would be a page to keep.
    None when it is written so, or when the request was not resolved (torneo.views.prerender)."""
    match = getattr(request, "resolver_match", None)
    if match is None or not _LEADING_ZERO.search(request.path):  # the one way never starts with 0
        return None
    path = reverse(match.view_name, args=match.args, kwargs=match.kwargs)
    return None if path == request.path else path


# --- the bound: how many whole pages one tournament keeps -----------------------------------------
#
# Only real pages are kept (an address of a round or a pair that does not exist is a 404, which is
# never kept; other spellings of an address are redirected or go through the view), but a bound
# holds whatever slipped through: a tournament's pages are counted by day (TTL), each page once a
# day (the day it was counted is kept with it), and past PAGES_MAX_PER_TOURNAMENT a page is served
# without being kept. A kept page was stored within a TTL, so counted today or yesterday: never
# more than twice the bound, whatever the number of addresses asked for. A page evicted and stored
# again the same day counts twice (the bound is reached sooner, never passed); with the file cache,
# whose incr is not atomic, two processes counting at once may count one.


def _today() -> int:
    return int(time.time() // TTL)


def _counted(tournament_id: int, day: int) -> bool:
    """Count one more page of this tournament kept today: False past the bound (then not kept)."""
    key = f"paginas-anonimas:{tournament_id}:{day}"
    cache.add(key, 0, TTL)
    try:
        count = cache.incr(key)
    except ValueError:  # expired in between: not kept this time
        return False
    cache.touch(key, TTL)  # the file cache's incr stores it again with its default timeout
    return int(count) <= int(settings.PAGES_MAX_PER_TOURNAMENT)


def _without_token(response: HttpResponse) -> bool:
    """Whether a page has no form that needs a token (such a page is the visitor's own: never kept
    whole). A body kept deflated only is rendered without a request (`kept_body`: the same for
    everyone, it holds no token), so only its frame is read."""
    parts = getattr(response, "page_parts", None)
    if parts is None:
        return _TOKEN_FIELD not in response.content
    head, body, tail = parts
    return not any(_TOKEN_FIELD in part for part in (head, body.content or b"", tail))


_TOKEN_FIELD = b"csrfmiddlewaretoken"


def stamp_with_version(stamp: str, version: int) -> str:
    """A tournament's stamp with another live version (a pair's page: `tournament_stamp`'s
    ``version``)."""
    parts = stamp.split(".")
    parts[3] = str(version)
    return ".".join(parts)


def _served(request: HttpRequest, page: Page) -> HttpResponse:
    """A kept page as this visitor gets it: gzipped when the browser takes it (every browser does)
    and, on a page with a clock, with the server's time now, from which static/js/clocks.js counts
    (its deadlines are absolute: they hold whenever the page was rendered)."""
    if page.gzipped is not None and _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(page.gzipped)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(_with_server_now(page.html))
    patch_vary_headers(response, ("Accept-Encoding",))
    response.page_stamp = None  # type: ignore[attr-defined]
    return response
