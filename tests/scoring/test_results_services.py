"""The results services: every outcome through to the next draw, bad input, versions and
corrections, conflicts, locking (AMM 3.18) and the double check (AMM 3.16)."""

import pytest
from django.core.exceptions import ValidationError

from scoring.models import ResultSubmission
from scoring.selectors.results import match_history
from scoring.selectors.standings import bracket, classification, standings
from scoring.services.results import (
    can_confirm,
    can_resolve,
    disagreement,
    is_locked,
    result_confirm,
    result_note,
    result_reject,
    result_resolve,
    result_submit,
)
from tests.factories import UserFactory, grant
from tests.scoring import expel, playing, publish_next_round, world_match
from tests.torneo.simulation import appearances, new_tournament
from torneo.errors import Conflict, NotAllowed, TournamentError
from torneo.models import Match, Pair, Round, Tournament, TournamentRole
from torneo.services.rounds import draw_publish, live_draw, round_prepare
from torneo.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db
Outcome = Match.Outcome
Status = ResultSubmission.Status


def drawn(round_: Round) -> set[int]:
    return set(appearances(round_))


# --- every outcome through to the next draw ----------------------------------------------------------


def test_a_played_result_sends_the_winner_to_the_next_draw_amm_1_7_a():
    sim = new_tournament(4, seed=1, format=Tournament.Format.CEROS, max_losses=1)
    first, second = playing(publish_next_round(sim))
    result_submit(match=first, by=sim.organizer, games_a=3, games_b=1)
    result_submit(match=second, by=sim.organizer, games_a=2, games_b=3, tantos=[[40, 12], [38, 40]] * 2 + [[10, 40]])
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.outcome, first.winner_id, first.games_a, first.games_b) == (Outcome.PLAYED, first.pair_a_id, 3, 1)
    assert (second.winner_id, second.tantos_a, second.tantos_b) == (second.pair_b_id, 166, 144)
    final = publish_next_round(sim)
    assert drawn(final) == {first.pair_a_id, second.pair_b_id}


def test_juegos_follow_the_tournaments_target_amm_1_7_a():
    sim = new_tournament(2, seed=1, games_to_win=4)
    (match,) = playing(publish_next_round(sim))
    with pytest.raises(ValidationError) as error:
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
    assert "partida a 4 juegos ganados" in error.value.message_dict["games_a"][0]
    result_submit(match=match, by=sim.organizer, games_a=2, games_b=4)
    match.refresh_from_db()
    assert match.winner_id == match.pair_b_id


def test_walkover_gives_the_match_to_the_present_pair_amm_6_1_b():
    sim = new_tournament(4, seed=2, format=Tournament.Format.CEROS, max_losses=1)
    first, second = playing(publish_next_round(sim))
    result_submit(match=first, by=sim.organizer, outcome=Outcome.WALKOVER, winner=first.pair_b)
    result_submit(match=second, by=sim.organizer, games_a=3, games_b=0)
    first.refresh_from_db()
    assert (first.outcome, first.winner_id, first.games_a, first.games_b) == (Outcome.WALKOVER, first.pair_b_id, 0, 3)
    assert first.pair_b_id in drawn(publish_next_round(sim)) and first.pair_a_id not in drawn(sim.rounds[-1])


def test_retirement_names_the_winner_and_keeps_the_juegos_played():
    """A retirement gives the other pair the partida: it is written with the juegos to win (AMM 1.7.a),
    and the pair that retired keeps the juegos it had won — even when it was ahead."""
    sim = new_tournament(2, seed=1)
    (match,) = playing(publish_next_round(sim))
    with pytest.raises(ValidationError) as error:
        result_submit(match=match, by=sim.organizer, outcome=Outcome.RETIRED, games_a=2, games_b=1)
    assert error.value.message_dict == {"winner": ["Indica qué pareja gana la partida."]}
    with pytest.raises(ValidationError) as error:
        result_submit(match=match, by=sim.organizer, outcome=Outcome.RETIRED, games_a=2, games_b=1, winner=match.pair_a)
    assert "la pareja ganadora se anota 3 juegos" in error.value.message_dict["games_a"][0]
    # Pair A was ahead 2-1 and retired: pair B wins 3-2 on the acta.
    result_submit(match=match, by=sim.organizer, outcome=Outcome.RETIRED, games_a=2, games_b=3, winner=match.pair_b)
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.games_a, match.games_b) == (Outcome.RETIRED, match.pair_b_id, 2, 3)


def test_a_double_loss_in_a_drawn_knockout_drops_both_pairs_amm_6_5_b():
    sim = new_tournament(6, seed=3, format=Tournament.Format.CEROS, max_losses=1)
    matches = playing(publish_next_round(sim))
    result_submit(match=matches[0], by=sim.organizer, outcome=Outcome.DOUBLE_LOSS, games_a=2, games_b=2)
    for m in matches[1:]:
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=2)
    matches[0].refresh_from_db()
    assert matches[0].winner_id is None and set(matches[0].loser_ids()) == {matches[0].pair_a_id, matches[0].pair_b_id}
    following = drawn(publish_next_round(sim))
    assert following == {m.pair_a_id for m in matches[1:]}  # the two winners: a final, nobody else


