"""Circuits in the database (issue 35): who may create one and add tournaments, and the ranking of
pairs and players over decided tournaments, people linked across tournaments only through their
accounts (RGPD)."""

import itertools
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from circuits.models import Circuit
from circuits.selectors import circuit_ranking
from circuits.services import (
    circuit_create,
    circuit_tournament_add,
    circuit_tournament_remove,
    circuit_update,
    parse_points_table,
)
from tests.factories import UserFactory, grant
from tests.scoring import expel
from tests.torneo.simulation import new_tournament
from torneo.errors import NotAllowed, TournamentError
from torneo.models import Pair, Tournament

pytestmark = pytest.mark.django_db

TABLE = "100, 80, 60, 60"


# --- the points table --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "table"),
    [("100, 80, 65", [100, 80, 65]), ("100 80;65  50", [100, 80, 65, 50]), ([10, 10, 0], [10, 10, 0])],
)
def test_a_points_table_is_read_as_typed(typed: Any, table: list[int]) -> None:
    assert parse_points_table(typed) == table


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "Escribe los puntos de cada puesto"),
        ("100, 80, ochenta", "El puesto 3 («ochenta») debe ser un número entero"),
        ("100, -5", "El puesto 2 («-5»)"),
        ("100, 80, 90", "Los puntos no pueden subir: el puesto 3 (90) da más que el 2 (80)."),
        ("0, 0", "Algún puesto tiene que dar puntos."),
        (", ".join(["1"] * 200), "La tabla tiene 200 puestos; como mucho, 128."),
        ([True, 1], "El puesto 1 («True»)"),
    ],
)
def test_a_bad_points_table_says_which_place_is_wrong(typed: Any, message: str) -> None:
    with pytest.raises(ValidationError) as error:
        parse_points_table(typed)
    assert message in error.value.message_dict["points_table"][0]


# --- who may ----------------------------------------------------------------------------------------


def organizer_of(tournament: Tournament) -> Any:
    return grant(UserFactory(), tournament, "organizer")


def test_only_an_organizer_creates_a_circuit_and_then_manages_it() -> None:
    t = new_tournament(4).tournament
    with pytest.raises(NotAllowed):
        circuit_create(by=UserFactory(), name="Circuito", season="2026", points_table=TABLE)
    juez = grant(UserFactory(), t, "juez")
    with pytest.raises(NotAllowed):
        circuit_create(by=juez, name="Circuito", season="2026", points_table=TABLE)
    organizer = organizer_of(t)
    circuit = circuit_create(by=organizer, name="Circuito de Mus", season="2026-2027", points_table=TABLE)
    assert circuit.slug == "circuito-de-mus-2026-2027" and list(circuit.managers.all()) == [organizer]
    again = circuit_create(by=organizer, name="Circuito de Mus", season="2026-2027", points_table=TABLE)
    assert again.slug == "circuito-de-mus-2026-2027-2"
    with pytest.raises(ValidationError) as error:
        circuit_create(by=organizer, name=" ", season="", points_table=TABLE, best_of=0, final_spots=-1)
    assert set(error.value.message_dict) == {"name", "season", "best_of", "final_spots"}
    with pytest.raises(NotAllowed):
        circuit_update(circuit=circuit, by=organizer_of(t), name="Otro", season="2026", points_table=TABLE)
    circuit_update(circuit=circuit, by=organizer, name="Otro", season="2026", points_table="10", best_of=2)
    circuit.refresh_from_db()
    assert (circuit.name, circuit.points_table, circuit.best_of) == ("Otro", [10], 2)


def test_a_tournament_joins_only_by_someone_who_manages_the_circuit_and_organizes_the_tournament() -> None:
    mine, theirs = new_tournament(4).tournament, new_tournament(4).tournament
    me = organizer_of(mine)
    circuit = circuit_create(by=me, name="Liga", season="2026", points_table=TABLE)
    with pytest.raises(NotAllowed, match="Solo su organización puede poner el torneo"):
        circuit_tournament_add(circuit=circuit, tournament=theirs, by=me)
    with pytest.raises(NotAllowed, match="No gestionas este circuito"):
        circuit_tournament_add(circuit=circuit, tournament=theirs, by=organizer_of(theirs))
    circuit_tournament_add(circuit=circuit, tournament=mine, by=me)
    with pytest.raises(TournamentError, match="ya está en este circuito"):
        circuit_tournament_add(circuit=circuit, tournament=mine, by=me)
    circuit_tournament_remove(circuit=circuit, tournament_id=mine.pk, by=me)
    with pytest.raises(TournamentError, match="ya no está en el circuito"):
        circuit_tournament_remove(circuit=circuit, tournament_id=mine.pk, by=me)
    assert circuit.history.count() == 1 and not circuit.entries.exists()


# --- the ranking -------------------------------------------------------------------------------------


def knockout(seed: int) -> Any:
    return new_tournament(4, seed=seed, format=Tournament.Format.CEROS, max_losses=1)


def link(pair: Pair, users: list[Any]) -> None:
    """The pair's players link their registrations to their accounts."""
    for member, user in zip(pair.ordered_members(), users, strict=True):
        member.player.user = user
        member.player.save()


def places(tournament: Tournament) -> dict[int, int]:
    """Pair id → first place, from the tournament's own classification."""
    from scoring.selectors.standings import classification

    return {row.pair.id: row.position for row in classification(tournament).sections[0].rows}


