"""The API of the juez's rulings on recorded hands (AMM chapter IV): the engine's ruling previewed
without writing, confirmed (the hand then counts at its tantos), withdrawn; bad facts a 400 keyed by
field in Spanish with nothing written; only the organizer and the jueces rule; a hand changed
meanwhile, or a ruling no longer in force, a 409; the list public, with who ruled by name (never
an e-mail); documented in the OpenAPI schema."""

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import HandRuling, RecordedGame, RecordedHand
from scoring.services.hands import hand_edit, hand_record
from scoring.services.hands.rulings import hand_ruling_confirm
from tests.factories import UserFactory, grant
from tests.scoring.test_hands_services import Table, table

pytestmark = pytest.mark.django_db

# Hand-checked (tests/mus/data/chapter4_cases.jsonl, R01): asiento 1 declares «pares sí» without
# pares (AMM 4.1a). En paso A 3 – B 1; ruled A 4 – B 1 (4.2.b, 4.2.c, 4.2.d annulled, 4.2.e in punto).
D1 = ["12o 12c 5e 4b", "11o 7c 6e 4c", "10o 7o 5c 1e", "1o 4e 6c 7e"]
LIE = [
    {"pares": True, "juego": False},
    {"pares": True, "juego": False},
    {"pares": False, "juego": False},
    {"pares": False, "juego": False},
]
TRUE = [{**d, "pares": i == 0} for i, d in enumerate(LIE)]
ARTICLES = ["4.1a", "4.2.b", "4.2.c", "4.2.d", "4.2.e"]
RECTIFIED = {"rectifications": [{"seat": 1, "lance": "pares", "when": "antes"}]}


def lie(t: Table, **extra: Any) -> RecordedHand:
    """The false «pares sí», recorded by the juez with pair_a mano (so hand frame = match frame)."""
    record = {"hands": D1, "declarations": LIE, "lances": {"pares": ["B:envido 2", "A:quiero"]}, **extra}
    return hand_record(match=t.match, by=t.juez, record=record, mano="a").hand


def url(t: Table, hand: RecordedHand, *parts: object) -> str:
    base = f"/api/v1/tournaments/{t.tournament.slug}/matches/{t.match.pk}/hands/{hand.pk}/rulings/"
    return base + "".join(f"{p}/" for p in parts)