def test_a_double_loss_in_a_fixed_bracket_gives_the_next_opponent_an_exenta_amm_6_5_b():
    sim = new_tournament(8, seed=4, format=Tournament.Format.CEROS, max_losses=1, final_phase_from_round=1)
    matches = sorted(playing(publish_next_round(sim)), key=lambda m: m.slot)
    result_submit(match=matches[0], by=sim.organizer, outcome=Outcome.DOUBLE_LOSS)
    for m in matches[1:]:
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=1)
    semis = publish_next_round(sim)
    exenta = semis.matches.get(slot=0)
    assert (exenta.pair_a_id, exenta.pair_b_id, exenta.outcome) == (matches[1].pair_a_id, None, Outcome.BYE)
    # The bracket shows the double loss next to the exenta it caused.
    tree = bracket(Tournament.objects.get(pk=sim.tournament.pk))
    node = next(n for n in tree.roots if n["match"].id == exenta.pk)
    assert {c["match"].id for c in node["children"]} == {matches[0].pk, matches[1].pk}


def test_a_double_loss_in_a_liguilla_is_a_loss_for_both_and_the_schedule_goes_on_amm_6_5_b():
    sim = new_tournament(4, seed=5, format=Tournament.Format.LIGUILLAS, group_count=1, group_qualifiers=2)
    matches = playing(publish_next_round(sim))
    result_submit(match=matches[0], by=sim.organizer, outcome=Outcome.DOUBLE_LOSS, games_a=1, games_b=1)
    result_submit(match=matches[1], by=sim.organizer, games_a=3, games_b=0)
    assert len(playing(publish_next_round(sim))) == 2
    (table,) = standings(Tournament.objects.get(pk=sim.tournament.pk)).tables
    rows = {r.pair.id: r for r in table.rows}
    for pair in (matches[0].pair_a_id, matches[0].pair_b_id):
        assert (rows[pair].points, rows[pair].losses) == (0, 1)


def test_a_juezs_ruling_needs_the_decision_written_as_the_reason():
    sim = new_tournament(2, seed=1)
    (match,) = playing(publish_next_round(sim))
    with pytest.raises(ValidationError) as error:
        result_submit(match=match, by=sim.organizer, outcome=Outcome.RULING, winner=match.pair_b, games_a=2, games_b=3)
    assert list(error.value.message_dict) == ["reason"]
    sub = result_submit(
        match=match,
        by=sim.organizer,
        outcome=Outcome.RULING,
        winner=match.pair_b,
        games_a=1,
        games_b=2,
        reason="6.5.b: solo la pareja A tenía apercibimiento por retraso (juez Marta).",
    )
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, sub.reason[:5]) == (Outcome.RULING, match.pair_b_id, "6.5.b")


def test_an_exenta_has_no_acta_and_its_pair_goes_through_amm_5_6():
    sim = new_tournament(3, seed=1, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    bye = round_.matches.get(pair_b=None)
    with pytest.raises(TournamentError) as error:
        result_submit(match=bye, by=sim.organizer, games_a=3, games_b=0)
    assert error.value.code == "bye" and not ResultSubmission.objects.exists()
    (match,) = playing(round_)
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
    assert drawn(publish_next_round(sim)) == {bye.pair_a_id, match.pair_a_id}


def test_an_expelled_pair_is_not_drawn_and_not_classified_amm_3_16_b():
    sim = new_tournament(6, seed=6, format=Tournament.Format.CEROS, max_losses=2)
    matches = playing(publish_next_round(sim))
    result_submit(
        match=matches[0],
        by=sim.organizer,
        outcome=Outcome.RULING,
        winner=matches[0].pair_b,
        reason="3.16.b: resultado pactado; la pareja A queda expulsada.",
    )
    for m in matches[1:]:
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=1)
    expel(matches[0].pair_a)
    second = publish_next_round(sim)
    assert matches[0].pair_a_id not in drawn(second) and len(drawn(second)) == 5
    t = Tournament.objects.get(pk=sim.tournament.pk)
    rows = {r.pair.id: r for r in standings(t).tables[0].rows}
    assert rows[matches[0].pair_a_id].status_label == "Expulsada"
    result = classification(t)
    assert [p.id for p in result.excluded] == [matches[0].pair_a_id]
    assert matches[0].pair_a_id not in {r.pair.id for s in result.sections for r in s.rows}


def test_an_expelled_pairs_next_liguilla_opponent_wins_by_walkover():
    sim = new_tournament(4, seed=7, format=Tournament.Format.LIGUILLAS, group_count=1, group_qualifiers=2)
    for m in playing(publish_next_round(sim)):
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=1)
    gone = Pair.objects.filter(tournament=sim.tournament).order_by("number").first()
    expel(gone)
    second = publish_next_round(sim)
    walkover = second.matches.get(outcome=Outcome.WALKOVER)
    assert gone.pk in (walkover.pair_a_id, walkover.pair_b_id) and walkover.winner_id != gone.pk
    assert walkover.table_number is None  # nobody plays it: no table, no acta to enter


