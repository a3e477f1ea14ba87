"""The results pages: the mesa's fast entry (the plain form, and what its script does through the
API: lookup, pending, results/), conflicts (409), bad input, locking (AMM 3.18), history, the
double check's confirmation (AMM 3.16), and the public results, standings, bracket and
classification pages (live, fixed number of queries)."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.models import ResultSubmission
from scoring.services.results import result_confirm, result_submit
from tests.factories import UserFactory, grant
from tests.scoring import desk_body, playing, publish_next_round, world_match
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Tournament

pytestmark = pytest.mark.django_db


def entry_url(t: Tournament) -> str:
    return f"/torneos/{t.slug}/gestion/resultados/"


@pytest.fixture
def mesa():
    """A 6-pair knockout with round 1 published (3 tables) and a logged-in mesa de control."""
    sim = new_tournament(6, seed=11, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    user = grant(UserFactory(username="mesa"), sim.tournament, "control")
    client = Client()
    client.force_login(user)
    return sim, round_, client, user


def api(t: Tournament) -> str:
    return f"/api/v1/tournaments/{t.slug}/results/"


def desk(user) -> APIClient:
    """The entry page's script: the API with the browser's session (the page's CSRF token aside:
    test_the_desk_script_sends_the_pages_csrf_token checks that)."""
    client = APIClient()
    client.force_login(user)
    return client


def form_errors(html: str) -> dict[str, list[str]]:
    """The error messages shown in each field of a form (by the field's input name)."""
    errors: dict[str, list[str]] = {}
    for field in re.finditer(r'<div class="field[^"]*has-error[^"]*">(.*?)</div>', html, re.S):
        name = re.search(r'name="(\w+)"', field.group(1)).group(1)
        errors[name] = re.findall(r"<li>(.*?)</li>", field.group(1))
    return errors


# --- the fast entry page ----------------------------------------------------------------------------------


def test_typing_the_table_shows_both_pairs_and_the_version_without_javascript(mesa):
    sim, round_, client, _user = mesa
    match = playing(round_)[0]
    html = client.post(entry_url(sim.tournament), {"round": 1, "table": match.table_number}).content.decode()
    assert str(match.pair_a) in html and str(match.pair_b) in html
    assert match.pair_a.ordered_members()[0].player.full_name in html
    assert 'name="version" value="0"' in html and not ResultSubmission.objects.exists()


def test_entering_an_acta_saves_it_and_comes_back_to_the_table_field(mesa):
    sim, round_, client, _user = mesa
    match = playing(round_)[0]
    response = client.post(
        entry_url(sim.tournament), {"round": 1, "table": match.table_number, "games_a": 3, "games_b": 1, "version": 0}
    )
    assert response.status_code == 302 and response["Location"].endswith("?ronda=1")
    html = client.get(response["Location"]).content.decode()
    assert f"Mesa {match.table_number}: {match.pair_a} 3–1 {match.pair_b}. Anotado (versión 1)." in html
    assert re.search(r'name="table"[^>]*autofocus', html)
    missing = re.search(r'id="entry-missing">(.*?)</ul>', html, re.S).group(1)
    assert f'data-table="{match.table_number}"' not in missing and missing.count("data-table=") == 2
    match.refresh_from_db()
    assert (match.outcome, match.games_a, match.games_b, match.winner_id) == ("played", 3, 1, match.pair_a_id)
    assert match.submissions.get().source == ResultSubmission.Source.CONTROL


def test_the_page_gives_its_script_the_api_urls(mesa):
    sim, _round, client, _user = mesa
    html = client.get(entry_url(sim.tournament)).content.decode()
    base = api(sim.tournament)
    assert f'data-lookup="{base}lookup/"' in html and f'data-pending="{base}pending/"' in html
    assert f'data-submit="{base}"' in html
    assert "mesa.json" not in html and "estado.json" not in html


def test_the_desk_script_enters_through_the_api_with_the_message_and_the_tables_left(mesa):
    sim, round_, _client, user = mesa
    match = playing(round_)[1]
    typed = {"round": 1, "table": match.table_number, "games_a": 0, "games_b": 3, "tantos": "10-40 22-40, 35-40"}
    body, errors = desk_body(round_, typed)
    assert not errors and body["tantos"] == [[10, 40], [22, 40], [35, 40]] and body["version"] == 0
    response = desk(user).post(api(sim.tournament), body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["status"] == "confirmed" and data["source"] == ResultSubmission.Source.CONTROL
    assert data["message"] == f"Mesa {match.table_number}: {match.pair_a} 0–3 {match.pair_b}. Anotado (versión 1)."
    assert [m["table"] for m in data["state"]["missing"]] == [m.table_number for m in playing(round_) if m != match]
    match.refresh_from_db()
    assert (match.tantos_a, match.tantos_b) == (67, 120)
    assert match.submissions.get().source == ResultSubmission.Source.CONTROL


def test_the_desk_script_sends_the_pages_csrf_token(mesa):
    """The API takes the browser's session only with the CSRF token the page's form carries
    (X-CSRFToken), as the script sends it."""
    sim, round_, _client, user = mesa
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    html = client.get(entry_url(sim.tournament)).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    typed = {"round": 1, "table": playing(round_)[0].table_number, "games_a": 3, "games_b": 1}
    body, _errors = desk_body(round_, typed)
    refused = client.post(api(sim.tournament), body, format="json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    assert not ResultSubmission.objects.exists()
    response = client.post(api(sim.tournament), body, format="json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 201, response.json()


def test_the_desk_script_looks_up_a_table_pairs_players_result_and_version(mesa):
    sim, round_, _client, user = mesa
    match = playing(round_)[2]
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=2)
    client = desk(user)
    url = f"{api(sim.tournament)}lookup/"
    data = client.get(url, {"round": 1, "table": match.table_number}).json()
    assert data["pair_a"]["number"] == match.pair_a.number
    assert data["pair_a"]["players"] == match.pair_a.members_label
    assert (data["outcome"], data["games_a"], data["games_b"], data["version"], data["locked"]) == (
        "played",
        3,
        2,
        1,
        False,
    )
    missing = client.get(url, {"round": 1, "table": 99})
    assert missing.status_code == 404 and missing.json() == {"detail": "No hay ninguna mesa 99 en la ronda 1."}


def test_someone_else_entered_the_table_since_it_was_loaded_is_a_clear_409(mesa):
    sim, round_, client, user = mesa
    match = playing(round_)[0]
    other = grant(UserFactory(username="mesa-dos"), sim.tournament, "control")
    result_submit(match=match, by=other, games_a=3, games_b=0, expected_version=0)
    post = {"round": 1, "table": match.table_number, "games_a": 1, "games_b": 3, "version": 0}
    response = client.post(entry_url(sim.tournament), post)
    html = response.content.decode()
    assert response.status_code == 409
    assert "acaba de recibir otro resultado (versión 1, de mesa-dos)" in html
    assert 'name="version" value="1"' in html and 'name="games_a" value="1"' in html  # kept, now knowingly
    # The script: the API's 409, then a new lookup shows the other person's result and its version.
    body, _errors = desk_body(round_, post)
    as_json = desk(user).post(api(sim.tournament), body, format="json")
    assert as_json.status_code == 409 and "acaba de recibir otro resultado" in as_json.json()["detail"]
    lookup = desk(user).get(f"{api(sim.tournament)}lookup/", {"round": 1, "table": match.table_number}).json()
    assert (lookup["games_a"], lookup["version"], lookup["latest_by"]) == (3, 1, "mesa-dos")
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.submissions.count()) == (3, 0, 1)
    # Sending it again with the version now seen is a deliberate correction.
    assert client.post(entry_url(sim.tournament), {**post, "version": 1}).status_code == 302
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.result_version) == (1, 3, 2)


def test_a_blank_version_never_overwrites_a_result_unseen(mesa):
    sim, round_, client, _user = mesa
    match = playing(round_)[0]
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=0)
    response = client.post(
        entry_url(sim.tournament), {"round": 1, "table": match.table_number, "games_a": 0, "games_b": 3}
    )
    assert response.status_code == 409


