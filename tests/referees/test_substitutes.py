"""Suplentes through the service (AMM 5.8): the juez authorises them, and every limit is refused
with its article unless force majeure with a reason."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from referees.models import Substitution
from referees.services.substitutes import substitute_authorise, substitute_cancel
from scoring.services import clocks as clock_svc
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.errors import NotAllowed
from torneo.models import Round, Tournament
from torneo.services.registrations import pair_withdraw

pytestmark = pytest.mark.django_db


@pytest.fixture
def room():
    sim = new_tournament(8, seed=45, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-suplentes"), sim.tournament, "juez")
    return sim, round_, juez, playing(round_)


def authorise(juez, match, *, pair=None, first="Íñigo", last="Arrieta Sanz", **extra):
    pair = pair or match.pair_a
    replaced = pair.ordered_members()[0].player
    return substitute_authorise(
        by=juez, match=match, pair=pair, replaced=replaced, first_name=first, last_name=last, **extra
    )


def refused(juez, match, **kwargs) -> str:
    with pytest.raises(ValidationError) as bad:
        authorise(juez, match, **kwargs)
    return " ".join(bad.value.messages)


def test_a_juez_authorises_a_suplente_for_a_partida_amm_5_8(room):
    _sim, _round, juez, matches = room
    sub = authorise(juez, matches[0], id_document="12345678Z")
    assert (sub.status, sub.name, sub.force_majeure) == ("active", "Íñigo Arrieta Sanz", False)
    assert sub.identity == "doc:12345678Z"


def test_only_the_jueces_and_the_organizer_authorise(room):
    sim, _round, _juez, matches = room
    for user in (grant(UserFactory(), sim.tournament, "control"), UserFactory()):
        with pytest.raises(NotAllowed):
            authorise(user, matches[0])


def test_a_suplente_who_began_a_partida_finishes_it_amm_5_8_a(room):
    _sim, round_, juez, matches = room
    sub = authorise(juez, matches[0])
    clock_svc.clocks_start_round(round=round_, by=juez, at=datetime.datetime.now(datetime.UTC))
    assert "5.8.a" in refused(juez, matches[0], first="Otro", last="Suplente Nuevo")
    with pytest.raises(ValidationError) as bad:
        substitute_cancel(by=juez, substitution=sub)
    assert "5.8.a" in bad.value.messages[0]
    substitute_cancel(by=juez, substitution=sub, force_majeure=True, reason="Indispuesto: ambulancia")
    assert Substitution.objects.get(pk=sub.pk).status == "cancelled"


def test_a_suplente_is_withdrawn_freely_before_the_partida_begins_amm_5_8_a(room):
    _sim, _round, juez, matches = room
    sub = authorise(juez, matches[0])
    assert substitute_cancel(by=juez, substitution=sub).status == "cancelled"


def test_nobody_registered_even_withdrawn_may_be_a_suplente_amm_5_8_b(room):
    _sim, _round, juez, matches = room
    other = matches[1].pair_a
    registered = other.ordered_members()[0].player
    pair_withdraw(pair=other)  # eliminated or withdrawn: still registered in the tournament
    message = refused(juez, matches[0], first=registered.first_name, last=registered.last_name)
    assert "5.8.b" in message and "inscrita" in message


def test_a_suplente_of_one_pair_cannot_be_one_of_another_amm_5_8_c(room):
    _sim, _round, juez, matches = room
    authorise(juez, matches[0], id_document="12345678Z")
    assert "5.8.c" in refused(juez, matches[1], id_document="12345678Z", first="Iñigo", last="Arrieta")
    again = authorise(juez, matches[0], pair=matches[0].pair_a, id_document="12345678Z")  # the same pair: fine
    assert again.status == "active"


def test_no_suplentes_in_the_final_rounds_amm_5_8_d(room):
    _sim, round_, juez, matches = room
    Round.objects.filter(pk=round_.pk).update(is_final=True)
    matches[0].round.refresh_from_db()
    assert "5.8.d" in refused(juez, matches[0])


def test_force_majeure_needs_a_reason_and_is_recorded_amm_5_8(room):
    _sim, round_, juez, matches = room
    Round.objects.filter(pk=round_.pk).update(is_final=True)
    matches[0].round.refresh_from_db()
    with pytest.raises(ValidationError) as bad:
        authorise(juez, matches[0], force_majeure=True)
    assert "reason" in bad.value.message_dict
    sub = authorise(juez, matches[0], force_majeure=True, reason="El titular, hospitalizado")
    assert sub.force_majeure and sub.reason == "El titular, hospitalizado"


def test_bad_input_names_the_field(room):
    _sim, _round, juez, matches = room
    with pytest.raises(ValidationError) as bad:
        authorise(juez, matches[0], first="", id_document="1234")
    assert {"first_name", "id_document"} <= set(bad.value.message_dict)
    with pytest.raises(ValidationError) as bad:
        authorise(juez, matches[0], pair=matches[1].pair_a)
    assert "pair" in bad.value.message_dict


def test_the_three_players_of_a_trio_are_titulares_amm_5_8_e(room):
    from torneo.models import PairMember, Player

    sim, _round, juez, matches = room
    trio = matches[0].pair_a
    third = Player.objects.create(tournament=sim.tournament, first_name="Tercera", last_name="Jugadora Trío")
    PairMember.objects.create(pair=trio, player=third, tournament=sim.tournament, position=3, identity_key="name:x")
    assert "5.8.e" in refused(juez, matches[0])


def test_the_suplente_is_on_the_acta_and_the_pair_page_never_the_document_amm_5_8(room):
    from django.test import Client
    from django.urls import reverse

    from scoring import acta

    sim, _round, juez, matches = room
    match = matches[0]
    sub = authorise(juez, match, id_document="12345678Z")
    replaced = sub.replaced.full_name
    assert acta.notes(match) == [
        f"Suplente: Íñigo Arrieta Sanz juega por {replaced} (pareja {match.pair_a.number}, AMM 5.8)."
    ]
    page = Client().get(reverse("scoring:pair_page", args=[sim.tournament.slug, match.pair_a.number]))
    html = page.content.decode()
    assert "Íñigo Arrieta Sanz juega por" in html and "12345678Z" not in html


def test_one_suplente_per_pair_and_partida_a_second_only_for_force_majeure_amm_5_8(room):
    """5.8 «Si uno de los integrantes de una pareja no pudiese asistir…»."""
    _sim, _round, juez, matches = room
    match = matches[1]
    pair = match.pair_a
    first, second = (m.player for m in pair.ordered_members())
    substitute_authorise(by=juez, match=match, pair=pair, replaced=first, first_name="Ana", last_name="Uno")
    with pytest.raises(ValidationError) as bad:
        substitute_authorise(by=juez, match=match, pair=pair, replaced=second, first_name="Bea", last_name="Dos")
    assert "uno por pareja" in " ".join(bad.value.messages) and "AMM 5.8" in " ".join(bad.value.messages)
    assert Substitution.objects.filter(match=match).count() == 1
    forced = substitute_authorise(
        by=juez,
        match=match,
        pair=pair,
        replaced=second,
        first_name="Bea",
        last_name="Dos",
        force_majeure=True,
        reason="Los dos titulares, en urgencias tras un accidente",
    )
    assert forced.force_majeure and "urgencias" in forced.reason
    # The other pair of the table is another pair: its own suplente is its first.
    substitute_authorise(
        by=juez,
        match=match,
        pair=match.pair_b,
        replaced=match.pair_b.ordered_members()[0].player,
        first_name="Carla",
        last_name="Tres",
    )


def test_the_same_person_with_and_without_a_document_is_one_suplente_amm_5_8_c(room):
    """5.8.c with 5.8.b's identity rule: accents, case, and a document given only once."""
    _sim, _round, juez, matches = room
    authorise(juez, matches[0], first="Íñigo", last="Arrieta Sanz")
    message = refused(juez, matches[1], first="INIGO", last="arrieta sanz", id_document="12345678Z")
    assert "5.8.c" in message
    authorise(juez, matches[2], first="Jon", last="Ibarra", id_document="87654321X")
    message = refused(juez, matches[3], first="Otro", last="Nombre", id_document="87654321X")
    assert "5.8.c" in message  # the same document is the same person, whatever the name