def test_the_ranking_adds_the_places_of_decided_tournaments_and_links_people_only_by_account() -> None:
    sims = [knockout(1), knockout(2), knockout(3)]
    organizer = UserFactory()
    for sim in sims:
        grant(organizer, sim.tournament, "organizer")
    circuit = circuit_create(by=organizer, name="Circuito", season="2026", points_table=TABLE)
    for sim in sims:
        circuit_tournament_add(circuit=circuit, tournament=sim.tournament, by=organizer)
    ana, bea = UserFactory(), UserFactory()
    first = [list(Pair.objects.filter(tournament=sim.tournament).order_by("number")) for sim in sims]
    link(first[0][0], [ana, bea])  # the same two people in the first two tournaments
    link(first[1][2], [bea, ana])
    sims[0].play_all()
    sims[1].play_all()  # the third one is still to be played: it gives nothing yet
    ranking = circuit_ranking(Circuit.objects.get(pk=circuit.pk))
    decided = {e.tournament.pk: e.decided for e in ranking.events}
    assert decided == {sims[0].tournament.pk: True, sims[1].tournament.pk: True, sims[2].tournament.pk: False}
    assert ranking.decided == 2
    assert len(ranking.pairs) == 4 + 4 - 1  # the linked pair once
    points = {1: 100, 2: 80, 3: 60, 4: 60}  # 3–4 shared: (60 + 60) / 2
    p0, p1 = places(sims[0].tournament), places(sims[1].tournament)
    linked = [r for r in ranking.pairs if r.played == 2]
    assert len(linked) == 1
    expected = points[p0[first[0][0].pk]] + points[p1[first[1][2].pk]]
    counted = {ranking.events[c.event].tournament.pk for c in linked[0].counted}
    assert linked[0].points == expected and counted == {sims[0].tournament.pk, sims[1].tournament.pk}
    assert sum(1 for r in ranking.players if r.played == 2) == 2  # ana and bea; nobody else merged
    assert len(ranking.players) == 2 * 7 - 0  # every player of the seven pairs, ana and bea once each
    # Positions: by points, shared when equal.
    totals = [r.points for r in ranking.pairs]
    assert totals == sorted(totals, reverse=True)
    for a, b in itertools.pairwise(ranking.pairs):
        assert a.position < b.position or (a.points == b.points and a.shared and b.shared)


def test_homonyms_are_never_merged_without_accounts() -> None:
    """Two registrations with the same names in two tournaments stay two people (RGPD)."""
    from tests.factories import make_pair, player_data
    from torneo.services.registrations import pair_check_in

    organizer = UserFactory()
    sims = []
    for seed in (4, 5):
        sim = knockout(seed)
        grant(organizer, sim.tournament, "organizer")
        Pair.objects.filter(tournament=sim.tournament, number=4).delete()
        pair = make_pair(
            sim.tournament,
            players=[player_data(900, first_name="Ane", last_name="Etxeberria"), player_data(901, first_name="Jon")],
        )
        pair_check_in(pair=pair)
        sims.append(sim)
    circuit = circuit_create(by=organizer, name="Circuito", season="2026", points_table=TABLE)
    for sim in sims:
        circuit_tournament_add(circuit=circuit, tournament=sim.tournament, by=organizer)
        sim.play_all()
    ranking = circuit_ranking(Circuit.objects.get(pk=circuit.pk))
    assert [r.name for r in ranking.players].count("Ane Etxeberria") == 2
    assert all(r.played == 1 for r in ranking.players)


def test_only_the_best_results_count_and_the_final_takes_the_first_places() -> None:
    sims = [knockout(6), knockout(7), knockout(8)]
    circuit = circuit_create(by=organizer_of(sims[0].tournament), name="C", season="2026", points_table=TABLE)
    manager = circuit.managers.get()
    ana, bea = UserFactory(), UserFactory()
    for sim in sims:
        if sim is not sims[0]:
            grant(manager, sim.tournament, "organizer")
        circuit_tournament_add(circuit=circuit, tournament=sim.tournament, by=manager)
        link(Pair.objects.get(tournament=sim.tournament, number=1), [ana, bea])
        sim.play_all()
    circuit_update(circuit=circuit, by=manager, name="C", season="2026", points_table=TABLE, best_of=2, final_spots=2)
    ranking = circuit_ranking(Circuit.objects.get(pk=circuit.pk))
    (linked,) = [r for r in ranking.pairs if r.played == 3]
    assert len(linked.counted) == 2 and len(linked.discarded) == 1
    assert min(c.points for c in linked.counted) >= linked.discarded[0].points
    assert linked.points == sum(c.points for c in linked.counted)
    going = [r for r in ranking.pairs if r.qualifies]
    assert going and all(r.position <= 2 for r in going)
    assert all(not r.qualifies for r in ranking.pairs if r.position > 2)


def test_an_expelled_pair_scores_nothing_amm_3_16_b() -> None:
    sim = knockout(9)
    organizer = organizer_of(sim.tournament)
    circuit = circuit_create(by=organizer, name="C", season="2026", points_table=TABLE)
    circuit_tournament_add(circuit=circuit, tournament=sim.tournament, by=organizer)
    expel(Pair.objects.get(tournament=sim.tournament, number=2))
    sim.play_all()
    ranking = circuit_ranking(Circuit.objects.get(pk=circuit.pk))
    assert len(ranking.pairs) == 3 and all("Expulsada" not in r.name for r in ranking.pairs)