# --- bad input ------------------------------------------------------------------------------------


BAD = [
    ({"games_a": 3, "games_b": 3}, "games_a", "3-3 no es un resultado posible"),
    ({"games_a": 2, "games_b": 1}, "games_a", "2-1 no es un resultado posible"),
    ({"games_a": 4, "games_b": 1}, "games_a", "Los juegos van de 0 a 3"),
    ({"games_a": 3, "games_b": -1}, "games_b", "Los juegos van de 0 a 3"),
    ({"games_a": 3}, "games_b", "Indica los juegos de cada pareja."),
    ({"games_a": 3, "games_b": 1, "winner": "b"}, "winner", "La ganadora no coincide con los juegos."),
    ({"outcome": "bye"}, "outcome", "Resultado no válido."),
    ({"outcome": "pending"}, "outcome", "Resultado no válido."),
    ({"outcome": "walkover"}, "winner", "Indica qué pareja gana la partida."),
    ({"outcome": "walkover", "winner": "a", "games_a": 3}, "games_b", "de las dos parejas, o de ninguna"),
    ({"outcome": "retired", "winner": "a", "games_a": 1, "games_b": 2}, "games_a", "la pareja ganadora se anota 3"),
    ({"outcome": "double_loss", "winner": "a"}, "winner", "Si pierden las dos parejas no hay ganadora."),
    ({"outcome": "double_loss", "games_a": 3, "games_b": 1}, "games_a", "ya tenía ganadora"),
    ({"games_a": 3, "games_b": 1, "tantos": [[40, 10]]}, "tantos", "Hay 1 juego con tantos pero la partida tuvo 4"),
    ({"games_a": 3, "games_b": 0, "tantos": [[40, 10], [40], [40, 1]]}, "tantos", "Juego 2: escribe los tantos"),
    (
        {"games_a": 3, "games_b": 0, "tantos": [[40, 10], [400, 1], [40, 1]]},
        "tantos",
        "Juego 2: los tantos van de 0 a 139",
    ),
    ({"outcome": "ruling", "winner": "a"}, "reason", "Escribe la decisión del juez"),
    ({"games_a": 3, "games_b": 0, "reason": "x" * 501}, "reason", "demasiado largo"),
]


