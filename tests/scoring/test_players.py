"""The players' view: find yourself by name (accents and case ignored), your pair's page across
rounds (waiting for the draw, the current table and opponent with its times, exentas, past
results, a result awaiting your confirmation), in a constant number of queries."""

import re
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.models import ResultSubmission
from scoring.services.results import result_submit
from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from tests.scoring.test_hands_services import table
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Pair, Player, Round, Session
from torneo.services.registrations import pair_withdraw
from torneo.services.rounds import draw_publish, live_draw, round_prepare

pytestmark = pytest.mark.django_db

MADRID = ZoneInfo("Europe/Madrid")


def text_of(response) -> str:
    assert response.status_code == 200, response.status_code
    return text_of_html(response.content.decode())


def text_of_html(html: str) -> str:
    main = html[html.index("<main") : html.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def page_url(tournament, number: int) -> str:
    return f"/torneos/{tournament.slug}/parejas/{number}/ficha/"


def publish_next_round(sim) -> Round:
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    draw_publish(draw=live_draw(round_), public_value="3 5 1", witness=sim.juez, by=sim.organizer)
    round_.refresh_from_db()
    return round_


def pair_match(round_: Round, pair: Pair) -> Match:
    return Match.objects.get(
        round=round_, pk__in=round_.matches.filter(pair_a=pair) | round_.matches.filter(pair_b=pair)
    )


# --- find yourself ---------------------------------------------------------------------------


def test_find_yourself_by_name_ignoring_accents_and_case():
    t = TournamentFactory()
    mine = make_pair(t, players=[player_data(1, first_name="José", last_name="García Núñez"), player_data(2)])
    make_pair(t, players=[player_data(3, first_name="María", last_name="Peña Ruiz"), player_data(4)])
    make_pair(t)
    base = f"/torneos/{t.slug}/jugadores/"
    for query in ("jose garcia", "GARCÍA", "nunez jose"):
        response = Client().get(base, {"q": query})
        page = text_of(response)
        assert "1 pareja con" in page and "José García Núñez" in page
        assert f'href="{page_url(t, mine.number)}"' in response.content.decode()
    assert "María Peña Ruiz" in text_of(Client().get(base, {"q": "pena"}))
    assert "Ninguna pareja con «Zuloaga»" in text_of(Client().get(base, {"q": "Zuloaga"}))
    empty = text_of(Client().get(base))
    assert "Escribe tu nombre o tu apellido" in empty and "José" not in empty


def test_a_draft_tournament_has_no_players_pages():
    t = TournamentFactory(status="draft")
    pair = make_pair(t)
    assert Client().get(f"/torneos/{t.slug}/jugadores/", {"q": "a"}).status_code == 404
    assert Client().get(page_url(t, pair.number)).status_code == 404


# --- the pair page across rounds ---------------------------------------------------------------


def test_the_pair_page_across_rounds_amm_6_1_a_6_2():
    sim = new_tournament(9, seed=4, games_to_win=3)
    t = sim.tournament
    pair = Pair.objects.filter(tournament=t).order_by("number").first()
    # Before any round: waiting for the draw, and the page is live (it refreshes itself).
    response = Client().get(page_url(t, pair.number))
    page = text_of(response)
    assert "Esperando el sorteo" in page and "Ninguna partida anterior." in page
    html = response.content.decode()
    live = f"/torneos/{t.slug}/live.json?pareja={pair.number}"
    assert f'data-live="{live}"' in html
    assert f'data-live-version="{Client().get(live).json()["version"]}"' in html
    assert pair.members.first().player.full_name in page
    # Round 1 prepared (commitment published), not drawn yet.
    round_ = round_prepare(tournament=t, by=sim.organizer)
    assert "Ronda 1: esperando el sorteo" in text_of(Client().get(page_url(t, pair.number)))
    # Drawn and published: the table, the opponent, the times (AMM 6.1.a: 5 minutes; 6.2: 60).
    draw_publish(draw=live_draw(round_), public_value="6 6 1", witness=sim.juez, by=sim.organizer)
    round_.refresh_from_db()
    bye_match = round_.matches.get(pair_b__isnull=True)
    played = round_.matches.filter(pair_b__isnull=False).select_related("pair_a", "pair_b").first()
    me, rival = played.pair_a, played.pair_b
    page = text_of(Client().get(page_url(t, me.number)))
    assert f"Mesa {played.table_number} " in page
    assert f"contra {rival.number} · {rival.display_name}" in page and rival.members_label in page
    start = timezone.localtime(round_.published_at + timedelta(minutes=5)).strftime("%H:%M")
    end = timezone.localtime(round_.published_at + timedelta(minutes=65)).strftime("%H:%M")
    assert f"a las {start} como tarde (AMM 6.1.a)" in page
    assert f"{end} (máximo 60 minutos, AMM 6.2)" in page
    # Until the juez starts it, the times are orientative: the table's clock rules (its page, linked).
    assert "manda el reloj de la mesa, que pone en marcha el juez" in page and "próxima versión" not in page
    html = Client().get(page_url(t, me.number)).content.decode()
    assert f'href="/torneos/{t.slug}/relojes/mesa/{played.pk}/"' in html
    # The exenta (9 pairs): the pair goes through without playing (AMM 5.6).
    assert "Exenta: pasáis de ronda sin jugar (AMM 5.6)." in text_of(Client().get(page_url(t, bye_match.pair_a.number)))
    # Results: the winner and the loser read it from their side.
    for match in round_.matches.filter(outcome=Match.Outcome.PENDING):
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
    assert "Ganada 3-1" in text_of(Client().get(page_url(t, me.number)))
    loser_page = text_of(Client().get(page_url(t, rival.number)))
    assert "Perdida 1-3" in loser_page and "Eliminada" in loser_page  # a 1 cero: out at the first loss
    # Round 2: the winner plays again; round 1 is now a past match, with its opponent.
    round2 = publish_next_round(sim)
    page = text_of(Client().get(page_url(t, me.number)))
    current = pair_match(round2, me)
    assert "Ronda 2" in page and "1 ganada · 0 perdidas" in page and "Sigue en el torneo" in page
    if current.is_bye:
        assert "Exenta" in page
    else:
        assert f"Mesa {current.table_number} " in page
    past = page[page.index("Partidas") :]
    assert "Ronda 1" in past and f"mesa {played.table_number}" in past and "Ganada 3-1" in past
    assert f"contra {rival.number} · {rival.display_name}" in past
    # The eliminated pair does not play round 2.
    assert "La pareja ya no juega en el torneo." in text_of(Client().get(page_url(t, rival.number)))


def test_walkover_double_loss_and_withdrawn_pairs_read_right():
    t = table()
    result_submit(match=t.match, by=t.organizer, outcome="double_loss")
    page = text_of(Client().get(page_url(t.tournament, t.match.pair_a.number)))
    assert "Perdida por ambas parejas" in page and "0 ganadas · 1 perdida" in page
    other = table()
    result_submit(match=other.match, by=other.organizer, outcome="walkover", winner=other.match.pair_b)
    page = text_of(Client().get(page_url(other.tournament, other.match.pair_b.number)))
    assert "Ganada 3-0 (incomparecencia)" in page
    pair_withdraw(pair=other.match.pair_a, reason="")
    page = text_of(Client().get(page_url(other.tournament, other.match.pair_a.number)))
    assert "Retirada" in page and "Eliminada" in page


def test_courtesy_time_of_the_jornadas_first_round_shows_in_the_times_amm_6_1_c():
    t = table()
    round_ = Round.objects.get(pk=t.match.round_id)
    # The jornada started a minute before the draw was published, with 15 minutes of courtesy: the
    # clock starts when the courtesy is over (14 minutes after the draw), not 5 minutes after it.
    jornada = round_.published_at - timedelta(minutes=1)
    session = Session.objects.create(tournament=t.tournament, name="J1", starts_at=jornada, courtesy_minutes=15)
    Round.objects.filter(pk=round_.pk).update(session=session)
    page = text_of(Client().get(page_url(t.tournament, t.match.pair_a.number)))
    start = timezone.localtime(jornada + timedelta(minutes=15)).strftime("%H:%M")
    assert f"a las {start} como tarde (comienzo de la jornada y 15 min de cortesía, AMM 6.1.c)" in page
    assert f"Comienzo de la jornada {timezone.localtime(jornada).strftime('%H:%M')}" in page


def _published_at(t, when) -> Round:
    Round.objects.filter(pk=t.match.round_id).update(published_at=when)
    return Round.objects.get(pk=t.match.round_id)


def test_a_draw_published_before_the_jornada_starts_the_clock_after_its_courtesy_time_amm_6_1_c():
    # The draw of the first round was published at 03:17; the jornada starts at 10:00 with 10
    # minutes of courtesy: the clock starts at 10:10, not at 03:22.
    t = table()
    _published_at(t, datetime(2026, 12, 12, 3, 17, tzinfo=MADRID))
    session = Session.objects.create(
        tournament=t.tournament, name="J1", starts_at=datetime(2026, 12, 12, 10, tzinfo=MADRID), courtesy_minutes=10
    )
    Round.objects.filter(pk=t.match.round_id).update(session=session)
    page = text_of(Client().get(page_url(t.tournament, t.match.pair_a.number)))
    assert "Sorteo publicado 03:17" in page and "Comienzo de la jornada 10:00" in page
    assert "a las 10:10 como tarde (comienzo de la jornada y 10 min de cortesía, AMM 6.1.c)" in page
    assert "11:10 (máximo 60 minutos, AMM 6.2)" in page
    assert "03:22" not in page


def test_a_round_that_names_no_jornada_takes_the_one_its_draw_falls_in_amm_6_1_c():
    # As the demo's rounds: drawn at dawn with no jornada named; the tournament's jornada that day
    # starts at 10:00 with 10 minutes of courtesy.
    t = table()
    _published_at(t, datetime(2026, 12, 12, 3, 17, tzinfo=MADRID))
    for day, courtesy in ((11, 5), (12, 10), (13, 15)):
        Session.objects.create(
            tournament=t.tournament,
            name=f"J{day}",
            starts_at=datetime(2026, 12, day, 10, tzinfo=MADRID),
            courtesy_minutes=courtesy,
        )
    page = text_of(Client().get(page_url(t.tournament, t.match.pair_a.number)))
    assert "a las 10:10 como tarde (comienzo de la jornada y 10 min de cortesía, AMM 6.1.c)" in page


def test_the_courtesy_time_is_for_the_jornadas_first_round_only_amm_6_1_c():
    # Round 2 of the jornada, drawn at 9:50 (round 1 was drawn at 3:17): the jornada's start, 10:00,
    # sets the clock, without the courtesy time of its first partida.
    sim = new_tournament(8, seed=3, games_to_win=3)
    session = Session.objects.create(
        tournament=sim.tournament, name="J1", starts_at=datetime(2026, 12, 12, 10, tzinfo=MADRID), courtesy_minutes=10
    )
    first = publish_next_round(sim)
    Round.objects.filter(pk=first.pk).update(session=session, published_at=datetime(2026, 12, 12, 3, 17, tzinfo=MADRID))
    for match in first.matches.filter(outcome=Match.Outcome.PENDING):
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=2)
    second = publish_next_round(sim)
    Round.objects.filter(pk=second.pk).update(published_at=datetime(2026, 12, 12, 9, 50, tzinfo=MADRID))
    match = second.matches.filter(pair_b__isnull=False).select_related("pair_a").first()
    page = text_of(Client().get(page_url(sim.tournament, match.pair_a.number)))
    assert "a las 10:00 como tarde (comienzo de la jornada, AMM 6.1)" in page


