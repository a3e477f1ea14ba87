"""No 500 on bad input: JSON nested thousands of levels deep, bodies above the size bound, tantos
that overflow the database, tournaments created with the same name at the same moment, and every
JSON write endpoint of the API walked with bodies of the wrong shape and type. Each is a 4xx with a
JSON body and a Spanish message (or, for the race, every creation succeeds)."""

import json
import time
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from scoring.models import RecordedGame, RecordedHand
from scoring.services.hands import MAX_LANCE_STAKE, hand_record, max_score_after
from scoring.services.results import result_submit
from tests.factories import TournamentFactory, UserFactory, grant, player_data
from tests.scoring.test_hands_services import MALFORMED_SEQUENCES, S1, table
from tests.torneo.simulation import new_tournament
from tests.torneo.test_concurrency import run_together
from tests.torneo.test_round_views import publish_next
from torneo.api.parsers import MAX_DEPTH
from torneo.models import Tournament, TournamentRole
from torneo.services import registrations_csv, tournaments
from torneo.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def is_json_error(response: Any) -> bool:
    return 400 <= response.status_code < 500 and response["Content-Type"].startswith("application/json")


def api_client(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def creator() -> Any:
    return UserFactory(can_create_tournaments=True)


def hands_url(t: Any) -> str:
    return f"/api/v1/tournaments/{t.tournament.slug}/matches/{t.match.pk}/hands/"


# --- 1. JSON nested too deep ---------------------------------------------------------------------


def test_json_nested_3000_deep_is_a_400_for_the_anonymous_token_endpoint():
    response = APIClient().post(TOKEN, nested(3000), content_type="application/json")
    assert is_json_error(response) and response.status_code == 400
    assert response.json()["detail"] == f"El JSON tiene demasiados niveles anidados (máximo {MAX_DEPTH})."


def test_json_nested_too_deep_is_a_400_for_every_parser_path():
    client = api_client(creator())
    for body in (nested(3000), nested(MAX_DEPTH + 1), '{"name": ' + nested(900) + "}"):
        response = client.post("/api/v1/tournaments/", body, content_type="application/json")
        assert response.status_code == 400, body[:20]
        assert "anidados" in response.json()["detail"]
    # Just within the bound, the parser reads it and the serializer answers.
    response = client.post("/api/v1/tournaments/", nested(MAX_DEPTH), content_type="application/json")
    assert response.status_code == 400 and "non_field_errors" in response.json()
    # Malformed JSON: Spanish, with where.
    response = client.post("/api/v1/tournaments/", '{"name": }', content_type="application/json")
    assert response.json() == {"detail": "El cuerpo de la petición no es JSON válido (línea 1, columna 10)."}
    assert not Tournament.objects.exists()


def test_deep_json_inside_a_form_field_is_a_400():
    """A JSON string in a form-encoded field (serializers.JSONField) is parsed by the field, not
    by the API's parser: the exception handler still answers 400."""
    t = table()
    client = api_client(t.juez)
    response = client.post(hands_url(t), {"mano": "a", "record": nested(3000)}, format="multipart")
    assert is_json_error(response) and response.status_code == 400
    assert "anidados" in response.json()["detail"]
    assert not RecordedHand.objects.exists()


# --- 2. bodies above DATA_UPLOAD_MAX_MEMORY_SIZE -------------------------------------------------


def test_a_3_mb_body_is_a_json_413_in_spanish_on_the_api():
    big = json.dumps({"username": "x" * 3_000_000, "password": "y"})
    for client, url in ((APIClient(), TOKEN), (api_client(creator()), "/api/v1/tournaments/")):
        response = client.post(url, big, content_type="application/json")
        assert is_json_error(response) and response.status_code == 413, url
        assert response.json()["detail"] == "La petición es demasiado grande: el máximo son 1,0\xa0MB."
    t = table()
    response = api_client(t.juez).post(hands_url(t), {"mano": "a", "record": "x" * 3_000_000}, format="json")
    assert response.status_code == 413 and not RecordedHand.objects.exists()
    # The same body to a page: Django's 400 page, not a 500.
    assert Client().post(reverse("login"), {"username": "x" * 3_000_000}).status_code == 400


def test_too_many_form_fields_is_a_json_400():
    body = "&".join(f"campo{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    response = api_client(creator()).post(
        "/api/v1/tournaments/", body, content_type="application/x-www-form-urlencoded"
    )
    assert is_json_error(response) and response.status_code == 400
    assert response.json() == {"detail": "La petición tiene demasiados campos o archivos."}


def test_the_body_bound_is_1_mib_and_a_5000_row_csv_import_still_goes_through():
    """The CSV travels as a file part of a multipart upload, which DATA_UPLOAD_MAX_MEMORY_SIZE does
    not count: a 5,000-row file of 1.3 MB, above the bound, imports."""
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 1024 * 1024
    t = TournamentFactory()
    organizer = grant(UserFactory(), t, "organizer")
    columns = ("nombre", "apellidos", "documento", "telefono", "email", "club")
    rows = [";".join(["pareja"] + [f"{c}_{n}" for n in (1, 2) for c in columns])]
    for i in range(registrations_csv.MAX_ROWS):
        cells = [f"Pareja de la peña número {i}"]
        for n in (2 * i, 2 * i + 1):
            p, number = player_data(n), 10_000_000 + n
            dni = f"{number}{'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}"
            cells += [
                p.first_name,
                p.last_name,
                dni,
                f"6{n:08d}",
                f"jugador.{n}@correo-de-ejemplo.es",
                "Peña El Órdago",
            ]
        rows.append(";".join(cells))
    data = ("\n".join(rows) + "\n").encode()
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE < len(data) <= registrations_csv.MAX_BYTES
    upload = SimpleUploadedFile("parejas.csv", data, content_type="text/csv")
    response = api_client(organizer).post(
        f"/api/v1/tournaments/{t.slug}/pairs/import/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 201, response.content[:500]
    assert response.json()["created"] == registrations_csv.MAX_ROWS


# --- 3. tantos a hand cannot have ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "field", "message"),
    [
        (
            {"hands": [], "claimed": {"score": {"A": 70000, "B": 0}}},
            "record.claimed.score",
            "Tras una mano cada pareja tiene de 0 a 139 tantos (el juego es a 40): A 70000 – B 0 no puede ser.",
        ),
        (
            {"hands": [], "claimed": {"score": {"A": 3, "B": -1}}},
            "record.claimed.score",
            "Tras una mano cada pareja tiene de 0 a 139 tantos (el juego es a 40): A 3 – B -1 no puede ser.",
        ),
        (
            {"hands": [], "score": {"A": -5, "B": 0}, "claimed": {"score": {"A": 0, "B": 0}}},
            "record.score",
            "Antes de una mano cada pareja tiene de 0 a 39 tantos (el juego es a 40): A -5 – B 0 no puede ser.",
        ),
        (
            {"hands": S1, "score": {"A": 12, "B": 40}},
            "record.score",
            "Antes de una mano cada pareja tiene de 0 a 39 tantos (el juego es a 40): A 12 – B 40 no puede ser.",
        ),
        (
            {"hands": S1, "lances": {"grande": ["A:envido 60", "B:envido 41", "A:quiero"]}},
            "record.lances.grande[1]",
            "Los envites de grande suman 101 tantos: como mucho 100 (con 40 ya se gana el juego).",
        ),
        (
            {"hands": S1, "lances": {"grande": ["A:envido 99999", "B:quiero"]}},
            "record.lances.grande[0]",
            None,
        ),
    ],
    ids=["claimed_70000", "claimed_negative", "before_negative", "before_at_target", "stake_101", "stake_99999"],
)
def test_tantos_no_hand_can_have_are_a_400_keyed_by_field_and_nothing_is_written(record, field, message):
    t = table()
    response = api_client(t.juez).post(hands_url(t), {"mano": "a", "record": record}, format="json")
    assert response.status_code == 400, response.content[:300]
    errors = response.json()
    assert field in errors, errors
    if message:
        assert errors[field] == [message]
    assert not RecordedHand.objects.exists() and not RecordedGame.objects.exists()


@pytest.mark.parametrize(("lances", "field", "message"), MALFORMED_SEQUENCES)
def test_a_betting_sequence_no_play_can_have_is_a_400_keyed_by_its_action_and_nothing_is_written(
    lances, field, message
):
    t = table()
    record = {"hands": S1, "lances": lances}
    response = api_client(t.juez).post(hands_url(t), {"mano": "a", "record": record}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert response.json() == {f"record.{field}": [message]}
    assert not RecordedHand.objects.exists() and not RecordedGame.objects.exists()


def test_thousands_of_passes_are_refused_at_the_fifth_not_a_500():
    t = table()
    record = {"hands": S1, "lances": {"grande": ["A:paso", "B:paso"] * 5000}}
    response = api_client(t.juez).post(hands_url(t), {"mano": "a", "record": record}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["record.lances.grande[4]"]
    assert not RecordedHand.objects.exists()


def test_the_bounds_themselves_are_accepted_and_fit_the_database():
    """At the bounds: 39 before (a juego decided at fewer tantos, AMM 6.4, starts below the target
    too), 139 after a hand without cards, an accepted envite of 100 counted by the engine."""
    assert max_score_after(40) == 139 and MAX_LANCE_STAKE == 100
    t = table(games_to_win=2)
    client = api_client(t.juez)
    no_cards = {"hands": [], "score": {"A": 39, "B": 0}, "claimed": {"score": {"A": 139, "B": 0}}}
    response = client.post(hands_url(t), {"mano": "a", "record": no_cards}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["game"]["tantos"] == {"a": 139, "b": 0}
    # S1: seat 0 (pair A) wins grande with rey rey; the accepted stake of 100 is counted as said.
    with_cards = {"hands": S1, "lances": {"grande": ["A:envido 60", "B:envido 40", "A:quiero"]}}
    response = client.post(hands_url(t), {"mano": "b", "record": with_cards}, format="json")
    assert response.status_code == 201, response.json()
    game = response.json()["game"]
    assert game["number"] == 2 and game["tantos"] == {"a": 0, "b": 100} and game["winner"] == "b"


def test_an_envite_above_the_asturias_cap_counts_two_and_is_not_refused():
    t = table(rule_set="asturias")
    record = {"hands": S1, "lances": {"grande": ["A:envido 500", "B:quiero"]}}
    response = api_client(t.juez).post(hands_url(t), {"mano": "a", "record": record}, format="json")
    assert response.status_code == 201 and response.json()["game"]["tantos"] == {"a": 2, "b": 5}


def test_the_hands_page_shows_the_bounds_as_form_errors():
    t = table()
    client = Client()
    client.force_login(t.juez)
    url = reverse("scoring:hands_match", kwargs={"slug": t.tournament.slug, "match_id": t.match.pk})
    form = {f"cards_{seat}": cards for seat, cards in enumerate(S1)}
    response = client.post(url, {**form, "mano": "a", "score_a": "45", "score_b": "0"})
    assert response.status_code == 200
    assert "de 0 a 39 tantos" in " ".join(response.context["form"].errors["score_a"])
    response = client.post(url, {**form, "mano": "a", "lance_grande": "A:envido 999999999, B:quiero"})
    assert response.status_code == 200
    assert "como mucho 100" in " ".join(response.context["form"].errors["lance_grande"])
    response = client.post(url, {**form, "mano": "a", "lance_chica": "B:no quiero; A:envido"})
    assert response.status_code == 200
    assert "sin que haya envite" in " ".join(response.context["form"].errors["lance_chica"])
    assert not RecordedHand.objects.exists()


# --- 4. tournaments with the same name at the same moment ----------------------------------------


def test_a_slug_taken_between_the_check_and_the_write_moves_on_to_the_next(monkeypatch):
    """The race on any database: another creation takes the slug right after this one checked it."""
    original = tournaments._apply
    raced: list[str] = []

    def racing_apply(tournament: Tournament, data: dict[str, Any], **kwargs: Any) -> None:
        original(tournament, data, **kwargs)
        if tournament.pk is None and not raced:
            raced.append(tournament.slug)
            TournamentFactory(slug=tournament.slug)

    monkeypatch.setattr(tournaments, "_apply", racing_apply)
    user = UserFactory()
    dates = {"start_date": "2027-03-06", "end_date": "2027-03-07"}
    created = tournament_create(by=user, data={"name": "Open de Mus", **dates})
    assert raced == ["open-de-mus"] and created.slug == "open-de-mus-2"
    assert TournamentRole.objects.filter(tournament=created, user=user, role="organizer").exists()
    # A slug the user chose, taken in between: a ValidationError on «slug», not an IntegrityError.
    raced.clear()
    with pytest.raises(ValidationError) as excinfo:
        tournament_create(by=user, data={"name": "Otro", "slug": "mi-torneo", **dates})
    assert list(excinfo.value.message_dict) == ["slug"]
    assert excinfo.value.message_dict["slug"][0].startswith("Ya existe")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_simultaneous_creations_with_the_same_name_all_succeed(on_postgres, monkeypatch):
    original = tournaments._apply

    def slow_apply(tournament: Tournament, data: dict[str, Any], **kwargs: Any) -> None:
        original(tournament, data, **kwargs)
        time.sleep(0.2)  # widen the window between the slug's check and the write

    monkeypatch.setattr(tournaments, "_apply", slow_apply)
    users = [creator() for _ in range(20)]
    body = {"name": "Open de Mus", "start_date": "2027-03-06", "end_date": "2027-03-07"}

    def create(user: Any) -> Any:
        return lambda: api_client(user).post("/api/v1/tournaments/", body, format="json")

    responses = run_together(*(create(user) for user in users))
    assert [getattr(r, "status_code", r) for r in responses] == [201] * 20, [
        getattr(r, "content", r) for r in responses if getattr(r, "status_code", 0) != 201
    ]
    slugs = sorted(r.json()["slug"] for r in responses)
    assert slugs == sorted(["open-de-mus", *(f"open-de-mus-{n}" for n in range(2, 21))])
    assert TournamentRole.objects.filter(role="organizer").count() == 20


# --- 5. every JSON write endpoint, walked from the OpenAPI schema --------------------------------

SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
BAD_VALUES: list[Any] = ["x", 10**30, -(10**30), -1, 2**63, 40000, None, [], {}, True, 1.5, "²", "x" * 5000]
NOT_OBJECTS = ["[]", '"x"', "1", "null", '[{"a": 1}]']
JSON_WRITES = [
    (method, path)
    for path, operations in SCHEMA["paths"].items()
    for method, operation in operations.items()
    if method in ("post", "put", "patch") and "application/json" in operation.get("requestBody", {}).get("content", {})
]


def _component(ref: str) -> dict[str, Any]:
    return SCHEMA["components"]["schemas"][ref.rsplit("/", 1)[1]]


def _player(n: int) -> dict[str, str]:
    return {"first_name": "Ana", "last_name": f"Pérez Gil {n}", "id_document": "", "phone": "", "email": "", "club": ""}


def _valid_body(path: str, world: dict[str, Any]) -> dict[str, Any]:
    """A body the endpoint accepts, so that one wrong field at a time reaches the services."""
    if path == TOKEN:
        return {"username": world["organizer"].username, "password": "otra"}
    if path.endswith(("/tournaments/", "/tournaments/{slug}/")):
        return {"name": "Open", "start_date": "2027-01-01", "end_date": "2027-01-02"}
    if path.endswith("/hands/"):
        return {"mano": "b", "record": {"hands": S1}}
    if path.endswith("/hands/{hand_id}/"):
        return {"record": {"hands": S1}, "expected_version": 1}
    if path.endswith(("/pairs/", "/registrations/", "/pairs/{number}/")):
        return {"name": "", "players": [_player(1), _player(2)]}
    if path.endswith("/results/"):
        return {"match": world["match"].pk, "outcome": "played", "games_a": 3, "games_b": 1, "version": 0}
    if path.endswith("/publish/"):
        return {"public_value": "123", "witness": world["juez"].username}
    return {"reason": "motivo"}


def _bodies(method: str, path: str, world: dict[str, Any]) -> list[str]:
    schema = SCHEMA["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    base = _valid_body(path, world)
    bodies = [*NOT_OBJECTS, json.dumps(base)]
    for name, spec in _component(schema["$ref"]).get("properties", {}).items():
        if spec.get("readOnly"):
            continue
        bodies += [json.dumps({**base, name: bad}) for bad in BAD_VALUES]
        items = spec.get("items", {})
        if "$ref" in items and base.get(name):  # a list of objects (the players): each of their fields
            for inner in _component(items["$ref"]).get("properties", {}):
                bodies += [
                    json.dumps({**base, name: [{**base[name][0], inner: bad}, *base[name][1:]]}) for bad in BAD_VALUES
                ]
    if "record" in base:  # the engine's record: each of its keys, and every number in it
        record = base["record"]
        for key in ("score", "claimed", "lances", "hands", "declarations", "rules", "id"):
            bodies += [json.dumps({**base, "record": {**record, key: bad}}) for bad in BAD_VALUES]
        for bad in BAD_VALUES:
            for variant in (
                {"score": {"A": bad, "B": 0}},
                {"hands": [], "claimed": {"score": {"A": bad, "B": 0}}},
                {"claimed": {"lances": {"grande": {"A": bad, "B": 0}}}},
                {"lances": {"grande": [bad]}},
                {"lances": {"grande": [f"A:envido {bad}", "B:quiero"]}},
            ):
                bodies.append(json.dumps({**base, "record": {**record, **variant}}))
    return bodies


@pytest.fixture
def world() -> dict[str, Any]:
    """A running tournament with a published draw, a recorded hand and a proposed result; the
    organizer (who may also create tournaments) walks, so permissions never hide validation."""
    sim = new_tournament(8, results_double_check=True, status=Tournament.Status.RUNNING)
    sim.organizer.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    round_ = publish_next(sim)
    first, second = round_.matches.exclude(pair_b=None).order_by("table_number")[:2]
    hand = hand_record(match=first, by=sim.organizer, record={"hands": S1}, mano="a").hand
    submission = result_submit(match=second, by=sim.juez, games_a=3, games_b=1)
    return {
        "tournament": sim.tournament,
        "organizer": sim.organizer,
        "juez": sim.juez,
        "match": first,
        "hand": hand,
        "submission": submission,
    }


@pytest.mark.parametrize(("method", "path"), JSON_WRITES, ids=[f"{m.upper()} {p}" for m, p in JSON_WRITES])
def test_no_json_write_endpoint_answers_5xx_and_every_4xx_is_json(world, method, path):
    client = api_client(world["organizer"])
    pair = world["match"].pair_a.number
    url = (
        path.replace("{slug}", world["tournament"].slug)
        .replace("{tournament_slug}", world["tournament"].slug)
        .replace("{match_id}", str(world["match"].pk))
        .replace("{hand_id}", str(world["hand"].pk))
        .replace("{id}", str(world["submission"].pk))
        .replace("{number}", "1" if "/rounds/" in path else str(pair))
    )
    failures = []
    bodies = _bodies(method, path, world)
    for body in [nested(3000), *bodies]:
        try:
            with transaction.atomic():  # every body against the same world
                response = client.generic(method.upper(), url, body, content_type="application/json")
                transaction.set_rollback(True)
        except Exception as exc:
            failures.append((body[:120], repr(exc)[:200]))
            continue
        if response.status_code >= 500 or (response.status_code >= 400 and not is_json_error(response)):
            failures.append((body[:120], response.status_code))
        elif body.startswith("[[[[") and response.status_code != 400:
            failures.append((body[:20], response.status_code))
    assert not failures, failures
    assert len(bodies) > len(NOT_OBJECTS) + 1  # the schema gave fields to walk