@pytest.mark.parametrize(("data", "field", "message"), BAD, ids=[f"{b[1]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_names_the_field_in_spanish_and_writes_nothing(data, field, message):
    sim = new_tournament(2, seed=1)
    (match,) = playing(publish_next_round(sim))
    kwargs = dict(data)
    if "winner" in kwargs:
        kwargs["winner"] = match.pair_a if kwargs["winner"] == "a" else match.pair_b
    with pytest.raises(ValidationError) as error:
        result_submit(match=match, by=sim.organizer, **kwargs)
    assert list(error.value.message_dict) == [field]
    assert message in error.value.message_dict[field][0]
    assert not ResultSubmission.objects.exists()
    match.refresh_from_db()
    assert (match.outcome, match.result_version, match.winner_id) == (Outcome.PENDING, 0, None)


def test_a_winner_from_another_table_is_refused():
    sim = new_tournament(4, seed=1)
    first, second = playing(publish_next_round(sim))
    with pytest.raises(ValidationError) as error:
        result_submit(match=first, by=sim.organizer, outcome=Outcome.WALKOVER, winner=second.pair_a)
    assert error.value.message_dict == {"winner": ["La ganadora debe ser una de las dos parejas de la mesa."]}


def test_an_unpublished_round_takes_no_results():
    sim = new_tournament(4, seed=1)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    assert not round_.matches.exists()  # nothing to enter before the draw


# --- versions, corrections, conflicts -------------------------------------------------------------


def test_every_submission_is_a_version_and_corrections_keep_who_and_when():
    sim = new_tournament(2, seed=1)
    control = grant(UserFactory(username="mesa1"), sim.tournament, "control")
    (match,) = playing(publish_next_round(sim))
    first = result_submit(match=match, by=control, games_a=3, games_b=1, expected_version=0)
    second = result_submit(
        match=match, by=sim.organizer, games_a=1, games_b=3, expected_version=1, reason="acta mal leída"
    )
    history = match_history(match)
    assert [(s.version, s.status, s.submitted_by) for s in history] == [
        (2, Status.CONFIRMED, sim.organizer),
        (1, Status.SUPERSEDED, control),
    ]
    assert second.reason == "acta mal leída" and first.submitted_at <= second.submitted_at
    assert second.confirmed_by == sim.organizer and second.confirmed_at is not None
    match.refresh_from_db()
    assert (match.winner_id, match.result_version) == (match.pair_b_id, 2)


def test_a_stale_version_is_a_conflict_that_names_table_version_and_person():
    sim = new_tournament(2, seed=1)
    control = grant(UserFactory(username="mesa2"), sim.tournament, "control")
    (match,) = playing(publish_next_round(sim))
    result_submit(match=match, by=control, games_a=3, games_b=1, expected_version=0)
    with pytest.raises(Conflict) as error:
        result_submit(match=match, by=sim.organizer, games_a=0, games_b=3, expected_version=0)
    assert str(error.value) == (
        f"La mesa {match.table_number} acaba de recibir otro resultado (versión 1, de mesa2). "
        "Revísalo antes de cambiarlo."
    )
    assert error.value.http_status == 409 and ResultSubmission.objects.count() == 1


# --- locking: AMM 3.18 ------------------------------------------------------------------------------


def two_rounds(**fields):
    """A 2 ceros of 4 pairs with round 1 played and round 2 published."""
    sim = new_tournament(4, seed=8, format=Tournament.Format.CEROS, max_losses=2, **fields)
    control = grant(UserFactory(), sim.tournament, "control")
    first = publish_next_round(sim)
    for m in playing(first):
        result_submit(match=m, by=control, games_a=3, games_b=1)
    publish_next_round(sim)
    return sim, control, playing(first)[0]


def test_results_are_final_once_the_next_draw_is_published_amm_3_18():
    """AMM 3.18: «una vez efectuado el siguiente sorteo el resultado que conste será inamovible»:
    nothing changes, for anybody — not even a 3-1 for a 3-2, which feeds the juegos tiebreak. The
    organizer may add a note to the history; the counted result stays."""
    sim, control, match = two_rounds()
    assert is_locked(match)
    with pytest.raises(NotAllowed, match=r"inamovible: ya se ha publicado el sorteo siguiente \(AMM 3.18\)"):
        result_submit(match=match, by=control, games_a=3, games_b=2, expected_version=1)
    with pytest.raises(TournamentError, match=r"inamovible") as error:
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=2, expected_version=1, reason="Fue 3-2")
    assert error.value.code == "final" and "añadir una nota" in str(error.value)
    note = result_note(match=match, by=sim.organizer, note="La pareja reclama un 3-2 tras el sorteo: no procede")
    assert (note.version, note.status, note.submitted_by, note.games_a, note.games_b) == (
        2,
        Status.NOTE,
        sim.organizer,
        3,
        1,
    )
    with pytest.raises(NotAllowed):
        result_note(match=match, by=control, note="No soy la organización")
    with pytest.raises(ValidationError) as empty:
        result_note(match=match, by=sim.organizer, note="  ")
    assert "note" in empty.value.message_dict
    match.refresh_from_db()
    assert (match.winner_id, match.games_a, match.games_b, match.result_version) == (match.pair_a_id, 3, 1, 1)


@pytest.mark.parametrize(
    "change",
    [
        {"games_a": 0, "games_b": 3},
        {"outcome": Outcome.DOUBLE_LOSS, "games_a": 2, "games_b": 2},
        {"outcome": Outcome.RULING, "winner": "b", "games_a": 1, "games_b": 2},
        {"games_a": 3, "games_b": 2},
    ],
    ids=["other-winner", "double-loss", "ruling-for-the-other", "other-juegos"],
)
def test_amm_3_18_not_even_the_organizer_changes_a_result_the_next_draw_used(change):
    """AMM 3.18: «una vez efectuado el siguiente sorteo el resultado que conste será inamovible»."""
    sim, _control, match = two_rounds()
    kwargs = dict(change)
    if kwargs.get("winner") == "b":
        kwargs["winner"] = match.pair_b
    with pytest.raises(TournamentError, match="inamovible"):
        result_submit(match=match, by=sim.organizer, expected_version=1, reason="reclamación tardía", **kwargs)
    match.refresh_from_db()
    assert (match.result_version, match.winner_id, match.games_a, match.games_b) == (1, match.pair_a_id, 3, 1)
    assert match.submissions.count() == 1


def test_a_prepared_but_unpublished_next_round_does_not_lock_amm_3_18():
    sim = new_tournament(4, seed=9, format=Tournament.Format.CEROS, max_losses=1)
    control = grant(UserFactory(), sim.tournament, "control")
    first = publish_next_round(sim)
    matches = playing(first)
    for m in matches:
        result_submit(match=m, by=control, games_a=3, games_b=1)
    second = round_prepare(tournament=sim.tournament, by=sim.organizer)
    assert not is_locked(matches[0])
    result_submit(match=matches[0], by=control, games_a=1, games_b=3, expected_version=1)
    # The commitment froze the old result: the draw refuses to go ahead on stale data.
    with pytest.raises(TournamentError, match="han cambiado"):
        draw_publish(draw=live_draw(second), public_value="4", witness=sim.juez, by=sim.organizer)


def test_results_are_final_once_the_tournament_is_finished_amm_3_18():
    sim = new_tournament(2, seed=1)
    (match,) = playing(publish_next_round(sim))
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=0)
    control = grant(UserFactory(), sim.tournament, "control")
    tournament_update(tournament=sim.tournament, data={"status": Tournament.Status.FINISHED})
    with pytest.raises(NotAllowed):
        result_submit(match=match, by=control, games_a=0, games_b=3, expected_version=1)
    with pytest.raises(TournamentError, match="inamovible"):
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=1, expected_version=1, reason="error")


