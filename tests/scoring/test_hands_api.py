"""The API of recorded hands and of the players' view: the engine's JSON record in, findings (code,
article and the article as people read it) and running tantos out; 400 keyed by field with Spanish
messages, nothing written; the same permissions as the pages; documented in the OpenAPI schema."""

import pytest
from rest_framework.test import APIClient

from scoring.models import RecordedHand, ResultSubmission
from scoring.services.hands import hand_record
from tests.factories import UserFactory
from tests.scoring.test_hands_services import S1, S2, S3, rec, table

pytestmark = pytest.mark.django_db


def api(t, *parts: object) -> str:
    base = f"/api/v1/tournaments/{t.tournament.slug}/matches/{t.match.pk}/hands/"
    return base + "".join(f"{p}/" for p in parts)


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_record_a_hand_and_get_its_findings_and_the_running_tantos():
    t = table()
    response = client_for(t.player_a).post(api(t), {"mano": "a", "record": rec()}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["hand"]["number"] == 1 and body["hand"]["game"] == 1 and body["hand"]["mano"] == "a"
    assert body["hand"]["mano_pair"] == t.match.pair_a.number
    assert body["hand"]["counted"] and body["hand"]["score_after"] == {"a": 1, "b": 5}
    assert body["hand"]["record"]["hands"] == S1 and body["hand"]["findings"] == []
    assert body["game"]["tantos"] == {"a": 1, "b": 5} and body["game"]["winner"] is None
    assert body["result"] is None
    # A false declaration (AMM 4.1a): stored, with the finding by seat and lance, not counted.
    declarations = [{"pares": True}, {"pares": True}, {"pares": False}, {"pares": False}]
    response = client_for(t.juez).post(api(t), {"record": rec(declarations=declarations)}, format="json")
    assert response.status_code == 201
    hand = response.json()["hand"]
    assert hand["mano"] == "b" and not hand["valid"] and not hand["counted"] and hand["score_after"] is None
    finding = hand["findings"][0]
    assert (finding["code"], finding["article"], finding["seat"], finding["lance"]) == (
        "declaracion_falsa",
        "AMM 4.1a",
        2,
        "pares",
    )
    assert response.json()["game"]["stopped_at"] == 2


def test_3_14_claimed_tanteo_stands_in_the_api_with_an_aviso_carrying_both_counts():
    """AMM 3.14: «Una vez apuntados los tantos y metidas las cartas en baraja, no podrá hacerse
    ninguna reclamación de tanteo.» A hand whose written tantos differ from the engine's count is
    saved and counts at the table's tantos; the aviso carries both counts and the article."""
    t = table()
    record = rec(claimed={"score": {"A": 2, "B": 5}})  # S1 en paso: the engine counts A 1 – B 5
    response = client_for(t.player_a).post(api(t), {"mano": "a", "record": record}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    hand = body["hand"]
    assert hand["valid"] and hand["counted"] and hand["score_after"] == {"a": 2, "b": 5}
    [aviso] = hand["findings"]
    assert (aviso["code"], aviso["severity"], aviso["article"]) == ("tanteo_de_la_mesa", "aviso", "AMM 3.14")
    assert aviso["table"] == {"A": 2, "B": 5} and aviso["engine"] == {"A": 1, "B": 5}
    assert "Mesa: A 2 – B 5 tras la mano. Motor: A 1 – B 5 tras la mano." in aviso["message"]
    assert body["game"]["tantos"] == {"a": 2, "b": 5} and body["game"]["stopped_at"] is None
    # The count goes on from the table's tantos: the next hand's score before is pair_b 5 – pair_a 2.
    response = client_for(t.player_b).post(api(t), {"record": rec()}, format="json")
    second = response.json()["hand"]
    assert second["record"]["score"] == {"A": 5, "B": 2} and second["counted"] and second["sequence_findings"] == []
    listed = client_for().get(api(t)).json()["games"][0]
    assert listed["tantos"] == {"a": 7, "b": 6}
    assert listed["hands"][0]["findings"][0]["table"] == {"A": 2, "B": 5}


def test_findings_keep_code_and_article_and_add_the_article_as_the_pages_show_it():
    """The API is for programs: «code» and «article» as the engine writes them; «article_label» as
    people read it (the pages show only that and the message)."""
    t = table()
    hand_record(match=t.match, by=t.juez, record=rec(), mano="a")  # pair_a 1, pair_b 5
    # Hand 2, pair_b mano: only A holds pares (seed 000), and it starts at 9 – 9, not at 5 – 1 (AMM 1.5).
    record = rec(S3, score={"A": 9, "B": 9}, lances={"pares": ["A:envido", "B:quiero"]})
    response = client_for(t.juez).post(api(t), {"record": record}, format="json")
    assert response.status_code == 201, response.json()
    hand = response.json()["hand"]
    [finding] = hand["findings"]
    assert (finding["code"], finding["article"], finding["article_label"], finding["lance"], finding["pair"]) == (
        "envite_sin_contrario",
        "seed 000 (anuncio de las jugadas)",
        "Reglas generales del mus (anuncio de las jugadas)",
        "pares",
        "A",
    )
    [sequence] = hand["sequence_findings"]
    assert (sequence["code"], sequence["article"], sequence["article_label"]) == (
        "marcador_previo_incorrecto",
        "AMM 1.5",
        "Reglamento AMM, art. 1.5",
    )
    listed = client_for().get(api(t)).json()["games"][0]["hands"]
    assert [f["article_label"] for h in listed for f in h["findings"] + h["sequence_findings"]] == [
        "Reglas generales del mus (anuncio de las jugadas)",
        "Reglamento AMM, art. 1.5",
    ]
    retrieved = client_for().get(api(t, hand["id"])).json()
    assert retrieved["findings"][0]["article_label"] == "Reglas generales del mus (anuncio de las jugadas)"


def test_the_list_is_public_with_every_juego_and_current_hand():
    t = table()
    hand_record(match=t.match, by=t.juez, record=rec(), mano="a")
    hand_record(match=t.match, by=t.juez, record=rec(S2))
    body = client_for().get(api(t)).json()
    assert body["pair_a"]["number"] == t.match.pair_a.number and body["juegos"] == {"a": 0, "b": 0}
    [game] = body["games"]
    assert [h["number"] for h in game["hands"]] == [1, 2]
    # Hand 2 (pair_b mano, A 5 – B 1) S2 en paso: A +7, B +1: pair_b 12, pair_a 2.
    assert game["tantos"] == {"a": 2, "b": 12}


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        (
            {"mano": "a", "record": {"hands": ["12o 12o 1e 5b", *S1[1:]]}},
            "record.hands[0]",
            "Asiento 0 (mano): la carta 12o está repetida (en su misma mano).",
        ),
        (
            {"mano": "a", "record": {"hands": S1, "lances": {"grande": ["A:envido", "C:quiero"]}}},
            "record.lances.grande[1]",
            None,
        ),
        (
            {"mano": "a", "record": {"hands": S1, "lances": {"grande": ["A:envido", "B:quiero", "A:envido 2"]}}},
            "record.lances.grande[2]",
            "En grande, «A:envido 2» llega después de «B:quiero», que ya cerró el lance.",
        ),
        (
            {
                "mano": "a",
                "record": {"hands": [], "lances": {"punto": ["A:envido"]}, "claimed": {"score": {"A": 1, "B": 0}}},
            },
            "record.lances.punto",
            "En punto, el envite de la pareja A se quedó sin respuesta.",
        ),
        ({"mano": "a", "record": {"hands": S1, "tantos": 3}}, "record.tantos", None),
        ({"record": {"hands": S1}}, "mano", "Indica qué pareja es mano en la primera mano del juego."),
        ({"mano": "c", "record": {"hands": S1}}, "mano", None),
        ({"mano": "a"}, "record", None),
    ],
    ids=[
        "repeated_card",
        "bet",
        "lance_cerrado",
        "envite_sin_respuesta",
        "unknown_key",
        "no_mano",
        "bad_mano",
        "no_record",
    ],
)
def test_bad_input_is_a_400_keyed_by_field_in_spanish_and_nothing_is_written(payload, field, message):
    t = table()
    response = client_for(t.juez).post(api(t), payload, format="json")
    assert response.status_code == 400
    errors = response.json()
    assert field in errors, errors
    if message:
        assert errors[field] == [message]
    assert not RecordedHand.objects.exists()


