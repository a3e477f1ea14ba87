"""The public-page cache: its stamp changes with anything a public page shows, and only then."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from scoring.services.results import result_submit
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Player, Tournament
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