# --- double check: AMM 3.16 --------------------------------------------------------------------------


def double_check(pairs=2):
    sim = new_tournament(pairs, seed=1, results_double_check=True)
    mesa1 = grant(UserFactory(username="mesa-uno"), sim.tournament, "control")
    mesa2 = grant(UserFactory(username="mesa-dos"), sim.tournament, "control")
    return sim, mesa1, mesa2, playing(publish_next_round(sim))


def test_with_double_check_a_result_counts_only_once_another_person_confirms_it_amm_3_16():
    sim, mesa1, mesa2, (match, *_rest) = double_check()
    sub = result_submit(match=match, by=mesa1, games_a=3, games_b=2, expected_version=0)
    match.refresh_from_db()
    assert sub.status == Status.PROPOSED and match.outcome == Outcome.PENDING
    with pytest.raises(TournamentError, match="Faltan resultados"):
        round_prepare(tournament=sim.tournament, by=sim.organizer)
    with pytest.raises(NotAllowed, match="debe hacerlo otra persona"):
        result_confirm(submission=sub, by=mesa1)
    result_confirm(submission=sub, by=mesa2)
    match.refresh_from_db()
    sub.refresh_from_db()
    assert (match.outcome, match.winner_id, sub.confirmed_by) == (Outcome.PLAYED, match.pair_a_id, mesa2)


def test_a_second_identical_entry_by_another_person_confirms_the_first():
    _sim, mesa1, mesa2, (match, *_rest) = double_check()
    result_submit(match=match, by=mesa1, games_a=1, games_b=3, expected_version=0)
    sub = result_submit(match=match, by=mesa2, games_a=1, games_b=3, expected_version=1)
    assert (sub.version, sub.status, sub.submitted_by, sub.confirmed_by) == (1, Status.CONFIRMED, mesa1, mesa2)
    assert ResultSubmission.objects.count() == 1


def disagree(mesa1, mesa2, match, first=(1, 3), second=(3, 1)):
    """mesa1 enters `first`, mesa2 (having seen it) enters `second`: a disagreement."""
    result_submit(match=match, by=mesa1, games_a=first[0], games_b=first[1], expected_version=0)
    return result_submit(match=match, by=mesa2, games_a=second[0], games_b=second[1], expected_version=1)


def test_a_different_second_entry_by_another_person_is_a_disagreement_that_keeps_both_amm_3_16():
    """AMM 3.16 with the double check: two people read the acta differently. Neither version
    replaces the other, neither counts, and nothing more is confirmed, rejected or entered for the
    table until a third decision."""
    sim, mesa1, mesa2, (match, *_rest) = double_check()
    sub = disagree(mesa1, mesa2, match)
    assert (sub.version, sub.status) == (2, Status.DISPUTED)
    assert [(s.version, s.status, s.submitted_by) for s in match_history(match)] == [
        (2, Status.DISPUTED, mesa2),
        (1, Status.DISPUTED, mesa1),
    ]
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.result_version) == (Outcome.PENDING, None, 0)
    with pytest.raises(TournamentError, match="Faltan resultados"):
        round_prepare(tournament=sim.tournament, by=sim.organizer)
    first = match.submissions.get(version=1)
    third = grant(UserFactory(username="mesa-tres"), sim.tournament, "control")
    for version in (first, sub):
        for person in (mesa1, mesa2, third, sim.organizer):
            assert not can_confirm(person, version)
            with pytest.raises(Conflict) as error:
                result_confirm(submission=version, by=person)
            assert error.value.code == "disagreement"
        with pytest.raises(Conflict):
            result_reject(submission=version, by=version.submitted_by)
    with pytest.raises(Conflict) as error:
        result_submit(match=match, by=third, games_a=3, games_b=1, expected_version=2)
    assert str(error.value).startswith(
        f"La mesa {match.table_number} tiene dos actas que no coinciden (versiones 1 y 2): no cuenta ninguna"
    )
    assert [s.status for s in match_history(match)] == [Status.DISPUTED, Status.DISPUTED]
    assert disagreement(match) == [first, sub]


def test_correcting_ones_own_proposal_still_replaces_it():
    _sim, mesa1, mesa2, (match, *_rest) = double_check()
    result_submit(match=match, by=mesa1, games_a=1, games_b=3, expected_version=0)
    sub = result_submit(match=match, by=mesa1, games_a=3, games_b=1, expected_version=1)
    assert (sub.version, sub.status) == (2, Status.PROPOSED)
    assert list(match.submissions.values_list("status", flat=True)) == [Status.PROPOSED, Status.SUPERSEDED]
    result_confirm(submission=sub, by=mesa2)
    match.refresh_from_db()
    assert match.winner_id == match.pair_a_id


