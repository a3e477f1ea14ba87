"""Public pages rendered ahead, by a worker, for the anonymous visitors (issue 18: render once per
change, never per request).

When a draw or a result commits (torneo.services.live), a worker renders the pages it changed
exactly as an anonymous visitor would get them (the whole page, in the site's language, into the
cache that torneo.pagecache serves them from): the standings, the results and the current round's
draw, at most once every PAGES_RENDER_EVERY_SECONDS during a burst, and at once the pages of the
pairs concerned that someone has open. The phones then find the new version already rendered at
their next poll, and the web processes only hand out bytes. Without a worker nothing breaks: the first request renders
the page, as it always did.

The views are reached through the URL resolver, the way a request reaches them: this module
renders any app's public page without importing it.
"""

from collections.abc import Iterable

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.urls import resolve, reverse
from django.utils import translation

from torneo import pagecache
from torneo.models import Pair, Round, Tournament


def _anonymous_get(path: str) -> HttpRequest:
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.META = {"SERVER_NAME": "localhost", "SERVER_PORT": "80", "REQUEST_METHOD": "GET", "PATH_INFO": path}
    request.user = AnonymousUser()
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
    return rendered
