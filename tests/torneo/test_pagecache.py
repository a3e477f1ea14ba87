"""The public-page cache: its stamp changes with anything a public page shows, and only then."""

import gzip
import json
import re
import zlib
from contextlib import contextmanager
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.cache import cache, caches
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.db.models import F
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from scoring.services.results import result_submit
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo import pagecache
from torneo.models import Match, Pair, Player, Tournament
from torneo.pagecache import tournament_stamp
from torneo.services.tournaments import session_save

pytestmark = pytest.mark.django_db


def fresh(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def test_stamp_changes_with_results_names_jornadas_and_edits_but_not_otherwise():
    sim = new_tournament(6)
    round_ = sim.play_round()
    t = fresh(sim.tournament)
    stamp = tournament_stamp(t)
    assert tournament_stamp(fresh(t)) == stamp  # nothing changed
    match = round_.matches.exclude(pair_b=None).first()
    result_submit(match=match, by=sim.organizer, games_a=0, games_b=3, expected_version=match.result_version)
    after_result = tournament_stamp(fresh(t))
    assert after_result != stamp
    player = Player.objects.filter(memberships__pair=match.pair_a).first()
    player.last_name = "Renombrado"
    player.save()
    after_rename = tournament_stamp(fresh(t))
    assert after_rename != after_result
    session_save(tournament=t, name="Jornada 2", starts_at=datetime(2026, 12, 12, 17, tzinfo=ZoneInfo("Europe/Madrid")))
    assert tournament_stamp(fresh(t)) != after_rename


def test_a_renamed_player_shows_at_once_on_the_cached_public_pages():
    sim = new_tournament(6)
    round_ = sim.play_round()
    slug = sim.tournament.slug
    client = Client()
    for url in (f"/torneos/{slug}/clasificacion/", f"/torneos/{slug}/rondas/{round_.number}/"):
        assert client.get(url).status_code == 200  # warm the caches
    match = Match.objects.filter(round=round_).exclude(pair_b=None).first()
    player = Player.objects.filter(memberships__pair=match.pair_a).first()
    player.first_name, player.last_name = "Zacarías", "Ultimísimo"
    player.save()
    for url in (f"/torneos/{slug}/clasificacion/", f"/torneos/{slug}/rondas/{round_.number}/"):
        assert "Ultimísimo" in client.get(url).content.decode(), url


# --- coalesced rendering (issue 18, item 2) ---------------------------------------------------------


def _lock_key(url_key: str) -> str:
    from django.utils.translation import get_language

    return f"{url_key}:{get_language()}:rendering"


def test_while_a_page_is_being_rendered_other_requests_get_the_last_bytes_and_their_version():
    """A result arrives while the standings are being rendered for the previous one: the requests in
    between get the last rendered page at once, which says the version it shows (older than
    live.json's), so static/js/live.js asks again; once the renderer is done, the new page."""

    sim = new_tournament(6)
    round_ = sim.play_round()
    slug, t = sim.tournament.slug, fresh(sim.tournament)
    client = Client()
    url = f"/torneos/{slug}/clasificacion/"
    before = client.get(url).content.decode()
    shown = int(re.search(r'data-live-version="(\d+)"', before).group(1))
    assert shown == fresh(t).live_version
    match = round_.matches.exclude(pair_b=None).first()
    result_submit(match=match, by=sim.organizer, games_a=0, games_b=3, expected_version=match.result_version)
    lock = _lock_key(f"body:scoring:standings:{t.pk}:scoring/_standings_body.html")
    assert cache.add(lock, "someone else", 30)  # another request is rendering the new standings
    stale = client.get(url).content.decode()
    assert re.search(r'data-live-version="(\d+)"', stale).group(1) == str(shown)
    assert fresh(t).live_version > shown
    assert client.get(f"/torneos/{slug}/live.json").json()["version"] == fresh(t).live_version
    cache.delete(lock)  # the renderer is done (or dead): the next request renders the new page
    now = client.get(url).content.decode()
    assert re.search(r'data-live-version="(\d+)"', now).group(1) == str(fresh(t).live_version)


def test_a_cold_page_is_rendered_once_however_many_ask_at_once():
    """No bytes yet and another request rendering: wait for its page instead of rendering again."""
    import threading

    builds = []

    def build() -> bytes:
        builds.append(1)
        return b"cuerpo"

    key = f"prueba:{threading.get_ident()}"
    assert pagecache.cached_with_stamp(key, "1.0.0.7", build) == ("1.0.0.7", b"cuerpo")
    assert pagecache.cached_with_stamp(key, "1.0.0.7", build) == ("1.0.0.7", b"cuerpo") and len(builds) == 1

    cold = f"{key}-frio"
    assert cache.add(_lock_key(cold), "otro", 30)
    from django.utils.translation import get_language

    # The other request stores its page 0.2 s later; this one waits for it and renders nothing.
    threading.Timer(0.2, lambda: cache.set(f"{cold}:{get_language()}", ("1.0.0.8", b"del otro", 0.0))).start()
    assert pagecache.cached_with_stamp(cold, "1.0.0.8", build) == ("1.0.0.8", b"del otro")
    assert len(builds) == 1


def test_the_results_page_is_rendered_once_per_change(django_assert_max_num_queries):
    sim = new_tournament(8)
    round_ = sim.play_round()
    slug = sim.tournament.slug
    client = Client()
    url = f"/torneos/{slug}/resultados/"
    first = client.get(url)
    assert first.status_code == 200 and f"Ronda {round_.number}" in first.content.decode()
    with django_assert_max_num_queries(4):  # the tournament, its stamp, its rounds: no table read again
        again = client.get(url)
    assert again.status_code == 200 and f"Ronda {round_.number}" in again.content.decode()
    match = round_.matches.exclude(pair_b=None).order_by("table_number").first()
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=2, expected_version=match.result_version)
    assert "3–2" in client.get(url).content.decode() or "3-2" in client.get(url).content.decode()


def test_during_a_burst_a_page_is_rendered_at_most_every_few_seconds(settings):
    """PAGES_RENDER_EVERY_SECONDS: a page younger than that is served as it is after a change, with
    the version it shows (live.js asks again); past it, the next request renders the new one."""
    settings.PAGES_RENDER_EVERY_SECONDS = 60
    sim = new_tournament(6)
    round_ = sim.play_round()
    client = Client()
    url = f"/torneos/{sim.tournament.slug}/clasificacion/"
    shown = re.search(r'data-live-version="(\d+)"', client.get(url).content.decode()).group(1)
    match = round_.matches.exclude(pair_b=None).first()
    result_submit(match=match, by=sim.organizer, games_a=0, games_b=3, expected_version=match.result_version)
    assert int(shown) < fresh(sim.tournament).live_version
    young = client.get(url).content.decode()
    assert re.search(r'data-live-version="(\d+)"', young).group(1) == shown
    settings.PAGES_RENDER_EVERY_SECONDS = 0  # as if the interval had passed
    now = client.get(url).content.decode()
    assert re.search(r'data-live-version="(\d+)"', now).group(1) == str(fresh(sim.tournament).live_version)


# --- anonymous visitors: the whole page and live.json without a query (issue 18, item 2) -----------


def _queries(client: Client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured), response.content.decode()


def _version(html: str) -> int:
    return int(re.search(r'data-live-version="(\d+)"', html).group(1))


@pytest.fixture
def state_kept(settings):
    """Production's setting: a tournament's public state kept in the cache between requests."""
    settings.PAGES_STATE_SECONDS = 60
    cache.clear()