@pytest.mark.parametrize("decision", ["first", "second", "other"])
def test_the_organizer_or_a_juez_resolves_a_disagreement_with_a_reason_amm_3_16(decision):
    sim, mesa1, mesa2, (match, *_rest) = double_check()
    second = disagree(mesa1, mesa2, match)
    first = match.submissions.get(version=1)
    kwargs = {"first": {"choice": first}, "second": {"choice": second}, "other": {"games_a": 3, "games_b": 2}}
    with pytest.raises(ValidationError) as error:
        result_resolve(match=match, by=sim.juez, reason="  ", **kwargs[decision])
    assert error.value.message_dict == {"reason": ["Escribe el motivo de la decisión: queda en el historial del acta."]}
    before = Tournament.objects.get(pk=sim.tournament.pk).live_version
    done = result_resolve(match=match, by=sim.juez, reason="Visto el acta firmada", **kwargs[decision])
    assert (done.version, done.status, done.source, done.reason) == (
        3,
        Status.CONFIRMED,
        ResultSubmission.Source.RESOLUTION,
        "Visto el acta firmada",
    )
    assert (done.submitted_by, done.confirmed_by) == (sim.juez, sim.juez)
    expected = {
        "first": ((1, 3), [Status.SUPERSEDED, Status.REJECTED]),
        "second": ((3, 1), [Status.REJECTED, Status.SUPERSEDED]),
        "other": ((3, 2), [Status.REJECTED, Status.REJECTED]),
    }[decision]
    match.refresh_from_db()
    assert ((match.games_a, match.games_b), match.result_version) == (expected[0], 3)
    assert match.winner_id == (match.pair_b_id if decision == "first" else match.pair_a_id)
    assert [ResultSubmission.objects.get(pk=s.pk).status for s in (first, second)] == expected[1]
    assert Tournament.objects.get(pk=sim.tournament.pk).live_version > before
    assert disagreement(match) == []
    with pytest.raises(TournamentError) as again:
        result_resolve(match=match, by=sim.organizer, reason="otra vez", choice=first)
    assert again.value.code == "no_disagreement"
    with pytest.raises(TournamentError, match="ya está decidido"):  # the decision counts: the final is played
        round_prepare(tournament=sim.tournament, by=sim.organizer)


def test_neither_submitter_nor_the_mesa_resolves_a_disagreement_amm_3_16():
    """The decision is a third one: not the mesa de control (Action.RESULTS_RESOLVE is the
    organizer's and the juez's), and not a person who entered one of the two actas — the organizer
    included, while another organizer or a juez can decide."""
    sim, _mesa1, mesa2, (match, *_rest) = double_check()
    disagree(sim.organizer, mesa2, match)
    versions = disagreement(match)
    for person, words in ((mesa2, "Solo la organización o un juez"), (sim.organizer, "Has anotado una de las dos")):
        assert not can_resolve(person, match, versions)
        with pytest.raises(NotAllowed, match=words):
            result_resolve(match=match, by=person, reason="yo decido", choice=versions[0])
    for outsider in (UserFactory(), grant(UserFactory(), sim.tournament, "control")):
        assert not can_resolve(outsider, match, versions)
    assert can_resolve(sim.juez, match, versions)
    assert [s.status for s in match_history(match)] == [Status.DISPUTED, Status.DISPUTED]
    result_resolve(match=match, by=sim.juez, reason="Lo dice el acta", choice=versions[1])
    match.refresh_from_db()
    assert match.winner_id == match.pair_a_id


def test_the_organizer_who_entered_one_resolves_only_when_no_one_else_can_amm_3_16():
    sim, _mesa1, mesa2, (match, *_rest) = double_check()
    disagree(sim.organizer, mesa2, match)
    TournamentRole.objects.filter(tournament=sim.tournament, user=sim.juez).delete()
    organizer = type(sim.organizer).objects.get(pk=sim.organizer.pk)  # without the cached roles
    assert can_resolve(organizer, match, disagreement(match))
    done = result_resolve(match=match, by=organizer, reason="No hay juez: decido yo", games_a=3, games_b=0)
    assert done.status == Status.CONFIRMED


def test_a_disagreement_left_after_the_next_draw_is_the_organizers_and_keeps_the_result_amm_3_16_amm_3_18():
    """AMM 3.18: once the next draw is published only the organizer decides, and only to keep the
    result that stands (the one the draw used); AMM 3.16: until then, neither correction counts."""
    sim = new_tournament(4, seed=8, format=Tournament.Format.CEROS, max_losses=2, results_double_check=True)
    mesa1 = grant(UserFactory(), sim.tournament, "control")
    mesa2 = grant(UserFactory(), sim.tournament, "control")
    first = publish_next_round(sim)
    for m in playing(first):
        result_submit(match=m, by=mesa1, games_a=3, games_b=1)
        result_submit(match=m, by=mesa2, games_a=3, games_b=1, expected_version=1)  # the same: confirmed
    match = playing(first)[0]
    result_submit(match=match, by=mesa1, games_a=3, games_b=2, expected_version=1)
    result_submit(match=match, by=mesa2, games_a=0, games_b=3, expected_version=2)
    publish_next_round(sim)  # the result that stands (3-1) is what the draw used
    versions = disagreement(match)
    with pytest.raises(NotAllowed, match=r"AMM 3.18"):
        result_resolve(match=match, by=sim.juez, reason="reclamación", choice=versions[0])
    for choice in versions:
        with pytest.raises(TournamentError, match="inamovible"):
            result_resolve(match=match, by=sim.organizer, reason="reclamación", choice=choice)
    result_resolve(match=match, by=sim.organizer, reason="Queda el 3-1 que usó el sorteo", games_a=3, games_b=1)
    match.refresh_from_db()
    assert (match.winner_id, match.games_a, match.games_b, match.result_version) == (match.pair_a_id, 3, 1, 4)
    assert disagreement(match) == []


