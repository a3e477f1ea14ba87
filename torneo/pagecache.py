"""Public pages that a whole room reloads at once: computed and rendered once per change.

After each draw or result, a hundred phones ask for the same round, standings or bracket. What
such a page shows is the same for everyone, so its body (and the data behind it) is cached under
the tournament's *stamp*, a key that changes whenever anything public changes, and the small
per-user part of the page (navigation, staff links) is rendered around it on every request.

The stamp: draws and results bump the tournament's `live_version`; editing the tournament moves
its `updated_at`; a new or renamed pair or player, a changed partner or an edited jornada adds a
historical record (django-simple-history records every change, the admin's too). One statement of
four index lookups, in plain SQL because it runs on every request of these pages.
"""

from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from torneo.models import Pair, PairMember, Player, Session, Tournament

T = TypeVar("T")
TTL = 24 * 3600
_MARK = "<!--cuerpo-cacheado-->"


def tournament_stamp(tournament: Tournament) -> str:
    """Changes whenever anything a public page of this tournament shows changes."""
    quote = connection.ops.quote_name
    tables = [model.history.model._meta.db_table for model in (Pair, PairMember, Player, Session)]
    sql = "SELECT " + ", ".join(f"(SELECT MAX(history_id) FROM {quote(t)})" for t in tables)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        changes = cursor.fetchone()
    created, updated = (int(d.timestamp() * 1_000_000) for d in (tournament.created_at, tournament.updated_at))
    return f"{tournament.pk}.{created}.{updated}.{tournament.live_version}." + ".".join(map(str, changes))


def cached(key: str, stamp: str, build: Callable[[], T]) -> T:
    """`build()` once per stamp. One cache entry per key (holding its stamp), so that a busy
    tournament's many versions never pile up in memory: a different stamp is a miss."""
    key = f"{key}:{get_language()}"
    entry = cache.get(key)
    if entry is not None and entry[0] == stamp:
        return entry[1]  # type: ignore[no-any-return]
    value = build()
    cache.set(key, (stamp, value), TTL)
    return value


def cached_body(key: str, stamp: str, template: str, context: Callable[[], dict[str, Any]]) -> bytes:
    """A page body rendered once per stamp, kept as UTF-8 bytes (never re-escaped or re-encoded)."""
    return cached(f"body:{key}:{template}", stamp, lambda: render_to_string(template, context()).encode())


def page_with_body(request: HttpRequest, template: str, context: dict[str, Any], body: bytes) -> HttpResponse:
    """Render the per-user page around the cached body: the template prints `{{ body }}` once."""
    html = render_to_string(template, {**context, "body": mark_safe(_MARK)}, request)
    head, mark, tail = html.partition(_MARK)
    if not mark:
        raise ValueError(f"{template} does not print {{{{ body }}}}")
    return HttpResponse(b"".join((head.encode(), body, tail.encode())))