def test_anonymous_visitors_get_the_public_pages_and_live_json_without_a_query(state_kept):
    sim = new_tournament(8)
    round_ = sim.play_round()
    slug = sim.tournament.slug
    pages = [
        f"/torneos/{slug}/clasificacion/",
        f"/torneos/{slug}/rondas/{round_.number}/",
        f"/torneos/{slug}/resultados/",
        f"/torneos/{slug}/resultados/?ronda={round_.number}",
    ]
    for url in pages:
        Client().get(url)  # the first visitor renders it
        count, html = _queries(Client(), url)
        assert count == 0, url
        assert _version(html) == fresh(sim.tournament).live_version
    pair = round_.matches.exclude(pair_b=None).first().pair_a
    for url in (f"/torneos/{slug}/live.json", f"/torneos/{slug}/live.json?pareja={pair.number}"):
        Client().get(url)
        count, body = _queries(Client(), url)
        assert count == 0, url
        assert '"version"' in body
    # Every pair's version was read at once: another pair's phone costs no query either.
    other = round_.matches.exclude(pair_b=None).last().pair_b
    count, body = _queries(Client(), f"/torneos/{slug}/live.json?pareja={other.number}")
    assert count == 0
    expected = max(Pair.objects.get(pk=other.pk).live_version, fresh(sim.tournament).live_all_version)
    assert json.loads(body)["version"] == expected


def test_a_result_shows_at_once_to_anonymous_visitors_when_it_commits(state_kept, django_capture_on_commit_callbacks):
    """The state kept in the cache is computed again when a result commits (torneo.services.live)."""
    sim = new_tournament(8)
    round_ = sim.play_round()
    slug = sim.tournament.slug
    url = f"/torneos/{slug}/clasificacion/"
    before = _version(Client().get(url).content.decode())
    live_before = Client().get(f"/torneos/{slug}/live.json").json()["version"]
    match = round_.matches.exclude(pair_b=None).first()
    with django_capture_on_commit_callbacks(execute=True):
        result_submit(match=match, by=sim.organizer, games_a=0, games_b=3, expected_version=match.result_version)
    now = fresh(sim.tournament).live_version
    assert before < now
    assert _version(Client().get(url).content.decode()) == now
    assert live_before < Client().get(f"/torneos/{slug}/live.json").json()["version"] == now


def test_a_page_whose_stamp_has_not_changed_is_served_from_the_process_memory(state_kept, monkeypatch):
    """issue 18: the shared cache (a file, Redis) is not read again for a page this process has."""
    sim = new_tournament(8)
    sim.play_round()
    url = f"/torneos/{sim.tournament.slug}/clasificacion/"
    first = Client().get(url).content
    reads = []
    shared = caches["default"]
    original = shared.get
    monkeypatch.setattr(shared, "get", lambda key, *a, **k: reads.append(key) or original(key, *a, **k))
    second = Client().get(url).content
    assert [key for key in reads if key.startswith("anonima:")] == []
    assert _version(second.decode()) == _version(first.decode())


def test_the_process_memory_never_serves_a_page_older_than_the_tournament(
    state_kept, django_capture_on_commit_callbacks
):
    sim = new_tournament(8)
    round_ = sim.play_round()
    url = f"/torneos/{sim.tournament.slug}/clasificacion/"
    Client().get(url)
    Client().get(url)
    match = round_.matches.exclude(pair_b=None).first()
    with django_capture_on_commit_callbacks(execute=True):
        result_submit(match=match, by=sim.organizer, games_a=0, games_b=3, expected_version=match.result_version)
    assert _version(Client().get(url).content.decode()) == fresh(sim.tournament).live_version


def test_the_process_memory_keeps_its_budget_dropping_the_least_recently_used():
    def page(stamp: str, content: bytes) -> pagecache.Page:
        return pagecache.Page(stamp, 0.0, content)

    recent = pagecache.RecentPages(10)
    recent.put("a", page("s", b"1234"))
    recent.put("b", page("s", b"1234"))
    assert recent.get("a") is not None  # "b" is now the least recently used
    recent.put("c", page("s", b"1234"))
    assert recent.get("b") is None
    assert recent.get("a") is not None and recent.get("c") is not None
    assert recent.size == 8
    recent.put("big", page("s", b"x" * 11))  # larger than the whole budget: not kept
    assert recent.get("big") is None and recent.size == 8
    recent.put("a", page("t", b"12"))
    assert recent.get("a") == page("t", b"12") and recent.size == 6
    recent.put("a", pagecache.Page("u", 0.0, None, b"123"))  # a gzipped page: its gzipped bytes
    assert recent.size == 7


def test_after_a_result_no_phone_pays_for_the_tournaments_state(state_kept, django_capture_on_commit_callbacks):
    """issue 18: the commit computes the state and every pair's version; live.json asks nothing."""
    sim = new_tournament(8)
    round_ = sim.play_round()
    slug = sim.tournament.slug
    match = round_.matches.exclude(pair_b=None).first()
    Client().get(f"/torneos/{slug}/live.json")
    with django_capture_on_commit_callbacks(execute=True):
        result_submit(match=match, by=sim.organizer, games_a=0, games_b=3, expected_version=match.result_version)
    for url in (f"/torneos/{slug}/live.json", f"/torneos/{slug}/live.json?pareja={match.pair_a.number}"):
        count, body = _queries(Client(), url)
        assert count == 0, url
    assert json.loads(body)["version"] == Pair.objects.get(pk=match.pair_a_id).live_version


def test_an_expired_state_is_computed_by_one_request_while_the_others_use_the_last(state_kept, settings):
    settings.PAGES_STATE_SECONDS = 1
    sim = new_tournament(6)
    sim.play_round()
    slug = sim.tournament.slug
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        Client().get(f"/torneos/{slug}/live.json")
        Tournament.objects.filter(pk=sim.tournament.pk).update(live_version=999)  # no commit hook: a rename
        traveller.shift(2)
        cache.add(f"torneo:estado:{slug}:calculando", 1, 10)  # another request is computing it
        count, body = _queries(Client(), f"/torneos/{slug}/live.json")
        assert count == 0 and json.loads(body)["version"] != 999
        cache.delete(f"torneo:estado:{slug}:calculando")
        count, body = _queries(Client(), f"/torneos/{slug}/live.json")
        assert count > 0 and json.loads(body)["version"] == 999


def test_a_state_computed_earlier_never_replaces_a_later_one(state_kept):
    sim = new_tournament(6)
    sim.play_round()
    slug = sim.tournament.slug
    pagecache.refresh_state(tournament_id=sim.tournament.pk)
    later = pagecache.public_state(slug).live_version
    Tournament.objects.filter(pk=sim.tournament.pk).update(live_version=later - 1)  # an earlier commit's view
    pagecache.refresh_state(tournament_id=sim.tournament.pk)
    assert pagecache.public_state(slug).live_version == later


