"""The juez's tables by urgency (issue: the juez's own view): open incidents first, then what the
clocks say is urgent (an incomplete pair, AMM 6.1.b), then the rest; and a pair's players find
«Avisar al juez» on their own page (5.3)."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from referees.services.incidents import incident_report
from scoring.services import clocks as clock_svc
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Player, Tournament

pytestmark = pytest.mark.django_db


def test_the_desk_orders_tables_by_open_incidents_then_the_clocks_urgency_amm_6_1_b():
    sim = new_tournament(8, seed=52, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-orden"), sim.tournament, "juez")
    clock_svc.clocks_start_round(round=round_, by=juez, at=datetime.datetime.now(datetime.UTC))
    matches = playing(round_)
    late, reported = matches[-1], matches[-2]
    clock_svc.clock_absence(match=late, by=juez, pair="A")
    incident_report(tournament=sim.tournament, by=juez, match=reported, pair=reported.pair_a, article="3.20.c")
    client = Client()
    client.force_login(juez)
    html = client.get(reverse("referees:juez_desk", args=[sim.tournament.slug])).content.decode()
    order = [html.index(f'id="mesa-{m.table_number}"') for m in (reported, late, matches[0])]
    assert order == sorted(order)


def test_a_player_finds_avisar_al_juez_on_the_pair_page_amm_5_3():
    sim = new_tournament(4, seed=53, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    member = UserFactory()
    Player.objects.filter(pk=match.pair_a.ordered_members()[0].player_id).update(user=member)
    url = reverse("scoring:pair_page", args=[sim.tournament.slug, match.pair_a.number])
    report = reverse("referees:report", args=[sim.tournament.slug, match.pk])
    own = Client()
    own.force_login(member)
    assert report in own.get(url).content.decode()
    assert report not in Client().get(url).content.decode()


def test_the_desk_shows_a_66_alert_with_the_earlier_delay_sanctions_and_offers_the_article_amm_6_6():
    from scoring.models import DelayWarning

    sim = new_tournament(8, seed=54, format=Tournament.Format.CEROS, max_losses=2)
    round1 = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-66"), sim.tournament, "juez")
    now = datetime.datetime.now(datetime.UTC)
    clock_svc.clocks_start_round(round=round1, by=juez, at=now - datetime.timedelta(minutes=80))
    first = playing(round1)[0]
    recidivist = first.pair_a
    for _ in range(3):  # three delay sanctions in an earlier partida (AMM 6.6)
        clock_svc.clock_warning(match=first, by=juez, pair="A", at=now - datetime.timedelta(minutes=50))
    for match in playing(round1):
        sim.enter_result(match)
    round2 = publish_next_round(sim)
    clock_svc.clocks_start_round(round=round2, by=juez, at=now - datetime.timedelta(minutes=5))
    match = next(m for m in playing(round2) if recidivist.pk in (m.pair_a_id, m.pair_b_id))
    side = "A" if match.pair_a_id == recidivist.pk else "B"
    clock_svc.clock_warning(match=match, by=juez, pair=side)  # involved in a delay now
    assert DelayWarning.objects.filter(pair=recidivist).count() == 4
    client = Client()
    client.force_login(juez)
    url = reverse("referees:juez_desk", args=[sim.tournament.slug])
    html = client.get(url).content.decode()
    assert f"la pareja {recidivist.number} lleva 3 sanciones por retraso en partidas anteriores" in html
    form = client.get(url, {"mesa": match.table_number, "articulo": "6.6"}).content.decode()
    assert 'value="6.6" selected' in form
