"""The results API: results per round, entering (version seen or 409), history, confirmation by
another person or the losing pair (AMM 3.16), standings, classification, bracket, the schema."""

import pytest
from rest_framework.test import APIClient

from scoring.models import ResultSubmission
from scoring.services.results import result_submit
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round, world_match
from tests.torneo.simulation import new_tournament
from torneo.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    """A 6-pair knockout with round 1 published and an API client of the mesa de control."""
    sim = new_tournament(6, seed=21, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    client = APIClient()
    client.force_authenticate(grant(UserFactory(username="mesa-api"), sim.tournament, "control"))
    return sim, round_, client, f"/api/v1/tournaments/{sim.tournament.slug}"


def test_results_of_a_round_are_public_with_pairs_and_versions(api):
    sim, round_, _client, base = api
    match = playing(round_)[0]
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=1, tantos=[[40, 1], [12, 40], [40, 3], [40, 0]])
    data = APIClient().get(f"{base}/results/", {"round": 1}).json()
    assert len(data) == 3
    row = next(r for r in data if r["table"] == match.table_number)
    assert row["pair_a"]["number"] == match.pair_a.number and row["pair_a"]["players"] == match.pair_a.members_label
    assert (row["outcome"], row["games_a"], row["games_b"], row["winner"], row["version"]) == (
        "played",
        3,
        1,
        match.pair_a.number,
        1,
    )
    assert (row["tantos_a"], row["tantos_b"]) == (132, 44)
    assert APIClient().get(f"{base}/results/", {"round": 7}).status_code == 404