def test_a_draw_published_late_in_the_jornada_starts_the_clock_5_minutes_after_it_amm_6_1_a():
    t = table()
    _published_at(t, datetime(2026, 12, 12, 12, 40, tzinfo=MADRID))
    Session.objects.create(
        tournament=t.tournament, name="J1", starts_at=datetime(2026, 12, 12, 10, tzinfo=MADRID), courtesy_minutes=15
    )
    page = text_of(Client().get(page_url(t.tournament, t.match.pair_a.number)))
    assert "a las 12:45 como tarde (AMM 6.1.a)" in page and "Comienzo de la jornada 10:00" in page


def test_a_result_awaiting_the_losing_pair_links_its_players_to_the_confirmation_amm_3_16():
    t = table(results_double_check=True)
    sub = result_submit(match=t.match, by=t.control, games_a=3, games_b=2)
    assert sub.status == ResultSubmission.Status.PROPOSED
    loser = t.match.pair_b
    confirm = reverse("scoring:result_confirm", args=[t.tournament.slug, sub.pk])
    anonymous = Client().get(page_url(t.tournament, loser.number))
    assert "Resultado pendiente de vuestra confirmación" in text_of(anonymous)
    assert "2-3" in text_of(anonymous) and confirm not in anonymous.content.decode()
    client = Client()
    client.force_login(t.player_b)
    html = client.get(page_url(t.tournament, loser.number)).content.decode()
    assert f'href="{confirm}"' in html
    # The winners have nothing to confirm.
    client.force_login(t.player_a)
    assert "pendiente de vuestra confirmación" not in text_of(client.get(page_url(t.tournament, t.match.pair_a.number)))