def test_a_state_stored_after_a_later_commits_is_computed_again(state_kept, monkeypatch):
    """A result and a clock's tick commit at once: the result's process read the tournament before
    the tick committed, and stores its state after the tick's. It reads the live version again
    and stores the later state: the kept state is never older than the last commit."""
    sim = new_tournament(6)
    sim.play_round()
    tournament, slug = sim.tournament, sim.tournament.slug
    pagecache.refresh_state(tournament_id=tournament.pk)
    real = pagecache.cache
    interleaved = []

    class TickCommitsMeanwhile:
        """The cache, except that the first read of the kept state lets another commit in."""

        def __getattr__(self, name):
            return getattr(real, name)

        def get(self, key, *args):
            value = real.get(key, *args)
            if key == f"torneo:estado:{slug}" and not interleaved:
                interleaved.append(key)
                Tournament.objects.filter(pk=tournament.pk).update(live_version=F("live_version") + 1)
                pagecache.refresh_state(tournament_id=tournament.pk)  # the tick's, stored first
            return value

    monkeypatch.setattr(pagecache, "cache", TickCommitsMeanwhile())
    before = fresh(tournament).live_version
    pagecache.refresh_state(tournament_id=tournament.pk)  # the result's: read before the tick
    assert interleaved
    assert pagecache.public_state(slug).live_version == fresh(tournament).live_version == before + 1