def test_enter_a_result_by_round_and_table(api):
    _sim, round_, client, base = api
    match = playing(round_)[1]
    body = {"round": 1, "table": match.table_number, "games_a": 1, "games_b": 3, "version": 0}
    response = client.post(f"{base}/results/", body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert (data["version"], data["status"], data["source"], data["winner"], data["submitted_by"]) == (
        1,
        "confirmed",
        "api",
        match.pair_b.number,
        "mesa-api",
    )
    match.refresh_from_db()
    assert match.winner_id == match.pair_b_id


def test_entering_answers_with_the_pages_message_and_the_tables_still_missing(api):
    """One request per acta for the mesa's desk: the 201 also says what the page says and what is left."""
    _sim, round_, client, base = api
    first, second, third = playing(round_)
    body = {"round": 1, "table": first.table_number, "games_a": 3, "games_b": 1, "version": 0}
    data = client.post(f"{base}/results/", body, format="json").json()
    assert data["message"] == f"Mesa {first.table_number}: {first.pair_a} 3–1 {first.pair_b}. Anotado (versión 1)."
    assert data["state"]["round"] == 1 and data["state"]["decided"] == 1
    assert [m["table"] for m in data["state"]["missing"]] == [second.table_number, third.table_number]
    walkover = {"match": second.pk, "outcome": "walkover", "winner": second.pair_b.number, "version": 0}
    data = client.post(f"{base}/results/", walkover, format="json").json()
    assert data["message"] == (
        f"Mesa {second.table_number}: {second.pair_a} 0–3 {second.pair_b} (Incomparecencia). Anotado (versión 1)."
    )


def test_with_the_double_check_the_message_says_who_must_confirm(api):
    sim, round_, client, base = api
    sim.tournament.results_double_check = True
    sim.tournament.save()
    match = playing(round_)[0]
    body = {"round": 1, "table": match.table_number, "games_a": 3, "games_b": 2, "version": 0}
    data = client.post(f"{base}/results/", body, format="json").json()
    assert data["status"] == "proposed" and data["message"].endswith("Pendiente de que otra persona lo confirme.")
    assert [a["table"] for a in data["state"]["awaiting"]] == [match.table_number] and data["state"]["decided"] == 0
    other = APIClient()
    other.force_authenticate(grant(UserFactory(username="otra-mesa"), sim.tournament, "control"))
    data = other.post(f"{base}/results/", {**body, "version": 1}, format="json").json()
    assert data["status"] == "confirmed" and data["message"].endswith("Confirmado (versión 1).")
    assert data["state"]["awaiting"] == [] and data["state"]["decided"] == 1


def test_a_different_second_entry_answers_that_both_actas_disagree_amm_3_16(api):
    """AMM 3.16 with the double check: the desk's answer says the two actas disagree and that none
    counts, instead of «Anotado»."""
    sim, round_, client, base = api
    sim.tournament.results_double_check = True
    sim.tournament.save()
    match = playing(round_)[0]
    body = {"round": 1, "table": match.table_number, "games_a": 3, "games_b": 1, "version": 0}
    assert client.post(f"{base}/results/", body, format="json").status_code == 201
    other = APIClient()
    other.force_authenticate(grant(UserFactory(username="otra-mesa"), sim.tournament, "control"))
    data = other.post(f"{base}/results/", {**body, "games_a": 1, "games_b": 3, "version": 1}, format="json").json()
    assert data["status"] == "disputed"
    assert "no coincide con el acta que ya estaba anotada" in data["message"] and "AMM 3.16" in data["message"]


def test_the_client_declares_where_an_acta_comes_from_control_or_api(api):
    """The mesa's page sends source "control"; without it an acta is from the API; nothing else."""
    _sim, round_, client, base = api
    first, second, third = playing(round_)
    body = {"round": 1, "games_a": 3, "games_b": 1, "version": 0}
    assert (
        client.post(f"{base}/results/", {**body, "table": first.table_number}, format="json").json()["source"] == "api"
    )
    response = client.post(
        f"{base}/results/", {**body, "table": second.table_number, "source": "control"}, format="json"
    )
    assert response.status_code == 201 and response.json()["source"] == "control"
    assert second.submissions.get().source == ResultSubmission.Source.CONTROL
    for source in ("player", "juez", "hands", ""):
        refused = client.post(
            f"{base}/results/", {**body, "table": third.table_number, "source": source}, format="json"
        )
        assert refused.status_code == 400 and "source" in refused.json(), source
    assert not third.submissions.exists()


def test_a_declared_source_changes_nobody_s_permissions(world):
    body = {"round": 1, "table": world_match(world).table_number, "games_a": 3, "games_b": 1, "version": 0}
    for role in ("juez", "player"):
        client = APIClient()
        client.force_authenticate(world.users[role])
        response = client.post(
            f"/api/v1/tournaments/{world.tournament.slug}/results/", {**body, "source": "control"}, format="json"
        )
        assert response.status_code == 403, role
    assert not ResultSubmission.objects.exists()


def test_lookup_a_table_for_the_mesa(api):
    sim, round_, client, base = api
    match = playing(round_)[0]
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
    response = client.get(f"{base}/results/lookup/", {"round": 1, "table": match.table_number})
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    data = response.json()
    assert (data["id"], data["table"], data["round"], data["version"], data["is_bye"]) == (
        match.pk,
        match.table_number,
        1,
        1,
        False,
    )
    assert data["pair_a"]["number"] == match.pair_a.number and data["pair_b"]["name"] == match.pair_b.display_name
    assert data["winner"] == match.pair_a.number and data["latest_by"] == sim.organizer.username
    # Without a round: the last published one.
    assert client.get(f"{base}/results/lookup/", {"table": match.table_number}).json()["id"] == match.pk


LOOKUP_BAD = [
    ({"round": 1}, 400, "Indica el número de mesa"),
    ({"round": 1, "table": ""}, 400, "Indica el número de mesa"),
    ({"round": 1, "table": "tres"}, 400, "El número de mesa no es válido"),
    ({"round": 1, "table": "-1"}, 400, "El número de mesa no es válido"),
    ({"round": 1, "table": "²"}, 400, "El número de mesa no es válido"),
    ({"round": 1, "table": "99"}, 404, "No hay ninguna mesa 99 en la ronda 1."),
    ({"round": 1, "table": "0"}, 404, "No hay ninguna mesa 0 en la ronda 1."),
    ({"round": 1, "table": "9" * 30}, 404, "No hay ninguna mesa"),
    ({"round": 7, "table": "1"}, 404, "No hay ninguna ronda 7 publicada."),
]


@pytest.mark.parametrize(("query", "code", "detail"), LOOKUP_BAD, ids=[str(q) for q, _c, _d in LOOKUP_BAD])
def test_lookup_of_a_missing_or_bad_table_is_a_clear_4xx(api, query, code, detail):
    _sim, _round, client, base = api
    response = client.get(f"{base}/results/lookup/", query)
    assert response.status_code == code
    assert detail in response.json()["detail"]


def test_lookup_is_for_those_who_enter_results(api):
    sim, round_, _client, base = api
    url = f"{base}/results/lookup/?round=1&table={playing(round_)[0].table_number}"
    assert APIClient().get(url).status_code in (401, 403)
    juez = APIClient()
    juez.force_authenticate(sim.juez)
    assert juez.get(url).status_code == 403
    organizer = APIClient()
    organizer.force_authenticate(sim.organizer)
    assert organizer.get(url).status_code == 200


def test_enter_a_special_outcome_by_match_id_naming_the_winner_by_number_amm_6_1_b(api):
    _sim, round_, client, base = api
    match = playing(round_)[2]
    body = {"match": match.pk, "outcome": "walkover", "winner": match.pair_a.number, "version": 0}
    assert client.post(f"{base}/results/", body, format="json").status_code == 201
    match.refresh_from_db()
    assert (match.outcome, match.games_a, match.games_b) == ("walkover", 3, 0)


def test_someone_else_entered_it_first_is_a_409_and_nothing_is_lost(api):
    sim, round_, client, base = api
    match = playing(round_)[0]
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=0, expected_version=0)
    body = {"round": 1, "table": match.table_number, "games_a": 0, "games_b": 3, "version": 0}
    response = client.post(f"{base}/results/", body, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "conflict" and "acaba de recibir otro resultado" in response.json()["detail"]
    assert ResultSubmission.objects.count() == 1
    assert client.post(f"{base}/results/", {**body, "version": 1}, format="json").status_code == 201
    assert ResultSubmission.objects.count() == 2


API_BAD = [
    ({"table": 1, "games_a": 3, "games_b": 1}, "version", "Indica la versión del acta que has visto"),
    ({"games_a": 3, "games_b": 1, "version": 0, "round": 1}, "table", "Indica la ronda y la mesa"),
    ({"round": 1, "table": 99, "games_a": 3, "games_b": 1, "version": 0}, "table", "No hay ninguna mesa 99"),
    ({"match": 999999, "games_a": 3, "games_b": 1, "version": 0}, "match", "no es de este torneo"),
    ({"table": 1, "round": 1, "games_a": 3, "games_b": 3, "version": 0}, "games_a", "3-3 no es un resultado posible"),
    ({"table": 1, "round": 1, "games_a": 12, "games_b": 3, "version": 0}, "games_a", "9"),
    ({"table": 1, "round": 1, "outcome": "empate", "version": 0}, "outcome", "no es una opción válida"),
    ({"table": 1, "round": 1, "outcome": "bye", "version": 0}, "outcome", "Resultado no válido."),
    ({"table": 1, "round": 1, "outcome": "walkover", "winner": 999, "version": 0}, "winner", "no juega en la mesa"),
    ({"table": 1, "round": 1, "games_a": 3, "games_b": 1, "tantos": [[40]], "version": 0}, "tantos", ""),
    ({"table": 1, "round": 1, "games_a": 3, "games_b": 1, "tantos": [[40, 1]], "version": 0}, "tantos", "Hay 1"),
    ({"table": 1, "round": 1, "outcome": "ruling", "winner": None, "version": 0}, "winner", "Indica qué pareja"),
    ({"table": 1, "round": 1, "games_a": 3, "games_b": 1, "version": -1}, "version", ""),
]


@pytest.mark.parametrize(("body", "field", "message"), API_BAD, ids=[f"{b[1]}-{i}" for i, b in enumerate(API_BAD)])
def test_bad_input_is_a_400_keyed_by_field_in_spanish_and_writes_nothing(api, body, field, message):
    _sim, round_, client, base = api
    if body.get("table") == 1:
        body = {**body, "table": playing(round_)[0].table_number}
    response = client.post(f"{base}/results/", body, format="json")
    assert response.status_code == 400, response.json()
    errors = response.json()
    assert field in errors, errors
    assert message in str(errors[field])
    assert not ResultSubmission.objects.exists()


def test_history_lists_every_version_for_the_staff(api):
    sim, round_, client, base = api
    match = playing(round_)[0]
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=0)
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=2, expected_version=1, reason="tantos mal")
    data = client.get(f"{base}/results/{match.pk}/history/").json()
    assert [(s["version"], s["status"], s["reason"]) for s in data] == [
        (2, "confirmed", "tantos mal"),
        (1, "superseded", ""),
    ]
    assert data[0]["submitted_by"] == sim.organizer.username
    assert APIClient().get(f"{base}/results/{match.pk}/history/").status_code == 404