def test_the_poll_interval_can_be_shortened_with_intervalo():
    t = table()
    html = Client().get(page_url(t.tournament, t.match.pair_a.number), {"intervalo": "500"}).content.decode()
    assert 'data-live-interval="500"' in html
    html = Client().get(page_url(t.tournament, t.match.pair_a.number), {"intervalo": "5"}).content.decode()
    assert 'data-live-interval="300"' in html  # never below 300 ms
    assert "data-live-interval" not in Client().get(page_url(t.tournament, t.match.pair_a.number)).content.decode()


# --- constant queries ----------------------------------------------------------------------------


def _two_rounds(pairs: int):
    sim = new_tournament(pairs, seed=7)
    first = publish_next_round(sim)
    for match in first.matches.filter(outcome=Match.Outcome.PENDING):
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=2)
    second = publish_next_round(sim)
    match = second.matches.filter(pair_b__isnull=False).select_related("pair_a").first()
    pair = match.pair_a
    user = UserFactory()
    Player.objects.filter(pk=pair.ordered_members()[0].player_id).update(user=user)
    grant(UserFactory(), sim.tournament, "control")
    return sim.tournament, pair, user


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("logged_in", [False, True], ids=["public", "player"])
def test_the_pair_page_costs_the_same_queries_for_16_and_120_pairs(django_assert_num_queries, logged_in):
    small_t, small_pair, small_user = _two_rounds(16)
    big_t, big_pair, big_user = _two_rounds(120)
    small, big = Client(), Client()
    if logged_in:
        small.force_login(small_user)
        big.force_login(big_user)
    expected = _queries(small, page_url(small_t, small_pair.number))
    # +2 since the juez's record is on the page: the pair's sanctions and its suplentes (AMM 5.4,
    # 5.8); +1 for the pages' cache stamp; +1 for the circuits the tournament is in (links to the
    # players' ratings, circuits.templatetags); for anonymous visitors +3 for the public state (the
    # tournament, its stamp, the pair's version: kept in the cache in production, torneo.pagecache).
    assert expected <= 16, expected
    with django_assert_num_queries(expected):
        response = big.get(page_url(big_t, big_pair.number))
    page = text_of(response)
    assert "Ronda 2" in page and "Ganada 3-2" in page  # round 1, from the winner's side
    # Again, nothing changed: the body from the cache (torneo.pagecache), the page's data not read;
    # an anonymous visitor's whole page, after the public state's three queries.
    warm = _queries(big, page_url(big_t, big_pair.number))
    assert warm <= (7 if logged_in else 3), warm
    assert text_of(big.get(page_url(big_t, big_pair.number))) == page


