"""The juez's sanctions where the others look (AMM 5.4.1: «anotará en el acta el apercibimiento»):
the result desk's lookup of a table (the acta's notes) and the pair page."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from referees.models import Sanction
from referees.services.sanctions import sanction_give
from scoring.services import clocks as clock_svc
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def sanctioned():
    """Round 1 with its clocks; the pair A of table 1 warned (3.20.c) and then a juego lost (6.3)."""
    sim = new_tournament(6, seed=43, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-notas"), sim.tournament, "juez")
    clock_svc.clocks_start_round(round=round_, by=juez, at=datetime.datetime.now(datetime.UTC))
    match = playing(round_)[0]
    step = Sanction.Step
    sanction_give(by=juez, pair=match.pair_a, match=match, article="3.20.c", step=step.APERCIBIMIENTO)
    sanction_give(by=juez, pair=match.pair_a, match=match, article="6.3", step=step.JUEGO)
    return sim, match


def test_the_result_desk_shows_the_juezs_sanctions_as_the_acta_notes_them_amm_5_4(sanctioned):
    sim, match = sanctioned
    mesa = grant(UserFactory(), sim.tournament, "control")
    api = APIClient()
    api.force_authenticate(mesa)
    lookup = api.get(f"/api/v1/tournaments/{sim.tournament.slug}/results/lookup/", {"table": match.table_number})
    n = match.pair_a.number
    assert lookup.json()["acta_notes"] == [
        f"Juez: apercibimiento a la pareja {n} (AMM 3.20.c).",
        f"Juez: pérdida de un juego a la pareja {n} (AMM 6.3).",
    ]
    page = Client()
    page.force_login(mesa)
    html = page.post(
        reverse("scoring:results_entry", args=[sim.tournament.slug]), {"round": 1, "table": match.table_number}
    ).content.decode()
    assert f"pérdida de un juego a la pareja {n} (AMM 6.3)" in html


def test_the_pair_page_shows_what_changed_results_to_all_and_warnings_to_the_pair_amm_5_4(sanctioned):
    sim, match = sanctioned
    url = reverse("scoring:pair_page", args=[sim.tournament.slug, match.pair_a.number])
    public = Client().get(url).content.decode()
    assert "Sanciones del juez" in public and "Pérdida de un juego" in public
    assert "Apercibimiento" not in public
    member = UserFactory()
    Player.objects.filter(pk=match.pair_a.ordered_members()[0].player_id).update(user=member)
    own = Client()
    own.force_login(member)
    html = own.get(url).content.decode()
    assert "Apercibimiento" in html and "Pérdida de un juego" in html
    rival = Client().get(reverse("scoring:pair_page", args=[sim.tournament.slug, match.pair_b.number]))
    assert "Sanciones del juez" not in rival.content.decode()
