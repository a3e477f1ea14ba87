"""The jueces' API (AMM 5.3, 5.3.a, 5.4, 5.4.a, 3.16.b): the incidents' log (staff only), reports
(a player only about their own partida), the ladder's proposal, sanctions given and undone, and the
public list of sanctions (only those that change results, never a reason or a description). Who may
is the services' matrix; bad input a Spanish 400 keyed by field."""

import datetime
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from referees.models import Incident, Sanction
from referees.services.incidents import incident_report
from referees.services.sanctions import sanction_give
from scoring.services import clocks as clock_svc
from tests.factories import TournamentFactory, UserFactory, grant
from tests.referees import client_for, link
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Round, Tournament

pytestmark = pytest.mark.django_db

STEP = Sanction.Step
SECRET = "Le vi hacer una seña al compañero"
REASON = "Reincide pese al aviso del juez"


@dataclass
class Room:
    tournament: Tournament
    round: Round
    matches: list[Match]
    users: dict[str, Any]

    def client(self, role: str) -> APIClient:
        return client_for(self.users.get(role))

    def url(self, path: str) -> str:
        return f"/api/v1/tournaments/{self.tournament.slug}/{path}"


@pytest.fixture
def room() -> Room:
    """A 6-pair tournament, round 1 published with its clocks running, and a user in every role:
    organizer, juez, mesa de control, a player of table 1, a player of table 2, anonymous."""
    sim = new_tournament(6, seed=41, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    clock_svc.clocks_start_round(round=round_, by=sim.juez, at=datetime.datetime.now(datetime.UTC))
    matches = playing(round_)
    users = {
        "organizer": sim.organizer,
        "juez": sim.juez,
        "mesa": grant(UserFactory(username="mesa-sanciones"), sim.tournament, "control"),
        "player": link(UserFactory(username="jugador-mesa-1"), matches[0].pair_a),
        "other_player": link(UserFactory(username="jugador-mesa-2"), matches[1].pair_b),
    }
    return Room(sim.tournament, round_, matches, users)


def report(room: Room, role: str = "juez", **body: Any) -> Any:
    match = room.matches[0]
    data = {"article": "3.20.c", "match": match.pk, "pair": "A", "description": SECRET, **body}
    return room.client(role).post(room.url("incidents/"), data, format="json")


def proposal(room: Room, pair: int, article: str, match: Match | None = None) -> Any:
    params: dict[str, Any] = {"pair": pair, "article": article}
    if match is not None:
        params["match"] = match.pk
    return room.client("juez").get(room.url("sanctions/proposal/"), params)


def sanction(room: Room, role: str = "juez", **body: Any) -> Any:
    return room.client(role).post(room.url("sanctions/"), body, format="json")


# --- incidents ------------------------------------------------------------------------------------


def test_the_juez_reports_and_the_staff_read_the_log_amm_5_3_a(room):
    match = room.matches[0]
    response = report(room, minute=12.5)
    assert response.status_code == 201, response.json()
    incident = response.json()
    assert incident["source"] == "juez" and incident["status"] == "open" and incident["sanctions"] == []
    assert (incident["match"], incident["round"], incident["table"]) == (match.pk, 1, match.table_number)
    assert (incident["pair"], incident["article"], incident["minute"]) == (match.pair_a.number, "3.20.c", 12.5)
    assert incident["reported_by"] == room.users["juez"].username and incident["description"] == SECRET
    assert incident["article_title"] and incident["article_title"] != "3.20.c"
    for role in ("organizer", "juez", "mesa"):
        response = room.client(role).get(room.url("incidents/"))
        assert response.status_code == 200, role
        assert [row["id"] for row in response.json()] == [incident["id"]]
        assert response["Cache-Control"] == "no-store"
    for role, code in (("player", 403), ("other_player", 403)):
        assert room.client(role).get(room.url("incidents/")).status_code == code, role
    assert client_for().get(room.url("incidents/")).status_code in (401, 403)


def test_the_log_filters_by_status_article_round_and_pair(room):
    first, second = room.matches[0], room.matches[1]
    report(room, pair="A")
    report(room, article="6.3", match=second.pk, pair="B")
    staff = room.client("mesa")

    def ids(**params: Any) -> list[str]:
        response = staff.get(room.url("incidents/"), params)
        assert response.status_code == 200, response.json()
        return [row["article"] for row in response.json()]

    assert sorted(ids()) == ["3.20.c", "6.3"]
    assert ids(article="6.3") == ["6.3"]
    assert ids(pair=first.pair_a.number) == ["3.20.c"]
    assert sorted(ids(round=1, status="open")) == ["3.20.c", "6.3"]
    assert ids(round=2) == [] and ids(status="dismissed") == []
    for params, field in (({"round": "x"}, "round"), ({"pair": "10" * 30}, "pair"), ({"status": "zzz"}, "status")):
        response = staff.get(room.url("incidents/"), params)
        assert response.status_code == 400 and field in response.json(), params


def test_a_player_reports_only_about_their_own_partida_amm_5_3(room):
    own, other = room.matches[0], room.matches[1]
    response = report(room, "player", pair="B", player=own.pair_b.ordered_members()[0].player_id)
    assert response.status_code == 201, response.json()
    answer = response.json()
    # What they sent, nothing of other people's: no player's name, no staff fields.
    assert set(answer) == {
        "id",
        "article",
        "article_title",
        "match",
        "round",
        "table",
        "pair",
        "minute",
        "description",
        "status",
        "reported_at",
    }
    assert (answer["pair"], answer["description"]) == (own.pair_b.number, SECRET)
    assert Incident.objects.get(pk=answer["id"]).source == "player"
    # Another table's partida: 403, and nothing written.
    response = report(room, "player", match=other.pk, pair="A")
    assert response.status_code == 403
    # Without a partida a player is told to name theirs.
    response = report(room, "player", match=None, pair=str(own.pair_b.number))
    assert response.status_code == 400 and "match" in response.json()
    # The mesa de control is not a juez: only about a partida it plays.
    assert report(room, "mesa").status_code == 403
    assert Incident.objects.count() == 1


def test_anonymous_cannot_report_nor_sanction(room):
    anonymous = client_for()
    body = {"article": "3.20.c", "match": room.matches[0].pk, "pair": "A", "step": 1}
    for path in ("incidents/", "sanctions/", "incidents/1/dismiss/", "sanctions/1/undo/"):
        response = anonymous.post(room.url(path), body, format="json")
        assert response.status_code in (401, 403), path
        assert "detail" in response.json()
    assert anonymous.get(room.url("sanctions/proposal/"), {"pair": 1, "article": "6.3"}).status_code in (401, 403)
    assert not Incident.objects.exists() and not Sanction.objects.exists()


def test_the_juez_dismisses_an_incident_with_a_resolution(room):
    incident = report(room).json()
    url = room.url(f"incidents/{incident['id']}/dismiss/")
    assert room.client("mesa").post(url, {"resolution": "Nada"}, format="json").status_code == 403
    assert room.client("player").post(url, {"resolution": "Nada"}, format="json").status_code == 403
    response = room.client("juez").post(url, {"resolution": " "}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["resolution"]
    response = room.client("juez").post(url, {"resolution": "No se aprecia seña"}, format="json")
    assert response.status_code == 200, response.json()
    assert (response.json()["status"], response.json()["resolution"]) == ("dismissed", "No se aprecia seña")
    again = room.client("organizer").post(url, {"resolution": "Otra vez"}, format="json")
    assert (again.status_code, again.json()["code"]) == (400, "closed")
    for missing in ("999999", "abc", str(10**30)):
        response = room.client("juez").post(room.url(f"incidents/{missing}/dismiss/"), {"resolution": "x"})
        assert response.status_code == 404, missing


# --- sanctions: who may, who sees what ------------------------------------------------------------


def test_only_the_jueces_and_the_organizer_sanction_amm_5_4(room):
    match = room.matches[0]
    body = {"pair": "A", "match": match.pk, "article": "6.3", "step": 1}
    for role in ("mesa", "player", "other_player"):
        assert sanction(room, role, **body).status_code == 403, role
        response = room.client(role).get(room.url("sanctions/proposal/"), {"pair": "A", "article": "6.3"})
        assert response.status_code == 403, role
    assert not Sanction.objects.exists()
    given = sanction(room, "juez", **body)
    assert given.status_code == 201, given.json()
    url = room.url(f"sanctions/{given.json()['id']}/undo/")
    assert room.client("mesa").post(url, {"reason": "No"}, format="json").status_code == 403
    response = sanction(room, "organizer", pair="B", match=match.pk, article="6.3", step=1)
    assert response.status_code == 201 and response.json()["given_by"] == room.users["organizer"].username


def test_the_public_sees_a_lost_juego_but_not_an_apercibimiento_nor_any_reason_amm_5_4(room):
    match = room.matches[0]
    incident = incident_report(
        tournament=room.tournament, by=room.users["juez"], match=match, pair=match.pair_a, article="6.3"
    )
    Incident.objects.filter(pk=incident.pk).update(description=SECRET)
    juez = room.users["juez"]
    sanction_give(by=juez, pair=match.pair_a, match=match, article="6.3", step=STEP.APERCIBIMIENTO, reason="Aviso")
    sanction_give(
        by=juez, pair=match.pair_a, match=match, incident=incident, article="6.3", step=STEP.JUEGO, reason=REASON
    )
    for role in (None, "player", "other_player"):
        response = client_for(room.users.get(role) if role else None).get(room.url("sanctions/"))
        assert response.status_code == 200, role
        rows = response.json()
        assert [(row["number"], row["step"]) for row in rows] == [(2, STEP.JUEGO)], role
        assert set(rows[0]) == {
            "number",
            "version",
            "status",
            "pair",
            "pair_name",
            "step",
            "step_label",
            "article",
            "article_title",
            "round",
            "table",
            "given_at",
        }
        assert (rows[0]["pair"], rows[0]["round"], rows[0]["table"]) == (match.pair_a.number, 1, match.table_number)
        assert rows[0]["pair_name"] == match.pair_a.display_name and rows[0]["step_label"] == "Pérdida de un juego"
        text = response.content.decode()
        assert REASON not in text and SECRET not in text and "Aviso" not in text
    staff = room.client("mesa").get(room.url("sanctions/")).json()
    assert [(row["number"], row["step"], row["reason"]) for row in staff] == [(1, 1, "Aviso"), (2, 2, REASON)]
    assert staff[1]["incident"] == incident.pk and staff[1]["proposed"] == STEP.JUEGO
    assert staff[1]["given_by"] == juez.username and staff[1]["match"] == match.pk


def test_a_draft_tournament_s_sanctions_are_not_found():
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    juez = grant(UserFactory(), draft, "juez")
    url = f"/api/v1/tournaments/{draft.slug}/sanctions/"
    assert client_for().get(url).status_code == 404
    assert client_for(UserFactory()).get(url).status_code == 404
    assert client_for(juez).get(url).status_code == 200


# --- the ladder, through the API ------------------------------------------------------------------


def test_a_case_through_the_api_report_ladder_juego_and_ruling_amm_5_4_a(room):
    match, elsewhere = room.matches[0], room.matches[1]
    pair_a, pair_b = match.pair_a.number, match.pair_b.number
    # A player of the table reports; the juez reads the ladder's proposal: an apercibimiento.
    reported = report(room, "player", pair="B")
    assert reported.status_code == 201
    offered = proposal(room, pair_b, "3.20.c", match)
    assert offered.status_code == 200, offered.json()
    assert offered.json() | {"counted": [], "elsewhere": []} == {
        "pair": pair_b,
        "match": match.pk,
        "cited": "3.20.c",
        "own": False,
        "article": "5.4",
        "step": 1,
        "step_label": "Apercibimiento",
        "options": [{"step": 1, "label": "Apercibimiento"}],
        "counted": [],
        "elsewhere": [],
        "apart": [],
        "scope": "partida",
    }
    given = sanction(room, incident=reported.json()["id"], step=1)
    assert given.status_code == 201, given.json()
    warned = given.json()
    assert (warned["number"], warned["version"], warned["pair"], warned["article"]) == (1, 1, pair_b, "3.20.c")
    assert (warned["incident"], warned["match"], warned["proposed"]) == (reported.json()["id"], match.pk, 1)
    assert Incident.objects.get(pk=reported.json()["id"]).status == "sanctioned"
    # Again: the loss of a juego, which the other pair wins on the partida's clock.
    offered = proposal(room, pair_b, "5.10", match).json()
    assert (offered["step"], [e["number"] for e in offered["counted"]], offered["elsewhere"]) == (2, [1], [])
    lost = sanction(room, pair="B", match=match.pk, article="5.10", step=2)
    assert lost.status_code == 201, lost.json()
    clock = client_for().get(room.url(f"clocks/{match.pk}/")).json()
    assert clock["score"] == {"A": 1, "B": 0}
    offered = proposal(room, pair_b, "5.10", match).json()
    assert [o["step"] for o in offered["options"]] == [3, 4]
    # Elsewhere: in another partida the ladder starts over, and shows this one to the juez.
    other = proposal(room, pair_b, "5.10", elsewhere)
    assert other.status_code == 400 and "pair" in other.json()  # pair B of table 1 does not play table 2
    sanction_give(by=room.users["juez"], pair=elsewhere.pair_a, match=elsewhere, article="6.3", step=1)
    offered = proposal(room, elsewhere.pair_a.number, "6.3").json()  # no partida: nothing counted
    assert offered["step"] == 1 and offered["counted"] == [] and [e["number"] for e in offered["elsewhere"]] == [3]
    # Pair A, never sanctioned, skips to the loss of the partida: only with a reason (5.4.a).
    skipped = sanction(room, pair="A", match=match.pk, article="5.10", step=3)
    assert skipped.status_code == 400 and list(skipped.json()) == ["reason"]
    assert "5.4.a" in skipped.json()["reason"][0]
    assert Sanction.objects.count() == 3
    ruled = sanction(room, pair=str(pair_a), match=match.pk, article="5.10", step=3, reason="Insulta al juez")
    assert ruled.status_code == 201, ruled.json()
    assert (ruled.json()["step"], ruled.json()["proposed"], ruled.json()["reason"]) == (3, 1, "Insulta al juez")
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.games_a, match.games_b) == ("ruling", match.pair_b_id, 1, 3)
    # Undoing the juego: a reason, then a new version; the first is superseded.
    url = room.url(f"sanctions/{lost.json()['id']}/undo/")
    for empty in ({}, {"reason": ""}, {"reason": None}):
        refused = room.client("juez").post(url, empty, format="json")
        assert refused.status_code == 400 and list(refused.json()) == ["reason"], empty
    undone = room.client("juez").post(url, {"reason": "La seña era de la otra pareja"}, format="json")
    assert undone.status_code == 201, undone.json()
    assert (undone.json()["number"], undone.json()["version"], undone.json()["status"]) == (2, 2, "undone")
    assert Sanction.objects.get(pk=lost.json()["id"]).status == "superseded"
    again = room.client("juez").post(url, {"reason": "Otra vez"}, format="json")
    assert (again.status_code, again.json()["code"]) == (400, "not_in_force")
    numbers = [(row["number"], row["version"]) for row in client_for().get(room.url("sanctions/")).json()]
    assert numbers == [(4, 1)]  # the public: the partida lost; the undone juego and the warnings are not shown


def test_an_article_with_its_own_penalty_proposes_nothing_and_3_16_b_the_expulsion_amm_5_4(room):
    match = room.matches[0]
    own = proposal(room, match.pair_a.number, "3.17", match)
    assert own.status_code == 200 and own.json()["own"] is True
    assert (own.json()["step"], own.json()["options"], own.json()["article"]) == (None, [], "3.17")
    refused = sanction(room, pair="A", match=match.pk, article="3.17", step=3)
    assert refused.status_code == 400 and list(refused.json()) == ["reason"]
    agreed = proposal(room, match.pair_a.number, "3.16.b", match).json()
    assert (agreed["article"], [o["step"] for o in agreed["options"]]) == ("3.16.b", [4])


# --- bad input ------------------------------------------------------------------------------------


def test_bad_input_is_a_spanish_400_keyed_by_field_and_writes_nothing(room):
    match, other_table = room.matches[0], room.matches[1]
    foreign = new_tournament(2, seed=5)
    foreign_round = publish_next_round(foreign)
    foreign_match = playing(foreign_round)[0]
    foreign_incident = incident_report(
        tournament=foreign.tournament, by=foreign.juez, match=foreign_match, article="6.3"
    )
    ok = {"pair": "A", "match": match.pk, "article": "6.3", "step": 1}
    cases = [
        ("incidents/", {"article": "99.9", "match": match.pk}, "article", "no está en el catálogo"),
        ("incidents/", {"article": "", "match": match.pk}, "article", "Indica el artículo"),
        ("incidents/", {"article": "6.3", "match": foreign_match.pk}, "match", "en este torneo"),
        ("incidents/", {"article": "6.3", "match": "x"}, "match", "no es válido"),
        ("incidents/", {"article": "6.3", "match": 10**30}, "match", "no es válido"),
        ("incidents/", {"article": "6.3", "pair": "A"}, "pair", "«A» o «B»"),
        ("incidents/", {"article": "6.3", "pair": "99"}, "pair", "No hay ninguna pareja 99"),
        ("incidents/", {"article": "6.3", "match": match.pk, "pair": "Z"}, "pair", "Indica la pareja"),
        ("incidents/", {"article": "6.3", "match": match.pk, "minute": 601}, "minute", "de 0 a 600"),
        ("incidents/", {"article": "6.3", "match": match.pk, "pair": "A", "player": 10**6}, "player", "pareja"),
        ("incidents/", {"article": "6.3", "description": "x" * 2001}, "description", "demasiado larga"),
        ("sanctions/", {**ok, "article": "99.9"}, "article", "no está en el catálogo"),
        ("sanctions/", {**ok, "step": 9}, "step", "1 apercibimiento"),
        ("sanctions/", {**ok, "step": "juego"}, "step", "1 apercibimiento"),
        ("sanctions/", {**ok, "match": foreign_match.pk}, "match", "en este torneo"),
        ("sanctions/", {**ok, "pair": str(match.pair_a.number), "match": other_table.pk}, "pair", "no juega"),
        ("sanctions/", {**ok, "pair": str(other_table.pair_a.number)}, "pair", "no juega esa partida"),
        ("sanctions/", {**ok, "incident": foreign_incident.pk}, "incident", "no es de este torneo"),
        ("sanctions/", {"article": "6.3", "step": 1}, "pair", "Indica la pareja"),
        ("sanctions/", {**ok, "step": 2, "match": None, "pair": str(match.pair_a.number)}, "match", "Indica"),
        ("sanctions/", {**ok, "reason": ["x"]}, "reason", "texto"),
    ]
    juez = room.client("juez")
    for path, body, field, words in cases:
        response = juez.post(room.url(path), body, format="json")
        assert response.status_code == 400, (body, response.content[:300])
        errors = response.json()
        assert list(errors) == [field], (body, errors)
        assert words in errors[field][0], (body, errors)
    for params, field in (
        ({"pair": "A", "article": "99.9", "match": match.pk}, "article"),
        ({"pair": match.pair_a.number, "article": "6.3", "match": foreign_match.pk}, "match"),
        ({"article": "6.3"}, "pair"),
        ({"pair": "B", "article": "6.3"}, "pair"),
    ):
        response = juez.get(room.url("sanctions/proposal/"), params)
        assert response.status_code == 400 and list(response.json()) == [field], (params, response.json())
    for missing in ("999999", "abc"):
        assert juez.post(room.url(f"sanctions/{missing}/undo/"), {"reason": "x"}).status_code == 404
    assert not Incident.objects.filter(tournament=room.tournament).exists()
    assert not Sanction.objects.exists()


# --- the schema -----------------------------------------------------------------------------------


def test_the_schema_documents_the_incident_and_sanction_endpoints():
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    base = "/api/v1/tournaments/{tournament_slug}"
    expected = {
        f"{base}/incidents/": {"get", "post"},
        f"{base}/incidents/{{id}}/dismiss/": {"post"},
        f"{base}/sanctions/": {"get", "post"},
        f"{base}/sanctions/proposal/": {"get"},
        f"{base}/sanctions/{{id}}/undo/": {"post"},
    }
    for path, methods in expected.items():
        assert path in paths and methods <= set(paths[path]), path
        for method in methods - {"get"}:
            assert "application/json" in paths[path][method]["requestBody"]["content"], path
    assert "5.4.a" in paths[f"{base}/sanctions/"]["post"]["description"]
    assert "5.3" in paths[f"{base}/incidents/"]["post"]["description"]
    components = schema["components"]["schemas"]
    assert set(components["SanctionGiveRequest"]["required"]) == {"step"}
    assert {"options", "counted", "elsewhere", "own", "scope"} <= set(components["Proposal"]["properties"])
    assert "reason" not in components["Sanction"]["properties"]
    assert {"reason", "given_by", "incident", "proposed"} <= set(components["SanctionStaff"]["properties"])
