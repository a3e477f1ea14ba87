"""The demo's circuit (issue 35): three finished tournaments of one season, ten pairs in all
three linked to their accounts, ranked on the public page."""

import pytest
from django.core.management import call_command
from django.test import Client

from circuits.demo import CIRCUIT_SLUG, REGULARS
from circuits.models import Circuit
from circuits.selectors import circuit_ranking
from torneo.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_builds_a_season_of_three_finished_tournaments_ranked_together() -> None:
    call_command("demo", verbosity=0)
    call_command("demo", verbosity=0)  # safe twice
    circuit = Circuit.objects.get(slug=CIRCUIT_SLUG)
    assert circuit.entries.count() == 3
    assert set(Tournament.objects.filter(circuit_entries__circuit=circuit).values_list("status", flat=True)) == {
        Tournament.Status.FINISHED
    }
    ranking = circuit_ranking(circuit)
    assert ranking.decided == 3
    regulars = [row for row in ranking.pairs if row.played == 3]
    assert len(regulars) == REGULARS
    assert all(len(row.counted) == 2 and len(row.discarded) == 1 for row in regulars)  # the best two count
    assert sum(1 for row in ranking.players if row.played == 3) == 2 * REGULARS
    assert sum(1 for row in ranking.pairs if row.qualifies) >= 8
    assert all(row.rating is not None for row in ranking.players)  # every player played a partida
    html = Client().get(circuit.get_absolute_url()).content.decode()
    assert "Circuito de Mus de Madrid" in html and "Torneo de Navidad de Getafe" in html
    assert html.count('<span class="badge">a la final</span>') == sum(1 for row in ranking.pairs if row.qualifies)
