"""The independent verifier (verify/, no Django): a clean record verifies; ten ways to alter one —
some re-signed by a dishonest site, so that only the content checks can catch them — are each
caught, naming the article."""

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from records.build import tournament_record
from records.signing import canonical, public_key_b64url, signed
from tests.torneo.simulation import new_tournament
from torneo.models import Tournament
from torneo.push.keys import b64url
from verify import verify_record

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def envelope() -> dict[str, Any]:
    """Nine pairs of a Swiss, three rounds: exentas and rematches to avoid."""
    sim = new_tournament(9, seed=12, format=Tournament.Format.SWISS, swiss_rounds=4)
    for _ in range(3):
        sim.play_round()
    return signed(tournament_record(sim.tournament))


def wrong(envelope: dict[str, Any], key: str | None = None) -> set[str]:
    return {f.article for f in verify_record(envelope, key=key) if not f.ok}


def resign(record: dict[str, Any]) -> dict[str, Any]:
    """What a dishonest site would publish: the altered record, signed again with its own key."""
    return signed(record)


def played(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for r in record["rondas"] for m in r["partidas"] if m["resultado"] == "played"]


def draw_of(record: dict[str, Any], number: int) -> dict[str, Any]:
    (draw,) = [d for d in record["rondas"][number - 1]["sorteos"] if d["estado"] == "published"]
    return draw


def test_a_clean_record_verifies_article_by_article(envelope: dict[str, Any]) -> None:
    findings = verify_record(envelope, key=public_key_b64url())
    assert [f for f in findings if not f.ok] == []
    assert {"firma", "5.5", "5.6", "5.7", "1.7.a", "3.16"} <= {f.article for f in findings}


def test_ten_alterations_are_each_caught(envelope: dict[str, Any]) -> None:
    key = public_key_b64url()
    record = envelope["registro"]
    caught: dict[str, set[str]] = {}

    r = copy.deepcopy(record)  # 1. a result: the winner's juegos lowered
    m = played(r)[0]
    m["juegos_a" if m["ganadora"] == m["a"] else "juegos_b"] -= 1
    caught["resultado"] = wrong(resign(r), key)

    r = copy.deepcopy(record)  # 2. the winner swapped
    m = played(r)[0]
    m["ganadora"] = m["b"] if m["ganadora"] == m["a"] else m["a"]
    caught["ganadora"] = wrong(resign(r), key)

    r = copy.deepcopy(record)  # 3. the exenta given to a pair that already had one (5.6)
    draw = draw_of(r, 2)
    (result,) = draw["salida"].values()
    (request,) = draw["entrada"]
    had = set(request["byes"])
    other = next(p for match in result["matches"] for p in match if p in had)
    match = next(mt for mt in result["matches"] if other in mt)
    match[match.index(other)], result["bye"] = result["bye"], other
    caught["exenta"] = wrong(resign(r), key)

    r = copy.deepcopy(record)  # 4. the public value changed
    draw_of(r, 1)["valor_publico"] = "999"
    caught["valor público"] = wrong(resign(r), key)

    r = copy.deepcopy(record)  # 5. a pair's name changed, not signed again
    r["parejas"][0]["nombre"] = "Otra pareja"
    caught["pareja"] = wrong({"registro": r, "firma": envelope["firma"]}, key)

    altered = copy.deepcopy(envelope)  # 6. the signature altered
    value = altered["firma"]["valor"]
    altered["firma"]["valor"] = ("A" if value[0] != "A" else "B") + value[1:]
    caught["firma"] = wrong(altered, key)

    r = copy.deepcopy(record)  # 7. the secret changed (the seed recomputed to match)
    draw = draw_of(r, 1)
    draw["secreto"] = "0" * 64
    from verify.checks import derive_seed

    draw["semilla"] = derive_seed(draw["secreto"], draw["valor_publico"])
    caught["secreto"] = wrong(resign(r), key)

    r = copy.deepcopy(record)  # 8. two tables' pairs exchanged: the partidas are not the draw's
    partidas = [m for m in r["rondas"][1]["partidas"] if m["b"] is not None]
    partidas[0]["b"], partidas[1]["b"] = partidas[1]["b"], partidas[0]["b"]
    caught["partidas"] = wrong(resign(r), key)

    other_key = Ed25519PrivateKey.generate()  # 9. signed with another key
    forged = {
        "registro": record,
        "firma": {
            "algoritmo": "Ed25519",
            "clave_publica": b64url(other_key.public_key().public_bytes_raw()),
            "valor": b64url(other_key.sign(canonical(record))),
        },
    }
    caught["otra clave"] = wrong(forged, key)

    r = copy.deepcopy(record)  # 10. an avoidable rematch drawn (5.7)
    draw = draw_of(r, 2)
    (result,) = draw["salida"].values()
    (request,) = draw["entrada"]
    a, b = next(pair for pair in request["history"] if all(p != result["bye"] for p in pair))
    rest = [p for match in result["matches"] for p in match if p not in (a, b)]
    result["matches"] = [[a, b]] + [rest[k : k + 2] for k in range(0, len(rest), 2)]
    caught["repetición"] = wrong(resign(r), key)

    expected = {
        "resultado": {"1.7.a"},
        "ganadora": {"1.7.a", "clasificación"},  # the points move to the other pair
        "exenta": {"5.6", "5.5"},
        "valor público": {"5.5"},
        "pareja": {"firma"},
        "firma": {"firma"},
        "secreto": {"5.5"},
        "partidas": {"5.5", "1.7.a"},  # the winners no longer sit at their tables
        "otra clave": {"firma"},
        "repetición": {"5.7", "5.5"},
    }
    # A juego less, or rivals exchanged, may also change the places the results give (it depends on
    # the draw's results): the classification check may then speak too, never anything else.
    for what, articles in caught.items():
        maybe = {"clasificación"} if what in ("resultado", "partidas") else set()
        assert expected[what] <= articles <= expected[what] | maybe, what
    assert caught.keys() == expected.keys()


def test_the_command_line_says_what_agrees_and_exits_by_the_outcome(envelope: dict[str, Any], tmp_path: Path) -> None:
    good = tmp_path / "registro.json"
    good.write_text(json.dumps(envelope, ensure_ascii=False), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "verify", str(good), "--clave", public_key_b64url()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0 and "0 no." in run.stdout, run.stdout + run.stderr
    bad = copy.deepcopy(envelope)
    bad["registro"]["parejas"][0]["nombre"] = "Otra"
    (tmp_path / "malo.json").write_text(json.dumps(bad), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "verify", str(tmp_path / "malo.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1 and "✘ [firma]" in run.stdout
    (tmp_path / "otro.json").write_text("{}", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "verify", str(tmp_path / "otro.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2 and "no es un registro" in run.stderr


def test_the_verifier_imports_nothing_of_django_or_the_site() -> None:
    site = ("django", "torneo", "scoring", "records", "circuits", "referees")
    code = f"import sys, verify.__main__; print([m for m in sys.modules if m.split('.')[0] in {site!r}])"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