# (typed in the form, field, the form's message, what the script shows: the API's or its own message)
ENTRY_BAD = [
    ({"table": ""}, "table", "Escribe el número de mesa.", "Escribe el número de mesa."),
    (
        {"table": "99", "games_a": "3", "games_b": "1"},
        "table",
        "No hay ninguna mesa 99 en la ronda 1.",
        "No hay ninguna mesa 99 en la ronda 1.",
    ),
    ({"games_a": "3", "games_b": "3"}, "games_a", "3-3 no es un resultado posible", "3-3 no es un resultado posible"),
    ({"games_a": "tres", "games_b": "1"}, "games_a", "Escribe un número entero.", "Escribe un número entero"),
    (
        {"games_a": "3", "games_b": "1", "tantos": "cuarenta"},
        "tantos",
        "Escribe los tantos de cada juego como 40-32",
        "Escribe los tantos de cada juego como 40-32",
    ),
    (
        {"games_a": "3", "games_b": "1", "tantos": "40-10"},
        "tantos",
        "Hay 1 juego con tantos pero la partida tuvo 4",
        "Hay 1 juego con tantos pero la partida tuvo 4",
    ),
    # The script's menu has neither: the API names the same field.
    ({"outcome": "bye", "winner": "a"}, "outcome", "Elige una opción válida.", "Resultado no válido."),
    ({"outcome": "walkover"}, "winner", "Indica qué pareja gana la partida.", "Indica qué pareja gana la partida."),
    ({"outcome": "walkover", "winner": "c"}, "winner", "Elige una opción válida.", "Indica qué pareja gana"),
    ({"outcome": "ruling", "winner": "b"}, "reason", "Escribe la decisión del juez", "Escribe la decisión del juez"),
    (
        {"games_a": "3", "games_b": "1", "reason": "x" * 501},
        "reason",
        "como mucho 500 caracteres",
        "como mucho 500 caracteres",
    ),
]