def test_a_partida_begun_without_a_clock_keeps_its_suplente_amm_5_8_a(room):
    """5.8.a «Una vez que un suplente comience una partida deberá terminarla»: begun is known
    without a clock too (a result or a hand recorded, even proposed)."""
    sim, _round, juez, matches = room
    match = matches[2]
    sub = authorise(juez, match)
    sim.tournament.results_double_check = True
    sim.tournament.save(update_fields=["results_double_check"])
    from scoring.services.results import result_submit

    result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)  # proposed, awaiting confirmation
    with pytest.raises(ValidationError) as bad:
        substitute_cancel(by=juez, substitution=sub)
    assert "5.8.a" in " ".join(bad.value.messages)
    assert "5.8.a" in refused(juez, match, first="Otra", last="Persona")


def test_an_outsider_replaces_a_trio_member_only_when_two_cannot_play_amm_5_8_e(room):
    from torneo.models import PairMember, Player

    sim, _round, juez, matches = room
    match = matches[0]
    trio = match.pair_a
    third = Player.objects.create(tournament=sim.tournament, first_name="Tercera", last_name="Jugadora Trío")
    PairMember.objects.create(pair=trio, player=third, tournament=sim.tournament, position=3, identity_key="name:x")
    first, second = (m.player for m in trio.ordered_members()[:2])
    with pytest.raises(ValidationError) as bad:
        substitute_authorise(by=juez, match=match, pair=trio, replaced=first, first_name="Ane", last_name="Fuera")
    assert "solo cuando dos de los tres no pueden jugar" in " ".join(bad.value.messages)
    sub = substitute_authorise(
        by=juez, match=match, pair=trio, replaced=first, also_missing=second, first_name="Ane", last_name="Fuera"
    )
    assert sub.force_majeure is False
    with pytest.raises(ValidationError) as bad:
        substitute_authorise(
            by=juez,
            match=matches[1],
            pair=matches[1].pair_a,
            replaced=matches[1].pair_a.ordered_members()[0].player,
            also_missing=first,
            first_name="X",
            last_name="Y",
        )
    assert "also_missing" in bad.value.message_dict


def test_a_suplente_for_an_absent_player_completes_the_pair_on_the_clock_amm_6_1_b_and_5_8(room):
    _sim, round_, juez, matches = room
    match = matches[3]
    start = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=8)
    clock_svc.clocks_start_round(round=round_, by=juez, at=start)
    clock_svc.clock_absence(match=match, by=juez, pair="B", at=start)
    authorise(juez, match, pair=match.pair_b)
    clock = match.clock
    clock.refresh_from_db()
    assert clock.arrived_b_at is not None
    from scoring.selectors.clocks import match_clock

    state = match_clock(match, start + datetime.timedelta(minutes=25)).state
    assert state is not None and state.missing["B"].juegos == 0 and not state.missing["B"].partida
