"""Numbers read from the query string, a form or a JSON body by hand (torneo.numbers): digits of
other scripts ('²', '①', '٣'), a sign, a number past every column and nothing at all are a 4xx
or the page as without them, never a 500 (Python's isdigit() takes '²', on which int() raises)."""

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.torneo.simulation import Simulation, new_tournament
from torneo.forms.registrations import PairForm
from torneo.models import Pair
from torneo.numbers import canonical_int, parse_int
from torneo.services.rounds import round_prepare

pytestmark = pytest.mark.django_db

VALUES = ["²", "①", "٣", "-1", "99999999999999999999", ""]


def test_parse_int_takes_ascii_digits_within_the_range_only():
    assert parse_int("42") == 42 and parse_int("007") == 7 and parse_int(5) == 5
    for text in ("²", "①", "٣", "-1", "+1", " 1", "1 ", "1_0", "", None, True, "9" * 19, 2**31):
        assert parse_int(text) is None, text
    assert parse_int("0") == 0 and parse_int("0", low=1) is None and parse_int("51", high=50) is None
    assert canonical_int("3") == 3 and canonical_int("03") is None and canonical_int("٣") is None


def _pair(sim: Simulation) -> Pair:
    return Pair.objects.filter(tournament=sim.tournament).order_by("number").first()


def _pair_form(sim: Simulation, value: str) -> dict[str, Any]:
    initial = PairForm.initial_for(_pair(sim))
    return {**{k: v for k, v in initial.items() if v is not None}, "version": value}


# (id, who asks, method, address with {slug} {pair} {v}, body of the value or None, JSON API)
Body = Callable[[Simulation, str], dict[str, Any]] | None
CASES: list[tuple[str, str, str, str, Body, bool]] = [
    # public pages
    ("results", "anonymous", "get", "/torneos/{slug}/resultados/?ronda={v}", None, False),
    ("pair page intervalo", "anonymous", "get", "/torneos/{slug}/parejas/{pair}/ficha/?intervalo={v}", None, False),
    ("clock wall ronda", "anonymous", "get", "/torneos/{slug}/relojes/?ronda={v}", None, False),
    ("clock wall intervalo", "anonymous", "get", "/torneos/{slug}/relojes/?intervalo={v}", None, False),
    ("live.json pareja", "anonymous", "get", "/torneos/{slug}/live.json?pareja={v}", None, False),
    ("draw input grupo", "anonymous", "get", "/torneos/{slug}/rondas/1/sorteo.json?grupo={v}", None, False),
    ("draw input sorteo", "anonymous", "get", "/torneos/{slug}/rondas/1/sorteo.json?sorteo={v}", None, False),
    ("api results round", "anonymous", "get", "/api/v1/tournaments/{slug}/results/?round={v}", None, True),
    ("api clocks round", "anonymous", "get", "/api/v1/tournaments/{slug}/clocks/?round={v}", None, True),
    ("api round detail", "anonymous", "get", "/api/v1/tournaments/{slug}/rounds/{v}/", None, True),
    # staff pages
    ("hands index", "organizer", "get", "/torneos/{slug}/manos/?ronda={v}", None, False),
    ("edit rondas_finales", "organizer", "get", "/torneos/{slug}/gestion/editar/?rondas_finales={v}", None, False),
    ("results entry ronda", "organizer", "get", "/torneos/{slug}/gestion/resultados/?ronda={v}", None, False),
    ("results entry mesa", "organizer", "get", "/torneos/{slug}/gestion/resultados/?mesa={v}", None, False),
    (
        "results entry post",
        "organizer",
        "post",
        "/torneos/{slug}/gestion/resultados/",
        lambda s, v: {"round": v},
        False,
    ),
    ("clocks manage", "organizer", "get", "/torneos/{slug}/gestion/relojes/?ronda={v}", None, False),
    ("blank actas n", "organizer", "get", "/torneos/{slug}/gestion/imprimir/actas-en-blanco.pdf?n={v}", None, False),
    ("juez desk ronda", "organizer", "get", "/torneos/{slug}/gestion/juez/?ronda={v}", None, False),
    ("juez desk mesa", "organizer", "get", "/torneos/{slug}/gestion/juez/?mesa={v}", None, False),
    (
        "juez desk post",
        "organizer",
        "post",
        "/torneos/{slug}/gestion/juez/",
        lambda s, v: {"ronda": v, "table": v},
        False,
    ),
    ("substitutes ronda", "organizer", "get", "/torneos/{slug}/gestion/juez/suplentes/?ronda={v}", None, False),
    ("pair edit version", "organizer", "post", "/torneos/{slug}/gestion/parejas/{pair}/", _pair_form, False),
    (
        "pair accounts position",
        "organizer",
        "post",
        "/torneos/{slug}/gestion/parejas/{pair}/cuentas/",
        lambda s, v: {"position": [v, "1"]},
        False,
    ),
    (
        "api lookup table",
        "organizer",
        "get",
        "/api/v1/tournaments/{slug}/results/lookup/?round=1&table={v}",
        None,
        True,
    ),
    ("api incidents", "organizer", "get", "/api/v1/tournaments/{slug}/incidents/?round={v}&pair={v}", None, True),
    ("api incident", "organizer", "get", "/api/v1/tournaments/{slug}/incidents/{v}/", None, True),
    ("api substitutions", "organizer", "get", "/api/v1/tournaments/{slug}/substitutions/?round={v}", None, True),
    (
        "api substitution cancel",
        "organizer",
        "post",
        "/api/v1/tournaments/{slug}/substitutions/{v}/cancel/",
        lambda s, v: {"reason": "prueba"},
        True,
    ),
    (
        "api sanction undo",
        "organizer",
        "post",
        "/api/v1/tournaments/{slug}/sanctions/{v}/undo/",
        lambda s, v: {"reason": "prueba"},
        True,
    ),
    (
        "api publish witness",
        "organizer",
        "post",
        "/api/v1/tournaments/{slug}/rounds/2/publish/",
        lambda s, v: {"public_value": "3 3 3", "witness": v},
        True,
    ),
]


@pytest.mark.parametrize(("who", "method", "address", "body", "api"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_number_in_another_script_or_out_of_range_is_never_a_500(
    who: str, method: str, address: str, body: Body, api: bool
) -> None:
    sim = new_tournament(6)
    sim.play_round()
    round_prepare(tournament=sim.tournament, by=sim.organizer)  # round 2, drawn and not yet published
    client: Any = APIClient() if api else Client()
    if who == "organizer":
        if api:
            client.force_authenticate(sim.organizer)
        else:
            client.force_login(sim.organizer)
    for value in VALUES:
        url = address.format(slug=sim.tournament.slug, pair=_pair(sim).number, v=value)
        if method == "get":
            response = client.get(url)
        elif api:
            response = client.post(url, body(sim, value) if body else {}, format="json")
        else:
            response = client.post(url, body(sim, value) if body else {})
        assert response.status_code < 500, (value, url, response.status_code)
