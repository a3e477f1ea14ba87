"""The command line, ``python -m scoring.mus``: the fixed contracts on hand-checked data."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring.mus.__main__ import process, run_showdown

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"


def cases(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines() if line]


def run(command: str, lines: list[str]) -> tuple[list[dict[str, Any]], int]:
    completed = subprocess.run(
        [sys.executable, "-m", "scoring.mus", command],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    return [json.loads(line) for line in completed.stdout.splitlines()], completed.returncode


@pytest.mark.parametrize("command", ["showdown", "tanteo", "validate"])
def test_each_command_answers_every_hand_checked_line(command: str) -> None:
    data = cases(command)
    outputs, status = run(command, [json.dumps(case["input"], ensure_ascii=False) for case in data])
    assert len(outputs) == len(data)
    for case, output in zip(data, outputs, strict=True):
        expected = case["expected"]
        if "error" in expected and command == "tanteo":
            assert set(output) == {"error"} and expected["error"] in output["error"], case["why"]
        else:
            assert {key: output.get(key) for key in expected} == expected, case["why"]
    assert status == (1 if command == "tanteo" else 0)  # the tanteo data has two error lines


def test_the_showdown_output_has_exactly_the_contract_keys() -> None:
    (output,), _ = run("showdown", [json.dumps(cases("showdown")[0]["input"])])
    assert list(output) == ["grande", "chica", "pares", "juego", "punto", "paso", "players"]
    assert all(list(player) == ["pares", "juego", "punto"] for player in output["players"])


def test_tanteo_defaults_score_rules_and_missing_lances() -> None:
    hands = ["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"]
    (output,), status = run("tanteo", [json.dumps({"hands": hands})])
    assert status == 0
    assert list(output) == ["events", "score", "game_winner"]
    assert output["score"] == {"A": 1, "B": 5}


def test_bad_lines_give_an_error_line_and_the_command_goes_on() -> None:
    good = json.dumps(cases("showdown")[0]["input"])
    lines = [
        "no es json",
        good,
        "",
        "[1, 2]",
        json.dumps({"hands": ["12o 12c 1e 5b"]}),
        json.dumps({"hands": ["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 8c"]}),
        json.dumps({"rules": "amm"}),
        json.dumps({"hands": cases("showdown")[0]["input"]["hands"], "rules": "mus"}),
        good,
    ]
    outputs, status = run("showdown", lines)
    assert status == 1
    assert len(outputs) == 8  # the blank line is skipped
    assert outputs[0]["error"].startswith("línea 1: JSON no válido")
    assert outputs[1] == outputs[7] == cases("showdown")[0]["expected"]
    assert outputs[2] == {"error": "línea 4: se esperaba un objeto JSON, no una lista"}
    assert outputs[3] == {"error": "línea 5: el reparto tiene 1 mano; deben ser 4"}
    assert "línea 6: asiento 3 (postre): «8c» no es una carta" in outputs[4]["error"]
    assert outputs[5] == {"error": "línea 7: hands: falta: las cuatro manos por asiento, 0 mano … 3 postre"}
    assert "rules: reglamento desconocido 'mus'" in outputs[6]["error"]


def test_tanteo_errors_name_the_lance() -> None:
    hands = ["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"]
    lines = [
        json.dumps({"hands": hands, "lances": {"chica": ["A:envido", "B:envido"]}}),
        json.dumps({"hands": hands, "lances": {"chica": ["A:envido", "X:quiero"]}}),
        json.dumps({"hands": hands, "score": {"A": 40, "B": 0}}),
    ]
    outputs, _ = run("tanteo", lines)
    assert outputs == [
        {"error": "línea 1: en chica, el envite de la pareja B se quedó sin respuesta"},
        {
            "error": "línea 2: lances.chica[1]: «X:quiero» no es una apuesta: se esperaba p. ej. "
            "«A:envido 2», «B:envido», «A:ordago», «B:quiero», «A:no quiero» o «B:paso»"
        },
        {"error": "línea 3: el juego ya terminó: la pareja A tiene 40 tantos (se juega a 40)"},
    ]


def test_validate_a_juego_line() -> None:
    hands = ["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"]
    line = {
        "juego": [{"hands": hands}, {"hands": hands, "score": {"A": 5, "B": 1}}],
        "mano_pairs": ["A", "B"],
    }
    (output,), status = run("validate", [json.dumps(line)])
    assert status == 0
    assert output == {
        "valid": True,
        "findings": [],
        "scores": [{"A": 1, "B": 5}, {"A": 6, "B": 6}],
        "game_winner": None,
    }
    twice = {"juego": [{"hands": hands}, {"hands": hands, "score": {"A": 1, "B": 5}}], "mano_pairs": ["A", "A"]}
    repeated, status = run("validate", [json.dumps(twice)])
    assert status == 0
    assert repeated[0]["valid"] is True
    assert [(f["code"], f["article"], f["severity"], f["hand"]) for f in repeated[0]["findings"]] == [
        ("mano_repetida", "AMM 2.8", "aviso", 1)
    ]
    bad, _ = run("validate", [json.dumps({"juego": [{"hands": hands}, {"hand": hands}]})])
    assert bad == [
        {
            "error": "línea 1: juego[1].hand: clave desconocida; las claves son: "
            "claimed, declarations, hands, id, lances, rules, score"
        }
    ]


def test_an_unexpected_failure_is_reported_on_its_line() -> None:
    def broken(line: object) -> dict[str, object]:
        raise ZeroDivisionError("división por cero")

    out = io.StringIO()
    assert process(broken, ["{}", ""], out) is False
    assert json.loads(out.getvalue()) == {
        "error": "línea 1: error interno del motor (ZeroDivisionError: división por cero)"
    }
    out = io.StringIO()
    assert process(run_showdown, [json.dumps(cases("showdown")[0]["input"])], out) is True


def test_an_unknown_command_is_refused() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "scoring.mus", "mus"], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert completed.returncode == 2
    assert "invalid choice" in completed.stderr or "elección" in completed.stderr


def test_the_engine_imports_no_django() -> None:
    code = "import sys, scoring.mus, scoring.mus.__main__; print([m for m in sys.modules if m.startswith('django')])"
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert completed.stdout.strip() == "[]"


def test_ruling_and_sena_answer_the_worked_cases_through_the_command_line_amm_4_2() -> None:
    data = cases("chapter4_cases")
    for command in ("ruling", "sena"):
        mine = [case for case in data if case["command"] == command]
        outputs, status = run(command, [json.dumps(case["input"], ensure_ascii=False) for case in mine])
        assert len(outputs) == len(mine)
        for case, output in zip(mine, outputs, strict=True):
            expected = case["expected"]
            if "error" in expected:
                assert set(output) == {"error"} and expected["error"] in output["error"], case["id"]
            else:
                assert (
                    output["score" if command == "ruling" else "allowed"]
                    == expected["score" if command == "ruling" else "allowed"]
                ), case["id"]
        assert status == 1  # each set has one error line on purpose


def test_the_ruling_output_has_the_contract_keys() -> None:
    line = {
        "hands": ["12o 12c 5e 4b", "11o 7c 6e 4c", "10o 7o 5c 1e", "1o 4e 6c 7e"],
        "declarations": [{"pares": True}, {"pares": True}, {"pares": False}, {"pares": False}],
        "senas": [{"seat": 0, "sena": "dos reyes"}],
    }
    (output,), status = run("ruling", [json.dumps(line)])
    assert status == 0
    assert {"errors", "events", "score", "game_winner", "articles", "explanation"} <= set(output)
    (error,) = output["errors"]
    assert (error["seat"], error["lance"], error["article"]) == (1, "pares", "4.1a")
    assert output["articles"][0] == "4.1a" and all(isinstance(s, str) for s in output["explanation"])


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"rectifications": [{"seat": 5, "lance": "pares", "when": "antes"}]}, "rectifications[0].seat"),
        ({"rectifications": [{"seat": 1, "lance": "pares", "when": "luego"}]}, "rectifications[0].when"),
        ({"rectifications": [{"seat": 1, "lance": "mus", "when": "antes"}]}, "rectifications[0].lance"),
        ({"rectifications": [{"seat": 1, "when": "antes"}]}, "rectifications[0].lance"),
        ({"declined_by_error": {"pares": 0}}, "declined_by_error.pares"),
        ({"senas": [{"seat": 1, "sena": "tres sietes"}]}, "senas[0].sena"),
        ({"senas": [{"seat": 1, "sena": "duples", "gesto": "cejas"}]}, "senas[0].gesto"),
        ({"wrong_cards": [{"seat": 1, "when": "ayer"}]}, "wrong_cards[0].when"),
        ({"mano_repetida": True}, "mano_repetida"),
        ({"into_deck": [{"seat": 1, "recovered": "sí"}]}, "into_deck[0].recovered"),
        ({"obligadas": "pares"}, "obligadas"),
        ({"rival_showed_cards": 1}, "rival_showed_cards"),
    ],
)
def test_a_bad_ruling_line_names_its_field(extra: dict[str, Any], field: str) -> None:
    line = {"hands": ["12o 12c 5e 4b", "11o 7c 6e 4c", "10o 7o 5c 1e", "1o 4e 6c 7e"], **extra}
    (output,), status = run("ruling", [json.dumps(line)])
    assert status == 1
    assert set(output) == {"error"} and f"línea 1: {field}:" in output["error"]


def test_a_deal_with_five_cards_is_only_a_ruling_under_2_7_b_amm_2_7_b() -> None:
    hands = ["12o 12c 5e 4b", "11o 7c 6e 4c 2o", "10o 7o 5c 1e", "1o 4e 6c 7e"]
    (refused,), _ = run("ruling", [json.dumps({"hands": hands})])
    assert "5 cartas" in refused["error"] or "cartas" in refused["error"]
    (ruled,), status = run(
        "ruling", [json.dumps({"hands": hands, "wrong_cards": [{"seat": 1, "when": "tras_grande"}]})]
    )
    assert status == 0 and ruled["articles"] == ["2.7.b"]
