"""The verifier recomputes the standings and the final classification from the record's results and
rule set alone (verify/standings.py, no Django): every format played to its end agrees with what the
site publishes; a place, a point, an expelled pair or the «final» flag altered is caught; and the
rules themselves, on small hand-made records, give the places the reglamento and docs/registro.md
say (the exenta's point, AMM 5.6; the double loss, 6.5.b; the expelled pair, 3.16.b)."""

import copy
from typing import Any

import pytest
from django.core.management import call_command

from records.build import tournament_record
from records.signing import signed
from tests.torneo.simulation import new_tournament
from torneo.models import Pair, Tournament
from torneo.services.registrations import pair_expel, pair_withdraw
from verify import verify_record
from verify.standings import classification

FORMATS = {
    "ceros a 2": {"format": Tournament.Format.CEROS, "max_losses": 2},
    "ceros con rondas finales": {"format": Tournament.Format.CEROS, "max_losses": 2, "final_phase_from_round": 3},
    "repesca sin reentrada": {
        "format": Tournament.Format.REPESCA,
        "repesca_until_round": 2,
        "max_losses": 1,
        "pool_b_max_losses": 2,
    },
    "repesca con reentrada": {
        "format": Tournament.Format.REPESCA,
        "repesca_until_round": 1,
        "max_losses": 1,
        "pool_b_max_losses": 2,
        "repesca_reentry_round": 3,
    },
    "suizo": {"format": Tournament.Format.SWISS, "swiss_rounds": 4, "tiebreaks": "buchholz,head_to_head,juegos,wins"},
    "liguillas": {"format": Tournament.Format.LIGUILLAS, "group_count": 3, "group_qualifiers": 2},
}


def wrong(envelope: dict[str, Any]) -> list[str]:
    return [f"[{f.article}] {f.what}" for f in verify_record(envelope) if not f.ok]


@pytest.mark.django_db
@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_played_to_its_end_recomputes_to_the_published_classification(name: str) -> None:
    sim = new_tournament(13, seed=21, **FORMATS[name])
    sim.play_all()
    record = tournament_record(sim.tournament)
    assert record["clasificacion"]["final"] is True
    findings = verify_record(signed(record))
    assert [f.what for f in findings if not f.ok] == []
    said = [f.what for f in findings if f.article == "clasificación"]
    assert any("salen de los resultados" in s for s in said) and any("definitiva" in s for s in said)
    assert any("líneas salen de los resultados" in s for s in said)  # the standings tables too
    sections = classification(record).sections
    assert sum(len(s) for s in sections) == 13
    if name == "repesca sin reentrada":
        assert len(sections) == 2  # grupo B has its own classification
    if name == "liguillas":
        assert any(f.article == "cuadro" and f.ok for f in findings)
        assert any(f.article == "liguillas" and f.ok for f in findings)  # every two pairs of a liguilla met once
        altered = copy.deepcopy(record)  # a partida of round 2 moved across two liguillas
        one, two = (
            next(m for m in altered["rondas"][1]["partidas"] if m["grupo"] == g and m["b"] is not None) for g in "12"
        )
        one["b"], two["b"] = two["b"], one["b"]
        assert any("entre liguillas distintas" in w for w in wrong(signed(altered)))


@pytest.mark.django_db
def test_a_withdrawn_pair_keeps_its_place_and_an_expelled_one_is_left_out_amm_3_16_b() -> None:
    sim = new_tournament(10, seed=22, format=Tournament.Format.SWISS, swiss_rounds=4)
    sim.play_round()
    sim.play_round()
    pairs = list(Pair.objects.filter(tournament=sim.tournament).order_by("number"))
    pair_withdraw(pair=pairs[2])
    pair_expel(pair=pairs[5], reason="Conducta antideportiva grave")
    sim.play_round()
    record = tournament_record(sim.tournament)
    assert record["clasificacion"]["excluidas"] == [pairs[5].number]
    assert wrong(signed(record)) == []
    mine = classification(record)
    assert pairs[2].number in [p for _a, _b, p, _pts in mine.sections[0]]
    assert pairs[5].number not in [p for _a, _b, p, _pts in mine.sections[0]]
    assert mine.decided is False  # a round of the four still to play


@pytest.mark.django_db
def test_the_classification_altered_and_signed_again_is_caught() -> None:
    sim = new_tournament(9, seed=23, format=Tournament.Format.SWISS, swiss_rounds=3)
    sim.play_all()
    record = tournament_record(sim.tournament)
    rows = record["clasificacion"]["secciones"][0]["filas"]
    distinct = next(i for i in range(len(rows) - 1) if rows[i]["puntos"] != rows[i + 1]["puntos"])

    r = copy.deepcopy(record)  # two pairs' places exchanged
    filas = r["clasificacion"]["secciones"][0]["filas"]
    filas[distinct]["pareja"], filas[distinct + 1]["pareja"] = filas[distinct + 1]["pareja"], filas[distinct]["pareja"]
    assert any("[clasificación]" in w and f"fila {distinct + 1}" in w for w in wrong(signed(r)))

    r = copy.deepcopy(record)  # a point added
    r["clasificacion"]["secciones"][0]["filas"][-1]["puntos"] += 1
    assert any("[clasificación]" in w for w in wrong(signed(r)))

    r = copy.deepcopy(record)  # a pair left out as if expelled
    excluded = r["clasificacion"]["secciones"][0]["filas"].pop()
    r["clasificacion"]["excluidas"].append(excluded["pareja"])
    found = wrong(signed(r))
    assert any("[3.16.b]" in w for w in found) and any("[clasificación]" in w for w in found)

    r = copy.deepcopy(record)  # a standings line's wins changed
    r["tablas"][0]["filas"][0]["ganadas"] += 1
    assert any("tabla, línea 1" in w for w in wrong(signed(r)))

    r = copy.deepcopy(record)  # a record from before the tables: the rest still verifies
    del r["tablas"]
    assert wrong(signed(r)) == []

    r = copy.deepcopy(record)  # declared not final when every round is played
    r["clasificacion"]["final"] = False
    r["torneo"]["estado"] = "running"
    assert any("ya está decidido" in w for w in wrong(signed(r)))


