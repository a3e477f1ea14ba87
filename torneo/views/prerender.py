"""Public pages rendered ahead, by a worker, for the anonymous visitors (issue 18: render once per
change, never per request).

When a draw or a result commits (torneo.services.live), a worker renders the pages it changed
exactly as an anonymous visitor would get them (the whole page, in the site's language, into the
cache that torneo.pagecache serves them from): the standings, the results and the current round's
draw, at most once every PAGES_RENDER_EVERY_SECONDS during a burst, and at once the pages of the
pairs concerned that someone has open — and, for the pairs' own phones (signed in with their
tarjeta), their own version of their pair's page (`member_pages`). The phones then find the new
version already rendered at their next poll, and the web processes only hand out bytes. Without
a worker nothing breaks: the first request renders the page, as it always did.

The views are reached through the URL resolver, the way a request reaches them: this module
renders any app's public page without importing it.
"""

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.urls import resolve, reverse
from django.utils import translation

from torneo import pagecache
from torneo.models import Pair, PairMember, PairTerminal, Round, Tournament


def _anonymous_get(path: str, user: Any = None) -> HttpRequest:
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.META = {"SERVER_NAME": "localhost", "SERVER_PORT": "80", "REQUEST_METHOD": "GET", "PATH_INFO": path}
    request.user = user or AnonymousUser()
    return request


def shared_paths(tournament: Tournament) -> list[str]:
    """The pages every phone of the room reloads after a change: the standings, the results and the
    current round's draw."""
    slug = tournament.slug
    paths = [reverse("scoring:standings", args=[slug]), reverse("scoring:results", args=[slug])]
    current = tournament.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    if current is not None:
        paths.append(reverse("torneo:round_detail", args=[slug, current.number]))
    return paths


def pair_paths(tournament: Tournament, pair_ids: Iterable[int]) -> list[str]:
    """The pages of these pairs that someone has open (an anonymous visitor had it before): at a
    1,146-pair event most pairs' pages are not watched, and rendering them would only take a core
    from the pages that are."""
    numbers = Pair.objects.filter(tournament=tournament, pk__in=list(pair_ids)).values_list("number", flat=True)
    paths = [reverse("scoring:pair_page", args=[tournament.slug, number]) for number in numbers]
    return [path for path in paths if pagecache.is_watched(path)]


def member_pages(tournament: Tournament, pair_ids: Iterable[int]) -> list[tuple[str, Any]]:
    """The pages of these pairs that their own phones have open (torneo.pagecache,
    `is_watched_by_members`), each with an account of the pair to render it as: its terminal's
    (the tarjeta's link, issue 32) or else a player's. A pair's phones read its page signed in, in
    a version of their own (the report form, the results they are to sign, its apercibimientos),
    the same for every account of the pair: rendered here after each change of the pair, it is not
    rendered by the web processes at the next poll of each of the pair's phones (two renders per
    table and result, 2,300 in ten minutes at a 1,146-pair event: the web's largest cost while the
    pairs report, benchmarks/load.py --mode players)."""
    numbers = Pair.objects.filter(tournament=tournament, pk__in=list(pair_ids)).values_list("pk", "number")
    paths = {pk: reverse("scoring:pair_page", args=[tournament.slug, number]) for pk, number in numbers}
    watched = {pk: path for pk, path in paths.items() if pagecache.is_watched_by_members(path)}
    accounts = {
        t.pair_id: t.user
        for t in PairTerminal.objects.filter(pair_id__in=list(watched), user__is_active=True)
        .exclude(selector="")
        .select_related("user")
    }
    missing = [pk for pk in watched if pk not in accounts]
    for member in PairMember.objects.filter(
        pair_id__in=missing, player__user__isnull=False, player__user__is_active=True
    ).select_related("player__user"):
        if member.player.user is not None:
            accounts.setdefault(member.pair_id, member.player.user)
    return [(path, accounts[pk]) for pk, path in watched.items() if pk in accounts]


def prerender_pages(*, tournament_id: int, pair_ids: Iterable[int] = (), shared: bool = False) -> int:
    """Render for anonymous visitors the pages of these pairs and, with ``shared``, the pages
    everyone reloads; a page already at the tournament's stamp is not rendered again. Returns how
    many pages answered 200."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not tournament.is_visible_to_public:
        return 0
    rendered = 0
    with translation.override(settings.LANGUAGE_CODE), pagecache.rendering_ahead():
        paths = (shared_paths(tournament) if shared else []) + pair_paths(tournament, pair_ids)
        for path in paths:
            match = resolve(path)
            response = match.func(_anonymous_get(path), *match.args, **match.kwargs)
            rendered += response.status_code == 200
        for path, account in member_pages(tournament, pair_ids):
            # The view itself, not the cache of whole pages around it (`anonymous_page`): what it
            # keeps is the pair's version of the body, which its phones find in their own frames;
            # a page rendered for a pair's account is never kept whole for anyone.
            match = resolve(path)
            view = getattr(match.func, "__wrapped__", match.func)
            request = pagecache.for_the_body_only(_anonymous_get(path, account))
            response = view(request, *match.args, **match.kwargs)
            rendered += response.status_code == 200
    return rendered
