"""Live updates: per-tournament counters that public pages poll (static/js/live.js).

``live_version`` changes with anything a public page shows. A pair's page changes far less often
(its own result, its table's clock, its hands, or a new round for everyone), and half the phones
of a big event are on their pair's page: they poll ``live.json?pareja=<number>``, whose version is
the later of the pair's ``live_version`` and the tournament's ``live_all_version``. So a result
refreshes the standings for everyone, and the pair pages of the two pairs that played only.
"""

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F, Subquery

from torneo.models import Pair, Tournament
from torneo.pagecache import refresh_state

logger = logging.getLogger(__name__)


def live_bump(*, tournament_id: int, pairs: Iterable[int | None] | None = None) -> None:
    """Something players watch changed: for the pages of ``pairs`` (Pair ids) and the tournament's
    shared pages, or, by default, for every page. Two UPDATEs at most, no lock: the values only
    have to grow (both columns read the same old ``live_version``). Once committed, the public
    state kept in the cache is computed again (torneo.pagecache) and a worker renders the pages ahead."""
    tournament = Tournament.objects.filter(pk=tournament_id)
    if pairs is None:
        tournament.update(live_version=F("live_version") + 1, live_all_version=F("live_version") + 1)
        ids: list[int] = []
    else:
        tournament.update(live_version=F("live_version") + 1)
        ids = sorted({pk for pk in pairs if pk is not None})
        if ids:
            Pair.objects.filter(pk__in=ids).update(live_version=Subquery(tournament.values("live_version")[:1]))
    transaction.on_commit(lambda: refresh_state(tournament_id=tournament_id))
    if settings.PAGES_PRERENDER:
        transaction.on_commit(lambda: _prerender(tournament_id, ids))


@dataclass
class _Due:
    """The pages of one message to the workers."""

    pairs: list[int] = field(default_factory=list)
    shared: bool = False


def _prerender(tournament_id: int, pair_ids: list[int]) -> None:
    """Send the pages this change touched to a worker (torneo.views.prerender). Every page — the
    tournament's shared pages, each pair's page — has at most one render pending: at once, unless
    it was sent less than its interval ago, and then once more when that time is up, whatever the
    number of changes meanwhile (the render reads the state when it runs, so the last change is
    included). A burst of taps on one table (a phone looping on the clock's API) thus costs two
    tasks per interval, not one per tap. The shared pages' interval is PAGES_RENDER_EVERY_SECONDS
    (a 573-table round is a large render); a pair's page, small, has its own shorter one
    (PAGES_PAIR_RENDER_EVERY_SECONDS): a pair reports and the rival signs five seconds later, and
    the page a phone asks for before the worker has rendered it is rendered by the web. At most
    three messages per change: the pages due now, the pairs' pages due later, the shared pages due
    later. A broker that does not answer costs nothing but that: the pages are then rendered at
    the first request, as without a worker."""
    every = settings.PAGES_RENDER_EVERY_SECONDS
    key = f"torneo:prerender:{tournament_id}"
    try:
        if not every:
            _send(tournament_id, pair_ids, shared=True)
            return
        pair_every = min(every, settings.PAGES_PAIR_RENDER_EVERY_SECONDS)
        now, later = _Due(), {every: _Due(), pair_every: _Due()}
        pages = [(key, None, every), *((f"{key}:p{pk}", pk, pair_every) for pk in pair_ids)]
        for page, pair_id, interval in pages:
            if cache.add(page, 1, interval):
                due = now
            elif cache.add(f"{page}:luego", 1, interval):
                due = later[interval]
            else:
                continue  # a render is already pending after the last one: it will show this change too
            if pair_id is None:
                due.shared = True
            else:
                due.pairs.append(pair_id)
        for countdown, due in [(0.0, now), *sorted(later.items())]:
            if due.pairs or due.shared:
                _send(tournament_id, due.pairs, shared=due.shared, countdown=countdown)
    except Exception:  # the change is committed; rendering it ahead is a bonus
        logger.warning("No se han podido encargar las páginas del torneo %s", tournament_id, exc_info=True)


def _send(tournament_id: int, pair_ids: list[int], *, shared: bool, countdown: float = 0) -> None:
    current_app.send_task("torneo.prerender_pages", args=[tournament_id, pair_ids, shared], countdown=countdown)