@pytest.mark.django_db
def test_every_demo_tournament_verifies_clean_with_its_sanctions_withdrawals_and_suplentes() -> None:
    call_command("demo", verbosity=0)
    slugs = []
    for tournament in Tournament.objects.all():
        record = tournament_record(tournament)
        assert wrong(signed(record)) == [], tournament.slug
        slugs.append(tournament.slug)
    assert len(slugs) >= 5  # the demo, the running one, the circuit's three


# --- the rules on hand-made records (no database) -------------------------------------------------


def hand_record(fmt: str, partidas: list[tuple[int, int, int | None, int | None, str]], **rules: Any) -> dict[str, Any]:
    """A record of ``partidas`` (round, a, b, winner, outcome); juegos 3–1 for the winner."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for number, a, b, winner, outcome in partidas:
        ja, jb = (None, None)
        if outcome == "played":
            ja, jb = (3, 1) if winner == a else (1, 3)
        rounds.setdefault(number, []).append(
            {"grupo": "", "a": a, "b": b, "resultado": outcome, "ganadora": winner, "juegos_a": ja, "juegos_b": jb}
        )
    pairs = sorted({p for _n, a, b, _w, _o in partidas for p in (a, b) if p is not None})
    return {
        "torneo": {"estado": "running", "reglas": {"format": fmt, "points_per_win": 1, **rules}},
        "parejas": [{"numero": p, "estado": "confirmed"} for p in pairs],
        "rondas": [
            {"numero": n, "fase": "main", "estado": "published", "partidas": ms} for n, ms in sorted(rounds.items())
        ],
    }


def test_the_exenta_is_worth_a_win_amm_5_6() -> None:
    record = hand_record("swiss", [(1, 1, 2, 1, "played"), (1, 3, None, None, "bye")], swiss_rounds=1)
    rows = classification(record).sections[0]
    # 1 and 3 have a point each; 1 goes first on juegos (+2 against the exenta's none).
    assert [(place, pair, points) for place, _to, pair, points in rows] == [(1, 1, 1), (2, 3, 1), (3, 2, 0)]


def test_head_to_head_is_applied_again_among_the_pairs_still_tied() -> None:
    partidas = [
        (1, 1, 2, 1, "played"),
        (2, 1, 3, 1, "played"),
        (2, 2, 4, 2, "played"),
        (3, 3, 2, 3, "played"),
        (4, 3, 2, 3, "played"),
        (5, 2, 4, 2, "played"),
    ]
    record = hand_record("swiss", partidas, swiss_rounds=5, tiebreaks="head_to_head")
    rows = classification(record).sections[0]
    # 1, 2 and 3 have two points each. Among the three: 1 two wins, 3 two, 2 none; then between
    # 1 and 3 alone, 1 beat 3. A single mini-league would have left 1 and 3 sharing the place.
    assert [(place, pair) for place, _to, pair, _pts in rows] == [(1, 1), (2, 3), (3, 2), (4, 4)]


def test_a_double_loss_is_a_loss_for_both_and_knocks_both_out_amm_6_5_b() -> None:
    partidas = [
        (1, 1, 2, None, "double_loss"),
        (1, 3, 4, 3, "played"),
        (2, 3, None, None, "bye"),
    ]
    record = hand_record("ceros", partidas, max_losses=1)
    mine = classification(record)
    rows = mine.sections[0]
    assert mine.decided is True
    # 3 is the champion (the last pair standing); the three out in round 1 are ordered by points
    # (none) then juegos: 1 and 2 lost with no juegos played (0) and share the place ahead of 4 (−2).
    assert [(place, to, pair, pts) for place, to, pair, pts in rows] == [
        (1, 1, 3, 2),
        (2, 3, 1, 0),
        (2, 3, 2, 0),
        (4, 4, 4, 0),
    ]


def test_a_pair_that_plays_after_its_elimination_is_named() -> None:
    partidas = [
        (1, 1, 2, 1, "played"),
        (1, 3, 4, 3, "played"),
        (2, 1, 2, 2, "played"),  # 2 was out after round 1 (one loss eliminates)
    ]
    record = hand_record("ceros", partidas, max_losses=1)
    assert classification(record).played_after_out == [(2, 1)]
    assert any(f.article == "eliminación" and not f.ok for f in verify_record({"registro": _with_format(record)}))


def _with_format(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "formato": "registro-torneo-mus", "version": 1, "clasificacion": {"secciones": []}}
