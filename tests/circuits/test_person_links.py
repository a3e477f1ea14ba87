"""Two registrations of one person, joined by an organizer of both with the person's consent
(issue 35, RGPD): the rankings and the ratings then count them as one; nobody else may join them."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from circuits.identity import people
from circuits.models import Circuit, PersonLink
from circuits.ratings import ratings_recompute
from circuits.selectors import circuit_ranking
from circuits.services import circuit_create, circuit_tournament_add, person_link
from tests.factories import UserFactory, grant
from tests.torneo.simulation import new_tournament
from torneo.errors import NotAllowed, TournamentError
from torneo.models import Pair, Player, Tournament

pytestmark = pytest.mark.django_db


def season() -> Any:
    organizer = UserFactory()
    sims = [new_tournament(4, seed=s, format=Tournament.Format.CEROS, max_losses=1) for s in (1, 2)]
    for sim in sims:
        grant(organizer, sim.tournament, "organizer")
    circuit = circuit_create(by=organizer, name="C", season="2026", points_table="10, 5")
    for sim in sims:
        circuit_tournament_add(circuit=circuit, tournament=sim.tournament, by=organizer)
        sim.play_all()
    first = [Pair.objects.get(tournament=sim.tournament, number=1).ordered_members() for sim in sims]
    return type("Season", (), {"organizer": organizer, "sims": sims, "circuit": circuit, "first": first})


def test_joined_registrations_count_as_one_person_in_the_ranking_and_the_ratings() -> None:
    s = season()
    (ana1, bea1), (ana2, bea2) = [[m.player for m in ms] for ms in s.first]
    before = circuit_ranking(Circuit.objects.get(pk=s.circuit.pk))
    assert len(before.players) == 16 and len(before.pairs) == 8
    person_link(player_a=ana1, player_b=ana2, by=s.organizer, consent="Firmado al inscribirse")
    person_link(player_a=bea2, player_b=bea1, by=s.organizer, consent="Firmado al inscribirse")
    keys = people([ana1.pk, ana2.pk, bea1.pk, bea2.pk])
    assert keys[ana1.pk] == keys[ana2.pk] != keys[bea1.pk] == keys[bea2.pk]
    after = circuit_ranking(Circuit.objects.get(pk=s.circuit.pk))
    assert len(after.players) == 14 and len(after.pairs) == 7  # the pair is one pair too
    ratings_recompute()
    from circuits.models import PlayerRating

    assert PlayerRating.objects.get(person=keys[ana1.pk]).games >= 2  # a semifinal in each tournament
    # An account on one of them names the whole person.
    account = UserFactory()
    Player.objects.filter(pk=ana2.pk).update(user=account)
    assert people([ana1.pk])[ana1.pk] == f"u:{account.pk}"


def test_only_an_organizer_of_both_joins_two_registrations_with_the_consent_written() -> None:
    s = season()
    (ana1, _b1), (ana2, _b2) = [[m.player for m in ms] for ms in s.first]
    only_one = grant(UserFactory(), s.sims[0].tournament, "organizer")
    with pytest.raises(NotAllowed, match="Solo quien organiza los dos torneos"):
        person_link(player_a=ana1, player_b=ana2, by=only_one, consent="sí")
    with pytest.raises(ValidationError) as error:
        person_link(player_a=ana1, player_b=ana2, by=s.organizer, consent="  ")
    assert "consentimiento" in error.value.message_dict["consent"][0]
    other = Pair.objects.get(tournament=s.sims[0].tournament, number=2).ordered_members()[0].player
    with pytest.raises(TournamentError, match="dos torneos distintos"):
        person_link(player_a=ana1, player_b=other, by=s.organizer, consent="sí")
    link = person_link(player_a=ana2, player_b=ana1, by=s.organizer, consent="De palabra, ante la mesa")
    assert (link.player_a_id, link.player_b_id) == tuple(sorted((ana1.pk, ana2.pk)))
    assert link.created_by == s.organizer and link.history.count() == 1
    with pytest.raises(TournamentError, match="ya son la misma persona"):
        person_link(player_a=ana1, player_b=ana2, by=s.organizer, consent="otra vez")


def test_the_manage_page_joins_them_and_refuses_a_manager_who_does_not_organize_both() -> None:
    s = season()
    (ana1, _b1), (ana2, _b2) = [[m.player for m in ms] for ms in s.first]
    url = reverse("circuits:person_link", args=[s.circuit.slug])
    client = Client()
    client.force_login(s.organizer)
    page = client.get(reverse("circuits:manage", args=[s.circuit.slug])).content.decode()
    assert "Una misma persona en dos torneos" in page and f'value="{ana1.pk}"' in page
    response = client.post(url, {"player_a": ana1.pk, "player_b": ana2.pk, "consent": ""}, follow=True)
    assert not PersonLink.objects.exists() and "Este campo es obligatorio" in response.content.decode()
    client.post(url, {"player_a": ana1.pk, "player_b": ana2.pk, "consent": "Firmado"})
    assert PersonLink.objects.count() == 1
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.post(url, {"player_a": ana1.pk, "player_b": ana2.pk, "consent": "x"}).status_code == 403
