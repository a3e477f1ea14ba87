"""One partida at one minute of its clock (torneo.clock.partida): AMM chapter VI (6.1.b lateness,
6.4 adjustments, 6.5 forced end, 6.6 recidivism), 3.7 (envite time) and 3.15 (pauses), the presets,
and ``python -m torneo.clock partida``. Pure: no database, no Django.

The reglamento is /work/shared/seeds (chapter VI); where it is silent, the decisions are the ones of
the module's docstring (docs/clock.md). Minutes are on the partida's clock. To 3 juegos the maximum
is 60: the adjustments' window opens at 50, the last hand (6.5.a) is from 69, the forced end at 70.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from torneo import clock
from torneo.clock import (
    AMM,
    CLUB_15,
    PHASES,
    PRESETS,
    Absence,
    ClockRules,
    Juego,
    Partida,
    PartidaState,
    absence,
    clock_minutes,
    envite_seconds,
    state,
)
from torneo.clock.cli import partida_answer

ROOT = Path(__file__).resolve().parents[2]

# Scores reached before the window opens (to 3 juegos: at 50), each juego as (winner, minute it ended).
TWO_ONE = (("A", 15), ("B", 30), ("A", 45))  # 2-1 at 45: the penultimate juego is played at 50
TWO_TWO = (("A", 12), ("B", 24), ("A", 36), ("B", 48))  # 2-2 at 48: the last juego is played at 50
ONE_ONE = (("A", 20), ("B", 40))  # 1-1 at 40: three juegos may be left
TWO_NIL = (("A", 20), ("A", 40))  # 2-0 at 40: three juegos may be left


def juegos(*spec: tuple[str, float]) -> tuple[Juego, ...]:
    return tuple(Juego(winner, float(ended)) for winner, ended in spec)  # type: ignore[arg-type]


def at(minute: float, played: tuple[tuple[str, float], ...] = (), **facts: object) -> PartidaState:
    """The state of a partida at ``minute`` after the juegos ``played``."""
    return state(Partida(minute, juegos=juegos(*played), **facts))  # type: ignore[arg-type]


def run(lines: list[object], argv: tuple[str, ...] = ("partida",)) -> tuple[int, list[dict[str, object]]]:
    """``python -m torneo.clock partida`` in this process: its status and its answers."""
    out = io.StringIO()
    text = [line if isinstance(line, str) else json.dumps(line) for line in lines]
    status = clock.main(text, out, list(argv))
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


# --- 6.1.b: a pair incomplete when the clock starts -----------------------------------------------


@pytest.mark.parametrize(
    ("minute", "juegos_lost", "partida_lost"),
    [
        (0, 0, False),
        (9.9, 0, False),
        (10, 1, False),
        (14.9, 1, False),
        (15, 2, False),
        (19.9, 2, False),
        (20, 2, True),
        (45, 2, True),
    ],
)
def test_a_missing_pair_loses_a_juego_at_10_another_at_15_and_the_partida_at_20_amm_6_1_b(
    minute, juegos_lost, partida_lost
):
    assert absence(None, minute) == Absence(juegos_lost, partida_lost)
    s = at(minute, missing={"B": None})
    assert s.missing["B"] == Absence(juegos_lost, partida_lost)
    assert s.missing["A"] == Absence()
    assert s.as_dict()["missing"] == {
        "A": {"juegos": 0, "partida": False},
        "B": {"juegos": juegos_lost, "partida": partida_lost},
    }


def test_a_pair_complete_at_12_loses_one_juego_only_amm_6_1_b():
    for minute in (12, 15, 20, 59):
        assert absence(12.0, minute) == Absence(1, False)
    s = at(30, missing={"A": 12.0})
    assert s.missing["A"] == Absence(1, False)
    assert s.score == {"A": 0, "B": 1}
    assert s.phase == "normal" and s.winner is None


def test_a_pair_complete_before_10_or_exactly_at_a_mark_loses_nothing_more_amm_6_1_b():
    assert absence(9.5, 30) == Absence(0, False)
    assert absence(10.0, 30) == Absence(0, False)  # complete when the mark is reached
    assert absence(15.0, 30) == Absence(1, False)
    assert absence(20.0, 30) == Absence(2, False)
    assert absence(20.5, 30) == Absence(2, True)


def test_the_juegos_lost_by_lateness_are_added_to_the_other_pairs_score_amm_6_1_b():
    assert at(9.9, missing={"B": None}).score == {"A": 0, "B": 0}
    assert at(10, missing={"B": None}).score == {"A": 1, "B": 0}
    assert at(15, missing={"B": None}).score == {"A": 2, "B": 0}
    # B arrives at 16 and plays: A needs one more juego.
    s = at(40, (("B", 30),), missing={"B": 16.0})
    assert s.score == {"A": 2, "B": 1} and s.juego.final is False
    s = at(41, (("B", 30), ("A", 41)), missing={"B": 16.0})
    assert s.score == {"A": 3, "B": 1} and s.winner == "A" and s.phase == "terminada"


def test_both_pairs_missing_are_both_penalised_amm_6_1_b():
    s = at(15, missing={"A": None, "B": 12.0})
    assert s.missing == {"A": Absence(2, False), "B": Absence(1, False)}
    assert s.score == {"A": 1, "B": 2}  # each pair's lost juegos are the other's
    s = at(15, missing={"A": None, "B": None})
    assert s.missing == {"A": Absence(2, False), "B": Absence(2, False)}
    assert s.score == {"A": 2, "B": 2} and s.winner is None
    # Both complete at 17: they play the last juego from 2-2.
    s = at(30, missing={"A": 17.0, "B": 16.5})
    assert s.score == {"A": 2, "B": 2} and s.juego.final is True and s.phase == "normal"


def test_a_pair_still_incomplete_at_20_loses_the_partida_amm_6_1_b():
    s = at(19.9, missing={"A": None})
    assert s.phase == "normal" and s.winner is None
    s = at(20, missing={"A": None})
    assert s.missing["A"] == Absence(2, True)
    assert s.phase == "terminada" and s.winner == "B" and s.forced_end is None
    answer = s.as_dict()
    assert answer["phase"] == "terminada" and answer["winner"] == "B"
    assert answer["missing"] == {"A": {"juegos": 2, "partida": True}, "B": {"juegos": 0, "partida": False}}
    # Arriving later changes nothing.
    assert at(25, missing={"A": 22.0}).winner == "B"


def test_both_pairs_incomplete_at_20_both_lose_the_partida_amm_6_1_b():
    s = at(20, missing={"A": None, "B": None})
    assert s.missing == {"A": Absence(2, True), "B": Absence(2, True)}
    assert s.phase == "terminada" and s.winner == "both" and s.forced_end is None


def test_lateness_penalties_are_never_forgiven_amm_6_1_b():
    # Nothing in the facts takes them back: arriving, playing, an agreement at the forced end.
    facts = {"missing": {"B": 16.0}, "agreed_result": {"A": 2, "B": 3}, "delay_warnings": {"A": 1}}
    for minute in (16, 30, 59, 69.5):
        s = at(minute, **facts)
        assert s.missing["B"] == Absence(2, False)
        assert s.score["A"] == 2
    s = at(70, **facts)
    assert s.missing["B"] == Absence(2, False)
    assert s.as_dict()["missing"]["B"] == {"juegos": 2, "partida": False}
    assert s.phase == "terminada" and s.forced_end is not None
    # A pair complete after 20 has lost the partida, whatever happens next.
    assert at(59, missing={"B": 20.5}).winner == "A"


def test_lateness_can_decide_a_partida_to_2_juegos_amm_6_1_b():
    s = at(15, missing={"B": None}, games_to_win=2)
    assert s.score == {"A": 2, "B": 0} and s.winner == "A" and s.phase == "terminada"
    with pytest.raises(ValueError, match=r"juegos\[1\]: la partida ya estaba decidida"):
        at(30, (("B", 25),), missing={"B": None}, games_to_win=2)


def test_lateness_that_gives_both_pairs_the_juegos_to_win_decides_for_neither_amm_6_1_b():
    # To 2 juegos, both pairs missing at 15: each lost 2 juegos; neither wins, both lose (as at 20).
    s = at(15, missing={"A": None, "B": None}, games_to_win=2)
    assert s.score == {"A": 2, "B": 2}
    assert s.winner == "both" and s.phase == "terminada" and s.forced_end is None
    s = at(10, missing={"A": None, "B": None}, games_to_win=1)
    assert s.winner == "both"


def test_a_pair_not_listed_as_missing_loses_nothing_amm_6_1_b():
    s = at(59)
    assert s.missing == {"A": Absence(), "B": Absence()}
    assert s.score == {"A": 0, "B": 0}


# --- 6.2 and the window of 6.4 -----------------------------------------------------------------------


@pytest.mark.parametrize(("games", "maximum"), [(3, 60), (4, 85), (2, 40), (5, 110)])
def test_the_maximum_duration_amm_6_2(games, maximum):
    s = at(0, games_to_win=games)
    assert s.max_minutes == maximum and s.remaining == maximum
    assert s.as_dict()["max_minutes"] == maximum


@pytest.mark.parametrize(("games", "window"), [(3, 50), (4, 75)])
def test_the_adjustments_window_opens_10_minutes_before_the_maximum_amm_6_4(games, window):
    assert at(window - 0.1, games_to_win=games).phase == "normal"
    assert at(window - 0.1, games_to_win=games).adjustments is None
    s = at(window, games_to_win=games)
    assert s.phase == "ajustes"
    assert s.adjustments == "6.4.c"  # 0-0 when it opens: more than two juegos left
    assert s.remaining == 10


def test_the_phases_before_and_after_the_maximum_amm_6_4():
    assert [at(m, TWO_TWO).phase for m in (48, 49.99, 50, 59.99, 60, 68.99)] == [
        "normal",
        "normal",
        "ajustes",
        "ajustes",
        "excedido",
        "excedido",
    ]
    assert at(62.5, TWO_TWO).remaining == -2.5
    assert set(PHASES) == {"normal", "ajustes", "excedido", "ultima_mano", "terminada"}


def test_a_partida_decided_before_the_window_has_no_adjustments_amm_6_4():
    s = at(55, (("A", 20), ("A", 30), ("A", 45)))
    assert s.winner == "A" and s.phase == "terminada"
    assert s.adjustments is None and s.forced_end is None


# --- 6.4.a: the last juego -----------------------------------------------------------------------------


def test_the_last_juego_at_2_2_is_played_normally_to_the_maximum_amm_6_4_a():
    for minute, phase in ((50, "ajustes"), (55, "ajustes"), (62, "excedido"), (68.9, "excedido")):
        s = at(minute, TWO_TWO)
        assert s.phase == phase
        assert s.adjustments == "6.4.a"
        assert s.juego.article is None and s.juego.tantos == 40 and s.juego.final is True
        assert s.as_dict()["juego"] == {"article": None, "tantos": 40, "final": True}


def test_the_winner_of_the_last_juego_wins_the_partida_amm_6_4_a():
    s = at(63, (*TWO_TWO, ("A", 63)))
    assert s.score == {"A": 3, "B": 2} and s.winner == "A" and s.phase == "terminada"
    assert s.adjustments == "6.4.a" and s.forced_end is None


def test_the_last_juego_at_3_3_to_4_juegos_amm_6_4_a():
    played = (("A", 10), ("B", 20), ("A", 30), ("B", 40), ("A", 50), ("B", 70))
    s = at(80, played, games_to_win=4)
    assert s.max_minutes == 85 and s.phase == "ajustes" and s.adjustments == "6.4.a"
    assert s.juego.tantos == 40 and s.juego.article is None and s.juego.final is True


# --- 6.4.b: the penultimate juego ----------------------------------------------------------------------


def test_the_penultimate_juego_at_2_1_is_played_normally_amm_6_4_b():
    s = at(52, TWO_ONE)
    assert s.phase == "ajustes" and s.adjustments == "6.4.b"
    assert s.juego.article is None and s.juego.tantos == 40 and s.juego.final is False
    # Even when it begins exactly as the window opens.
    s = at(52, (("A", 15), ("B", 30), ("A", 50)))
    assert s.adjustments == "6.4.b" and s.juego.tantos == 40 and s.juego.article is None


@pytest.mark.parametrize("tie", [50.5, 53, 55])
def test_the_tie_breaker_begun_with_5_minutes_or_more_left_is_normal_amm_6_4_b(tie):
    # 2-1 at 45 and B ties at ``tie``, after the window opened: 5 minutes or more left, 40 tantos.
    s = at(tie + 0.5, (*TWO_ONE, ("B", tie)))
    assert s.adjustments == "6.4.b"
    assert s.juego.article == "6.4.b" and s.juego.tantos == 40 and s.juego.final is True
    assert s.as_dict()["juego"] == {"article": "6.4.b", "tantos": 40, "final": True}


@pytest.mark.parametrize("tie", [55.1, 57, 59.9, 60])
def test_the_tie_breaker_begun_with_0_to_5_minutes_left_is_to_20_tantos_amm_6_4_b(tie):
    s = at(60, (*TWO_ONE, ("B", tie)))
    assert s.juego.article == "6.4.b" and s.juego.tantos == 20 and s.juego.final is True
    assert s.as_dict()["juego"] == {"article": "6.4.b", "tantos": 20, "final": True}


@pytest.mark.parametrize("tie", [60.1, 63, 69.5])
def test_the_tie_breaker_begun_after_the_maximum_is_to_10_or_5_tantos_amm_6_4_b(tie):
    s = at(69.9, (*TWO_ONE, ("B", tie)))
    assert s.juego.article == "6.4.b" and s.juego.tantos == (10, 5) and s.juego.final is True
    assert s.as_dict()["juego"] == {"article": "6.4.b", "tantos": [10, 5], "final": True}


def test_a_tie_before_the_window_is_the_normal_last_juego_amm_6_4_b():
    # 2-1 at 30 and 2-2 at 45: at 50 the last juego is being played (6.4.a), nothing is shortened.
    s = at(58, (("A", 15), ("A", 25), ("B", 30), ("B", 45)))
    assert s.adjustments == "6.4.a" and s.juego.article is None and s.juego.tantos == 40
    # A tie exactly when the window opens: the last juego begins at 50, also 6.4.a.
    s = at(58, (("A", 15), ("B", 30), ("A", 45), ("B", 50)))
    assert s.adjustments == "6.4.a" and s.juego.article is None and s.juego.tantos == 40 and s.juego.final


def test_the_tie_breakers_winner_wins_the_partida_amm_6_4_b():
    s = at(64, (*TWO_ONE, ("B", 58), ("B", 64)))
    assert s.score == {"A": 2, "B": 3} and s.winner == "B" and s.phase == "terminada"
    # The leader winning the penultimate juego ends it too.
    s = at(54, (*TWO_ONE, ("A", 54)))
    assert s.score == {"A": 3, "B": 1} and s.winner == "A" and s.phase == "terminada"


def test_the_penultimate_juego_at_3_2_to_4_juegos_amm_6_4_b():
    played = (("A", 10), ("B", 20), ("A", 30), ("B", 40), ("A", 70))  # 3-2 at 70, window at 75
    s = at(76, played, games_to_win=4)
    assert s.adjustments == "6.4.b" and s.juego.tantos == 40 and s.juego.article is None
    s = at(82, (*played, ("B", 82)), games_to_win=4)  # tie with 3 minutes left
    assert s.juego.article == "6.4.b" and s.juego.tantos == 20 and s.juego.final is True
    s = at(86, (*played, ("B", 86)), games_to_win=4)  # after the maximum (85)
    assert s.juego.tantos == (10, 5) and s.phase == "excedido"


# --- 6.4.c: other juegos ----------------------------------------------------------------------------


def test_the_juego_being_played_when_the_window_opens_stays_normal_amm_6_4_c():
    for played in (ONE_ONE, TWO_NIL, ()):
        s = at(55, played)
        assert s.adjustments == "6.4.c"
        assert s.juego.article is None and s.juego.tantos == 40 and s.juego.final is False


def test_juegos_begun_in_the_window_at_1_1_are_to_10_or_5_tantos_amm_6_4_c():
    s = at(54, (*ONE_ONE, ("A", 52)))  # 2-1, begun in the window: not tied
    assert s.juego.article == "6.4.c" and s.juego.tantos == (10, 5) and s.juego.final is False
    assert s.as_dict()["juego"] == {"article": "6.4.c", "tantos": [10, 5], "final": False}
    s = at(57, (*ONE_ONE, ("A", 52), ("B", 56)))  # 2-2 begun in the window: the final juego
    assert s.juego.article == "6.4.c" and s.juego.tantos == (10, 5) and s.juego.final is True
    s = at(59, (*ONE_ONE, ("A", 52), ("B", 56), ("B", 59)))
    assert s.winner == "B" and s.phase == "terminada"


def test_juegos_begun_in_the_window_at_2_0_are_to_10_or_5_tantos_amm_6_4_c():
    s = at(52, TWO_NIL)
    assert s.adjustments == "6.4.c" and s.juego.tantos == 40
    s = at(54, (*TWO_NIL, ("B", 53)))
    assert s.juego.article == "6.4.c" and s.juego.tantos == (10, 5) and s.juego.final is False
    s = at(58, (*TWO_NIL, ("B", 53), ("A", 57)))
    assert s.winner == "A" and s.score == {"A": 3, "B": 1} and s.phase == "terminada"


def test_a_juego_begun_tied_in_the_window_is_final_and_its_winner_wins_amm_6_4_c():
    # 0-0 when the window opens; A leads 1-0 at 52, B ties 1-1 at 55: the single final juego.
    s = at(53, (("A", 52),))
    assert s.adjustments == "6.4.c" and s.juego.tantos == (10, 5) and s.juego.final is False
    s = at(56, (("A", 52), ("B", 55)))
    assert s.juego == clock.JuegoRule((10, 5), "6.4.c", True)
    assert s.as_dict()["juego"] == {"article": "6.4.c", "tantos": [10, 5], "final": True}
    s = at(58, (("A", 52), ("B", 55), ("A", 58)))
    assert s.score == {"A": 2, "B": 1}
    assert s.winner == "A" and s.phase == "terminada" and s.forced_end is None
    assert s.as_dict()["winner"] == "A"


def test_a_tie_begun_at_1_1_before_the_window_is_not_the_final_juego_amm_6_4_c():
    # Begun before the window (at 40), the juego at 1-1 is normal and not final: 2-1 goes on.
    s = at(55, ONE_ONE)
    assert s.juego.final is False
    s = at(57, (*ONE_ONE, ("B", 56)))
    assert s.winner is None and s.score == {"A": 1, "B": 2}


def test_the_other_juegos_at_2_2_to_4_juegos_amm_6_4_c():
    played = (("A", 15), ("B", 30), ("A", 45), ("B", 60))  # 2-2 at 60, window at 75
    s = at(76, played, games_to_win=4)
    assert s.adjustments == "6.4.c" and s.juego.tantos == 40
    s = at(80, (*played, ("A", 78)), games_to_win=4)
    assert s.juego.article == "6.4.c" and s.juego.tantos == (10, 5) and s.juego.final is False
    s = at(84, (*played, ("A", 78), ("B", 83)), games_to_win=4)
    assert s.juego.final is True
    s = at(86, (*played, ("A", 78), ("B", 83), ("B", 86)), games_to_win=4)
    assert s.winner == "B" and s.score == {"A": 3, "B": 4} and s.phase == "terminada"


# --- 6.4.d: waits may be cancelled ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("minute", "played", "tantos", "phase", "cancellable"),
    [
        (30, TWO_TWO[:2], None, "normal", False),
        (55, TWO_TWO, None, "ajustes", True),
        (65, TWO_TWO, None, "excedido", True),
        (69.5, TWO_TWO, {"A": 38, "B": 36}, "ultima_mano", True),
        (70, TWO_TWO, None, "terminada", False),
        (45, (("A", 10), ("A", 20), ("A", 30)), None, "terminada", False),
    ],
)
def test_the_juez_may_cancel_the_waits_when_short_of_time_amm_6_4_d(minute, played, tantos, phase, cancellable):
    s = at(minute, played, tantos=tantos)
    assert s.phase == phase
    assert s.waits_cancellable is cancellable
    assert s.as_dict()["waits_cancellable"] is cancellable


# --- 6.5.a: the last hand ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("minute", "phase"), [(68.9, "excedido"), (69, "ultima_mano"), (69.99, "ultima_mano"), (70, "terminada")]
)
def test_the_last_hand_may_finish_only_from_max_plus_9_to_max_plus_10_amm_6_5_a(minute, phase):
    s = at(minute, TWO_TWO, tantos={"A": 36, "B": 37})
    assert s.phase == phase
    assert s.as_dict()["phase"] == phase


def test_no_last_hand_outside_a_final_juego_amm_6_5_a():
    s = at(69.5, TWO_ONE, tantos={"A": 38, "B": 39})  # the penultimate juego
    assert s.juego.final is False and s.phase == "excedido"
    s = at(69.5, (*ONE_ONE, ("A", 55)), tantos={"A": 38, "B": 39})  # 6.4.c, 2-1: not final
    assert s.phase == "excedido"


@pytest.mark.parametrize("tantos", [{"A": 35, "B": 39}, {"A": 39, "B": 35}, {"A": 0, "B": 0}, None])
def test_no_last_hand_unless_both_pairs_are_fewer_than_5_tantos_from_40_amm_6_5_a(tantos):
    assert at(69.5, TWO_TWO, tantos=tantos).phase == "excedido"
    assert at(69.5, TWO_TWO, tantos={"A": 36, "B": 36}).phase == "ultima_mano"


def test_a_short_tie_breaker_may_be_the_last_hand_amm_6_4_b_amm_6_5_a():
    # 2-1 at 45, tie at 61 (past the maximum): to 10 or 5 tantos, both start at 30 or 35.
    s = at(69.2, (*TWO_ONE, ("B", 61)), tantos={"A": 37, "B": 36})
    assert s.juego.article == "6.4.b" and s.juego.tantos == (10, 5)
    assert s.phase == "ultima_mano"
    assert at(69.2, (*TWO_ONE, ("B", 61)), tantos={"A": 30, "B": 36}).phase == "excedido"


def test_a_final_juego_of_6_4_c_may_be_the_last_hand_amm_6_4_c_amm_6_5_a():
    s = at(69.5, (("A", 52), ("B", 66)), tantos={"A": 39, "B": 38})
    assert s.juego.final is True and s.phase == "ultima_mano"


def test_the_last_hand_to_4_juegos_from_94_amm_6_5_a():
    played = (("A", 10), ("B", 20), ("A", 30), ("B", 40), ("A", 50), ("B", 70))
    assert at(93.9, played, games_to_win=4, tantos={"A": 38, "B": 38}).phase == "excedido"
    assert at(94, played, games_to_win=4, tantos={"A": 38, "B": 38}).phase == "ultima_mano"
    assert at(95, played, games_to_win=4, tantos={"A": 38, "B": 38}).phase == "terminada"


# --- 6.5.b: the forced end ---------------------------------------------------------------------------


def test_no_forced_end_before_max_plus_10_or_once_decided_amm_6_5_b():
    assert at(69.99, TWO_TWO).forced_end is None
    assert at(69.99, TWO_TWO).as_dict()["forced_end"] is None
    assert at(72, (*TWO_TWO, ("A", 65))).forced_end is None  # decided at 65


def test_the_forced_end_with_an_agreed_result_amm_6_5_b():
    s = at(70, TWO_ONE, agreed_result={"A": 3, "B": 2}, delay_warnings={"A": 1})
    assert s.phase == "terminada" and s.winner is None
    assert s.forced_end is not None and s.forced_end.agreed is True
    assert s.as_dict()["forced_end"] == {"article": "6.5.b", "loser": "B", "result": {"A": 3, "B": 2}, "agreed": True}
    s = at(75, TWO_ONE, agreed_result={"A": 2, "B": 3})
    assert s.as_dict()["forced_end"]["loser"] == "A"
    s = at(70, TWO_ONE, agreed_result={"A": 2, "B": 2})  # an agreed tie: nobody loses
    assert s.as_dict()["forced_end"]["loser"] is None


@pytest.mark.parametrize(("warned", "result"), [("A", {"A": 2, "B": 3}), ("B", {"A": 3, "B": 2})])
def test_the_only_pair_warned_for_delay_loses_by_one_juego_amm_6_5_b(warned, result):
    s = at(70, TWO_ONE, delay_warnings={warned: 2})
    forced = s.as_dict()["forced_end"]
    assert forced == {"article": "6.5.b", "loser": warned, "result": result, "agreed": False}
    assert s.phase == "terminada"


def test_the_only_pair_warned_loses_by_one_juego_to_4_juegos_amm_6_5_b():
    s = at(95, (("A", 30),), games_to_win=4, delay_warnings={"A": 1, "B": 0})
    assert s.as_dict()["forced_end"] == {"article": "6.5.b", "loser": "A", "result": {"A": 3, "B": 4}, "agreed": False}


@pytest.mark.parametrize("warnings", [{}, {"A": 0, "B": 0}, {"A": 1, "B": 1}, {"A": 3, "B": 1}])
def test_none_or_both_warned_both_lose_amm_6_5_b(warnings):
    s = at(70, TWO_TWO, delay_warnings=warnings)
    assert s.as_dict()["forced_end"] == {"article": "6.5.b", "loser": "both", "result": None, "agreed": False}
    assert s.winner is None and s.phase == "terminada"


# --- 6.6: recidivism ----------------------------------------------------------------------------


def test_a_recidivist_pair_warned_for_delay_is_flagged_amm_6_6():
    s = at(30, earlier_delay_sanctions={"A": 3, "B": 0}, delay_warnings={"A": 1, "B": 0})
    assert s.alerts == ("A",)
    assert s.as_dict()["alerts"] == [{"article": "6.6", "pair": "A"}]


def test_a_recidivist_pair_arriving_late_is_flagged_amm_6_6():
    s = at(30, earlier_delay_sanctions={"B": 4}, missing={"B": 5.0})
    assert s.as_dict()["alerts"] == [{"article": "6.6", "pair": "B"}]


def test_recidivist_pairs_in_a_partida_past_its_maximum_are_flagged_amm_6_6():
    assert at(59.9, TWO_TWO, earlier_delay_sanctions={"A": 3, "B": 3}).alerts == ()
    s = at(60, TWO_TWO, earlier_delay_sanctions={"A": 3, "B": 3})
    assert s.as_dict()["alerts"] == [{"article": "6.6", "pair": "A"}, {"article": "6.6", "pair": "B"}]
    assert at(61, TWO_TWO, earlier_delay_sanctions={"B": 3}).alerts == ("B",)
    # The partida finished past the maximum: still involved afterwards.
    assert at(66, (*TWO_TWO, ("A", 62)), earlier_delay_sanctions={"A": 3}).alerts == ("A",)


def test_no_alert_without_a_delay_amm_6_6():
    assert at(30, earlier_delay_sanctions={"A": 3, "B": 5}).as_dict()["alerts"] == []
    assert at(55, TWO_TWO, earlier_delay_sanctions={"A": 3}, delay_warnings={"B": 1}).alerts == ()


def test_no_alert_with_two_earlier_sanctions_amm_6_6():
    facts = {"earlier_delay_sanctions": {"A": 2, "B": 2}, "delay_warnings": {"A": 1}, "missing": {"B": 3.0}}
    assert at(65, TWO_TWO, **facts).alerts == ()


def test_no_alert_for_a_partida_decided_before_its_maximum_amm_6_6():
    # Finished 3-0 at 45 and asked about at 65: it did not go past its maximum.
    s = at(65, (("A", 20), ("A", 30), ("A", 45)), earlier_delay_sanctions={"A": 3, "B": 3})
    assert s.phase == "terminada" and s.alerts == ()
    # Lost by lateness at 20, asked about at 65: only the late pair is involved.
    s = at(65, missing={"A": None}, earlier_delay_sanctions={"A": 3, "B": 3})
    assert s.alerts == ("A",)


# --- 3.7: the time to answer an envite -------------------------------------------------------------


@pytest.mark.parametrize("tantos", [None, {"A": 0, "B": 0}, {"A": 29, "B": 29}, {"A": 10, "B": 25}])
def test_one_minute_to_accept_or_decline_an_envite_amm_3_7(tantos):
    assert envite_seconds(tantos) == 60
    assert at(20, tantos=tantos).envite_seconds == 60


@pytest.mark.parametrize("tantos", [{"A": 30, "B": 0}, {"A": 12, "B": 30}, {"A": 39, "B": 39}])
def test_two_minutes_when_a_pair_needs_10_tantos_or_fewer_amm_3_7_a(tantos):
    assert envite_seconds(tantos) == 120
    s = at(20, tantos=tantos)
    assert s.envite_seconds == 120 and s.as_dict()["envite_seconds"] == 120


def test_the_envite_time_counts_from_the_juegos_tantos_amm_3_7_a():
    assert envite_seconds({"A": 20, "B": 0}, points=30) == 120
    assert envite_seconds({"A": 19, "B": 0}, points=30) == 60


# --- 3.15: pauses ----------------------------------------------------------------------------------


def test_the_clock_excludes_the_pauses_amm_3_15():
    started = 1_700_000_000.0
    assert clock_minutes(started, started + 3600) == 60
    assert clock_minutes(started, started + 3600, [(started + 600, started + 900)]) == 55
    two = [(started + 600, started + 900), (started + 1200, started + 1260)]
    assert clock_minutes(started, started + 3600, two) == 54


def test_an_open_pause_stops_the_clock_amm_3_15():
    started = 1_700_000_000.0
    pauses = [(started + 600, started + 900), (started + 1800, None)]
    assert clock_minutes(started, started + 1800, pauses) == 25
    assert clock_minutes(started, started + 2400, pauses) == 25  # still paused ten minutes later


def test_pauses_outside_the_clock_do_not_count_amm_3_15():
    started = 1_700_000_000.0
    assert clock_minutes(started, started + 600, [(started - 300, started + 60)]) == 9  # before it started
    assert clock_minutes(started, started + 600, [(started + 540, started + 900)]) == 9  # ends after now
    assert clock_minutes(started, started + 600, [(started + 700, None)]) == 10  # after now
    assert clock_minutes(started, started - 60) == 0  # not started yet


# --- presets ------------------------------------------------------------------------------------


def test_the_amm_preset_is_the_default_amm_6_1_b():
    assert Partida(0).rules is AMM
    assert AMM.name == "amm-6.4" and ClockRules() == AMM
    assert AMM.absence_juegos_at == (10, 15) and AMM.absence_partida_at == 20
    assert (AMM.adjustments_window, AMM.overtime_limit, AMM.last_hand_minute) == (10, 10, 9)
    assert (AMM.tie_break_tantos, AMM.short_tantos, AMM.recidivism_sanctions) == (20, (10, 5), 3)
    assert at(0).as_dict()["rules"] == "amm-6.4"
    assert PRESETS == {"amm-6.4": AMM, "club-15": CLUB_15}


def test_the_club_15_preset_loses_the_partida_at_15_minutes_amm_6_1_b():
    assert absence(None, 14.9, CLUB_15) == Absence(0, False)
    assert absence(None, 15, CLUB_15) == Absence(0, True)
    assert absence(14.0, 30, CLUB_15) == Absence(0, False)
    s = at(12, missing={"B": None}, rules=CLUB_15)
    assert s.missing["B"] == Absence(0, False) and s.score == {"A": 0, "B": 0}
    s = at(15, missing={"B": None}, rules=CLUB_15)
    assert s.winner == "A" and s.phase == "terminada" and s.as_dict()["rules"] == "club-15"


def test_the_club_15_preset_keeps_the_rest_of_chapter_vi_amm_6_4_b_amm_6_5_b():
    assert CLUB_15.adjustments_window == AMM.adjustments_window
    assert at(57, (*TWO_ONE, ("B", 57)), rules=CLUB_15).juego.tantos == 20
    forced = at(70, TWO_ONE, rules=CLUB_15, delay_warnings={"B": 1}).as_dict()["forced_end"]
    assert forced["result"] == {"A": 3, "B": 2}


# --- the facts ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("facts", "key"),
    [
        ({"minute": -1}, "minute"),
        ({"minute": float("nan")}, "minute"),
        ({"minute": 5, "games_to_win": 0}, "games_to_win"),
        ({"minute": 5, "juegos": juegos(("A", 6))}, r"juegos\[1\]\.ended"),
        ({"minute": 9, "juegos": juegos(("A", 7), ("B", 6))}, r"juegos\[2\]\.ended"),
        ({"minute": 5, "juegos": (Juego("C", 1),)}, r"juegos\[1\]\.winner"),  # type: ignore[arg-type]
        ({"minute": 5, "tantos": {"A": 41, "B": 0}}, "tantos.A"),
        ({"minute": 5, "tantos": {"A": 1}}, "tantos.B"),
        ({"minute": 5, "missing": {"A": -3.0}}, "missing.A"),
        ({"minute": 5, "delay_warnings": {"B": -1}}, "delay_warnings.B"),
        ({"minute": 5, "earlier_delay_sanctions": {"A": 1.5}}, "earlier_delay_sanctions.A"),
        ({"minute": 5, "agreed_result": {"A": 4, "B": 0}}, "agreed_result.A"),
        ({"minute": 5, "points_per_game": 2}, "points_per_game"),
    ],
)
def test_bad_facts_are_refused_in_spanish_naming_the_key(facts, key):
    with pytest.raises(ValueError, match=rf"^{key}: "):
        Partida(**facts)


def test_the_state_keeps_the_command_lines_contract():
    answer = at(57, TWO_ONE, tantos={"A": 36, "B": 37}, missing={"B": 3.0}).as_dict()
    assert {"max_minutes", "phase", "missing", "juego", "forced_end", "alerts"} <= set(answer)
    assert answer["max_minutes"] == 60 and answer["phase"] == "ajustes"
    assert answer["missing"] == {"A": {"juegos": 0, "partida": False}, "B": {"juegos": 0, "partida": False}}
    assert answer["juego"] == {"article": None, "tantos": 40, "final": False}
    assert answer["forced_end"] is None and answer["alerts"] == []
    json.dumps(answer)  # plain JSON


# --- the command line ----------------------------------------------------------------------------


def test_the_command_line_answers_each_partida_line_amm_6_4_b_amm_6_5_b_amm_6_6():
    lines = [
        {
            "games_to_win": 3,
            "minute": 57.0,
            "juegos": [{"winner": w, "ended": e} for w, e in (*TWO_ONE, ("B", 56.5))],
            "tantos": {"A": 36, "B": 37},
            "missing": {"B": 3.0},
            "delay_warnings": {"A": 1, "B": 0},
            "earlier_delay_sanctions": {"A": 3, "B": 0},
        },
        {"minute": 70, "delay_warnings": {"A": 1}},
    ]
    status, answers = run(lines)
    assert status == 0
    first = answers[0]
    assert first["max_minutes"] == 60 and first["phase"] == "ajustes"
    assert first["missing"] == {"A": {"juegos": 0, "partida": False}, "B": {"juegos": 0, "partida": False}}
    assert first["juego"] == {"article": "6.4.b", "tantos": 20, "final": True}
    assert first["forced_end"] is None and first["score"] == {"A": 2, "B": 2}
    assert first["alerts"] == [{"article": "6.6", "pair": "A"}]
    assert answers[1]["phase"] == "terminada"
    assert answers[1]["forced_end"] == {"article": "6.5.b", "loser": "A", "result": {"A": 2, "B": 3}, "agreed": False}


def test_the_command_line_gives_the_contract_for_a_tie_breaker_amm_6_4_b():
    line = {"minute": 58, "juegos": [{"winner": w, "ended": e} for w, e in (*TWO_ONE, ("B", 56))]}
    status, [answer] = run([line])
    assert status == 0
    assert answer["juego"] == {"article": "6.4.b", "tantos": 20, "final": True}
    assert answer == partida_answer(line)
    assert answer["phase"] == "ajustes" and answer["forced_end"] is None and answer["alerts"] == []


def test_the_command_line_defaults_to_3_juegos_and_takes_4_amm_6_2():
    status, answers = run([{"minute": 0}, {"minute": 80, "games_to_win": 4}])
    assert status == 0
    assert [a["max_minutes"] for a in answers] == [60, 85]
    assert answers[1]["phase"] == "ajustes"


def test_the_command_line_takes_a_preset_amm_6_1_b():
    status, answers = run(
        [{"minute": 15, "missing": {"B": None}, "rules": "club-15"}, {"minute": 15, "missing": {"B": None}}]
    )
    assert status == 0
    assert answers[0]["missing"]["B"] == {"juegos": 0, "partida": True} and answers[0]["winner"] == "A"
    assert answers[1]["missing"]["B"] == {"juegos": 2, "partida": False} and answers[1]["winner"] is None


BAD_LINES = [
    ({"minute": 5, "games_to_win": "3"}, "games_to_win"),
    ({"minute": 5, "games_to_win": 0}, "games_to_win"),
    ({"games_to_win": 3}, "minute"),
    ({"minute": "57"}, "minute"),
    ({"minute": -1}, "minute"),
    ({"minute": True}, "minute"),
    ({"minute": 5, "juegos": {"winner": "A"}}, "juegos"),
    ({"minute": 5, "juegos": [{"winner": "C", "ended": 1}]}, "juegos[1]"),
    ({"minute": 5, "juegos": ["A"]}, "juegos[1]"),
    ({"minute": 5, "juegos": [{"winner": "A"}]}, "juegos[1].ended"),
    ({"minute": 5, "juegos": [{"winner": "A", "ended": 7}]}, "juegos[1].ended"),
    ({"minute": 9, "juegos": [{"winner": "A", "ended": 7}, {"winner": "B", "ended": 6}]}, "juegos[2].ended"),
    (
        {"minute": 9, "games_to_win": 1, "juegos": [{"winner": "A", "ended": 7}, {"winner": "B", "ended": 8}]},
        "juegos[2]",
    ),
    ({"minute": 5, "tantos": {"A": 3}}, "tantos"),
    ({"minute": 5, "tantos": [3, 4]}, "tantos"),
    ({"minute": 5, "tantos": {"A": 3, "B": 41}}, "tantos.B"),
    ({"minute": 5, "tantos": {"A": "3", "B": 4}}, "tantos.A"),
    ({"minute": 5, "missing": {"C": None}}, "missing"),
    ({"minute": 5, "missing": {"A": "12"}}, "missing.A"),
    ({"minute": 5, "missing": {"B": -2}}, "missing.B"),
    ({"minute": 5, "delay_warnings": {"A": -1}}, "delay_warnings.A"),
    ({"minute": 5, "delay_warnings": 1}, "delay_warnings"),
    ({"minute": 5, "earlier_delay_sanctions": {"B": 1.5}}, "earlier_delay_sanctions.B"),
    ({"minute": 5, "agreed_result": {"A": 4, "B": 1}}, "agreed_result.A"),
    ({"minute": 5, "agreed_result": {"B": 1}}, "agreed_result"),
    ({"minute": 5, "rules": "fifa"}, "rules"),
    ({"minute": 5, "points_per_game": 200}, "points_per_game"),
]


@pytest.mark.parametrize(("line", "key"), BAD_LINES, ids=[f"{n}-{key}" for n, (_, key) in enumerate(BAD_LINES)])
def test_a_bad_line_answers_a_spanish_error_naming_the_key_and_the_command_goes_on(line, key):
    status, answers = run([{"minute": 1}, line, {"minute": 2}])
    assert status == 1
    assert len(answers) == 3
    assert answers[0]["phase"] == answers[2]["phase"] == "normal"
    assert set(answers[1]) == {"error"}
    assert answers[1]["error"].startswith(f"línea 2: {key}: ")


def test_lines_that_are_not_json_objects_answer_an_error_and_the_command_goes_on():
    status, answers = run(["no es json", "", "[1, 2]", '{"minute": 3}'])
    assert status == 1
    assert answers[0] == {"error": "línea 1: no es un objeto JSON válido"}
    assert answers[1]["error"].startswith("línea 3: se esperaba un objeto JSON")
    assert answers[2]["phase"] == "normal"  # blank lines are skipped but counted


@pytest.mark.parametrize("argv", [("partidas",), ("partida", "extra"), ("times",)])
def test_a_bad_verb_returns_2(argv, capsys):
    status, answers = run([{"minute": 1}], argv)
    assert status == 2 and answers == []
    assert "uso: python -m torneo.clock [partida]" in capsys.readouterr().err


def test_python_m_torneo_clock_partida_runs_without_django_amm_6_4_b():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    lines = [
        {
            "minute": 57.0,
            "juegos": [
                {"winner": "A", "ended": 15},
                {"winner": "B", "ended": 30},
                {"winner": "A", "ended": 45},
                {"winner": "B", "ended": 56},
            ],
        },
        {"minute": "x"},
    ]
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "torneo.clock", "partida"],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    first, second = (json.loads(line) for line in proc.stdout.splitlines())
    assert first["juego"] == {"article": "6.4.b", "tantos": 20, "final": True} and first["phase"] == "ajustes"
    assert second == {"error": "línea 2: minute: se esperaba un número de minutos"}
    # -X importtime lists every module imported: nothing of Django.
    imported = {line.split("|")[-1].strip().split(".")[0] for line in proc.stderr.splitlines() if "|" in line}
    assert "torneo" in imported and "django" not in imported


def test_an_agreed_result_cannot_take_away_the_juegos_won_by_lateness_amm_6_1_b():
    """«Estas sanciones no pueden ser perdonadas en ningún caso por la pareja contraria»: at a
    forced end, an agreement that gives a pair fewer juegos than it already has by the other's
    lateness is refused, naming the key."""
    facts = {"minute": 75, "missing": {"B": 16.0}, "agreed_result": {"A": 1, "B": 3}}  # A has 2 by lateness
    with pytest.raises(ValueError, match=r"agreed_result\.A: .*AMM 6\.1\.b"):
        clock.cli.partida_answer(facts)
    answer = clock.cli.partida_answer({**facts, "agreed_result": {"A": 2, "B": 3}})
    assert answer["forced_end"] == {"article": "6.5.b", "loser": "A", "result": {"A": 2, "B": 3}, "agreed": True}