def test_find_yourself_costs_the_same_queries_for_16_and_120_pairs(django_assert_num_queries):
    small_t, _, _ = _two_rounds(16)
    big_t, _, _ = _two_rounds(120)
    expected = _queries(Client(), f"/torneos/{small_t.slug}/jugadores/?q=a")
    with django_assert_num_queries(expected):
        Client().get(f"/torneos/{big_t.slug}/jugadores/?q=a")


def test_the_pair_page_says_eliminated_by_the_standings_own_survival_rule():
    """A "a 3 ceros" tournament with rondas finales from round 2: a pair that loses round 2 has
    fewer than the three losses allowed, but in the rondas finales one loss eliminates; the
    pair page and the standings say the same (both read scoring.standings' survival)."""
    from scoring.selectors import standings as selectors
    from torneo.models import Tournament

    sim = new_tournament(8, seed=3, format=Tournament.Format.CEROS, max_losses=3, final_phase_from_round=2)
    first = publish_next_round(sim)
    for match in first.matches.filter(outcome=Match.Outcome.PENDING):
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
    second = publish_next_round(sim)
    for match in second.matches.filter(outcome=Match.Outcome.PENDING):
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
    loser = second.matches.filter(pair_b__isnull=False).first().pair_b
    page = text_of(Client().get(page_url(sim.tournament, loser.number)))
    assert "Eliminada" in page and "Sigue en el torneo" not in page
    rows = {r.pair.number: r for t in selectors.standings(sim.tournament).tables for r in t.rows}
    assert rows[loser.number].status == "out" and rows[loser.number].losses < 3