@pytest.mark.parametrize(
    ("data", "field", "message", "script_message"), ENTRY_BAD, ids=[f"{b[1]}-{i}" for i, b in enumerate(ENTRY_BAD)]
)
def test_bad_input_on_the_entry_form_names_the_field_and_writes_nothing(mesa, data, field, message, script_message):
    sim, round_, client, user = mesa
    post = {"round": 1, "table": playing(round_)[0].table_number, "version": 0, **data}
    response = client.post(entry_url(sim.tournament), post)
    assert response.status_code == 400
    errors = form_errors(response.content.decode())
    assert field in errors and any(message in e for e in errors[field]), errors
    # The script: what it refuses to send shows the form's message; the rest the API's, by field.
    body, shown = desk_body(round_, post)
    if body is not None:
        as_json = desk(user).post(api(sim.tournament), body, format="json")
        assert as_json.status_code == 400, as_json.json()
        shown = as_json.json()
    assert field in shown and any(script_message in e for e in shown[field]), shown
    assert not ResultSubmission.objects.exists()
    assert not Match.objects.filter(round=round_).exclude(outcome__in=["pending", "bye"]).exists()


def test_a_special_outcome_from_the_entry_form_amm_6_1_b(mesa):
    sim, round_, client, _user = mesa
    match = playing(round_)[0]
    post = {"round": 1, "table": match.table_number, "outcome": "walkover", "winner": "b", "version": 0}
    assert client.post(entry_url(sim.tournament), post).status_code == 302
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.games_a, match.games_b) == ("walkover", match.pair_b_id, 0, 3)


def test_a_locked_round_says_so_and_nobody_changes_it_amm_3_18(mesa):
    """AMM 3.18 «el resultado que conste será inamovible»: not the mesa, not the organizer."""
    sim, round_, client, _user = mesa
    for m in playing(round_):
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=1)
    publish_next_round(sim)
    match = playing(round_)[0]
    html = client.get(entry_url(sim.tournament), {"ronda": 1}).content.decode()
    assert "sus resultados son inamovibles (AMM 3.18)" in html
    post = {"round": 1, "table": match.table_number, "games_a": 3, "games_b": 2, "version": 1}
    refused = client.post(entry_url(sim.tournament), post)
    assert refused.status_code == 403 and "inamovible" in refused.content.decode()
    organizer = Client()
    organizer.force_login(sim.organizer)
    page = organizer.get(entry_url(sim.tournament), {"ronda": 1}).content.decode()
    assert "también para la organización" in page and "añadir una nota" in page
    also_refused = organizer.post(entry_url(sim.tournament), {**post, "reason": "Reclamación (juez Ana)"})
    assert also_refused.status_code in (400, 409) and "inamovible" in also_refused.content.decode()
    assert match.submissions.count() == 1
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.result_version) == (3, 1, 1)


def test_no_round_published_yet(world):
    client = Client()
    client.force_login(world.users["control"])
    html = client.get(entry_url(world.tournament)).content.decode()
    assert "Todavía no hay ninguna ronda publicada." in html


