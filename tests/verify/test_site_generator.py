"""The verifier's optional check by the site's own published generator (``--generador DIR``,
verify/site_generator.py): draws too large for its independent re-implementation (here 30 pairs,
drawn by the sampler) are recomputed exactly, an exchanged draw is caught, and without the option
the verifier never imports the site (AMM 5.5)."""

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from records.build import tournament_record
from records.signing import signed
from tests.torneo.simulation import new_tournament
from torneo.models import Tournament
from verify import verify_record
from verify.site_generator import load

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def big() -> dict[str, Any]:
    sim = new_tournament(30, seed=36, format=Tournament.Format.CEROS, max_losses=2)
    sim.play_round()
    sim.play_round()
    return signed(tournament_record(sim.tournament))


def test_a_large_draw_is_recomputed_by_the_sites_generator_and_an_exchanged_one_caught_amm_5_5(
    big: dict[str, Any],
) -> None:
    first = big["registro"]["rondas"][0]["sorteos"][0]
    assert first["salida"][""]["method"] != "exact"  # beyond the independent re-implementation
    alone = verify_record(big)
    assert any("elección no recomputada" in f.what for f in alone)
    generator = load(str(ROOT))
    findings = verify_record(big, generator=generator)
    assert [f.what for f in findings if not f.ok] == []
    said = [f.what for f in findings if "generador publicado" in f.what]
    assert len(said) >= 2 and all(" es el que da" in s for s in said)
    altered = copy.deepcopy(big)
    result = altered["registro"]["rondas"][0]["sorteos"][0]["salida"][""]
    (a, b), (c, d) = result["matches"][:2]
    result["matches"][:2] = [[a, c], [b, d]]  # round 1: nobody met, no property notices
    failed = [f for f in verify_record(altered, generator=generator) if not f.ok]
    assert any("NO es el que da el generador publicado" in f.what for f in failed)
    assert {f.article for f in failed} <= {"5.5", "firma", "1.7.a", "clasificación"}


def test_the_command_takes_the_sites_source_and_refuses_a_folder_without_it(
    big: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "registro.json"
    path.write_text(json.dumps(big, ensure_ascii=False), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "verify", str(path), "--generador", str(ROOT), "--todo"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(ROOT)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "generador publicado del sitio" in run.stdout
    run = subprocess.run(
        [sys.executable, "-m", "verify", str(path), "--generador", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(ROOT)},
    )
    assert run.returncode == 2 and "no contiene torneo/draws" in run.stderr