def test_pending_tables_for_the_mesa(api):
    _sim, round_, client, base = api
    first = playing(round_)[0]
    client.post(
        f"{base}/results/",
        {"round": 1, "table": first.table_number, "games_a": 3, "games_b": 0, "version": 0},
        format="json",
    )
    state = client.get(f"{base}/results/pending/").json()
    assert state["round"] == 1 and state["decided"] == 1 and len(state["missing"]) == 2


def test_a_locked_result_changes_for_nobody_and_the_organizer_adds_a_note_amm_3_18(api):
    sim, round_, client, base = api
    for m in playing(round_):
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=1)
    publish_next_round(sim)
    match = playing(round_)[0]
    body = {"round": 1, "table": match.table_number, "games_a": 3, "games_b": 2, "version": 1}
    refused = client.post(f"{base}/results/", body, format="json")
    assert refused.status_code == 403 and "AMM 3.18" in refused.json()["detail"]
    organizer = APIClient()
    organizer.force_authenticate(sim.organizer)
    also = organizer.post(f"{base}/results/", {**body, "reason": "Reclamación"}, format="json")
    assert also.status_code in (400, 409) and "inamovible" in str(also.json())
    assert client.post(f"{base}/results/{match.pk}/note/", {"note": "x"}, format="json").status_code == 403
    empty = organizer.post(f"{base}/results/{match.pk}/note/", {"note": ""}, format="json")
    assert empty.status_code == 400 and "nota" in empty.json()["note"][0]
    noted = organizer.post(f"{base}/results/{match.pk}/note/", {"note": "Reclamación tardía"}, format="json")
    assert noted.status_code == 201 and noted.json()["reason"] == "Reclamación tardía"
    assert noted.json()["status"] == "note"
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.result_version) == (3, 1, 1)


