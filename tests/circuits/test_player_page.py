"""A player's page in a circuit (issue 35): their rating and their results, reached from the
circuit's ranking and from their pair's page in each of the circuit's tournaments; names only
(RGPD), and nobody outside the circuit's public tournaments is reachable through it."""

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from circuits.models import PlayerRating
from circuits.ratings import ratings_recompute
from circuits.selectors import circuit_tournaments, person_slug
from tests.circuits.test_ratings import link, season
from tests.factories import UserFactory
from tests.torneo.simulation import new_tournament
from torneo.models import Pair, Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> Any:
    s = season(1, 2)
    ana, bea = UserFactory(), UserFactory()
    link(Pair.objects.get(tournament=s.sims[0].tournament, number=1), [ana, bea])
    link(Pair.objects.get(tournament=s.sims[1].tournament, number=3), [ana, bea])
    for sim in s.sims:
        sim.play_all()
    ratings_recompute()
    s.ana = ana
    return s


def test_a_player_page_shows_the_rating_the_place_and_both_tournaments(played: Any) -> None:
    Player.objects.filter(user=played.ana).update(phone="600 111 222", email="ana@example.com", id_document="12345678Z")
    rating = PlayerRating.objects.get(person=f"u:{played.ana.pk}")
    # The name of their latest registration (the circuit's tournaments are by date).
    latest = circuit_tournaments(played.circuit)[-1]
    name = Player.objects.get(user=played.ana, tournament=latest).full_name
    page = Client().get(reverse("circuits:player", args=[played.circuit.slug, f"u{played.ana.pk}"]))
    html = page.content.decode()
    assert page.status_code == 200
    assert f"<title>{name} · C</title>" in html
    assert (
        f"<strong>{rating.ordinal:.1f}</strong>".replace(".", ",") in html
        or f"<strong>{rating.ordinal:.1f}</strong>" in html
    )
    assert f"{rating.games} partidas" in html
    for sim in played.sims:
        assert reverse("scoring:pair_page", args=[sim.tournament.slug, 1 if sim is played.sims[0] else 3]) in html
    assert "T1:" in html and "T2:" in html  # a place in each tournament of the circuit
    for secret in ("600 111 222", "ana@example.com", "12345678Z"):
        assert secret not in html


def test_the_circuit_ranking_and_the_pair_page_link_to_the_player_page(played: Any) -> None:
    url = reverse("circuits:player", args=[played.circuit.slug, f"u{played.ana.pk}"])
    assert url in Client().get(reverse("circuits:detail", args=[played.circuit.slug])).content.decode()
    tournament = played.sims[1].tournament
    pair_page = Client().get(reverse("scoring:pair_page", args=[tournament.slug, 3])).content.decode()
    assert "Rating y ranking en el C" in pair_page and url in pair_page
    # A registration without an account has its own page too, reached the same way.
    other = Pair.objects.get(tournament=tournament, number=2).ordered_members()[0].player
    other_url = reverse("circuits:player", args=[played.circuit.slug, person_slug(f"p:{other.pk}")])
    assert other_url in Client().get(reverse("scoring:pair_page", args=[tournament.slug, 2])).content.decode()
    assert Client().get(other_url).status_code == 200


def test_a_tournament_outside_every_circuit_links_to_none() -> None:
    sim = new_tournament(4, seed=9, format=Tournament.Format.CEROS, max_losses=1)
    sim.play_all()
    html = Client().get(reverse("scoring:pair_page", args=[sim.tournament.slug, 1])).content.decode()
    assert "Rating y ranking" not in html


def test_nobody_outside_the_circuits_public_tournaments_is_reachable(played: Any) -> None:
    outside = new_tournament(4, seed=9, format=Tournament.Format.CEROS, max_losses=1)
    stranger = outside.tournament.pairs.first().ordered_members()[0].player
    slug = played.circuit.slug
    for person in (f"p{stranger.pk}", f"u{UserFactory().pk}", "x1", "u", "p-1", "u1a", "p99999999"):
        assert Client().get(reverse("circuits:player", args=[slug, person])).status_code == 404, person
    drafted = played.sims[0].tournament
    member = Pair.objects.get(tournament=drafted, number=2).ordered_members()[0].player
    Tournament.objects.filter(pk=drafted.pk).update(status=Tournament.Status.DRAFT)
    assert Client().get(reverse("circuits:player", args=[slug, f"p{member.pk}"])).status_code == 404


def test_two_registrations_joined_with_consent_are_one_page_at_once(played: Any) -> None:
    from circuits.services import person_link

    first = Pair.objects.get(tournament=played.sims[0].tournament, number=2).ordered_members()[0].player
    second = Pair.objects.get(tournament=played.sims[1].tournament, number=4).ordered_members()[0].player
    url = reverse("circuits:player", args=[played.circuit.slug, f"p{min(first.pk, second.pk)}"])
    before = Client().get(url).content.decode()
    assert before.count("<li><a href=") == 1  # one tournament until they are joined
    person_link(player_a=first, player_b=second, by=played.organizer, consent="Firmado al inscribirse")
    after = Client().get(url).content.decode()
    assert after.count("<li><a href=") == 2  # the page is read again at once: the link changed the stamp
    assert (
        Client().get(reverse("circuits:player", args=[played.circuit.slug, f"p{max(first.pk, second.pk)}"])).status_code
        == 404
    )