def test_retrieve_any_version_edit_as_a_new_version_and_delete():
    t = table()
    first = hand_record(match=t.match, by=t.juez, record=rec(), mano="a").hand
    client = client_for(t.control)
    edited = client.put(api(t, first.pk), {"record": rec(S2), "expected_version": 1}, format="json")
    assert edited.status_code == 200
    new = edited.json()["hand"]
    assert new["version"] == 2 and new["id"] != first.pk and new["score_after"] == {"a": 7, "b": 1}
    old = client_for().get(api(t, first.pk)).json()
    assert old["is_current"] is False and old["record"]["hands"] == S1  # the exact old record
    stale = client.put(api(t, first.pk), {"record": rec()}, format="json")
    assert stale.status_code == 409 and "versión más reciente" in stale.json()["detail"]
    deleted = client.delete(api(t, new["id"]))
    assert deleted.status_code == 200 and deleted.json()["hand"]["deleted"] is True
    assert deleted.json()["game"]["tantos"] == {"a": 0, "b": 0}


def test_the_match_result_follows_and_is_reported_in_the_response():
    t = table(games_to_win=1)
    response = client_for(t.juez).post(
        api(t), {"mano": "a", "record": rec(lances={"pares": ["B:ordago", "A:quiero"]})}, format="json"
    )
    body = response.json()
    assert body["game"]["winner"] == "b" and body["game"]["won_by_ordago"] is True
    assert body["result"]["level"] == "success"
    submission = ResultSubmission.objects.get(pk=body["result"]["submission"])
    assert submission.source == "hands" and (submission.games_a, submission.games_b) == (0, 1)


