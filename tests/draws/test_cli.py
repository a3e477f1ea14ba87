"""``python -m torneo.draws``: the fixed contract of DESIGN.md, its extensions, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from torneo.draws import commitment, derive_seed, make_draw

ROOT = Path(__file__).resolve().parents[2]


def run_cli(payload: object, *args: str) -> tuple[dict, int]:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    done = subprocess.run(
        [sys.executable, "-m", "torneo.draws", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout + done.stderr
    return json.loads(lines[0]), done.returncode


CONTRACT_INPUT = {
    "seed": "text",
    "pairs": ["p1", "p2", "p3", "p4", "p7", "p9"],
    "history": [["p1", "p7"]],
    "byes": ["p3"],
    "group": {"p1": 0, "p2": 1},
}


def test_contract_example():
    out, status = run_cli(CONTRACT_INPUT)
    assert status == 0
    assert set(out) >= {"matches", "bye", "rematches"}
    assert out["bye"] is None
    assert out["rematches"] == 0
    drawn = sorted(p for match in out["matches"] for p in match)
    assert drawn == sorted(CONTRACT_INPUT["pairs"])
    assert ["p1", "p7"] not in out["matches"]
    # The command and the library give the same draw.
    library = make_draw(
        CONTRACT_INPUT["pairs"],
        history=CONTRACT_INPUT["history"],
        byes=CONTRACT_INPUT["byes"],
        group=CONTRACT_INPUT["group"],
        seed="text",
    )
    assert out == library.as_json()


def test_odd_draw_has_an_exenta_and_optional_keys_may_be_left_out():
    out, status = run_cli({"seed": "s", "pairs": [1, 2, 3]})
    assert status == 0
    assert out["bye"] in (1, 2, 3)
    assert len(out["matches"]) == 1


def test_integer_ids_with_groups():
    # JSON object keys are text: {"1": 0} names the pair 1.
    payload = {"seed": "s", "pairs": [1, 2, 3, 4], "group": {"1": 0, "2": 0, "3": 1, "4": 1}}
    out, status = run_cli(payload)
    assert status == 0
    assert sorted(map(sorted, out["matches"])) == [[1, 2], [3, 4]]
    assert out["same_group"] == 2


def test_same_input_gives_the_same_output():
    assert run_cli(CONTRACT_INPUT) == run_cli(CONTRACT_INPUT)


def test_verify_a_published_draw_from_secret_and_public_value_amm_5_5():
    secret = "5ecret" * 10
    published = make_draw([f"p{i}" for i in range(15)], seed=derive_seed(secret, "dados: 4 2"))
    payload = {
        "secret": secret,
        "public": "dados: 4 2",
        "commitment": commitment(secret),
        "pairs": [f"p{i}" for i in range(15)],
        "expect": {"matches": [list(reversed(m)) for m in published.matches], "bye": published.bye},
    }
    out, status = run_cli(payload)
    assert status == 0
    assert out["verified"] is True
    assert out["seed"] == derive_seed(secret, "dados: 4 2")

    payload["expect"] = {"matches": [list(m) for m in published.matches[1:]], "bye": published.bye}
    out, status = run_cli(payload)
    assert status == 3
    assert out["verified"] is False


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        ("{not json", "JSON"),
        ("[1, 2]", "objeto JSON"),
        ({"pairs": ["a", "b"]}, "semilla"),
        ({"seed": "s"}, "«pairs»"),
        ({"seed": "s", "pairs": ["a", "a"]}, "«a» aparece dos veces"),
        ({"seed": "s", "pairs": ["a", "b"], "byes": ["z"]}, "«z»"),
        ({"seed": "s", "pairs": ["a", "b"], "group": {"z": 1}}, "«z»"),
        ({"seed": "s", "pairs": ["a", "b"], "group": [1]}, "«group»"),
        ({"seed": "s", "pairs": ["a"]}, "al menos dos"),
        ({"seed": "s", "pairs": ["a", "b"], "hsitory": []}, "«hsitory»"),
        ({"seed": 3, "pairs": ["a", "b"]}, "semilla"),
        ({"secret": "x", "pairs": ["a", "b"]}, "«public»"),
        ({"secret": "x", "public": "1", "commitment": "00", "pairs": ["a", "b"]}, "compromiso"),
        ({"secret": "x", "public": "1", "seed": "other", "pairs": ["a", "b"]}, "no corresponde"),
        ({"seed": "s", "pairs": ["a", "b"], "expect": {"bye": None}}, "«expect»"),
    ],
)
def test_bad_input_prints_a_spanish_error_and_exits_non_zero(payload, fragment):
    out, status = run_cli(payload)
    assert status == 1
    assert set(out) == {"error"}
    assert fragment in out["error"]


def test_help_and_unknown_arguments():
    done = subprocess.run(
        [sys.executable, "-m", "torneo.draws", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0
    assert "python -m torneo.draws" in done.stdout
    out, status = run_cli(CONTRACT_INPUT, "verify")
    assert status == 1
    assert "verify" in out["error"]