# --- history and corrections -------------------------------------------------------------------------------


def test_the_history_shows_every_version_with_who_when_status_and_reason(mesa):
    sim, round_, client, user = mesa
    match = playing(round_)[0]
    result_submit(match=match, by=user, games_a=3, games_b=1, expected_version=0)
    url = f"/torneos/{sim.tournament.slug}/gestion/resultados/partida/{match.pk}/"
    response = client.post(url, {"games_a": 2, "games_b": 3, "outcome": "played", "version": 1, "reason": "acta mal"})
    assert response.status_code == 302
    html = client.get(url).content.decode()
    rows = re.findall(r'<tr class="sub-(\w+)"><td>(\d)</td>', html)
    assert rows == [("confirmed", "2"), ("superseded", "1")]
    assert "<td>acta mal</td>" in html
    assert html.count("<td>mesa<br>") == 4  # who entered and who confirmed each version (no double check: the same)
    assert "Guardar la corrección" in html


def test_history_of_a_locked_round_offers_the_organizer_a_note_only_amm_3_18(mesa):
    sim, round_, client, _user = mesa
    for m in playing(round_):
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=1)
    publish_next_round(sim)
    match = playing(round_)[0]
    url = f"/torneos/{sim.tournament.slug}/gestion/resultados/partida/{match.pk}/"
    html = client.get(url).content.decode()
    assert "Solo la organización puede añadir una nota al historial." in html and "Guardar la corrección" not in html
    assert client.post(url, {"action": "note", "note": "La mesa no puede"}).status_code == 403
    organizer = Client()
    organizer.force_login(sim.organizer)
    page = organizer.get(url).content.decode()
    assert "Añadir una nota" in page and "Guardar la corrección" not in page
    assert organizer.post(url, {"action": "note", "note": "  "}).status_code == 400
    done = organizer.post(url, {"action": "note", "note": "Reclaman un 3-2 después del sorteo"})
    assert done.status_code == 302
    html = organizer.get(url).content.decode()
    assert "Reclaman un 3-2 después del sorteo" in html and re.search(r'<tr class="sub-note"><td>2</td>', html)
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.result_version) == (3, 1, 1)


# --- the double check: confirmation by another person or the losing pair ------------------------------------


def test_a_player_of_the_losing_pair_confirms_from_the_phone_amm_3_16(world):
    world.tournament.results_double_check = True
    world.tournament.save()
    match = world_match(world)
    own_is_a = match.pair_a_id == world.own_pair.pk
    sub = result_submit(
        match=match, by=world.users["control"], games_a=1 if own_is_a else 3, games_b=3 if own_is_a else 1
    )
    player = Client()
    player.force_login(world.users["player"])
    url = f"/torneos/{world.tournament.slug}/resultados/acta/{sub.pk}/confirmar/"
    html = player.get(url).content.decode()
    assert "Confirmar el resultado" in html and "firmas el acta como pareja perdedora (AMM 3.16)" in html
    response = player.post(url)
    assert response.status_code == 302
    assert "Resultado confirmado" in player.get(response["Location"]).content.decode()
    match.refresh_from_db()
    assert match.winner_id == world.other_pair.pk


def test_the_submitter_is_told_someone_else_must_confirm(world):
    world.tournament.results_double_check = True
    world.tournament.save()
    sub = result_submit(match=world_match(world), by=world.users["control"], games_a=3, games_b=0)
    control = Client()
    control.force_login(world.users["control"])
    url = f"/torneos/{world.tournament.slug}/resultados/acta/{sub.pk}/confirmar/"
    assert "debe confirmarlo otra persona" in control.get(url).content.decode()
    assert control.post(url).status_code == 403


def test_the_queue_lists_proposals_and_another_person_confirms_them(world):
    world.tournament.results_double_check = True
    world.tournament.save()
    match = world_match(world)
    sub = result_submit(match=match, by=world.users["control"], games_a=3, games_b=2)
    organizer = Client()
    organizer.force_login(world.users["organizer"])
    queue = f"/torneos/{world.tournament.slug}/gestion/resultados/confirmar/"
    html = organizer.get(queue).content.decode()
    assert f"resultados/acta/{sub.pk}/confirmar/" in html and "3–2" in html
    url = f"/torneos/{world.tournament.slug}/resultados/acta/{sub.pk}/confirmar/"
    assert organizer.post(url, {"next": queue})["Location"] == queue
    assert "No hay resultados pendientes de confirmar." in organizer.get(queue).content.decode()


