"""The players' view, phone first: find yourself by name, and your pair's page (current table,
opponent and times, the table's live clock, every past match, results awaiting your confirmation). Public pages that
update themselves when results arrive (static/js/live.js)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from scoring.selectors import players as selectors
from scoring.views import clocks
from torneo.permissions import is_member_of
from torneo.selectors.tournaments import pair_page_version
from torneo.views.access import tournament_for

# ?intervalo= (ms) shortens the live poll of a page, e.g. for a browser test; never below this.
MIN_LIVE_INTERVAL_MS = 300


def live_interval(request: HttpRequest) -> int | None:
    """The poll interval a page asked for with ?intervalo=<ms> (None: live.js's default)."""
    raw = request.GET.get("intervalo", "")
    if not raw.isdigit():
        return None
    return max(int(raw), MIN_LIVE_INTERVAL_MS)


def find_player(request: HttpRequest, slug: str) -> HttpResponse:
    """Find yourself: type your name (accents and case ignored) and pick your pair."""
    tournament = tournament_for(request, slug)
    q = request.GET.get("q", "")[:100]
    pairs = selectors.find_pairs(tournament, q)
    return render(request, "scoring/players/find.html", {"tournament": tournament, "q": q, "pairs": pairs})


def pair_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A pair's page: its players, this round's table, opponent and times, its matches."""
    tournament = tournament_for(request, slug)
    pair = selectors.pair_with_players(tournament, number)
    if pair is None:
        raise Http404
    page = selectors.pair_page(tournament, pair)
    context = {
        # Read with the tournament and the pair, before the page's data: never newer than what it shows.
        "live_version": pair_page_version(tournament=tournament, pair_live_version=pair.live_version),
        "tournament": tournament,
        "page": page,
        "pair": pair,
        "is_member": is_member_of(request.user, pair),
        "live_interval": live_interval(request),
    }
    info = page.current.clock
    if info is not None and info.started:
        # The table's live clock (static/js/clocks.js counts it down, from the clock-detail API).
        now = timezone.now()
        card = clocks.cards_for([info], now, tournament)[0]
        api = clocks.clock_api(tournament, info.match)
        context |= {"card": card, **clocks.clock_context(request, tournament, [card], now, api)}
    return render(request, "scoring/players/pair.html", context)
