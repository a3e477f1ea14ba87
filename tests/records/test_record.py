"""The open tournament record (issue 35): its content (names only, every draw and result), its
schema (docs/registro.schema.json), its Ed25519 signature and the site's public key."""

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from django.test import Client

from records.signing import canonical, public_key_b64url, signed, verify
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Player, Tournament
from torneo.services.rounds import round_prepare

pytestmark = pytest.mark.django_db

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "registro.schema.json").read_text())


def download(tournament: Tournament) -> Any:
    response = Client().get(f"/torneos/{tournament.slug}/registro.json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == f'attachment; filename="registro-{tournament.slug}.json"'
    return json.loads(response.content)


def test_a_finished_tournaments_record_holds_every_draw_and_result_and_matches_its_schema() -> None:
    sim = new_tournament(8, seed=3, format=Tournament.Format.CEROS, max_losses=1)
    sim.play_all()
    envelope = download(sim.tournament)
    jsonschema.validate(envelope, SCHEMA)
    record = envelope["registro"]
    assert record["formato"] == "registro-torneo-mus" and record["version"] == 1
    assert record["torneo"]["reglas"]["format"] == "ceros" and record["torneo"]["reglas"]["max_losses"] == 1
    assert [p["numero"] for p in record["parejas"]] == list(range(1, 9))
    assert [r["numero"] for r in record["rondas"]] == [1, 2, 3]
    partidas = [m for r in record["rondas"] for m in r["partidas"]]
    assert len(partidas) == Match.objects.filter(round__tournament=sim.tournament).count() == 4 + 2 + 1
    for r in record["rondas"]:
        (draw,) = r["sorteos"]
        assert draw["secreto"] and draw["valor_publico"] and len(draw["compromiso"]) == 64 and draw["salida"]
    assert all(m["versiones"] and m["versiones"][-1]["version"] == m["version"] for m in partidas)
    assert record["clasificacion"]["final"] and record["clasificacion"]["secciones"][0]["filas"][0]["puesto"] == 1


def test_the_record_carries_names_only_and_no_secret_of_a_draw_not_yet_published() -> None:
    sim = new_tournament(6, seed=4)
    Player.objects.filter(tournament=sim.tournament).update(
        phone="600 111 222", email="ane@example.com", id_document="12345678Z", club="Peña secreta"
    )
    publish_next_round(sim)
    for match in playing(sim.rounds[0]):
        sim.enter_result(match)
    round_prepare(tournament=sim.tournament, by=sim.organizer)  # committed, not published
    text = json.dumps(download(sim.tournament), ensure_ascii=False)
    for secret in ("600 111 222", "ane@example.com", "12345678Z", "Peña secreta"):
        assert secret not in text
    record = json.loads(text)["registro"]
    second = record["rondas"][1]
    assert second["estado"] == "prepared" and second["partidas"] == []
    assert second["sorteos"][0]["secreto"] is None and second["sorteos"][0]["salida"] is None
    assert len(second["sorteos"][0]["compromiso"]) == 64  # the commitment is public already


def test_the_signature_verifies_with_the_public_key_on_the_about_page_and_fails_on_any_change() -> None:
    sim = new_tournament(4, seed=5, format=Tournament.Format.CEROS, max_losses=1)
    sim.play_all()
    envelope = download(sim.tournament)
    about = Client().get("/acerca/").content.decode()
    key = public_key_b64url()
    assert f'<code id="clave-publica" style="overflow-wrap: anywhere">{key}</code>' in about
    assert envelope["firma"]["clave_publica"] == key and verify(envelope, key)
    changed = copy.deepcopy(envelope)
    changed["registro"]["rondas"][0]["partidas"][0]["juegos_a"] = 9
    assert not verify(changed, key)
    other = signed({"otro": 1})
    assert not verify({"registro": envelope["registro"], "firma": other["firma"]}, key)
    assert canonical({"b": 1, "a": "ñ"}) == '{"a":"ñ","b":1}'.encode()


def test_a_draft_tournament_has_no_public_record() -> None:
    sim = new_tournament(4)
    Tournament.objects.filter(pk=sim.tournament.pk).update(status=Tournament.Status.DRAFT)
    assert Client().get(f"/torneos/{sim.tournament.slug}/registro.json").status_code == 404