def test_the_queue_and_the_history_show_a_disagreement_side_by_side_in_red_amm_3_16(world):
    """AMM 3.16 with the double check: a second, different entry by another person is held as a
    disagreement; the desk sees both versions together, in red, and the organizer or a juez decides."""
    world.tournament.results_double_check = True
    world.tournament.save()
    match = world_match(world)
    first = result_submit(match=match, by=world.users["control"], games_a=3, games_b=1)
    other = grant(UserFactory(username="otra-mesa"), world.tournament, "control")
    typing = Client()
    typing.force_login(other)
    post = {"round": 1, "table": match.table_number, "games_a": 1, "games_b": 3, "version": 1}
    landed = typing.post(entry_url(world.tournament), post, follow=True).content.decode()
    assert "no coincide con el acta que ya estaba anotada. Quedan las dos en desacuerdo" in landed
    second = match.submissions.get(version=2)
    assert second.status == ResultSubmission.Status.DISPUTED
    slug = world.tournament.slug
    queue = f"/torneos/{slug}/gestion/resultados/confirmar/"

    def card(role: str) -> str:
        client = Client()
        client.force_login(world.users[role])
        html = client.get(queue).content.decode()
        return re.search(r'<li class="card sc-disagreement"[^>]*>(.*?)</li>', html, re.S).group(1)

    shown = card("control")
    assert 'class="msg error"' in shown and 'class="table sc-versions danger"' in shown
    assert shown.index("Versión 1") < shown.index("Versión 2") and "3–1" in shown and "1–3" in shown
    assert "confirmar/" not in shown and 'name="choice"' not in shown  # nobody confirms one side
    assert "Solo la organización o un juez" in shown
    for role in ("organizer", "juez"):
        shown = card(role)
        assert f'name="choice" value="{first.pk}"' in shown and f'name="choice" value="{second.pk}"' in shown
    history = f"/torneos/{slug}/gestion/resultados/partida/{match.pk}/"
    mesa = Client()
    mesa.force_login(world.users["control"])
    html = mesa.get(history).content.decode()
    assert 'id="desacuerdo"' in html and html.count('<tr class="sub-disputed danger">') == 2
    assert "Guardar la corrección" not in html and "Guardar la decisión" not in html
    juez = Client()
    juez.force_login(world.users["juez"])
    assert "Guardar la decisión" in juez.get(history).content.decode()
    no_reason = juez.post(history, {"action": "resolve", "choice": first.pk, "reason": ""})
    assert no_reason.status_code == 400
    assert form_errors(no_reason.content.decode())["reason"] == [
        "Escribe el motivo de la decisión: queda en el historial del acta."
    ]
    done = juez.post(history, {"action": "resolve", "choice": first.pk, "reason": "El acta firmada", "next": queue})
    assert done["Location"] == queue
    assert "No hay resultados pendientes de confirmar." in juez.get(queue).content.decode()
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.result_version) == (3, 1, 3)
    rows = re.findall(r'<tr class="sub-(\w+)"><td>(\d)</td>', mesa.get(history).content.decode())
    assert rows == [("confirmed", "3"), ("rejected", "2"), ("superseded", "1")]


def test_own_entries_offer_no_confirm_link_on_the_queue_or_the_history(world):
    world.tournament.results_double_check = True
    world.tournament.save()
    match = world_match(world)
    sub = result_submit(match=match, by=world.users["control"], games_a=3, games_b=2)
    slug = world.tournament.slug
    confirm = f"resultados/acta/{sub.pk}/confirmar/"
    pages = (
        f"/torneos/{slug}/gestion/resultados/confirmar/",
        f"/torneos/{slug}/gestion/resultados/partida/{match.pk}/",
    )
    own, other = Client(), Client()
    own.force_login(world.users["control"])
    other.force_login(world.users["organizer"])
    for page in pages:
        assert confirm not in own.get(page).content.decode()
        assert confirm in other.get(page).content.decode()
    assert "Lo anotaste tú: confirma otra persona" in own.get(pages[0]).content.decode()


