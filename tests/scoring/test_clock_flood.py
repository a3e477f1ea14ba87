"""Security round two, item 2: one phone flooding a table's clock (``POST …/clocks/<match>/
{tantos,juego,undo}/`` in a loop) once queued 1,800 tasks in 40 s and left the clocks' tick and
the heartbeat behind. Taps are limited per account and table (scoring.throttles), refused in
Spanish with nothing written; the pages to render ahead are coalesced (tests/torneo/test_pagecache.py);
beat's periodic tasks go to their own queue (settings.PERIODIC_QUEUE)."""

import pytest
from django.conf import settings
from django.test import Client

from scoring.models import ClockJuego, MatchClock
from tests.scoring.test_clocks_api import start_all, tables  # noqa: F401 (the fixture)
from torneo.celery import app

pytestmark = pytest.mark.django_db


@pytest.fixture
def tap_rate(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "clock_tap": "5/min"},
    }


def test_a_player_flooding_the_tantos_is_refused_in_spanish_and_nothing_is_written(tables, tap_rate):  # noqa: F811
    t = tables
    start_all(t)
    player = t.client("player")
    for tap in range(5):
        response = player.post(t.url(t.matches[0], "tantos"), {"a": tap, "b": 1}, format="json")
        assert response.status_code == 200, response.content
    refused = player.post(t.url(t.matches[0], "tantos"), {"a": 30, "b": 1}, format="json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "Demasiados toques en el reloj de esta mesa" in refused.json()["detail"]
    assert MatchClock.objects.get(match=t.matches[0]).tantos_a == 4  # the refused tap wrote nothing
    # Juegos and their undo count in the same window: the flood cannot switch endpoints.
    assert player.post(t.url(t.matches[0], "juego"), {"winner": "A"}, format="json").status_code == 429
    assert player.post(t.url(t.matches[0], "undo"), {}, format="json").status_code == 429
    assert not ClockJuego.objects.exists()


def test_the_limit_is_per_account_and_table_so_the_juez_and_other_tables_tap_on(tables, tap_rate):  # noqa: F811
    t = tables
    start_all(t)
    player = t.client("player")
    for _ in range(6):
        player.post(t.url(t.matches[0], "tantos"), {"a": 1, "b": 1}, format="json")
    assert player.post(t.url(t.matches[0], "tantos"), {"a": 2, "b": 1}, format="json").status_code == 429
    juez = t.client("juez")
    assert juez.post(t.url(t.matches[0], "juego"), {"winner": "A"}, format="json").status_code == 200
    other = t.client("other_player")
    assert other.post(t.url(t.matches[1], "juego"), {"winner": "A"}, format="json").status_code == 200
    assert ClockJuego.objects.count() == 2


def test_the_table_page_s_taps_are_limited_too_with_the_site_s_429_page(tables, tap_rate):  # noqa: F811
    t = tables
    start_all(t)
    client = Client()
    client.force_login(t.users["player"])
    url = f"/torneos/{t.sim.tournament.slug}/relojes/mesa/{t.matches[0].pk}/"
    for _ in range(5):
        assert client.post(url, {"action": "tantos", "a": "3", "b": "2"}).status_code == 302
    refused = client.post(url, {"action": "juego", "winner": "A"})
    assert refused.status_code == 429 and "Demasiados toques" in refused.content.decode()
    assert not ClockJuego.objects.exists()
    # Reading the page is never limited.
    assert client.get(url).status_code == 200


def test_beat_s_periodic_tasks_have_their_own_queue_that_every_worker_takes():
    """The tick (AMM chapter VI) and the heartbeat never wait behind the pages or the actas."""
    route = app.amqp.router.route
    assert route({}, "scoring.clocks_tick", (), {})["queue"].name == settings.PERIODIC_QUEUE
    assert route({}, "torneo.heartbeat", (), {})["queue"].name == settings.PERIODIC_QUEUE
    assert route({}, "torneo.prerender_pages", (), {})["queue"].name == "celery"
    assert route({}, "scoring.print_job", (), {})["queue"].name == "celery"
    # A worker started without -Q takes both queues, the periodic one listed first.
    assert list(app.amqp.queues) == [settings.PERIODIC_QUEUE, "celery"]


def test_a_juego_tapped_after_the_partida_is_decided_is_refused_never_written(tables):  # noqa: F811
    """The flood found it: a juego tapped after 3-0 (before anything closed the clock) was written,
    and every later read of that clock was a 500 («la partida ya estaba decidida antes de este
    juego»). The score is read under the clock's lock, so two taps at once cannot pass it either."""
    t = tables
    start_all(t)
    juez = t.client("juez")
    to_win = t.sim.tournament.games_to_win
    for _ in range(to_win):
        assert juez.post(t.url(t.matches[0], "juego"), {"winner": "B"}, format="json").status_code == 200
    late = juez.post(t.url(t.matches[0], "juego"), {"winner": "A"}, format="json")
    assert late.status_code == 400 and "ya está decidida" in str(late.json()), late.content
    assert ClockJuego.objects.filter(clock__match=t.matches[0]).count() == to_win
    assert juez.get(t.url(t.matches[0])).status_code == 200
