"""The juez's suplentes page (AMM 5.8): authorise one from the table's number, see each limit
refused with its article, withdraw one; only the jueces and the organizer."""

import pytest
from django.test import Client
from django.urls import reverse

from referees.models import Substitution
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk():
    sim = new_tournament(6, seed=47, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-suplentes-pagina"), sim.tournament, "juez")
    client = Client()
    client.force_login(juez)
    return sim, round_, client, playing(round_)


def url(sim) -> str:
    return reverse("referees:substitutes", args=[sim.tournament.slug])


def body(match, **extra):
    return {
        "ronda": 1,
        "table": match.table_number,
        "pair": "B",
        "position": "2",
        "first_name": "Ane",
        "last_name": "Urrutia Goñi",
        **extra,
    }


def test_the_juez_authorises_a_suplente_from_the_table_number_amm_5_8(desk):
    sim, _round, client, matches = desk
    match = matches[0]
    response = client.post(url(sim), body(match))
    assert response.status_code == 302
    sub = Substitution.objects.get()
    assert (sub.pair_id, sub.replaced_id, sub.name) == (
        match.pair_b_id,
        match.pair_b.ordered_members()[1].player_id,
        "Ane Urrutia Goñi",
    )
    page = client.get(response["Location"]).content.decode()
    assert "Ane Urrutia Goñi juega por" in page


def test_each_limit_is_refused_with_its_article_and_nothing_written_amm_5_8_d(desk):
    sim, round_, client, matches = desk
    Round.objects.filter(pk=round_.pk).update(is_final=True)
    response = client.post(url(sim), body(matches[0]))
    assert response.status_code == 400
    assert "AMM 5.8.d" in response.content.decode()
    assert not Substitution.objects.exists()
    forced = client.post(url(sim), body(matches[0], force_majeure="on", reason="El titular, al hospital"))
    assert forced.status_code == 302 and Substitution.objects.get().force_majeure


def test_a_suplente_is_withdrawn_before_the_partida_begins_amm_5_8_a(desk):
    sim, _round, client, matches = desk
    client.post(url(sim), body(matches[0]))
    sub = Substitution.objects.get()
    cancel = reverse("referees:substitute_cancel", args=[sim.tournament.slug, sub.pk])
    assert client.post(cancel, {"reason": ""}).status_code == 302
    assert Substitution.objects.get().status == "cancelled"


def test_only_the_jueces_and_the_organizer_open_it(desk):
    sim, _round, _client, _matches = desk
    mesa = Client()
    mesa.force_login(grant(UserFactory(), sim.tournament, "control"))
    assert mesa.get(url(sim)).status_code == 403
    assert Client().get(url(sim)).status_code in (302, 403)
    organizer = Client()
    organizer.force_login(sim.organizer)
    assert organizer.get(url(sim)).status_code == 200