def test_rejecting_from_the_phone_keeps_the_reason(world):
    world.tournament.results_double_check = True
    world.tournament.save()
    match = world_match(world)
    own_is_a = match.pair_a_id == world.own_pair.pk
    sub = result_submit(
        match=match, by=world.users["control"], games_a=0 if own_is_a else 3, games_b=3 if own_is_a else 0
    )
    player = Client()
    player.force_login(world.users["player"])
    player.post(f"/torneos/{world.tournament.slug}/resultados/acta/{sub.pk}/rechazar/", {"reason": "Fue 3-2"})
    sub.refresh_from_db()
    assert (sub.status, sub.reason) == ("rejected", "Fue 3-2")


def test_entry_page_lists_tables_awaiting_confirmation(world):
    world.tournament.results_double_check = True
    world.tournament.save()
    match = world_match(world)
    result_submit(match=match, by=world.users["control"], games_a=3, games_b=2)
    organizer = Client()
    organizer.force_login(world.users["organizer"])
    html = organizer.get(entry_url(world.tournament), {"ronda": 1}).content.decode()
    awaiting = re.search(r'id="entry-awaiting">(.*?)</ul>', html, re.S).group(1)
    assert f"Mesa {match.table_number}:" in awaiting and "control" in awaiting
    # And what the script refreshes the lists with (every few seconds and after each acta).
    state = desk(world.users["organizer"]).get(f"{api(world.tournament)}pending/", {"round": 1}).json()
    assert state["missing"] == [] and [a["table"] for a in state["awaiting"]] == [match.table_number]
    assert state["awaiting"][0]["by"] == "control"


# --- public pages -------------------------------------------------------------------------------------------


def test_public_results_page_by_round_with_exentas_and_special_outcomes(mesa):
    sim, round_, _client, _user = mesa
    first, second, _third = playing(round_)
    result_submit(match=first, by=sim.organizer, games_a=3, games_b=1)
    result_submit(match=second, by=sim.organizer, outcome="walkover", winner=second.pair_a)
    html = Client().get(f"/torneos/{sim.tournament.slug}/resultados/").content.decode()
    assert "2 de 3 mesas con resultado." in html and "Incomparecencia" in html
    assert f'data-live="/torneos/{sim.tournament.slug}/live.json"' in html
    assert 'class="sc-match pending"' in html  # the third table
    assert "historial" not in html  # staff only


def test_standings_page_is_live_and_updates_with_each_result(mesa):
    sim, round_, _client, _user = mesa
    url = f"/torneos/{sim.tournament.slug}/clasificacion/"
    before = Client().get(url).content.decode()
    assert 'data-live-version="' in before and "6 parejas siguen en juego." in before
    match = playing(round_)[0]
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=0)
    after = Client().get(url).content.decode()
    assert "5 parejas siguen en juego." in after
    assert re.search(rf'id="pareja-{match.pair_b.number}" class="out"', after)


def test_standings_page_queries_do_not_grow_with_the_pairs():
    counts = []
    for pairs in (6, 30):
        sim = new_tournament(pairs, seed=pairs, format=Tournament.Format.SWISS, swiss_rounds=3)
        sim.play_all()
        client = Client()
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/torneos/{sim.tournament.slug}/clasificacion/").status_code == 200
        counts.append(len(captured))
        with CaptureQueriesContext(connection) as cached:
            client.get(f"/torneos/{sim.tournament.slug}/clasificacion/")
        # The tournament and its signature (its public state, kept a second in production: no query
        # then, tests/torneo/test_pagecache.py): the whole page comes from the cache.
        assert len(cached) == 2
    # A page's first rendering: the public state's two queries, then the view's.
    assert counts[0] == counts[1] <= 10


def test_bracket_page_draws_the_bracket_as_a_tree():
    sim = new_tournament(8, seed=12, format=Tournament.Format.CEROS, max_losses=1)
    sim.play_all()
    html = Client().get(f"/torneos/{sim.tournament.slug}/cuadro/").content.decode()
    assert "Campeona:" in html and html.count('class="bk-tree"') == 1
    assert html.count('class="bk-match') == 7 and html.count('class="bk-children"') == 3
    assert 'data-live="' in html


def test_bracket_page_for_a_format_without_one():
    sim = new_tournament(4, seed=1, format=Tournament.Format.SWISS, swiss_rounds=2)
    html = Client().get(f"/torneos/{sim.tournament.slug}/cuadro/").content.decode()
    assert "Este formato no tiene cuadro" in html