def test_a_player_of_the_losing_pair_can_confirm_but_not_a_winner_amm_3_16(world):
    world.tournament.results_double_check = True
    world.tournament.save()
    match = world_match(world)
    own_is_a = match.pair_a_id == world.own_pair.pk
    player = world.users["player"]
    # The player's pair loses: they may sign (confirm).
    sub = result_submit(
        match=match, by=world.users["control"], games_a=0 if own_is_a else 3, games_b=3 if own_is_a else 0
    )
    assert can_confirm(player, sub)
    result_reject(submission=sub, by=player, reason="Ganamos nosotros 3-2")
    sub.refresh_from_db()
    assert (sub.status, sub.reason) == (Status.REJECTED, "Ganamos nosotros 3-2")
    # Now their pair wins: the other pair must sign, not them.
    sub = result_submit(
        match=match,
        by=world.users["control"],
        games_a=3 if own_is_a else 2,
        games_b=2 if own_is_a else 3,
        expected_version=1,
    )
    assert not can_confirm(player, sub)
    with pytest.raises(NotAllowed, match="la pareja perdedora"):
        result_confirm(submission=sub, by=player)
    for role in ("juez", "outsider"):
        assert not can_confirm(world.users[role], sub)
    result_confirm(submission=sub, by=world.users["organizer"])
    match.refresh_from_db()
    assert match.winner_id == world.own_pair.pk


def test_after_a_double_loss_either_pair_may_sign(world):
    world.tournament.results_double_check = True
    world.tournament.save()
    match = world_match(world)
    sub = result_submit(match=match, by=world.users["control"], outcome=Outcome.DOUBLE_LOSS)
    result_confirm(submission=sub, by=world.users["player"])
    match.refresh_from_db()
    assert match.outcome == Outcome.DOUBLE_LOSS


def test_rejecting_a_correction_keeps_the_result_that_stood():
    _sim, mesa1, mesa2, (match, *_rest) = double_check()
    first = result_submit(match=match, by=mesa1, games_a=3, games_b=1, expected_version=0)
    result_confirm(submission=first, by=mesa2)
    correction = result_submit(match=match, by=mesa2, games_a=1, games_b=3, expected_version=1)
    result_reject(submission=correction, by=mesa1, reason="El acta dice 3-1")
    match.refresh_from_db()
    assert (match.winner_id, match.result_version) == (match.pair_a_id, 1)
    with pytest.raises(TournamentError, match="ya no está pendiente"):
        result_confirm(submission=correction, by=mesa1)


def test_the_submitter_may_withdraw_their_own_proposal_but_a_stranger_may_not():
    _sim, mesa1, _mesa2, (match, *_rest) = double_check()
    sub = result_submit(match=match, by=mesa1, games_a=3, games_b=1)
    with pytest.raises(NotAllowed):
        result_reject(submission=sub, by=UserFactory())
    result_reject(submission=sub, by=mesa1)
    sub.refresh_from_db()
    assert sub.status == Status.REJECTED


def test_confirming_a_result_bumps_the_live_version_players_watch():
    sim, mesa1, mesa2, (match, *_rest) = double_check()
    before = Tournament.objects.get(pk=sim.tournament.pk).live_version
    sub = result_submit(match=match, by=mesa1, games_a=3, games_b=1)
    result_confirm(submission=sub, by=mesa2)
    assert Tournament.objects.get(pk=sim.tournament.pk).live_version >= before + 2


# --- possible results: AMM 1.7.a (juegos and tantos), 6.1.b, 6.5.b, retirement ------------------------

IMPOSSIBLE_TANTOS = [
    # The loser of the match reached 40 in the juego said to be its only win, and won three by tantos.
    ([[12, 40], [30, 40], [5, 41], [40, 39]], "Por los tantos, la pareja B gana 3 juegos, pero el resultado le da 1"),
    ([[40, 40], [40, 1], [40, 2], [3, 40]], "Juego 1: 40-40 no es posible: solo una pareja llega a 40"),
    ([[200, 0], [40, 1], [40, 2], [3, 40]], "Juego 1: los tantos van de 0 a 139"),
    ([[40, 1], [40, 2], [40, 10], [3, 40]], "Juego 4: lo gana por tantos la pareja que pierde la partida"),
    # The winner had its three juegos after the third: a fourth juego, even one ended by an órdago, was
    # never played.
    ([[40, 0], [40, 0], [40, 0], [0, 39]], "Juego 4: nadie llega a 40 tantos (lo terminó un órdago)"),
    ([[40, 0], [40, 0], [40, 0], [12, 7]], "la pareja A ya había ganado 3 juegos antes: la partida había terminado"),
]


