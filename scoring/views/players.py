"""The players' view, phone first: find yourself by name, and your pair's page (current table,
opponent and times, the table's live clock, every past match, results awaiting your confirmation). Public pages that
update themselves when results arrive (static/js/live.js)."""

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe

from scoring.selectors import players as selectors
from scoring.selectors.clocks import match_clock
from scoring.views import clocks
from torneo import pagecache
from torneo.models import Tournament
from torneo.numbers import parse_int
from torneo.permissions import Action, can, is_member_of
from torneo.selectors.tournaments import live_version, pair_page_version
from torneo.views.access import tournament_for

# ?intervalo= (ms) shortens the live poll of a page, e.g. for a browser test; never below this.
MIN_LIVE_INTERVAL_MS = 300


def live_interval(request: HttpRequest) -> int | None:
    """The poll interval a page asked for with ?intervalo=<ms> (None: live.js's default)."""
    asked = parse_int(request.GET.get("intervalo"))
    return None if asked is None else max(asked, MIN_LIVE_INTERVAL_MS)


def find_player(request: HttpRequest, slug: str) -> HttpResponse:
    """Find yourself: type your name (accents and case ignored) and pick your pair."""
    tournament = tournament_for(request, slug)
    q = request.GET.get("q", "")[:100]
    pairs = selectors.find_pairs(tournament, q)
    return render(request, "scoring/players/find.html", {"tournament": tournament, "q": q, "pairs": pairs})


# An anonymous visitor's pair page with its table's clock is rendered again past this age though
# nothing changed: its HTML says the minute (the script corrects it at once).
PAIR_PAGE_MAX_AGE = 60


def _pair_stamp(state: pagecache.PublicState, kwargs: dict[str, Any]) -> str | None:
    """The stamp an anonymous visitor's pair page must have now: the tournament's, at the pair
    page's version (both kept in the cache: no query)."""
    version = live_version(state, pair=str(kwargs["number"]))
    return None if version is None else pagecache.stamp_with_version(state.stamp, version)


@pagecache.anonymous_page(stamp=_pair_stamp, max_age=PAIR_PAGE_MAX_AGE)
def pair_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A pair's page: its players, this round's table, opponent and times, its matches.

    Half the phones of a big event are on their pair's page: its body is rendered once per change
    of that page (torneo.pagecache, the pair's live version: torneo.services.live), in three
    versions (the public's, the pair's players', the staff's); the table's clock, which counts the
    minutes, is rendered at every request into its slots."""
    tournament = tournament_for(request, slug)
    pair = selectors.pair_with_players(tournament, number)
    if pair is None:
        raise Http404
    # Read with the tournament and the pair, before the page's data: never newer than what it shows.
    version = pair_page_version(tournament=tournament, pair_live_version=pair.live_version)
    member = is_member_of(request.user, pair)
    private = member or can(request.user, tournament, Action.VIEW_PRIVATE)
    if member and not pagecache.is_rendering_ahead():
        pagecache.watched_by_members(request.path)  # its own version, rendered ahead after each change
    computed: dict[str, Any] = {}  # the clock, when this request renders the body: not read twice

    def build() -> tuple[bytes, int | None]:
        page = selectors.pair_page(tournament, pair)
        info = computed["clock"] = page.current.clock
        line = page.current.line
        clock_match = line.match.pk if line is not None and info is not None and info.started else None
        context = {
            "tournament": tournament,
            "page": page,
            "pair": pair,
            "is_member": member,
            "sanctions_private": private,
            "has_clock": clock_match is not None,
            "clock_slot": mark_safe(CLOCK_SLOT),
            "clock_script_slot": mark_safe(CLOCK_SCRIPT_SLOT),
        }
        return render_to_string("scoring/players/_pair_body.html", context).encode(), clock_match

    key = f"pareja:{tournament.pk}:{pair.pk}:{int(member)}:{int(private)}"
    stamp = pagecache.tournament_stamp(tournament, version=version)
    every = settings.PAGES_RENDER_EVERY_SECONDS
    built, (body, clock_match) = pagecache.cached_with_stamp(key, stamp, build, every=every)
    # The body with its table's clock, rendered once per change of the page and per
    # PAIR_PAGE_MAX_AGE seconds (the minute its HTML says), not at every request: the two phones of
    # each of 1,146 pairs open this page within a minute of the draw. Clock events change the
    # pair's version, so the stamp; the server's time the script counts from is written in when the
    # page is sent (torneo.pagecache), its deadlines being absolute. Kept under its own key, a
    # signed-in phone reads it again in its own frame without a query (torneo.pagecache, `Frame`).
    if clock_match is None:
        kept = pagecache.kept_body(f"{key}:sin-reloj", built, lambda: body)
    else:
        kept = pagecache.kept_body(
            f"{key}:reloj:{live_interval(request)}",
            built,
            lambda: _with_clock(request, tournament, body, clock_match, computed.get("clock")),
            max_age=PAIR_PAGE_MAX_AGE,
        )
    context = {"tournament": tournament, "pair": pair, "has_clock": clock_match is not None, "is_member": member}
    context["live_interval"] = live_interval(request)
    return pagecache.page_with_body(request, "scoring/players/pair.html", context, kept)


CLOCK_SLOT = "<!--reloj-de-la-mesa-->"
CLOCK_SCRIPT_SLOT = "<!--datos-del-reloj-->"


def _with_clock(request: HttpRequest, tournament: Tournament, body: bytes, match_id: int, info: Any = None) -> bytes:
    """The table's live clock (static/js/clocks.js counts it down, from the clock-detail API), now;
    ``info``: the clock this request already read while rendering the body."""
    now = timezone.now()
    if info is None or info.match.pk != match_id:
        match = selectors.match_for_clock(tournament, match_id)
        info = match_clock(match, now) if match is not None else None
    if info is None or not info.started:
        return body.replace(CLOCK_SLOT.encode(), b"").replace(CLOCK_SCRIPT_SLOT.encode(), b"")
    card = clocks.cards_for([info], now, tournament)[0]
    api = clocks.clock_api(tournament, info.match)
    context = {"tournament": tournament, "card": card, **clocks.clock_context(request, tournament, [card], now, api)}
    clock = render_to_string("scoring/players/_pair_clock.html", context, request).encode()
    script = render_to_string("scoring/clocks/_script.html", context, request).encode()
    return body.replace(CLOCK_SLOT.encode(), clock).replace(CLOCK_SCRIPT_SLOT.encode(), script)