def test_classification_page_states_the_rule_and_shows_shared_places():
    sim = new_tournament(4, seed=3, format=Tournament.Format.CEROS, max_losses=1, tiebreaks="wins")
    first = publish_next_round(sim)
    for m in playing(first):
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=0)
    (final,) = playing(publish_next_round(sim))
    result_submit(match=final, by=sim.organizer, games_a=3, games_b=2)
    html = Client().get(f"/torneos/{sim.tournament.slug}/clasificacion/final/").content.decode()
    assert "Clasificación definitiva para los premios." in html
    assert html.count('<span class="sc-pos">3.º–4.º</span>') == 2 and "Primero la campeona" in html


def test_without_the_script_the_desk_shows_a_disagreement_in_red_and_no_confirmar_amm_3_16(mesa):
    """The plain page (no JavaScript): two actas that disagree are both on the table's card with the
    way to the decision; in the list they lead to the history, and the desk's own entry offers no
    «confirmar»."""
    sim, round_, client, user = mesa
    sim.tournament.results_double_check = True
    sim.tournament.save()
    first, second, _ = playing(round_)
    other = grant(UserFactory(username="otra"), sim.tournament, "control")
    result_submit(match=first, by=other, games_a=3, games_b=1, expected_version=0)
    result_submit(match=first, by=user, games_a=1, games_b=3, expected_version=1)
    result_submit(match=second, by=user, games_a=3, games_b=0, expected_version=0)
    html = client.post(entry_url(sim.tournament), {"round": 1, "table": first.table_number}).content.decode()
    card = html.split('id="entry-match"')[1].split('class="entry-games"')[0]
    assert "sc-disagreement" in card and "Versión 1: 3–1" in card and "Versión 2: 1–3" in card
    assert f"/{first.pk}/#desacuerdo" in card
    lists = html.split('id="entry-awaiting"')[1].split("</ul>")[0]
    assert "ver las dos actas" in lists and "la has anotado tú" in lists
    assert ">confirmar<" not in lists


def test_the_desk_says_one_true_thing_when_every_table_has_an_acta_but_some_wait_for_confirmation(mesa):
    """Issue 34: «Mesas sin acta 0 · 1 de 3 con resultado · Todas las mesas tienen acta» said two
    things at once. With the double check, an acta waits for its second signature (AMM 3.16)."""
    sim, round_, client, user = mesa
    Tournament.objects.filter(pk=sim.tournament.pk).update(results_double_check=True)
    actas = [result_submit(match=m, by=user, games_a=3, games_b=1, expected_version=0) for m in playing(round_)]
    result_confirm(submission=actas[0], by=grant(UserFactory(username="mesa-2"), sim.tournament, "control"))
    html = " ".join(client.get(entry_url(sim.tournament)).content.decode().split())
    assert "1 de 3 con resultado" in html
    listed = re.search(r'<ul class="entry-missing" id="entry-missing">(.*?)</ul>', html)[1]
    assert re.sub(r"<[^>]+>", "", listed).strip() == "Todas las mesas tienen acta: 2 por confirmar (abajo)."


def test_ya_tiene_resultado_names_the_version_that_counts_not_a_later_one_awaiting_confirmation(mesa):
    """Issue 34: «Ya tiene resultado: 3–1 (versión 2…)» named the latest acta, a correction still
    awaiting its confirmation, not the one the result comes from."""
    from scoring.selectors.results import match_lookup

    sim, round_, client, user = mesa
    Tournament.objects.filter(pk=sim.tournament.pk).update(results_double_check=True)
    match = playing(round_)[0]
    other = grant(UserFactory(username="mesa-2"), sim.tournament, "control")
    first = result_submit(match=match, by=user, games_a=3, games_b=1, expected_version=0)
    counted = result_confirm(submission=first, by=other)
    match.refresh_from_db()
    later = result_submit(match=match, by=other, games_a=3, games_b=2, expected_version=counted.version)
    assert later.status == ResultSubmission.Status.PROPOSED and later.version > counted.version
    match.refresh_from_db()
    lookup = match_lookup(match)
    assert (lookup["games_a"], lookup["games_b"]) == (3, 1)
    assert lookup["standing_version"] == counted.version and lookup["standing_by"] == counted.submitted_by.username
    assert lookup["version"] == later.version  # what the desk sends back stays the latest
    looked_up = client.post(entry_url(sim.tournament), {"round": 1, "table": match.table_number})
    html = " ".join(looked_up.content.decode().split())
    assert f"Ya tiene resultado: Jugada 3–1 (versión {counted.version}, mesa)" in html
