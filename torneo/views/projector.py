"""The hall's screen (issue 34): one public address per tournament, proyector/, that shows in turn
the current round's draw, the clocks, the standings and the organizer's announcements, each
scrolled through, then the next; no site chrome, large type.

The design: this page is a small frame (its body: the list of slides and the announcements, cached
like the other public pages, torneo.pagecache, under the tournament's stamp, which every draw,
result and announcement moves on) and static/js/projector.js does the rest in the browser, without
ever leaving the page. Just before showing a slide it reads that slide's public page with fetch
(the round's projector page, the clock wall in projector mode, the standings: the pages the phones
read, kept whole for anonymous visitors, so a screen costs the server what a phone does) and shows
its <main>; a page that does not come (the venue's Wi-Fi, a restart of the server) leaves the last
copy on the screen with a «sin conexión» mark, and the turn goes on. At the end of each turn it
reads this page again: a new round, a new announcement are in the next turn. The clocks count
down in the browser (static/js/clocks.js, as on the wall)."""

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from torneo.models import Tournament
from torneo.pagecache import anonymous_page, cached_body, page_with_body, tournament_stamp
from torneo.selectors.announcements import announcements_of, projector_rounds
from torneo.views.access import tournament_for


def slides(tournament: Tournament, *, announcements: bool) -> list[dict[str, str]]:
    """The turn, in order: each slide's kind and the page it is read from ("": this page's own
    section). The announcements only when there are some, and always when nothing else is to show."""
    rounds = projector_rounds(tournament)
    slug = tournament.slug
    turn = []
    if rounds.latest is not None:
        turn.append({"kind": "sorteo", "url": reverse("torneo:round_projector", args=[slug, rounds.latest])})
    if rounds.published:
        turn.append({"kind": "relojes", "url": reverse("scoring:clock_wall", args=[slug]) + "?proyector=1"})
        turn.append({"kind": "clasificacion", "url": reverse("scoring:standings", args=[slug])})
    if announcements or not turn:
        turn.append({"kind": "avisos", "url": ""})
    return turn


def _body(tournament: Tournament) -> dict[str, Any]:
    listed = announcements_of(tournament)
    return {
        "tournament": tournament,
        "announcements": listed,
        "slides": slides(tournament, announcements=bool(listed)),
    }


@anonymous_page()
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    body = cached_body(
        f"proyector:{tournament.pk}",
        tournament_stamp(tournament),
        "torneo/_projector_body.html",
        lambda: _body(tournament),
    )
    return page_with_body(request, "torneo/projector.html", {"tournament": tournament}, body)