def test_a_worker_rendering_ahead_uses_the_state_just_committed_not_the_kept_one(state_kept):
    sim = new_tournament(6)
    sim.play_round()
    tournament, slug = sim.tournament, sim.tournament.slug
    pagecache.refresh_state(tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(live_version=F("live_version") + 1)  # no refresh
    assert pagecache.public_state(slug).live_version == fresh(tournament).live_version - 1
    with pagecache.rendering_ahead():
        assert pagecache.public_state(slug).live_version == fresh(tournament).live_version
        assert pagecache.pair_versions(tournament.pk) == dict(
            Pair.objects.filter(tournament=tournament).values_list("number", "live_version")
        )


@pytest.mark.parametrize("backend", ["locmem", "file"])
def test_a_result_shows_at_once_on_its_pairs_live_json_when_it_commits(
    state_kept, settings, tmp_path, backend, django_capture_on_commit_callbacks
):
    """Every pair's version is kept with the tournament's state, and forgotten with it; with the
    embedded default's file cache too, which hands the kept state out without unpickling it again
    while its file is unchanged (torneo/filecache.py, `get_shared`)."""
    if backend == "file":
        settings.CACHES = {
            **settings.CACHES,
            "default": {"BACKEND": "torneo.filecache.FileCache", "LOCATION": str(tmp_path)},
        }
    sim = new_tournament(8)
    round_ = sim.play_round()
    slug = sim.tournament.slug
    for match in round_.matches.exclude(pair_b=None)[:2]:
        live = f"/torneos/{slug}/live.json?pareja={match.pair_a.number}"
        before = Client().get(live).json()["version"]
        assert Client().get(live).json()["version"] == before  # read again, unchanged
        with django_capture_on_commit_callbacks(execute=True):
            result_submit(match=match, by=sim.organizer, games_a=0, games_b=3, expected_version=match.result_version)
        assert before < Client().get(live).json()["version"] == Pair.objects.get(pk=match.pair_a_id).live_version


def test_anonymous_pages_are_gzipped_once_and_the_same_bytes_for_every_visitor(state_kept):
    """issue 18: a 573-table round is 900 KB of HTML; kept gzipped, it is sent as it is to every
    browser that takes gzip, with no secret of anyone's in it (the language form has no token)."""
    sim = new_tournament(12)
    round_ = sim.play_round()
    url = f"/torneos/{sim.tournament.slug}/rondas/{round_.number}/"
    plain = Client().get(url)
    assert "csrfmiddlewaretoken" not in plain.content.decode()
    assert "Accept-Encoding" in plain["Vary"]
    packed = []
    for _ in range(2):
        visitor = Client(HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        with CaptureQueriesContext(connection) as queries:
            response = visitor.get(url)
        assert len(queries) == 0
        assert response["Content-Encoding"] == "gzip" and "Accept-Encoding" in response["Vary"]
        packed.append(response.content)
    assert packed[0] == packed[1]
    assert gzip.decompress(packed[0]) == Client().get(url).content == plain.content
    assert len(packed[0]) * 3 < len(plain.content)
    with translation.override("es"):
        kept = cache.get(pagecache.anonymous_key(url))
    assert kept.content is None and kept.gzipped == packed[0]  # kept gzipped only: a small entry
    # A browser that does not take gzip gets the HTML.
    assert "Content-Encoding" not in Client(HTTP_ACCEPT_ENCODING="identity").get(url)


def test_a_page_with_a_clock_is_never_sent_gzipped_with_an_old_server_time(
    state_kept, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A pair page's clock counts from the server's time written in at each request."""
    from scoring.services import clocks as clock_services

    sim = new_tournament(8)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    clock_services.clocks_start_round(round=round_, by=sim.juez)
    url = f"/torneos/{sim.tournament.slug}/parejas/{match.pair_a.number}/ficha/"
    Client().get(url)
    later = timezone.now() + timedelta(seconds=20)
    with time_machine.travel(later, tick=False):
        response = Client(HTTP_ACCEPT_ENCODING="gzip").get(url)
    assert "Content-Encoding" not in response
    assert f'"server_now": "{later.isoformat()}"' in response.content.decode()


def test_signed_in_users_and_other_queries_never_get_the_anonymous_page(state_kept):
    sim = new_tournament(6)
    round_ = sim.play_round()
    url = f"/torneos/{sim.tournament.slug}/rondas/{round_.number}/"
    Client().get(url)
    staff = Client()
    staff.force_login(sim.organizer)
    count, html = _queries(staff, url)
    assert count > 0 and sim.organizer.username in html  # the frame says who is signed in
    count, _ = _queries(Client(), url + "?intervalo=500")  # a query this page does not take
    assert count > 0
    assert Client().get(f"/torneos/{sim.tournament.slug}/resultados/?ronda=99").status_code == 404


def test_a_draft_is_never_served_from_the_public_state(state_kept):
    sim = new_tournament(6)
    round_ = sim.play_round()
    slug = sim.tournament.slug
    Tournament.objects.filter(pk=sim.tournament.pk).update(status=Tournament.Status.DRAFT)
    for url in (f"/torneos/{slug}/rondas/{round_.number}/", f"/torneos/{slug}/live.json"):
        assert Client().get(url).status_code == 404
        assert Client().get(url).status_code == 404  # with its state kept: still not public
    assert pagecache.public_state(slug) is None
    assert pagecache.public_state("no-existe") is None
    # What names nothing is never kept: a stranger cannot fill the cache with made-up addresses.
    assert cache.get("torneo:estado:no-existe") is None
    Tournament.objects.filter(pk=sim.tournament.pk).update(status=Tournament.Status.RUNNING)
    cache.clear()
    assert Client().get(f"/torneos/{slug}/live.json?pareja=999").status_code == 404
    assert cache.get(f"torneo:estado:{sim.tournament.pk}:pareja:999") is None


def _worker(monkeypatch, settings) -> list[tuple[list, float]]:
    """The tasks live_bump sends (torneo.services.live), run here by the task's own code, as a
    worker would: the list of (args, countdown) sent."""
    from torneo.services import live
    from torneo.tasks import prerender_pages_task

    settings.PAGES_PRERENDER = True
    sent = []

    def send_task(name, args, countdown=0, **options):
        if name != "torneo.prerender_pages":
            return  # another task of the same change (the rival's notice): not these tests' business
        sent.append((args, countdown))
        if not countdown:
            prerender_pages_task.apply(args=args)

    monkeypatch.setattr(live.current_app, "send_task", send_task)
    return sent


def test_a_result_renders_the_pages_it_changed_before_anyone_asks(
    state_kept, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A result sends its two pairs' pages and the shared pages to a worker, which renders them
    for anonymous visitors: the phones that see the new version fetch them without a query, the
    table's clock counting from the time they are served."""
    from scoring.services import clocks as clock_services
    from scoring.views.players import PAIR_PAGE_MAX_AGE

    settings.PAGES_RENDER_EVERY_SECONDS = 60
    sim = new_tournament(8)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    clock_services.clocks_start_round(round=round_, by=sim.juez)
    cache.clear()
    watched = f"/torneos/{sim.tournament.slug}/parejas/{match.pair_a.number}/ficha/"
    Client().get(watched)  # a phone has pair A's page open; nobody has pair B's
    sent = _worker(monkeypatch, settings)
    with django_capture_on_commit_callbacks(execute=True):
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=1, expected_version=match.result_version)
    pairs = sorted([match.pair_a_id, match.pair_b_id])
    assert sent == [([sim.tournament.pk, pairs, True], 0)]
    slug = sim.tournament.slug
    now = fresh(sim.tournament).live_version
    for url in (f"/torneos/{slug}/clasificacion/", f"/torneos/{slug}/resultados/", f"/torneos/{slug}/rondas/1/"):
        count, html = _queries(Client(), url)
        assert count == 0 and _version(html) == now, url
    url = watched
    later = timezone.now() + timedelta(seconds=30)
    with time_machine.travel(later, tick=False):
        count, html = _queries(Client(), url)
    assert count == 0
    assert _version(html) == now
    assert match.pair_b.display_name in html
    # The clock counts from when the page is served, not from when it was rendered.
    assert f'"server_now": "{later.isoformat()}"' in html
    with time_machine.travel(later + timedelta(seconds=PAIR_PAGE_MAX_AGE), tick=False):
        count, html = _queries(Client(), url)  # past its age the HTML's minute is rendered again
    assert count > 0 and match.pair_b.display_name in html
    # The page nobody had open was not rendered: its first visitor renders it.
    count, html = _queries(Client(), f"/torneos/{slug}/parejas/{match.pair_b.number}/ficha/")
    assert count > 0 and match.pair_a.display_name in html


def test_a_report_renders_each_pairs_own_page_ahead_and_its_phones_read_it_without_the_view(
    state_kept, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """Issue 32: a pair's phones read their pair's page signed in, their own version (the result to
    sign); after a report the worker renders that version for both pairs of the table as their
    account would get it, so each phone's next read finds it without a query, in its own frame,
    its clock counting from when it is served. The public never gets it, and a pair whose phones
    never opened their page is not rendered."""
    from scoring.services import clocks as clock_services
    from scoring.services.results import result_report
    from torneo.models import PairTerminal

    settings.PAGES_RENDER_EVERY_SECONDS = 60
    sim = new_tournament(8)
    round_ = publish_next_round(sim)
    match, other = playing(round_)[:2]
    clock_services.clocks_start_round(round=round_, by=sim.juez)
    cache.clear()
    slug = sim.tournament.slug
    url = f"/torneos/{slug}/parejas/{{}}/ficha/".format
    phone_a, phone_b = _phone(sim, match.pair_a.number), _phone(sim, match.pair_b.number)
    for phone, pair in ((phone_a, match.pair_a), (phone_b, match.pair_b)):
        phone.get(url(pair.number))  # its frame, kept
        assert pagecache.is_watched_by_members(url(pair.number))
    _phone(sim, other.pair_a.number)  # opened its tarjeta, never its own page
    sent = _worker(monkeypatch, settings)
    reporter = PairTerminal.objects.get(pair=match.pair_a).user
    templates = []
    render = pagecache.render_to_string

    def recorded(name, *args, **kwargs):
        templates.append(name)
        return render(name, *args, **kwargs)

    monkeypatch.setattr(pagecache, "render_to_string", recorded)
    with django_capture_on_commit_callbacks(execute=True):
        sub = result_report(match=match, by=reporter, games_a=3, games_b=1)
    assert sent and sent[0][1] == 0
    assert "scoring/players/pair.html" not in templates  # the pairs' bodies, never a frame nobody reads
    pair_b = Pair.objects.get(pk=match.pair_b_id)
    later = timezone.now() + timedelta(seconds=20)
    with time_machine.travel(later, tick=False), CaptureQueriesContext(connection) as queries:
        page = _page(phone_b.get(url(pair_b.number)))
    assert len(queries) == 0
    signing = "Revisar y confirmar"  # the pair's version: its players sign the rival's report
    assert f'id="confirmar-{sub.pk}"' in page and signing in page
    assert _version(page) == max(pair_b.live_version, fresh(sim.tournament).live_all_version)
    assert f'"server_now": "{later.isoformat()}"' in page  # the clock counts from now
    with CaptureQueriesContext(connection) as queries:
        own = _page(phone_a.get(url(match.pair_a.number)))
    assert len(queries) == 0 and f'id="confirmar-{sub.pk}"' not in own
    # Nobody else gets the pair's version: an anonymous visitor, another pair's phone.
    seen = Client().get(url(pair_b.number)).content.decode()
    assert f'id="confirmar-{sub.pk}"' in seen and signing not in seen
    assert signing not in _page(_phone(sim, other.pair_b.number).get(url(pair_b.number)))
    assert not pagecache.is_watched_by_members(url(other.pair_a.number))


def test_during_a_burst_the_shared_pages_go_to_the_worker_once_more_when_the_interval_is_up(
    state_kept, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.PAGES_RENDER_EVERY_SECONDS = 60
    sim = new_tournament(8)
    round_ = publish_next_round(sim)
    matches = playing(round_)
    sent = _worker(monkeypatch, settings)
    for match in matches[:3]:
        with django_capture_on_commit_callbacks(execute=True):
            result_submit(match=match, by=sim.organizer, games_a=3, games_b=0, expected_version=match.result_version)
    t = sim.tournament.pk
    pairs = [sorted([m.pair_a_id, m.pair_b_id]) for m in matches[:3]]
    assert sent == [
        ([t, pairs[0], True], 0),  # the first change: everything at once
        ([t, pairs[1], False], 0),  # then the pairs' pages at once,
        ([t, [], True], 60),  # and the shared pages once, when the interval is up
        ([t, pairs[2], False], 0),
    ]
    # Meanwhile a request renders nothing and asks nothing (the tournament's state was computed by
    # the commit): the last page, with the version it shows.
    count, html = _queries(Client(), f"/torneos/{sim.tournament.slug}/clasificacion/")
    assert count == 0 and _version(html) < fresh(sim.tournament).live_version


def test_while_a_worker_renders_ahead_a_request_leaves_a_shared_page_to_it_for_its_grace(
    state_kept, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """PAGES_WORKER_GRACE_SECONDS: with a worker rendering the shared pages ahead, a web request
    serves a shared page's body as it is for PAGES_RENDER_EVERY_SECONDS and the grace after a
    change (here the worker is late: nothing runs what is sent); past it, the request renders. A
    request that rendered the standings itself took a core from every request behind it."""
    from torneo.services import live

    settings.PAGES_RENDER_EVERY_SECONDS, settings.PAGES_WORKER_GRACE_SECONDS = 5, 10
    settings.PAGES_PRERENDER = True
    monkeypatch.setattr(live.current_app, "send_task", lambda *args, **kwargs: None)  # a late worker
    sim = new_tournament(8)
    round_ = publish_next_round(sim)
    slug = sim.tournament.slug
    url = f"/torneos/{slug}/clasificacion/"
    phone = _phone(sim, 3)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        shown = _version(_page(phone.get(url)))
        assert _version(_page(phone.get(url))) == shown  # its frame kept
        match = playing(round_)[0]
        with django_capture_on_commit_callbacks(execute=True):
            result_submit(match=match, by=sim.organizer, games_a=3, games_b=0, expected_version=match.result_version)
    now = fresh(sim.tournament).live_version
    assert now > shown
    with time_machine.travel(start + timedelta(seconds=14), tick=False):
        with CaptureQueriesContext(connection) as queries:
            young = _page(phone.get(url))
        assert len(queries) == 0 and _version(young) == shown  # its frame, the body as it is
        assert _version(Client().get(url).content.decode()) == shown  # an anonymous visitor's too
    with time_machine.travel(start + timedelta(seconds=16), tick=False):
        assert _version(_page(phone.get(url))) == now  # the worker is late: the request renders
    # Without a worker rendering ahead the grace does not apply: past the interval, rendered.
    settings.PAGES_PRERENDER = False
    with time_machine.travel(start + timedelta(seconds=17), tick=False):
        match = playing(round_)[1]
        with django_capture_on_commit_callbacks(execute=True):
            result_submit(match=match, by=sim.organizer, games_a=3, games_b=0, expected_version=match.result_version)
    with time_machine.travel(start + timedelta(seconds=23), tick=False):
        assert _version(_page(phone.get(url))) == fresh(sim.tournament).live_version > now


def test_a_draft_is_never_rendered_ahead(state_kept):
    from torneo.views.prerender import prerender_pages

    sim = new_tournament(6)
    Tournament.objects.filter(pk=sim.tournament.pk).update(status=Tournament.Status.DRAFT)
    pairs = list(sim.tournament.pairs.values_list("pk", flat=True))
    assert prerender_pages(tournament_id=sim.tournament.pk, pair_ids=pairs, shared=True) == 0
    Tournament.objects.filter(pk=sim.tournament.pk).update(status=Tournament.Status.RUNNING)
    assert prerender_pages(tournament_id=sim.tournament.pk, pair_ids=pairs, shared=True) == 2  # no round yet
    Client().get(f"/torneos/{sim.tournament.slug}/parejas/1/ficha/")  # someone opens pair 1's page
    assert prerender_pages(tournament_id=sim.tournament.pk, pair_ids=pairs, shared=True) == 3


def test_a_flood_of_taps_on_one_table_sends_each_page_at_most_once_now_and_once_later(
    state_kept, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """Security round two, item 2: a phone looping on a table's clock bumps its two pairs' pages
    with every tap; each page keeps at most one render pending (at once, then once when the
    interval is up), as the shared pages already did: 200 taps, two messages, not 200."""
    from scoring.services import clocks as clock_services

    settings.PAGES_RENDER_EVERY_SECONDS = settings.PAGES_PAIR_RENDER_EVERY_SECONDS = 60
    sim = new_tournament(8)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    clock_services.clocks_start_round(round=round_, by=sim.juez)
    sent = _worker(monkeypatch, settings)
    for tap in range(200):
        with django_capture_on_commit_callbacks(execute=True):
            clock_services.clock_tantos(match=match, by=sim.juez, a=tap % 40, b=0)
    t, pairs = sim.tournament.pk, sorted([match.pair_a_id, match.pair_b_id])
    assert sent == [([t, pairs, True], 0), ([t, pairs, True], 60)]


def test_a_pairs_page_goes_to_the_worker_again_after_its_own_shorter_interval(
    state_kept, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """Issue 32: a pair reports and the rival signs a few seconds later; the two pairs' pages go to
    the worker again once their own interval (PAGES_PAIR_RENDER_EVERY_SECONDS) is up, not the shared
    pages' (a 573-table round): the phones that read them after the signature find them rendered."""
    from scoring.services.results import result_confirm, result_report
    from torneo.services.live import live_bump
    from torneo.services.terminals import terminal_issue

    settings.PAGES_RENDER_EVERY_SECONDS, settings.PAGES_PAIR_RENDER_EVERY_SECONDS = 60, 2
    sim = new_tournament(8)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    reporter, rival = (terminal_issue(pair=p, by=sim.organizer).terminal.user for p in (match.pair_a, match.pair_b))
    sent = _worker(monkeypatch, settings)
    t, pairs = sim.tournament.pk, sorted([match.pair_a_id, match.pair_b_id])
    start = timezone.now()

    def at(seconds: int):
        return time_machine.travel(start + timedelta(seconds=seconds), tick=False)

    with at(0), django_capture_on_commit_callbacks(execute=True):
        sub = result_report(match=match, by=reporter, games_a=3, games_b=1)
    with at(1), django_capture_on_commit_callbacks(execute=True):
        result_confirm(submission=sub, by=rival)  # within the pairs' interval: their pages later
    with at(3), django_capture_on_commit_callbacks(execute=True):
        live_bump(tournament_id=t, pairs=pairs)  # a third change (a clock's event), past the pairs' interval
    assert sent == [
        ([t, pairs, True], 0),  # the report: everything at once
        ([t, pairs, False], 2),  # the signature: the pairs' pages when their interval is up,
        ([t, [], True], 60),  # the shared pages when theirs is
        ([t, pairs, False], 0),  # past the pairs' interval: their pages at once again
    ]


# --- the key space: one entry per page, and a bound per tournament (security: unbounded cache) ------


def _kept_pages() -> list[str]:
    """The keys of the whole pages kept for anonymous visitors (the tests' cache is in memory)."""
    return [key for key in caches["default"]._cache if ":anonima:" in key]


def test_other_spellings_of_an_address_are_never_kept_apart(state_kept):
    """'/rondas/01/' is '/rondas/1/' to Django's int converter, and '?ronda=١' was round 1 to
    int(): each spelling was a page kept for a day. Now the path is redirected to the one way of
    writing it, a query in another spelling goes through the view, and one page is kept."""
    sim = new_tournament(6)
    sim.play_round()
    base = f"/torneos/{sim.tournament.slug}"
    cache.clear()
    assert Client().get(f"{base}/rondas/1/").status_code == 200
    for spelling in ("01", "001", "0000001"):
        response = Client().get(f"{base}/rondas/{spelling}/?intervalo=500")
        assert response.status_code == 301 and response["Location"] == f"{base}/rondas/1/?intervalo=500"
    response = Client().get(f"{base}/parejas/01/ficha/")
    assert response.status_code == 301 and response["Location"] == f"{base}/parejas/1/ficha/"
    assert Client().get(f"{base}/rondas/١/").status_code == 404  # not a number to the int converter
    assert len(_kept_pages()) == 1
    cache.clear()
    assert Client().get(f"{base}/resultados/?ronda=1").status_code == 200
    for spelling in ("01", "001"):
        assert Client().get(f"{base}/resultados/?ronda={spelling}").status_code == 200  # served, not kept
    assert Client().get(f"{base}/resultados/?ronda=١").status_code == 404
    assert len(_kept_pages()) == 1


def test_a_query_the_page_does_not_take_makes_no_entry(state_kept):
    sim = new_tournament(6)
    sim.play_round()
    base = f"/torneos/{sim.tournament.slug}"
    cache.clear()
    for url in (
        f"{base}/clasificacion/?x=1",
        f"{base}/clasificacion/?intervalo=500",
        f"{base}/resultados/?ronda=1&x=1",
        f"{base}/resultados/?ronda=1&ronda=1",
        f"{base}/resultados/?ronda=",
        f"{base}/resultados/?ronda",
        f"{base}/resultados/?ronda=99",  # no such round: a 404, never kept
    ):
        assert Client().get(url).status_code in (200, 404), url
    assert _kept_pages() == []


def test_a_tournament_keeps_at_most_its_bound_of_pages_and_serves_the_rest(state_kept, settings):
    settings.PAGES_MAX_PER_TOURNAMENT = 3
    sim = new_tournament(6)
    sim.play_round()
    other = new_tournament(4)
    base = f"/torneos/{sim.tournament.slug}"
    pages = ["clasificacion/", "resultados/", "resultados/?ronda=1", "rondas/1/", "rondas/1/proyector/"]
    cache.clear()
    for page in pages:
        assert Client().get(f"{base}/{page}").status_code == 200, page
    assert len(_kept_pages()) == 3
    for page in pages:  # the kept ones stored again, the others still served: no more entries
        assert Client().get(f"{base}/{page}").status_code == 200, page
    match = sim.rounds[0].matches.exclude(pair_b=None).first()
    result_submit(match=match, by=sim.organizer, games_a=0, games_b=3, expected_version=match.result_version)
    for page in pages:  # a change: each page rendered again, the kept ones kept again
        assert Client().get(f"{base}/{page}").status_code == 200, page
    assert len(_kept_pages()) == 3
    assert Client().get(f"/torneos/{other.tournament.slug}/clasificacion/").status_code == 200
    assert len(_kept_pages()) == 4  # another tournament's pages have their own bound


_TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def test_a_signed_in_phone_gets_a_large_page_gzipped_with_its_own_frame_never_compressed(state_kept, monkeypatch):
    """issue 32: a pair's phone signed in reads the round's draw, 900 KB of a 573-table round. Its
    body, the same for everyone, goes deflated once when rendered; the frame around it (the «Salir»
    form's CSRF token, the address, the name) is sent stored, never compressed (BREACH), and the
    body comes from the process's memory, not from the shared cache, at each request."""
    sim = new_tournament(40)
    round_ = sim.play_round()
    url = f"/torneos/{sim.tournament.slug}/rondas/{round_.number}/"
    phone = Client(HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    phone.force_login(sim.organizer)
    plain = phone.get(url, HTTP_ACCEPT_ENCODING="identity")
    assert "Content-Encoding" not in plain and "Accept-Encoding" in plain["Vary"]
    read = []
    shared = caches["default"]
    real_get = shared.get
    monkeypatch.setattr(shared, "get", lambda key, *a, **k: read.append(key) or real_get(key, *a, **k))
    packed = phone.get(url)
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert not [key for key in read if key.startswith("body:")]  # the body came from memory
    pagecache.recent_bodies().clear()  # (a process that never used it reads it from the shared cache)
    assert gzip.decompress(phone.get(url).content) and [key for key in read if key.startswith("body:")]
    html = gzip.decompress(packed.content)
    token = _TOKEN.search(html).group(1)
    assert token in packed.content  # the frame's secret travels stored, as it is
    assert _TOKEN.sub(b"", html) == _TOKEN.sub(b"", plain.content)
    assert sim.organizer.username.encode() in html and len(packed.content) * 3 < len(plain.content)


def test_the_gzip_around_a_body_is_the_gzip_of_the_whole_page():
    body_html = ("<tr><td>mesa</td><td>Pareja ñ</td></tr>" * 500).encode()
    deflated = pagecache._deflated(body_html)
    head, tail = b"<html><form><input value=secreto>" * 3000, b"</table></html>"
    # Kept deflated only (its CRC and length beside it), or with its HTML: the same gzip.
    kept = pagecache.Body(None, "1.2.3.4", 0.0, deflated, crc=zlib.crc32(body_html), length=len(body_html))
    for body in (kept, pagecache.Body(body_html, "1.2.3.4", 0.0, deflated)):
        packed = pagecache.gzip_around(head, body, tail)
        assert gzip.decompress(packed) == head + body_html + tail
        assert b"secreto" in packed and len(packed) < len(head) + 2 * len(tail) + len(body_html) // 10
    assert kept.html == body_html  # (inflated for the rare browser that takes no gzip)


def test_a_large_body_is_kept_deflated_only_in_the_shared_cache_and_in_memory():
    body_html = ("<tr><td>mesa</td><td>Pareja ñ</td></tr>" * 500).encode()
    body = pagecache.kept_body("cuerpo-grande", "1.2.3.4", lambda: body_html)
    shared = pagecache._shared_body("cuerpo-grande:" + translation.get_language(), None)
    for kept in (body, shared):
        assert kept.content is None and kept.size < len(body_html) // 10
        assert kept.length == len(body_html) and kept.crc == zlib.crc32(body_html)
        assert zlib.decompressobj(-15).decompress(kept.deflated) == body_html
    small = pagecache.kept_body("cuerpo-chico", "1.2.3.4", lambda: b"<p>mesa 1</p>")
    assert small.content == b"<p>mesa 1</p>" and small.deflated is None


# --- a pair's phones, signed in: their frame kept, the body from memory (issue 32) -----------------


def _phone(sim, number: int = 1) -> Client:
    """A phone that opened pair ``number``'s tarjeta (torneo/services/terminals.py)."""
    from torneo.services.terminals import terminal_issue

    issued = terminal_issue(pair=sim.tournament.pairs.get(number=number), by=sim.organizer)
    phone = Client(HTTP_ACCEPT_ENCODING="gzip")
    assert phone.get(f"/torneos/{sim.tournament.slug}/tarjeta/{issued.token}/").status_code == 303
    return phone


def _page(response) -> str:
    content = response.content
    return (gzip.decompress(content) if response.get("Content-Encoding") == "gzip" else content).decode()


def test_a_pair_phone_reads_the_public_pages_again_without_a_query_in_its_own_frame(
    state_kept, django_capture_on_commit_callbacks
):
    """2,292 signed-in phones at a 1,146-pair event read the draw, the standings and the results
    at every change: from the second request on, its own frame (its name, its «Salir» form) around
    the body kept in memory, as cheap as an anonymous visitor's page, and never another's frame."""
    sim = new_tournament(12)
    round_ = sim.play_round()
    slug = sim.tournament.slug
    phone, other = _phone(sim, 1), _phone(sim, 2)
    pagecache.public_state(slug)  # kept, as at an event (every commit and anonymous visitors keep it)
    pages = [f"/torneos/{slug}/{page}/" for page in (f"rondas/{round_.number}", "clasificacion", "resultados")]
    for url in pages:
        first = _page(phone.get(url))
        assert "Pareja 1 · móvil" in first and "csrfmiddlewaretoken" in first
        with CaptureQueriesContext(connection) as queries:
            again = phone.get(url)
        assert len(queries) == 0 and again.status_code == 200 and "Cookie" in again["Vary"]
        assert _page(again) == first
        theirs = _page(other.get(url))
        assert "Pareja 2 · móvil" in theirs and "Pareja 1 · móvil" not in theirs
    # A result: the same frame around the new body, with the version it shows.
    url = f"/torneos/{slug}/clasificacion/"
    before = _version(_page(phone.get(url)))
    match = round_.matches.exclude(pair_b=None).first()
    with django_capture_on_commit_callbacks(execute=True):
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=1, expected_version=match.result_version)
    phone.get(url)  # through the view: the new body in memory
    with CaptureQueriesContext(connection) as queries:
        now = _page(phone.get(url))
    assert len(queries) == 0 and _version(now) == fresh(sim.tournament).live_version > before


def test_staff_and_made_up_sessions_never_get_a_kept_frame(state_kept):
    sim = new_tournament(8)
    round_ = sim.play_round()
    url = f"/torneos/{sim.tournament.slug}/rondas/{round_.number}/"
    staff = Client()
    staff.force_login(sim.organizer)
    staff.get(url)
    count, html = _queries(staff, url)
    assert count > 0 and "Gestionar esta ronda" in html
    stranger = Client()
    stranger.cookies["sessionid"], stranger.cookies["csrftoken"] = "x" * 32, "y" * 32
    for _ in range(2):
        count, html = _queries(stranger, url)
        assert count > 0 and "Entrar" in html and "Salir" not in html


def test_a_phone_signed_out_by_a_new_tarjeta_never_gets_its_kept_frame(state_kept, django_capture_on_commit_callbacks):
    from torneo.services.terminals import terminal_issue

    sim = new_tournament(8)
    round_ = sim.play_round()
    url = f"/torneos/{sim.tournament.slug}/rondas/{round_.number}/"
    phone = _phone(sim, 3)
    phone.get(url)
    assert "Pareja 3 · móvil" in _page(phone.get(url))
    with django_capture_on_commit_callbacks(execute=True):
        terminal_issue(pair=sim.tournament.pairs.get(number=3), by=sim.organizer)
    page = _page(phone.get(url))
    assert "Pareja 3 · móvil" not in page and "Entrar" in page


def _a_round_page_checked_at_every_request(monkeypatch) -> tuple:
    """Pair 3's phone has read a played round's page, its frame kept; FRAME_SECONDS is 0, so every
    later request of it is due for the frame's check. The simulation, the page's address, the phone
    and the page it read."""
    monkeypatch.setattr(pagecache, "FRAME_SECONDS", 0.0)
    sim = new_tournament(8)
    round_ = sim.play_round()
    url = f"/torneos/{sim.tournament.slug}/rondas/{round_.number}/"
    phone = _phone(sim, 3)
    pagecache.public_state(sim.tournament.slug)  # kept, as at an event
    return sim, url, phone, _page(phone.get(url))


def test_a_phones_frame_past_its_frame_seconds_is_checked_again_not_rendered_again(state_kept, monkeypatch):
    """A frame older than FRAME_SECONDS (here: every request) is used again once the request's
    session still signs in its user, with the same name, pairs and no roles: three queries (the
    session, the user, its pairs and roles), not the whole view (ten or more) once a minute per
    phone and page, the public pages' p95 while the pairs report."""
    _sim, url, phone, first = _a_round_page_checked_at_every_request(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        again = _page(phone.get(url))
    assert 0 < len(queries) <= 3 and again == first
    with CaptureQueriesContext(connection) as view:
        phone.get(url + "?x=1")  # not a page kept: through the view
    assert len(view) > 3


@contextmanager
def _as_the_server():
    """Django's own handler of request_started/finished closes the database connection, which holds
    this test's transaction: disconnected meanwhile, as the test client does (which connects it again
    after each of its requests)."""
    from django.core import signals
    from django.db import close_old_connections

    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in (signals.request_started, signals.request_finished):
            signal.connect(close_old_connections)


def _sent_not_closed(phone: Client, url: str) -> tuple[HttpResponse, int]:
    """A phone's request through the whole WSGI handler, as gunicorn runs it, the response not yet
    closed by the server (its last byte sent, the connection not yet let go): with the queries it
    cost until then."""
    cookie = "; ".join(f"{morsel.key}={morsel.value}" for morsel in phone.cookies.values())
    environ = RequestFactory().get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_COOKIE=cookie).environ
    with _as_the_server(), CaptureQueriesContext(connection) as queries:
        response = WSGIHandler()(environ, lambda status, headers: None)
    return response, len(queries)


def _closed(response: HttpResponse) -> int:
    """The server closes the response: the queries that cost."""
    with _as_the_server(), CaptureQueriesContext(connection) as queries:
        response.close()
    return len(queries)


def test_a_frames_check_runs_once_its_page_is_sent_and_a_frame_found_false_is_dropped(state_kept, monkeypatch):
    """Past FRAME_SECONDS (here: every request) the frame's check (the session, the account, its
    pairs and roles: three queries) runs when the server closes the response, after the page's last
    byte, not before it: the checks were a third of the shared pages' tail while the pairs
    reported. A frame the check finds false (here a bulk update, which no signal sees) is dropped,
    and the browser's next request goes through the view."""
    from django.contrib.auth import get_user_model

    from torneo.models import PairTerminal

    sim, url, phone, first = _a_round_page_checked_at_every_request(monkeypatch)
    response, sending = _sent_not_closed(phone, url)
    assert sending == 0 and _page(response) == first
    assert 0 < _closed(response) <= 3
    with CaptureQueriesContext(connection) as checked:
        assert _page(phone.get(url)) == first  # found true: still kept (and checked again on close)
    assert 0 < len(checked) <= 3
    user_id = PairTerminal.objects.get(pair__tournament=sim.tournament, pair__number=3).user_id
    get_user_model().objects.filter(pk=user_id).update(username="renombrada-sin-senal")
    response, sending = _sent_not_closed(phone, url)
    assert sending == 0 and _page(response) == first  # sent before the check: one request late at most
    assert _closed(response) > 0
    with CaptureQueriesContext(connection) as view:
        again = phone.get(url)
    assert again.status_code == 200 and len(view) > 3  # dropped: through the view


def test_a_frame_checked_again_is_not_used_once_its_user_changed(state_kept, monkeypatch):
    """Past FRAME_SECONDS a frame is rendered again when the user it shows changed: a staff role
    granted (the frame would hide it), the password changed elsewhere (the session no longer signs
    in: the page says «Entrar»)."""
    from torneo.models import PairTerminal, TournamentRole

    monkeypatch.setattr(pagecache, "FRAME_SECONDS", 0.0)
    sim = new_tournament(8)
    round_ = sim.play_round()
    url = f"/torneos/{sim.tournament.slug}/rondas/{round_.number}/"
    phone = _phone(sim, 3)
    phone.get(url)
    user = PairTerminal.objects.get(pair__tournament=sim.tournament, pair__number=3).user
    TournamentRole.objects.create(tournament=sim.tournament, user=user, role=TournamentRole.Role.CONTROL)
    assert "mesa de control" in _page(phone.get(url))
    TournamentRole.objects.filter(user=user).delete()
    assert "mesa de control" not in _page(phone.get(url))
    phone.get(url)  # a frame kept again
    user.set_password("otra-clave-distinta")
    user.save()
    page = _page(phone.get(url))
    assert "Pareja 3 · móvil" not in page and "Entrar" in page


def test_a_change_of_what_a_frame_shows_forgets_it_at_once_not_at_its_next_check(
    state_kept, django_capture_on_commit_callbacks
):
    """What a player's frame shows of its user changes with a row saved through the ORM (a role,
    the password, a player linked to a pair, the account's name): its frames are rendered again at
    the next request, not FRAME_SECONDS later (torneo/frame_changes.py); and a sign-in, which only
    saves ``last_login``, forgets nothing."""
    from django.contrib.auth import get_user_model

    from torneo.models import PairTerminal, Player, TournamentRole

    assert pagecache.FRAME_SECONDS >= 60  # no check in between: only the signals can show these
    sim = new_tournament(8)
    round_ = sim.play_round()
    url = f"/torneos/{sim.tournament.slug}/rondas/{round_.number}/"
    pagecache.public_state(sim.tournament.slug)  # kept, as at an event
    phone = _phone(sim, 3)
    phone.get(url)
    user = PairTerminal.objects.get(pair__tournament=sim.tournament, pair__number=3).user

    def kept() -> bool:
        with CaptureQueriesContext(connection) as queries:
            phone.get(url)
        return len(queries) == 0

    assert kept()
    with django_capture_on_commit_callbacks(execute=True):
        TournamentRole.objects.create(tournament=sim.tournament, user=user, role=TournamentRole.Role.CONTROL)
    assert "mesa de control" in _page(phone.get(url))
    with django_capture_on_commit_callbacks(execute=True):
        TournamentRole.objects.filter(user=user).delete()
    assert "mesa de control" not in _page(phone.get(url))
    assert kept()
    # A player of pair 5 linked to this account: its menu names both pairs.
    player = Player.objects.filter(memberships__pair__number=5, tournament=sim.tournament).first()
    with django_capture_on_commit_callbacks(execute=True):
        player.user = user
        player.save()
    page = _page(phone.get(url))
    assert "Tu pareja 3" in page and "Tu pareja 5" in page
    with django_capture_on_commit_callbacks(execute=True):
        player.user = None
        player.save()
    assert "Tu pareja 5" not in _page(phone.get(url))
    # (a player's row is in the public stamp: the state kept is computed again, as PAGES_STATE_SECONDS later)
    pagecache.refresh_state(tournament_id=sim.tournament.pk)
    phone.get(url)
    assert kept()
    get_user_model().objects.filter(pk=user.pk).first().save(update_fields=["last_login"])
    assert kept()
    with django_capture_on_commit_callbacks(execute=True):
        user.set_password("otra-clave-distinta")
        user.save()
    page = _page(phone.get(url))
    assert "Pareja 3 · móvil" not in page and "Entrar" in page


def test_a_pair_phone_reads_its_own_page_with_the_clock_again_without_a_query_counting_from_now(
    state_kept, django_capture_on_commit_callbacks
):
    """Half the signed-in phones of an event are on their pair's page, with its table's clock: the
    page (the pair's players' version, «Anotar el resultado») is rendered once per change and per
    PAIR_PAGE_MAX_AGE, and a phone reads it again in its own frame without a query, from another
    web process too (the shared cache), the clock counting from the time it is sent."""
    from scoring.services import clocks as clock_services
    from scoring.views.players import PAIR_PAGE_MAX_AGE

    sim = new_tournament(8)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    with django_capture_on_commit_callbacks(execute=True):
        clock_services.clocks_start_round(round=round_, by=sim.juez)
    phone, rival = _phone(sim, match.pair_a.number), _phone(sim, match.pair_b.number)
    url = f"/torneos/{sim.tournament.slug}/parejas/{match.pair_a.number}/ficha/"
    first = _page(phone.get(url))
    assert "Anotar el resultado" in first and 'id="clock-data"' in first
    later = timezone.now() + timedelta(seconds=20)
    for other_process in (False, True):
        if other_process:
            pagecache.recent_bodies().clear()
        with time_machine.travel(later, tick=False), CaptureQueriesContext(connection) as queries:
            again = _page(phone.get(url))
        assert len(queries) == 0
        assert f'"server_now": "{later.isoformat()}"' in again
        assert _version(again) == _version(first) and "Anotar el resultado" in again
    # The rival's phone on this page: the public's version, never pair A's players'.
    theirs = _page(rival.get(url))
    assert "Anotar el resultado" not in _page(rival.get(url)) and 'id="clock-data"' in theirs
    # A juego tapped changes the pair's page: its phone sees the score.
    with django_capture_on_commit_callbacks(execute=True):
        clock_services.clock_juego(match=match, by=sim.juez, winner="A")
    score = re.compile(r'class="ck-score-a">(\d+)<')
    assert score.search(first).group(1) == "0"
    now = _page(phone.get(url))
    assert score.search(now).group(1) == "1" and _version(now) > _version(first)
    # Past its age the minute its HTML says is rendered again.
    past = timezone.now() + timedelta(seconds=PAIR_PAGE_MAX_AGE + 1)
    with time_machine.travel(past, tick=False), CaptureQueriesContext(connection) as queries:
        _page(phone.get(url))
    assert len(queries) > 0


def test_a_pair_phone_whose_page_changed_gets_the_new_body_in_the_frame_it_kept_without_rendering_it_again(
    state_kept, django_capture_on_commit_callbacks
):
    """After a report or a confirmation the pair's page goes through the view to render its new
    body, but the phone's frame (the page's template, its menu, its «Salir» form) did not change:
    the frame it kept is used again, not rendered again. A change of what the frame shows (the
    pair's name in its title) renders it again."""
    from scoring.services.results import result_report
    from torneo.models import PairTerminal

    sim = new_tournament(8)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    phone = _phone(sim, match.pair_a.number)
    _phone(sim, match.pair_b.number)  # the rival's tarjeta: its terminal reports
    url = f"/torneos/{sim.tournament.slug}/parejas/{match.pair_a.number}/ficha/"
    first = _page(phone.get(url))
    assert "Anotar el resultado" in first and "Resultado pendiente de vuestra confirmación" not in first
    by = PairTerminal.objects.get(pair=match.pair_b).user
    with django_capture_on_commit_callbacks(execute=True):
        result_report(match=match, by=by, games_a=1, games_b=3)
    response = phone.get(url)
    again = _page(response)
    templates = {t.name for t in response.templates}
    assert "scoring/players/_pair_body.html" in templates  # its body rendered again
    assert "scoring/players/pair.html" not in templates and "base.html" not in templates  # not its frame
    assert "Resultado pendiente de vuestra confirmación" in again and _version(again) > _version(first)
    head, tail = (lambda h: (h[: h.index('<h1 class="pair-title">')], h[h.rindex("</p>") :]))(first)
    version = 'data-live-version="{}"'
    assert again.startswith(head.replace(version.format(_version(first)), version.format(_version(again))))
    assert again.endswith(tail)
    # The pair renamed: its title is in the frame, which is rendered again.
    Pair.objects.filter(pk=match.pair_a.pk).update(name="Los Renombrados")
    with django_capture_on_commit_callbacks(execute=True):
        result_report(match=match, by=by, games_a=0, games_b=3)
    response = phone.get(url)
    assert "scoring/players/pair.html" in {t.name for t in response.templates}
    assert "<title>" + f"{match.pair_a.number} · Los Renombrados" in _page(response)


def test_a_pairs_own_page_is_rendered_ahead_as_a_players_account_when_the_pair_has_no_tarjeta(state_kept):
    """A pair whose player signs in with an account (no tarjeta issued): its own version is
    rendered ahead as that account once the player has had the page open; nobody's before."""
    from tests.factories import UserFactory
    from torneo.views.prerender import member_pages

    sim = new_tournament(4)
    sim.play_round()
    pair = sim.tournament.pairs.get(number=1)
    player = pair.members.select_related("player").first().player
    player.user = UserFactory()
    player.save()
    path = f"/torneos/{sim.tournament.slug}/parejas/1/ficha/"
    assert member_pages(sim.tournament, [pair.pk]) == []
    Client().get(path)  # the public's visit marks nothing
    assert member_pages(sim.tournament, [pair.pk]) == []
    own = Client()
    own.force_login(player.user)
    assert own.get(path).status_code == 200
    assert member_pages(sim.tournament, [pair.pk]) == [(path, player.user)]