def test_writes_need_the_player_role_for_that_match_or_hands_record():
    t = table()
    other = table()
    assert client_for().post(api(t), {"mano": "a", "record": rec()}, format="json").status_code in (401, 403)
    assert client_for(UserFactory()).post(api(t), {"mano": "a", "record": rec()}, format="json").status_code == 403
    assert client_for(other.player_a).post(api(t), {"mano": "a", "record": rec()}, format="json").status_code == 403
    judged = hand_record(match=t.match, by=t.juez, record=rec(), mano="a").hand
    response = client_for(t.player_a).put(api(t, judged.pk), {"record": rec(S2)}, format="json")
    assert response.status_code == 403
    assert client_for(t.player_b).delete(api(t, judged.pk)).status_code == 403
    assert not RecordedHand.objects.filter(version=2).exists()


def test_players_api_find_yourself_and_the_pair_overview():
    t = table()
    pair = t.match.pair_a
    name = pair.ordered_members()[0].player
    found = client_for().get(f"/api/v1/tournaments/{t.tournament.slug}/players/", {"q": name.last_name.upper()}).json()
    assert [p["number"] for p in found] == [pair.number]
    assert found[0]["players"][0]["last_name"] == name.last_name
    overview = client_for().get(f"/api/v1/tournaments/{t.tournament.slug}/pairs/{pair.number}/overview/").json()
    current = overview["current"]
    assert current["round"] == 1 and current["state"] == "playing" and current["max_minutes"] == 60
    assert current["match"]["table"] == 4 and current["match"]["opponent"]["number"] == t.match.pair_b.number
    assert overview["losses"] == 0 and overview["out"] is False and overview["matches"] == []
    missing = client_for().get(f"/api/v1/tournaments/{t.tournament.slug}/pairs/999/overview/")
    assert missing.status_code == 404


def test_the_endpoints_are_in_the_openapi_schema():
    schema = client_for().get("/api/v1/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    hands = "/api/v1/tournaments/{tournament_slug}/matches/{match_id}/hands/"
    assert set(paths[hands]) >= {"get", "post"}
    assert set(paths[hands + "{hand_id}/"]) >= {"get", "put", "delete"}
    assert "get" in paths["/api/v1/tournaments/{tournament_slug}/players/"]
    assert "get" in paths["/api/v1/tournaments/{tournament_slug}/pairs/{number}/overview/"]
    assert paths[hands]["post"]["operationId"] == "match_hands_create"
