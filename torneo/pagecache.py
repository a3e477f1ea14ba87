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

import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from torneo.models import Pair, PairMember, Player, Session, Tournament

T = TypeVar("T")
TTL = 24 * 3600
RENDER_LOCK_SECONDS = 30  # past it, a renderer is taken for dead and another request renders
COLD_WAIT_SECONDS = 10  # how long a request waits for the first rendering of a page
_MARK = "<!--cuerpo-cacheado-->"


def tournament_stamp(tournament: Tournament, *, version: int | None = None) -> str:
    """Changes whenever anything a public page of this tournament shows changes. ``version``: a
    page's own live version instead of the tournament's (a pair's page: torneo.services.live)."""
    quote = connection.ops.quote_name
    tables = [model.history.model._meta.db_table for model in (Pair, PairMember, Player, Session)]
    sql = "SELECT " + ", ".join(f"(SELECT MAX(history_id) FROM {quote(t)})" for t in tables)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        changes = cursor.fetchone()
    created, updated = (int(d.timestamp() * 1_000_000) for d in (tournament.created_at, tournament.updated_at))
    live = tournament.live_version if version is None else version
    return f"{tournament.pk}.{created}.{updated}.{live}." + ".".join(map(str, changes))


def stamp_version(stamp: str) -> int:
    """The tournament's live version a stamp was taken at (its fourth part)."""
    return int(stamp.split(".")[3])


def cached_with_stamp(key: str, stamp: str, build: Callable[[], T], *, every: float = 0) -> tuple[str, T]:
    """`build()` once per stamp, coalesced (see the module's docstring); returns the value with the
    stamp it was built at: ``stamp`` itself, or an older one while another request renders it, or
    while the last one is younger than ``every`` seconds (a burst of changes: one render per
    ``every`` seconds, whatever the number of changes and requests).

    One cache entry per key (holding its stamp and when it was built), so that a busy tournament's
    many versions never pile up in memory: a different stamp is a miss."""
    key = f"{key}:{get_language()}"
    entry = cache.get(key)
    if entry is not None and (entry[0] == stamp or time.time() - entry[2] < every):
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


def cached_body(key: str, stamp: str, template: str, context: Callable[[], dict[str, Any]]) -> tuple[bytes, int]:
    """A page body rendered once per stamp, at most once every PAGES_RENDER_EVERY_SECONDS, kept as
    UTF-8 bytes (never re-escaped or re-encoded), with the live version it shows (for
    ``page_with_body``)."""
    built, body = cached_with_stamp(
        f"body:{key}:{template}",
        stamp,
        lambda: render_to_string(template, context()).encode(),
        every=settings.PAGES_RENDER_EVERY_SECONDS,
    )
    return body, stamp_version(built)


def page_with_body(
    request: HttpRequest, template: str, context: dict[str, Any], body: tuple[bytes, int]
) -> HttpResponse:
    """Render the per-user page around the cached body: the template prints `{{ body }}` once, and
    `{{ live_version }}` is the version the body shows (static/js/live.js compares it)."""
    body, version = body
    html = render_to_string(template, {**context, "body": mark_safe(_MARK), "live_version": version}, request)
    head, mark, tail = html.partition(_MARK)
    if not mark:
        raise ValueError(f"{template} does not print {{{{ body }}}}")
    return HttpResponse(b"".join((head.encode(), body, tail.encode())))
