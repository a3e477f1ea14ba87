"""Live updates: per-tournament counters that public pages poll (static/js/live.js).

``live_version`` changes with anything a public page shows. A pair's page changes far less often
(its own result, its table's clock, its hands, or a new round for everyone), and half the phones
of a big event are on their pair's page: they poll ``live.json?pareja=<number>``, whose version is
the later of the pair's ``live_version`` and the tournament's ``live_all_version``. So a result
refreshes the standings for everyone, and the pair pages of the two pairs that played only.
"""

import logging
from collections.abc import Iterable

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import F, Subquery

from torneo.models import Pair, Tournament
from torneo.pagecache import forget_state

logger = logging.getLogger(__name__)


def live_bump(*, tournament_id: int, pairs: Iterable[int | None] | None = None) -> None:
    """Something players watch changed: for the pages of ``pairs`` (Pair ids) and the tournament's
    shared pages, or, by default, for every page. Two UPDATEs at most, no lock: the values only
    have to grow (both columns read the same old ``live_version``). Once committed, the public
    state kept in the cache is forgotten (torneo.pagecache)."""
    transaction.on_commit(lambda: forget_state(tournament_id=tournament_id))
    tournament = Tournament.objects.filter(pk=tournament_id)
    if pairs is None:
        tournament.update(live_version=F("live_version") + 1, live_all_version=F("live_version") + 1)
        return
    tournament.update(live_version=F("live_version") + 1)
    ids = sorted({pk for pk in pairs if pk is not None})
    if ids:
        Pair.objects.filter(pk__in=ids).update(live_version=Subquery(tournament.values("live_version")[:1]))
        if settings.PAGES_PRERENDER:
            transaction.on_commit(lambda: _prerender(tournament_id, ids))


def _prerender(tournament_id: int, pair_ids: list[int]) -> None:
    """The pairs' pages rendered by a worker before their phones ask (scoring's task, by name: this
    app does not import scoring's web layer). A broker that does not answer costs nothing but
    that: the pages are then rendered at the first request, as without it."""
    try:
        current_app.send_task("scoring.prerender_pair_pages", args=[tournament_id, pair_ids])
    except Exception:  # the change is committed; its pre-rendering is a bonus
        logger.warning("No se han podido encargar las páginas de las parejas %s", pair_ids, exc_info=True)
