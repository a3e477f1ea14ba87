"""Fuzzing (hypothesis) of the parsers a stranger's input reaches, through their fixed command-line
contracts (DESIGN.md) — the engine's, and the other pure cores' (the clock, the draw), kept here
with the engine's so that they run once, with no database: whatever JSON arrives, each line gets
a JSON answer — a result or ``{"error": …}`` in Spanish — and no parser raises anything but its
documented error. Inputs are
random JSON values and, with higher odds, objects with the contracts' own keys and plausible values
(cards, bets, seats, lances, minutes), where the parsers' deeper branches are.

The mus engine (``python -m scoring.mus showdown|tanteo|validate|ruling|sena``): ``MusError``. The
clock (``python -m torneo.clock [partida]``): ``ValueError``. The draw (``python -m torneo.draws``):
an ``{"error": …}`` object with the user's exit status, never a fatal error or an exception."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.mus.__main__ import COMMANDS
from scoring.mus.errors import MusError
from torneo.clock.cli import VERBS
from torneo.draws.__main__ import EXIT_FATAL, EXIT_MISMATCH, EXIT_OK, EXIT_USER
from torneo.draws.__main__ import run as draw_run


def answered(call: Any, documented: type[Exception]) -> tuple[str, str]:
    """(the answer as the command prints it, "") or ("", the documented error's message); any
    other exception fails the test."""
    try:
        return json.dumps(call()), ""
    except documented as error:
        return "", str(error)


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
cards = st.from_regex(r"(1|2|3|4|5|6|7|10|11|12|13|0|x)[ocebz]", fullmatch=True)
hands = st.lists(cards, min_size=0, max_size=5).map(" ".join) | st.text(max_size=15)
deal = st.lists(hands, min_size=0, max_size=5)
bets = st.lists(
    st.sampled_from(["A", "B", "C", ""]).flatmap(
        lambda side: st.sampled_from(
            ["envido", "envido 5", "envido -2", "ordago", "quiero", "no quiero", "paso", "x"]
        ).map(lambda bet: f"{side}:{bet}" if side else bet)
    ),
    max_size=5,
)
lances = st.dictionaries(
    st.sampled_from(["grande", "chica", "pares", "juego", "punto", "mus"]), bets | json_values, max_size=5
)
declaration = st.dictionaries(st.sampled_from(["pares", "juego", "x"]), st.booleans() | json_values, max_size=3)
mus_line = st.fixed_dictionaries(
    {},
    optional={
        "hands": deal | json_values,
        "score": st.fixed_dictionaries({"A": st.integers(-3, 45), "B": st.integers(-3, 45)}) | json_values,
        "rules": st.sampled_from(["amm", "otra"]) | json_values,
        "lances": lances | json_values,
        "declarations": st.lists(declaration, max_size=5) | json_values,
        "mano": st.sampled_from(["a", "b", 0, 3]) | json_values,
        "rectifications": st.lists(
            st.fixed_dictionaries(
                {"seat": st.integers(-1, 4), "lance": st.sampled_from(["pares", "juego", "grande", "x"])},
                optional={
                    "when": st.sampled_from(["antes", "durante", "despues", "x"]),
                    "rival_intervened": st.booleans(),
                },
            ),
            max_size=3,
        )
        | json_values,
        "declined_by_error": st.dictionaries(st.sampled_from(["pares", "juego", "x"]), st.integers(-1, 5) | json_values)
        | json_values,
        "senas": st.lists(
            st.fixed_dictionaries({"seat": st.integers(-1, 4), "sena": st.sampled_from(["dos reyes", "ciego", "x"])}),
            max_size=3,
        )
        | json_values,
        "hand": hands | json_values,
        "sena": st.sampled_from(["dos reyes", "duples", "treinta y una", "ciego", "nada"]) | json_values,
    },
)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@FUZZ
@given(line=mus_line | json_values)
def test_the_engines_commands_answer_every_line_or_say_why(command: str, line: Any) -> None:
    answer, error = answered(lambda: COMMANDS[command](line), MusError)
    assert answer or error  # an answer the command line can print, or the line's error in words


minute = st.floats(-5, 200, allow_nan=False) | st.integers(-5, 200)
clock_line = st.fixed_dictionaries(
    {},
    optional={
        "minute": minute | json_values,
        "games_to_win": st.integers(0, 6) | json_values,
        "points_per_game": st.sampled_from([25, 30, 40, 0, -1]) | json_values,
        "juegos": st.lists(
            st.fixed_dictionaries({"winner": st.sampled_from(["A", "B", "C"]), "minute": minute}), max_size=8
        )
        | json_values,
        "tantos": st.fixed_dictionaries({"A": st.integers(-1, 45), "B": st.integers(-1, 45)}) | json_values,
        "missing": st.dictionaries(st.sampled_from(["A", "B", "C"]), minute | st.none()) | json_values,
        "warnings": st.dictionaries(st.sampled_from(["A", "B"]), st.integers(-1, 4)) | json_values,
        "rules": st.sampled_from(["amm", "otra"]) | json_values,
        "start": st.sampled_from(["2026-11-27T10:00:00+01:00", "ayer", ""]) | json_values,
    },
)


@pytest.mark.parametrize("verb", sorted(VERBS))
@FUZZ
@given(line=clock_line | json_values)
def test_the_clock_answers_every_line_or_says_why(verb: str, line: Any) -> None:
    answer, error = answered(lambda: VERBS[verb](line), ValueError)
    assert answer or error


pair_names = st.lists(st.text(min_size=0, max_size=4) | st.integers(0, 9), max_size=9)
draw_input = st.fixed_dictionaries(
    {},
    optional={
        "seed": st.text(max_size=10) | json_values,
        "pairs": pair_names | json_values,
        "history": st.lists(st.lists(st.text(max_size=3), max_size=3), max_size=5) | json_values,
        "byes": st.lists(st.text(max_size=3), max_size=3) | json_values,
        "group": st.dictionaries(st.text(max_size=3), st.integers(0, 2) | json_values, max_size=4) | json_values,
        "expect": json_values,
    },
)


@FUZZ
@given(data=draw_input | json_values)
def test_the_draw_answers_every_input_or_says_why(data: Any) -> None:
    out, status = draw_run(json.dumps(data))
    assert status in (EXIT_OK, EXIT_USER, EXIT_MISMATCH), out  # a draw that does not match its «expect»
    assert ("error" in out) == (status == EXIT_USER), out
    json.dumps(out)


@FUZZ
@given(text=st.text(max_size=40))
def test_the_draw_answers_any_text(text: str) -> None:
    out, status = draw_run(text)
    assert status != EXIT_FATAL and (status == EXIT_OK or "error" in out or "verified" in out), out