def client_for(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def counted(hand: RecordedHand) -> bool:
    return RecordedHand.objects.get(pk=hand.pk).counted


def test_the_urls_have_their_names():
    t = table()
    hand = lie(t)
    args = [t.tournament.slug, t.match.pk, hand.pk]
    assert reverse("api_hand_rulings", args=args) == url(t, hand)
    assert reverse("api_hand_ruling_preview", args=args) == url(t, hand, "preview")
    assert reverse("api_hand_ruling_withdraw", args=[*args, 7]) == url(t, hand, 7, "withdraw")


def test_the_preview_is_the_engines_ruling_and_writes_nothing_amm_4_2():
    t = table()
    hand = lie(t)
    assert not hand.counted
    response = client_for(t.juez).post(url(t, hand, "preview"), {}, format="json")
    assert response.status_code == 200, response.json()
    answer = response.json()
    assert answer["score"] == {"A": 4, "B": 1} and answer["articles"] == ARTICLES
    assert answer["game_winner"] is None
    [error] = answer["errors"]
    assert (error["seat"], error["lance"], error["article"], error["kind"]) == (1, "pares", "4.1a", "declaracion")
    assert any(line.startswith("4.2.c") for line in answer["explanation"])
    assert not HandRuling.objects.exists() and not counted(hand)


def test_the_api_confirms_a_ruling_and_the_hand_counts_amm_4_2():
    t = table()
    hand = lie(t)
    response = client_for(t.juez).post(url(t, hand), {"facts": {}, "expected_version": 1}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    ruling = HandRuling.objects.get()
    assert body["id"] == ruling.pk and body["is_current"] is True and body["withdrawn_at"] is None
    assert body["articles"] == ARTICLES and body["score"] == {"a": 4, "b": 1}
    assert body["winner"] is None and body["won_by_ordago"] is False and body["facts"] == {}
    assert body["ruling"]["score"] == {"A": 4, "B": 1} and body["ruling"]["articles"] == ARTICLES
    assert body["ruled_by"] == "juez del torneo" and body["ruled_at"]  # a juez without a name: never the username
    assert ruling.ruled_by == t.juez
    hand.refresh_from_db()
    assert hand.counted and (hand.score_a, hand.score_b) == (4, 1)
    game = RecordedGame.objects.get(pk=hand.game_id)
    assert (game.tantos_a, game.tantos_b, game.stopped_at) == (4, 1, None)


def test_a_rectification_before_pares_changes_the_ruling_amm_4_4_b():
    """AMM 4.3 / 4.4.b: asiento 1 rectified before the lance of pares; with no envite in pares the
    hand is A 3 – B 1, as en paso."""
    t = table()
    hand = lie(t, lances={})
    preview = client_for(t.juez).post(url(t, hand, "preview"), RECTIFIED, format="json")
    assert preview.status_code == 200, preview.json()
    assert preview.json()["score"] == {"A": 3, "B": 1} and preview.json()["articles"] == ["4.1a", "4.3", "4.4.b"]
    assert not HandRuling.objects.exists()
    response = client_for(t.juez).post(url(t, hand), {"facts": RECTIFIED}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["score"] == {"a": 3, "b": 1} and body["articles"] == ["4.1a", "4.3", "4.4.b"]
    assert body["facts"] == RECTIFIED and body["ruling"]["errors"][0]["rectified"]["when"] == "antes"
    hand.refresh_from_db()
    assert hand.counted and (hand.score_a, hand.score_b) == (3, 1)


@pytest.mark.parametrize("where", ["preview", "confirm"])
def test_a_rectification_for_a_player_without_error_is_a_400_in_spanish_amm_4_3(where):
    t = table()
    hand = lie(t)
    facts = {"rectifications": [{"seat": 3, "lance": "pares", "when": "antes"}]}
    if where == "preview":
        response = client_for(t.juez).post(url(t, hand, "preview"), facts, format="json")
    else:
        response = client_for(t.juez).post(url(t, hand), {"facts": facts}, format="json")
    assert response.status_code == 400
    [message] = response.json()["facts"]
    assert message.startswith("Rectificación del asiento 3") and "ningún error anterior que rectificar" in message
    assert not HandRuling.objects.exists() and not counted(hand)


@pytest.mark.parametrize(
    ("where", "facts", "field", "message"),
    [
        (
            "preview",
            {"rectifications": [{"seat": 9, "lance": "pares", "when": "antes"}]},
            "rectifications[0].seat",
            "Asiento 9: los asientos van de 0 (mano) a 3 (postre).",
        ),
        (
            "confirm",
            {"rectifications": [{"seat": 9, "lance": "pares", "when": "antes"}]},
            "facts.rectifications[0].seat",
            "Asiento 9: los asientos van de 0 (mano) a 3 (postre).",
        ),
        (
            "confirm",
            {"rectifications": [{"seat": 1, "lance": "pares", "when": "luego"}]},
            "facts.rectifications[0].when",
            "Se esperaba «antes», «durante» o «despues».",
        ),
        ("preview", ["rectifications"], "facts", "Los hechos del juez deben ser un objeto JSON."),
        ("confirm", "rectifications", "facts", "Los hechos del juez deben ser un objeto JSON."),
        ("confirm", None, "facts", None),
        ("preview", {"rectification": []}, "rectification", None),
        ("confirm", {"rectification": []}, "facts.rectification", None),
    ],
    ids=[
        "seat_preview",
        "seat_confirm",
        "when",
        "not_an_object_preview",
        "not_an_object_confirm",
        "no_facts",
        "unknown_fact_preview",
        "unknown_fact_confirm",
    ],
)
def test_bad_facts_are_a_400_keyed_by_field_in_spanish_and_nothing_is_written(where, facts, field, message):
    t = table()
    hand = lie(t)
    if where == "preview":
        response = client_for(t.juez).post(url(t, hand, "preview"), facts, format="json")
    else:
        body = {} if facts is None else {"facts": facts}
        response = client_for(t.juez).post(url(t, hand), body, format="json")
    assert response.status_code == 400
    errors = response.json()
    assert field in errors, errors
    if message:
        assert errors[field] == [message]
    if "rectification" in field and "rectifications" not in field:
        assert errors[field][0].startswith("El motor no conoce este hecho. Los hechos posibles son: declined_by_error")
    assert not HandRuling.objects.exists() and not counted(hand)


def test_a_hand_without_cards_cannot_be_ruled():
    t = table()
    hand = hand_record(
        match=t.match, by=t.juez, record={"hands": [], "claimed": {"score": {"A": 3, "B": 1}}}, mano="a"
    ).hand
    response = client_for(t.juez).post(url(t, hand, "preview"), {}, format="json")
    assert response.status_code == 400 and "sin cartas" in response.json()["hand"][0]


def test_only_the_organizer_and_the_jueces_rule_amm_4_2():
    t = table()
    hand = lie(t)
    ruling = hand_ruling_confirm(hand=hand, by=t.juez, facts={}).ruling
    for user in (t.player_a, t.player_b, t.control, UserFactory()):
        client = client_for(user)
        for response in (
            client.post(url(t, hand, "preview"), {}, format="json"),
            client.post(url(t, hand), {"facts": {}}, format="json"),
            client.post(url(t, hand, ruling.pk, "withdraw"), format="json"),
        ):
            assert response.status_code == 403, (user, response.json())
    anonymous = client_for()
    assert anonymous.post(url(t, hand, "preview"), {}, format="json").status_code in (401, 403)
    assert anonymous.post(url(t, hand), {"facts": {}}, format="json").status_code in (401, 403)
    assert anonymous.post(url(t, hand, ruling.pk, "withdraw"), format="json").status_code in (401, 403)
    assert HandRuling.objects.get().pk == ruling.pk and HandRuling.objects.get().is_current
    # The organizer rules too: a new ruling replaces the juez's.
    response = client_for(t.organizer).post(url(t, hand), {"facts": {}}, format="json")
    assert response.status_code == 201
    ruling.refresh_from_db()
    assert not ruling.is_current and HandRuling.objects.count() == 2


def test_a_stale_expected_version_or_an_old_version_is_a_409_amm_4_2():
    t = table()
    hand = lie(t)
    new = hand_edit(hand=hand, by=t.juez, record={"hands": D1, "declarations": LIE}).hand
    assert new.version == 2
    stale = client_for(t.juez).post(url(t, new), {"facts": {}, "expected_version": 1}, format="json")
    assert stale.status_code == 409 and "versión 2" in stale.json()["detail"]
    old = client_for(t.juez).post(url(t, hand), {"facts": {}}, format="json")
    assert old.status_code == 409 and "versión más reciente" in old.json()["detail"]
    assert not HandRuling.objects.exists()
    fresh = client_for(t.juez).post(url(t, new), {"facts": {}, "expected_version": 2}, format="json")
    assert fresh.status_code == 201 and fresh.json()["score"] == {"a": 4, "b": 1}


def test_withdrawing_a_ruling_stops_the_count_and_twice_is_a_409_amm_4_2():
    t = table()
    hand = lie(t)
    ruling = hand_ruling_confirm(hand=hand, by=t.juez, facts={}).ruling
    assert counted(hand)
    response = client_for(t.juez).post(url(t, hand, ruling.pk, "withdraw"), format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["id"] == ruling.pk and body["is_current"] is False and body["withdrawn_at"]
    assert body["articles"] == ARTICLES
    assert not counted(hand)
    assert RecordedGame.objects.get(pk=hand.game_id).stopped_at == 1
    again = client_for(t.juez).post(url(t, hand, ruling.pk, "withdraw"), format="json")
    assert again.status_code == 409 and again.json()["detail"] == "Ese fallo ya no está en vigor."
    # A ruling of another hand is not found under this one.
    other = hand_record(match=t.match, by=t.juez, record={"hands": D1, "declarations": TRUE}).hand
    assert client_for(t.juez).post(url(t, other, ruling.pk, "withdraw"), format="json").status_code == 404


def test_the_list_is_public_current_first_with_the_name_of_who_ruled_and_no_email():
    t = table()
    hand = lie(t)
    t.juez.first_name, t.juez.last_name = "Lucía", "Arrieta"
    t.juez.save()
    by_mail = grant(UserFactory(username="arbitro@example.com", email="arbitro@example.com"), t.tournament, "juez")
    first = hand_ruling_confirm(hand=hand, by=t.juez, facts={}).ruling
    second = hand_ruling_confirm(hand=hand, by=t.organizer, facts=RECTIFIED).ruling
    response = client_for().get(url(t, hand))
    assert response.status_code == 200
    listed = response.json()
    assert [r["id"] for r in listed] == [second.pk, first.pk]
    assert [r["is_current"] for r in listed] == [True, False]
    assert listed[0]["ruled_by"] == "juez del torneo" and listed[1]["ruled_by"] == "Lucía Arrieta"
    assert listed[1]["articles"] == ARTICLES and listed[1]["score"] == {"a": 4, "b": 1}
    assert listed[0]["facts"] == RECTIFIED and listed[0]["ruling"]["articles"] == ["4.1a", "4.3", "4.4.b"]
    assert set(listed[0]) == {
        "id",
        "is_current",
        "articles",
        "score",
        "winner",
        "won_by_ordago",
        "facts",
        "ruling",
        "ruled_by",
        "ruled_at",
        "withdrawn_at",
    }
    assert "@" not in response.content.decode()
    # A username that is an e-mail address shows only what comes before the «@».
    hand_ruling_confirm(hand=hand, by=by_mail, facts={})
    response = client_for().get(url(t, hand))
    assert response.json()[0]["ruled_by"] == "juez del torneo" and "arbitro" not in response.content.decode()
    # A hand of another match is not found here.
    other = table()
    assert client_for().get(url(other, hand)).status_code == 404


def test_the_ruling_endpoints_are_in_the_openapi_schema():
    schema = client_for().get("/api/v1/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    rulings = "/api/v1/tournaments/{tournament_slug}/matches/{match_id}/hands/{hand_id}/rulings/"
    assert set(paths[rulings]) >= {"get", "post"}
    assert paths[rulings]["post"]["operationId"] == "hand_rulings_create"
    assert paths[rulings + "preview/"]["post"]["operationId"] == "hand_ruling_preview"
    # drf-spectacular shows the route's «pk» as «id».
    assert paths[rulings + "{id}/withdraw/"]["post"]["operationId"] == "hand_ruling_withdraw"
    components = schema["components"]["schemas"]
    assert "rectifications" in components["Facts"]["properties"]
    assert "ruled_by" in components["HandRuling"]["properties"]