@pytest.mark.parametrize(
    ("tantos", "message"), IMPOSSIBLE_TANTOS, ids=["loser-at-40", "both-40", "200", "last", "after-end", "ordago-end"]
)
def test_amm_1_7_a_each_juego_has_one_pair_at_the_tantos_and_agrees_with_the_juegos(tantos, message):
    """AMM 1.7.a: «lo más normal es que sea a 3 ó 4 juegos ganados y los juegos a 40 tantos»: in a juego one
    pair reaches the tantos and the count stops (AMM 3.13); the other stays below. The juegos each pair won by
    tantos agree with the result, and the last juego is the winner's."""
    sim = new_tournament(2, seed=1)
    (match,) = playing(publish_next_round(sim))
    with pytest.raises(ValidationError) as error:
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=1, tantos=tantos)
    assert message in error.value.message_dict["tantos"][0]
    assert match.submissions.count() == 0


def test_amm_1_7_a_tantos_follow_the_tournaments_tantos_per_juego_and_an_ordago_juego_has_nobody_at_them():
    """AMM 1.7.a with the tournament's tantos per juego (here 30): a winner above 30 is possible only by what
    the last hand adds (bound: 30 − 1 + 100 = 129, as for recorded hands); a juego ended by an accepted órdago
    leaves both pairs below the tantos."""
    sim = new_tournament(2, seed=1, points_per_game=30)
    (match,) = playing(publish_next_round(sim))
    with pytest.raises(ValidationError) as error:
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=1, tantos=[[30, 1], [130, 2], [3, 30], [30, 0]])
    assert "Juego 2: los tantos van de 0 a 129 (juegos a 30 tantos" in error.value.message_dict["tantos"][0]
    # Juego 3 went to an órdago at 12-25: nobody reached 30, and pair B's only juego is that one.
    sub = result_submit(
        match=match, by=sim.organizer, games_a=3, games_b=1, tantos=[[30, 1], [129, 2], [12, 25], [30, 0]]
    )
    match.refresh_from_db()
    assert (sub.tantos, match.tantos_a, match.tantos_b) == ([[30, 1], [129, 2], [12, 25], [30, 0]], 201, 28)
    # The last juego to an órdago: the winner's third juego, the partida's end.
    sub = result_submit(
        match=match,
        by=sim.organizer,
        games_a=3,
        games_b=1,
        tantos=[[0, 30], [30, 2], [30, 9], [5, 14]],
        expected_version=sub.version,
    )
    assert sub.tantos == [[0, 30], [30, 2], [30, 9], [5, 14]]


IMPOSSIBLE_DECISIONS = [
    ({"outcome": Outcome.RULING, "games_a": 3, "games_b": 3}, "no puede tener 3 juegos"),
    ({"outcome": Outcome.RULING, "games_a": 2, "games_b": 2}, "2-2 no da ganadora"),
    ({"outcome": Outcome.RULING, "games_a": 1, "games_b": 2}, "1-2 no da ganadora"),
    ({"outcome": Outcome.WALKOVER, "games_a": 2, "games_b": 0}, "la pareja ganadora se anota 3 juegos"),
    ({"outcome": Outcome.RETIRED, "games_a": 3, "games_b": 3}, "no puede tener 3 juegos"),
]


@pytest.mark.parametrize(("data", "message"), IMPOSSIBLE_DECISIONS, ids=["3-3", "2-2", "behind", "walkover", "ret"])
def test_amm_6_5_b_and_6_1_b_a_decided_result_is_a_possible_one(data, message):
    """AMM 6.5.b: «se le dará la partida como perdida y a la pareja contraria como ganada, con marcador por un
    juego de diferencia»; AMM 6.1.b: «a los 20 minutos se dará la partida por perdida». A ruling's winner has
    more juegos than the loser, never both at the juegos to win; a walkover or retirement gives the winner
    the juegos to win."""
    sim = new_tournament(2, seed=1)
    (match,) = playing(publish_next_round(sim))
    with pytest.raises(ValidationError) as error:
        result_submit(match=match, by=sim.organizer, winner=match.pair_a, reason="juez Marta", **data)
    assert message in error.value.message_dict["games_a"][0]
    assert match.submissions.count() == 0
    # A one-juego difference (6.5.b) is the ruling the juez gives.
    result_submit(
        match=match, by=sim.organizer, outcome=Outcome.RULING, winner=match.pair_a, games_a=2, games_b=1, reason="6.5.b"
    )
    match.refresh_from_db()
    assert (match.winner_id, match.games_a, match.games_b) == (match.pair_a_id, 2, 1)