def test_the_losing_pairs_player_sees_and_confirms_the_proposal_amm_3_16(world):
    world.tournament.results_double_check = True
    world.tournament.save()
    match = world_match(world)
    own_is_a = match.pair_a_id == world.own_pair.pk
    sub = result_submit(
        match=match, by=world.users["control"], games_a=0 if own_is_a else 3, games_b=3 if own_is_a else 0
    )
    base = f"/api/v1/tournaments/{world.tournament.slug}"
    player = APIClient()
    player.force_authenticate(world.users["player"])
    listed = player.get(f"{base}/submissions/").json()
    assert [s["id"] for s in listed] == [sub.pk]
    submitter = APIClient()
    submitter.force_authenticate(world.users["control"])
    refused = submitter.post(f"{base}/submissions/{sub.pk}/confirm/")
    assert refused.status_code == 403 and "otra persona" in refused.json()["detail"]
    confirmed = player.post(f"{base}/submissions/{sub.pk}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    again = player.post(f"{base}/submissions/{sub.pk}/confirm/")
    assert again.status_code == 400 and again.json()["code"] == "not_proposed"


def test_a_winner_cannot_confirm_and_may_not_see_the_proposal(world):
    world.tournament.results_double_check = True
    world.tournament.save()
    match = world_match(world)
    own_is_a = match.pair_a_id == world.own_pair.pk
    sub = result_submit(
        match=match, by=world.users["control"], games_a=3 if own_is_a else 0, games_b=0 if own_is_a else 3
    )
    base = f"/api/v1/tournaments/{world.tournament.slug}"
    player = APIClient()
    player.force_authenticate(world.users["player"])
    assert player.get(f"{base}/submissions/").json() == []
    assert player.post(f"{base}/submissions/{sub.pk}/confirm/").status_code == 403
    rejected = APIClient()
    rejected.force_authenticate(world.users["organizer"])
    response = rejected.post(f"{base}/submissions/{sub.pk}/reject/", {"reason": "Acta ilegible"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "rejected"


def test_standings_classification_and_bracket_endpoints():
    sim = new_tournament(8, seed=22, format=Tournament.Format.CEROS, max_losses=1)
    sim.play_all()
    base = f"/api/v1/tournaments/{sim.tournament.slug}"
    client = APIClient()
    standings = client.get(f"{base}/standings/").json()
    assert standings["format"] == "ceros" and standings["pending"] is False
    (table,) = standings["tables"]
    assert table["champion"]["number"] == table["rows"][0]["pair"]["number"]
    assert [r["status"] for r in table["rows"]].count("champion") == 1
    classification = client.get(f"{base}/classification/").json()
    assert classification["final"] and "campeona" in classification["rule"]
    assert [r["position"] for r in classification["sections"][0]["rows"]][:2] == [1, 2]
    bracket = client.get(f"{base}/bracket/").json()
    assert bracket["applies"] and bracket["rounds"] == [1, 2, 3]
    (root,) = bracket["roots"]
    assert len(root["children"]) == 2 and all(len(c["children"]) == 2 for c in root["children"])
    assert bracket["champion"]["number"] == table["champion"]["number"]


def test_a_draft_tournament_is_invisible_to_the_public():
    sim = new_tournament(2, seed=1, status=Tournament.Status.DRAFT)
    base = f"/api/v1/tournaments/{sim.tournament.slug}"
    for path in ("results/", "standings/", "classification/", "bracket/"):
        assert APIClient().get(f"{base}/{path}").status_code == 404


def test_the_schema_documents_the_results_endpoints():
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    for path in (
        "/api/v1/tournaments/{tournament_slug}/results/",
        "/api/v1/tournaments/{tournament_slug}/results/{id}/history/",
        "/api/v1/tournaments/{tournament_slug}/results/pending/",
        "/api/v1/tournaments/{tournament_slug}/results/lookup/",
        "/api/v1/tournaments/{tournament_slug}/submissions/{id}/confirm/",
        "/api/v1/tournaments/{tournament_slug}/submissions/{id}/reject/",
        "/api/v1/tournaments/{tournament_slug}/standings/",
        "/api/v1/tournaments/{tournament_slug}/classification/",
        "/api/v1/tournaments/{tournament_slug}/bracket/",
    ):
        assert path in paths, path
    post = paths["/api/v1/tournaments/{tournament_slug}/results/"]["post"]
    assert {"201", "400", "403", "409"} <= set(post["responses"])
    assert "version" in schema["components"]["schemas"]["ResultSubmitRequest"]["required"]
    source = schema["components"]["schemas"]["ResultSubmitRequest"]["properties"]["source"]
    assert source["default"] == "api" and "No cambia quién puede anotar" in source["description"]
    choices = source.get("$ref") or source["allOf"][0]["$ref"]
    assert schema["components"]["schemas"][choices.rsplit("/", 1)[1]]["enum"] == ["control", "api"]
    created = post["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert {"message", "state", "version", "source"} <= set(schema["components"]["schemas"][created]["properties"])
    lookup = paths["/api/v1/tournaments/{tournament_slug}/results/lookup/"]["get"]
    assert {p["name"] for p in lookup["parameters"]} >= {"round", "table"} and "404" in lookup["responses"]


def test_a_round_number_out_of_any_range_is_not_found_never_a_500(client):
    """The pages' ?ronda= and the API's round share one reader (published_round): a number no
    round has, however large, is a 404, a word a 400 on the API."""
    from tests.factories import TournamentFactory

    t = TournamentFactory()
    for value in ("99999999999999999999999", "-3", "0"):
        response = client.get(f"/api/v1/tournaments/{t.slug}/results/?round={value}")
        assert response.status_code == 404, (value, response.status_code)
    assert client.get(f"/api/v1/tournaments/{t.slug}/results/?round=tres").status_code == 400


def test_the_state_after_an_acta_has_the_counters_the_desk_shows(api, client):
    """The desk refreshes «Mesas sin acta», «N de M con resultado» and «Pendientes de confirmar»
    from the 201's state, without reloading: the same numbers the page shows once reloaded."""
    import re

    sim, round_, api_client, base = api
    sim.tournament.results_double_check = True
    sim.tournament.save()
    first, second, _third = playing(round_)
    other = grant(UserFactory(username="otra-mesa"), sim.tournament, "control")
    result_submit(match=first, by=other, games_a=3, games_b=1, expected_version=0)  # awaiting confirmation
    body = {"round": 1, "table": second.table_number, "games_a": 3, "games_b": 2, "version": 0}
    state = api_client.post(f"{base}/results/", body, format="json").json()["state"]
    counted = (state["total"], state["decided"], len(state["missing"]), len(state["awaiting"]))
    assert counted == (3, 0, 1, 2)
    client.force_login(other)
    page = client.get(f"/torneos/{sim.tournament.slug}/gestion/resultados/").content.decode()

    def shown(element_id: str) -> str:
        found = re.search(rf'id="{element_id}"[^>]*>([^<]*)<', page)
        assert found, element_id
        return found.group(1)

    assert (shown("missing-count"), shown("awaiting-count")) == ("1", "2")
    assert shown("decided-count") == "0 de 3 con resultado"
    assert 'data-template="{d} de {n} con resultado"' in page  # what the script fills in with decided, total
    body = {"round": 1, "table": first.table_number, "games_a": 3, "games_b": 1, "version": 1}
    state = api_client.post(f"{base}/results/", body, format="json").json()["state"]  # the same acta: confirmed
    assert (state["total"], state["decided"], len(state["missing"]), len(state["awaiting"])) == (3, 1, 1, 1)


def _disagreeing_actas(api):
    """Mesa enters 3–1, a second person 1–3 (double check on): two actas in disagreement."""
    sim, round_, client, base = api
    sim.tournament.results_double_check = True
    sim.tournament.save()
    match = playing(round_)[0]
    body = {"round": 1, "table": match.table_number, "games_a": 3, "games_b": 1, "version": 0}
    assert client.post(f"{base}/results/", body, format="json").status_code == 201
    other = APIClient()
    other.force_authenticate(grant(UserFactory(username="otra-mesa"), sim.tournament, "control"))
    second = {**body, "games_a": 1, "games_b": 3, "version": 1}
    assert other.post(f"{base}/results/", second, format="json").json()["status"] == "disputed"
    return match


def test_the_desks_lookup_shows_both_disagreeing_actas_amm_3_16(api):
    _sim, _round, client, base = api
    match = _disagreeing_actas(api)
    data = client.get(f"{base}/results/lookup/", {"table": match.table_number}).json()
    assert [(d["version"], d["games_a"], d["games_b"], d["by"]) for d in data["disagreement"]] == [
        (1, 3, 1, "mesa-api"),
        (2, 1, 3, "otra-mesa"),
    ]
    state = client.get(f"{base}/results/pending/").json()
    assert [a["disagreement"] for a in state["awaiting"]] == [True]


def test_a_juez_resolves_a_disagreement_through_the_api_with_a_reason_amm_3_16(api):
    sim, _round, client, base = api
    match = _disagreeing_actas(api)
    _first, second = match.submissions.order_by("version")
    juez = APIClient()
    juez.force_authenticate(grant(UserFactory(username="juez-api"), sim.tournament, "juez"))
    url = f"{base}/results/{match.pk}/resolve/"
    refused = juez.post(url, {"choice": second.pk}, format="json")
    assert refused.status_code == 400 and "motivo" in refused.json()["reason"][0]
    # The mesa that entered one of the actas does not decide (the decision is a third person's).
    assert client.post(url, {"choice": second.pk, "reason": "Yo"}, format="json").status_code == 403
    done = juez.post(url, {"choice": second.pk, "reason": "Firmado por las dos parejas"}, format="json")
    assert done.status_code == 200, done.json()
    assert done.json()["status"] == "confirmed" and done.json()["games_a"] == 1
    match.refresh_from_db()
    assert (match.games_a, match.games_b) == (1, 3)
    again = juez.post(url, {"choice": second.pk, "reason": "otra vez"}, format="json")
    assert again.status_code in (400, 409) and "ya se ha decidido" in str(again.json())


def test_resolving_with_another_result_or_a_foreign_acta(api):
    sim, round_, _client, base = api
    match = _disagreeing_actas(api)
    other_match = playing(round_)[1]
    foreign = result_submit(match=other_match, by=grant(UserFactory(), sim.tournament, "control"), games_a=3, games_b=0)
    org = APIClient()
    org.force_authenticate(grant(UserFactory(username="org-api"), sim.tournament, "organizer"))
    url = f"{base}/results/{match.pk}/resolve/"
    bad = org.post(url, {"choice": foreign.pk, "reason": "x"}, format="json")
    assert bad.status_code == 400 and "choice" in bad.json()
    done = org.post(url, {"games_a": 3, "games_b": 2, "reason": "Acta original revisada"}, format="json")
    assert done.status_code == 200, done.json()
    match.refresh_from_db()
    assert (match.games_a, match.games_b) == (3, 2)
    assert APIClient().post(url, {"games_a": 3, "games_b": 2, "reason": "x"}, format="json").status_code in (401, 403)