def test_a_pair_page_polls_its_own_version_a_result_elsewhere_leaves_it_alone():
    """live.json?pareja=<n> (torneo.services.live): half the phones of a big event are on their
    pair's page; another table's result refreshes the standings, not their page; their own table's
    result and a new round do."""
    sim = new_tournament(8, seed=3)
    round_ = publish_next_round(sim)
    t = sim.tournament
    mine, other = list(round_.matches.exclude(pair_b=None).order_by("table_number"))[:2]
    client = Client()

    def versions() -> tuple[int, int, int]:
        tournament = client.get(f"/torneos/{t.slug}/live.json").json()["version"]
        own = client.get(f"/torneos/{t.slug}/live.json?pareja={mine.pair_a.number}").json()["version"]
        rival = client.get(f"/torneos/{t.slug}/live.json?pareja={other.pair_a.number}").json()["version"]
        return tournament, own, rival

    before = versions()
    result_submit(match=other, by=sim.organizer, games_a=3, games_b=1)
    after_other = versions()
    assert after_other[0] > before[0] and after_other[1] == before[1] and after_other[2] > before[2]
    result_submit(match=mine, by=sim.organizer, games_a=1, games_b=3)
    after_mine = versions()
    assert after_mine[1] > after_other[1] and after_mine[2] == after_other[2]
    html = client.get(page_url(t, mine.pair_a.number)).content.decode()
    assert f'data-live-version="{after_mine[1]}"' in html
    assert client.get(f"/torneos/{t.slug}/live.json?pareja=999").status_code == 404
    assert client.get(f"/torneos/{t.slug}/live.json?pareja=x1").status_code == 404


def test_the_cached_pair_page_shows_each_viewer_their_own_version_and_the_clock_now():
    """The pair page's body is cached (torneo.pagecache) in three versions: the public's, the pair's
    players' (their confirmation buttons, their apercibimientos) and the staff's; asked in any order,
    each sees its own. The table's clock is rendered at every request (its server time is now)."""
    from referees.services.sanctions import sanction_give
    from scoring.services.clocks import clock_start

    t = table()
    sanction_give(by=t.juez, pair=t.match.pair_a, article="3.20.c", step=1, match=t.match)
    clock_start(match=t.match, by=t.juez)
    url = page_url(t.tournament, t.match.pair_a.number)
    public, player, staff = Client(), Client(), Client()
    player.force_login(t.player_a)
    staff.force_login(t.control)
    for _ in range(2):  # cold, then from the cache
        clients = (("public", public), ("player", player), ("staff", staff))
        seen = {name: c.get(url).content.decode() for name, c in clients}
        assert "Apercibimiento" not in text_of_html(seen["public"])
        assert "Apercibimiento" in text_of_html(seen["player"]) and "Apercibimiento" in text_of_html(seen["staff"])
        assert "Avisar al juez" in seen["player"] and "Avisar al juez" not in seen["public"]
        assert "Avisar al juez" not in seen["staff"]
        for html in seen.values():
            assert 'id="clock-data"' in html and "js/clocks.js" in html
    first = re.search(r'"server_now": "([^"]+)"', public.get(url).content.decode()).group(1)
    time.sleep(0.01)
    second = re.search(r'"server_now": "([^"]+)"', public.get(url).content.decode()).group(1)
    assert second > first
