"""The rounds pages: the public draw by table and by surname, its verification box (AMM 5.5), the
projector and the wall sheets, and the mesa de control's pages (prepare, publish before a juez,
cancel, redraw) with every bad input answered in Spanish and nothing half-written."""

import json
import re
import subprocess
from datetime import datetime
from html import unescape
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.core.cache import cache
from django.test import Client

from scoring.services.results import result_submit
from tests.factories import UserFactory, grant, make_pair, player_data
from tests.torneo.simulation import Simulation, new_tournament
from torneo.draws.__main__ import run as run_draw_command
from torneo.models import Draw, Match, Pair, Round, Tournament
from torneo.services.registrations import pair_check_in, pair_update, pair_withdraw
from torneo.services.rounds import draw_publish, live_draw, round_prepare, round_publish

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


# --- helpers (also used by the API, matrix and browser tests) --------------------------------------


def publish_next(sim: Simulation, public_value: str = "4 2 6") -> Round:
    """Prepare and publish the next round through the services (drawn or fixed)."""
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    if round_.kind == Round.Kind.DRAW:
        draw_publish(draw=live_draw(round_), public_value=public_value, witness=sim.juez, by=sim.organizer)
    else:
        round_publish(round=round_, by=sim.organizer)
    round_.refresh_from_db()
    return round_


def finish_round(sim: Simulation, round_: Round) -> None:
    for match in round_.matches.filter(outcome=Match.Outcome.PENDING).select_related("round__tournament"):
        sim.enter_result(match)


def staff_client(sim: Simulation) -> Client:
    client = Client()
    client.force_login(sim.organizer)
    return client


def url(sim: Simulation, path: str) -> str:
    return f"/torneos/{sim.tournament.slug}/{path}"


def text_of(response) -> str:  # type: ignore[no-untyped-def]
    """The page's visible text, tags removed and spaces collapsed."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def pool_inputs(response) -> list[dict]:  # type: ignore[no-untyped-def]
    """The draw's command inputs as the page shows them (the JSON blocks of the verification box)."""
    blocks = re.findall(r'<pre class="json" id="entrada-[^"]+">(.*?)</pre>', response.content.decode(), flags=re.S)
    return [json.loads(unescape(b)) for b in blocks]


def command_output(data: dict) -> dict:
    """Run the published input through the command's own code (`python -m torneo.draws`)."""
    out, status = run_draw_command(json.dumps(data))
    assert status == 0, out
    return out


# --- the public round page -------------------------------------------------------------------------


def test_the_draw_by_table_lists_every_table_and_the_exenta_amm_5_6():
    sim = new_tournament(9, seed=3)
    round_ = publish_next(sim)
    response = Client().get(url(sim, "rondas/1/"))
    assert response.status_code == 200
    text = text_of(response)
    for match in round_.matches.exclude(pair_b=None).select_related("pair_a", "pair_b"):
        row = re.search(rf'id="mesa-{match.table_number}">(.*?)</li>', response.content.decode(), flags=re.S)
        assert row, match.table_number
        row_text = " ".join(unescape(re.sub(r"<[^>]+>", " ", row.group(1))).split())
        assert f"{match.pair_a.number} {match.pair_a.display_name}" in row_text
        assert f"{match.pair_b.number} {match.pair_b.display_name}" in row_text
    bye = round_.matches.get(pair_b=None)
    assert f"Exenta {bye.pair_a.number} {bye.pair_a.display_name}" in text
    assert "pasa la ronda sin jugar (AMM 5.6)" in text
    assert 'data-live="/torneos/' in response.content.decode()


def test_players_find_themselves_by_surname_in_spanish_alphabetical_order():
    sim = new_tournament(0)
    surnames = [
        "Zubiri Mas",
        "Ocaña Ruiz",
        "Álvarez Gil",
        "Ñañez Sol",
        "Nuñez Paz",
        "Muñoz Rey",
        "Ortiz Luz",
        "Abril Sanz",
    ]
    pairs = []
    for i in range(4):
        pair = make_pair(
            sim.tournament,
            players=[player_data(i, last_name=surnames[2 * i]), player_data(50 + i, last_name=surnames[2 * i + 1])],
        )
        pair_check_in(pair=pair)
        pairs.append(pair)
    round_ = publish_next(sim)
    response = Client().get(url(sim, "rondas/1/"))
    rows = re.findall(
        r'<li class="who"><span class="name"><strong>([^<]+)</strong>(.*?)</li>', response.content.decode()
    )
    names = [unescape(name) for name, _ in rows]
    order = ["Abril", "Álvarez", "Muñoz", "Nuñez", "Ñañez", "Ocaña", "Ortiz", "Zubiri"]
    assert [n.split()[0] for n in names] == order  # accents ignored, ñ after n
    # Each player: their table and the opposing pair.
    for name, body in rows:
        player_text = " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())
        surname = unescape(name).split(" ")[0]
        pair = next(p for p in pairs if any(m.player.last_name.startswith(surname) for m in p.ordered_members()))
        match = round_.matches.get(pk__in=round_.matches.filter(pair_a=pair) | round_.matches.filter(pair_b=pair))
        opponent = match.pair_b if match.pair_a_id == pair.pk else match.pair_a
        assert f"Mesa {match.table_number}" in player_text
        assert f"contra {opponent.number} · {opponent.display_name}" in player_text
    assert re.findall(r'id="letra-([^"]+)"', response.content.decode()) == ["A", "M", "N", "Ñ", "O", "Z"]


def test_the_commitment_and_the_pairs_to_draw_are_public_from_preparation_but_never_the_secret_amm_5_5():
    sim = new_tournament(7, seed=2, checked_in=6)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    draw = live_draw(round_)
    response = Client().get(url(sim, "rondas/1/"))
    page = response.content.decode()
    assert draw.commitment in page and draw.secret not in page
    assert "Parejas que entran en el sorteo" in page and "6 parejas" in text_of(response)
    absent = Pair.objects.get(tournament=sim.tournament, checked_in_at__isnull=True)
    assert f"{absent.display_name}" not in page  # not checked in: not drawn in round 1
    # Nor through the download, the projector or the wall sheet.
    assert Client().get(url(sim, "rondas/1/sorteo.json")).status_code == 404
    for path in ("rondas/1/proyector/", "rondas/1/cartel/"):
        assert draw.secret not in Client().get(url(sim, path)).content.decode()


def test_after_the_draw_the_page_gives_everything_to_recompute_it_with_the_command_amm_5_5():
    sim = new_tournament(11, seed=5)
    round_ = publish_next(sim, public_value="dados: 3 5 1")
    draw = live_draw(round_)
    response = Client().get(url(sim, "rondas/1/"))
    text = text_of(response)
    for value in (draw.commitment, draw.secret, draw.seed, "«dados: 3 5 1»", "juez del torneo"):
        assert value in text
    assert sim.juez.get_username() not in text  # the juez by name, never a login (torneo/ratelimit.py)
    assert "python -m torneo.draws < sorteo-ronda-1.json" in text
    [data] = pool_inputs(response)
    assert data["secret"] == draw.secret and data["commitment"] == draw.commitment
    out = command_output(data)
    assert out["verified"] is True and out["seed"] == draw.seed
    tables = {frozenset((m.pair_a.number, m.pair_b.number)) for m in round_.matches.exclude(pair_b=None)}
    assert {frozenset(m) for m in out["matches"]} == tables
    assert out["bye"] == round_.matches.get(pair_b=None).pair_a.number
    download = Client().get(url(sim, "rondas/1/sorteo.json"))
    assert download["Content-Disposition"] == 'attachment; filename="sorteo-ronda-1.json"'
    assert json.loads(download.content) == data


def test_a_changed_published_draw_fails_the_check_amm_5_5():
    sim = new_tournament(8, seed=5)
    publish_next(sim)
    [data] = pool_inputs(Client().get(url(sim, "rondas/1/")))
    a, b = data["expect"]["matches"][0][0], data["expect"]["matches"][1][0]
    data["expect"]["matches"][0][0], data["expect"]["matches"][1][0] = b, a
    out, status = run_draw_command(json.dumps(data))
    assert status == 3 and out["verified"] is False


def test_results_appear_read_only_as_they_arrive_and_the_cached_page_follows():
    sim = new_tournament(8, seed=7)
    round_ = publish_next(sim)
    client = Client()
    assert "3–1" not in text_of(client.get(url(sim, "rondas/1/")))
    match = round_.matches.exclude(pair_b=None).order_by("table_number").first()
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
    response = client.get(url(sim, "rondas/1/"))
    row = re.search(rf'id="mesa-{match.table_number}">(.*?)</li>', response.content.decode(), flags=re.S).group(1)
    assert "3–1" in row and 'class="side winner"' in row
    assert "<form" not in re.search(r'id="mesas"(.*?)</section>', response.content.decode(), flags=re.S).group(1)


def test_a_renamed_pair_shows_at_once_on_the_cached_page():
    sim = new_tournament(6, seed=1)
    publish_next(sim)
    client = Client()
    client.get(url(sim, "rondas/1/"))
    pair = Pair.objects.get(tournament=sim.tournament, number=2)
    pair_update(pair=pair, players=[player_data(900), player_data(901)], name="Los del Txoko")
    assert "Los del Txoko" in text_of(client.get(url(sim, "rondas/1/")))


def test_results_are_final_once_the_next_draw_is_published_amm_3_18():
    sim = new_tournament(8, seed=2, format=Tournament.Format.CEROS, max_losses=2)
    first = publish_next(sim)
    finish_round(sim, first)
    assert "Resultados definitivos" not in text_of(Client().get(url(sim, "rondas/1/")))
    publish_next(sim)
    text = text_of(Client().get(url(sim, "rondas/1/")))
    assert "Resultados definitivos: ya se ha publicado el sorteo de la ronda siguiente (AMM 3.18)." in text


def test_rounds_list_and_navigation():
    sim = new_tournament(8, seed=2, format=Tournament.Format.CEROS, max_losses=2)
    first = publish_next(sim)
    finish_round(sim, first)
    round_prepare(tournament=sim.tournament, by=sim.organizer)
    text = text_of(Client().get(url(sim, "rondas/")))
    assert "Ronda 2" in text and "Compromiso publicado: el sorteo se hará en público ante un juez (AMM 5.5)." in text
    assert "4 mesas" in text
    assert "Ronda 2 →" in text_of(Client().get(url(sim, "rondas/1/")))
    assert Client().get(url(sim, "rondas/7/")).status_code == 404


def test_projector_and_wall_sheets_show_the_draw_without_the_site_chrome():
    sim = new_tournament(9, seed=4)
    round_ = publish_next(sim)
    match = round_.matches.exclude(pair_b=None).select_related("pair_a").first()
    projector = Client().get(url(sim, "rondas/1/proyector/"))
    page = projector.content.decode()
    assert 'class="projector"' in page and "data-autoscroll" in page and 'class="topbar"' not in page
    assert match.pair_a.display_name in page and "Por apellido" in page
    wall = Client().get(url(sim, "rondas/1/cartel/"))
    text = text_of(wall)
    assert 'class="wall"' in wall.content.decode() and "css/rounds.css" in wall.content.decode()
    assert "por apellido" in text and "por mesa" in text and "exenta (AMM 5.6)" in text
    assert live_draw(round_).commitment in text


def test_draft_tournaments_hide_their_rounds():
    sim = new_tournament(4, seed=1)
    publish_next(sim)
    Tournament.objects.filter(pk=sim.tournament.pk).update(status=Tournament.Status.DRAFT)
    for path in ("rondas/", "rondas/1/", "rondas/1/proyector/", "rondas/1/cartel/", "rondas/1/sorteo.json"):
        assert Client().get(url(sim, path)).status_code == 404, path
    assert staff_client(sim).get(url(sim, "rondas/1/")).status_code == 200


# --- groups and repesca on the public page ---------------------------------------------------------


def test_liguillas_are_labelled_and_their_allocation_is_verifiable_amm_5_5(tmp_path):
    sim = new_tournament(14, seed=6, format=Tournament.Format.LIGUILLAS, group_count=3, group_qualifiers=2)
    publish_next(sim)
    response = Client().get(url(sim, "rondas/1/"))
    text = text_of(response)
    assert "Liguilla 1" in text and "Liguilla 3" in text
    [data] = pool_inputs(response)
    assert data["group_count"] == 3 and len(data["expect"]) == 3
    # Run the page's own command line, as anyone would, with the downloaded file.
    (tmp_path / "liguillas-ronda-1.json").write_bytes(Client().get(url(sim, "rondas/1/sorteo.json")).content)
    command = re.search(r'<pre class="cmd"[^>]*>(.*?)</pre>', response.content.decode(), flags=re.S).group(1)
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    command = unescape(command).replace("python ", f"{ROOT / '.venv/bin/python'} ", 1)
    out = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, env=env, check=False)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["verified"] is True


def test_a_liguilla_round_is_published_from_its_schedule_and_says_it_is_not_drawn():
    sim = new_tournament(12, seed=6, format=Tournament.Format.LIGUILLAS, group_count=3)
    finish_round(sim, publish_next(sim))
    client = staff_client(sim)
    assert client.post(url(sim, "gestion/rondas/preparar/"), {}).status_code == 302
    manage = client.get(url(sim, "gestion/rondas/2/"))
    assert "Partidas que se publicarán" in text_of(manage) and "Sortear y publicar" not in text_of(manage)
    assert client.post(url(sim, "gestion/rondas/2/publicar/")).status_code == 302
    round_ = Round.objects.get(tournament=sim.tournament, number=2)
    assert round_.is_published and round_.matches.count() == 6
    text = text_of(Client().get(url(sim, "rondas/2/")))
    assert "Esta ronda no se sortea" in text and "Liguilla 2" in text


def test_repesca_pools_are_labelled_and_each_pool_verifies_amm_5_5():
    sim = new_tournament(
        16, seed=5, format=Tournament.Format.REPESCA, repesca_until_round=2, max_losses=1, pool_b_max_losses=2
    )
    finish_round(sim, publish_next(sim))
    publish_next(sim)
    response = Client().get(url(sim, "rondas/2/"))
    text = text_of(response)
    assert "Grupo A" in text and "Grupo B (repesca)" in text
    inputs = pool_inputs(response)
    assert len(inputs) == 2
    draw = live_draw(Round.objects.get(tournament=sim.tournament, number=2))
    for data, label in zip(inputs, ("A", "B"), strict=True):
        assert data["seed"] == f"{draw.seed}/{label}"
        assert command_output(data)["verified"] is True
    download = Client().get(url(sim, "rondas/2/sorteo.json") + "?grupo=1")
    assert download["Content-Disposition"].endswith('sorteo-ronda-2-grupo-B.json"')


# --- the mesa de control's pages -------------------------------------------------------------------


def test_prepare_then_publish_before_the_juez_through_the_staff_pages_amm_5_5():
    sim = new_tournament(10, seed=9)
    client = staff_client(sim)
    page = text_of(client.get(url(sim, "gestion/rondas/")))
    assert "Siguiente: preparar la ronda 1" in page and "10 parejas presentes" in page
    response = client.post(url(sim, "gestion/rondas/preparar/"), {"session": ""})
    assert response.status_code == 302 and response["Location"].endswith("/gestion/rondas/1/")
    draw = live_draw(Round.objects.get(tournament=sim.tournament, number=1))
    manage = client.get(response["Location"])
    assert draw.commitment in manage.content.decode() and draw.secret not in manage.content.decode()
    assert "Parejas que entran en el sorteo" in text_of(manage)
    response = client.post(
        url(sim, "gestion/rondas/1/publicar/"),
        {"public_value": "  17  ", "witness": sim.juez.pk, "commitment": draw.commitment},
    )
    assert response.status_code == 302
    draw.refresh_from_db()
    assert draw.is_published and draw.public_value == "17" and draw.witness == sim.juez
    assert "Sorteo de la ronda 1 hecho y publicado." in text_of(client.get(response["Location"]))


def test_prepare_with_a_jornada():
    sim = new_tournament(4, seed=1)
    from torneo.services.tournaments import session_save

    starts = datetime(2026, 12, 12, 16, tzinfo=ZoneInfo("Europe/Madrid"))
    session_save(tournament=sim.tournament, name="Tarde", starts_at=starts, courtesy_minutes=0)
    session = sim.tournament.sessions.get()
    staff_client(sim).post(url(sim, "gestion/rondas/preparar/"), {"session": session.pk})
    assert Round.objects.get(tournament=sim.tournament).session == session
    assert "Tarde" in text_of(Client().get(url(sim, "rondas/1/")))


def test_empty_public_value_is_refused_in_spanish_and_nothing_is_drawn():
    sim = new_tournament(6, seed=1)
    draw = live_draw(round_prepare(tournament=sim.tournament, by=sim.organizer))
    response = staff_client(sim).post(
        url(sim, "gestion/rondas/1/publicar/"),
        {"public_value": "   ", "witness": sim.juez.pk, "commitment": draw.commitment},
    )
    assert response.status_code == 400
    assert "Escribe el valor público obtenido en la sala (un número cantado, los dados…)." in text_of(response)
    draw.refresh_from_db()
    assert draw.status == Draw.Status.COMMITTED and not Match.objects.exists()


def test_a_tournament_without_juez_cannot_draw_and_says_why_amm_5_5():
    sim = new_tournament(6, seed=1)
    sim.tournament.roles.filter(role="juez").delete()
    draw = live_draw(round_prepare(tournament=sim.tournament, by=sim.organizer))
    client = staff_client(sim)
    assert "Este torneo no tiene ningún juez asignado" in text_of(client.get(url(sim, "gestion/rondas/1/")))
    assert "Este torneo no tiene ningún juez asignado" in text_of(client.get(url(sim, "gestion/rondas/")))
    response = client.post(
        url(sim, "gestion/rondas/1/publicar/"),
        {"public_value": "5", "witness": sim.juez.pk, "commitment": draw.commitment},
    )
    assert response.status_code == 400 and "Indica el juez presente en el sorteo (AMM 5.5)." in text_of(response)
    assert not Match.objects.exists()


def test_the_witness_must_be_a_juez_of_this_tournament_amm_5_5():
    sim = new_tournament(6, seed=1)
    other_juez = grant(UserFactory(), new_tournament(2).tournament, "juez")
    draw = live_draw(round_prepare(tournament=sim.tournament, by=sim.organizer))
    for witness in (sim.organizer.pk, other_juez.pk, "", "abc"):
        response = staff_client(sim).post(
            url(sim, "gestion/rondas/1/publicar/"),
            {"public_value": "5", "witness": witness, "commitment": draw.commitment},
        )
        assert response.status_code == 400 and "Indica el juez presente en el sorteo (AMM 5.5)." in text_of(response)
    assert not Match.objects.exists()


def test_a_stale_commitment_on_the_form_is_refused_amm_5_5():
    sim = new_tournament(6, seed=1)
    shown = live_draw(round_prepare(tournament=sim.tournament, by=sim.organizer))
    client = staff_client(sim)
    # Someone else cancels and prepares the round again: a new commitment the room has not seen.
    client.post(url(sim, "gestion/rondas/1/anular/"))
    client.post(url(sim, "gestion/rondas/preparar/"))
    response = client.post(
        url(sim, "gestion/rondas/1/publicar/"),
        {"public_value": "5", "witness": sim.juez.pk, "commitment": shown.commitment},
    )
    assert response.status_code == 400 and "El compromiso del sorteo ha cambiado" in text_of(response)
    assert not Match.objects.exists()


def test_a_commitment_made_stale_by_a_withdrawal_is_refused_with_the_service_message():
    sim = new_tournament(6, seed=1)
    draw = live_draw(round_prepare(tournament=sim.tournament, by=sim.organizer))
    pair_withdraw(pair=Pair.objects.filter(tournament=sim.tournament).first())
    response = staff_client(sim).post(
        url(sim, "gestion/rondas/1/publicar/"),
        {"public_value": "5", "witness": sim.juez.pk, "commitment": draw.commitment},
    )
    assert response.status_code == 400
    assert "Las parejas o resultados han cambiado desde que se publicó el compromiso" in text_of(response)
    draw.refresh_from_db()
    assert draw.status == Draw.Status.COMMITTED and not Match.objects.exists()


def test_publishing_twice_is_refused_and_the_draw_stays_as_published():
    sim = new_tournament(6, seed=1)
    draw = live_draw(round_prepare(tournament=sim.tournament, by=sim.organizer))
    client = staff_client(sim)
    data = {"public_value": "5", "witness": sim.juez.pk, "commitment": draw.commitment}
    assert client.post(url(sim, "gestion/rondas/1/publicar/"), data).status_code == 302
    before = sorted(Match.objects.values_list("pair_a", "pair_b", "table_number"))
    response = client.post(url(sim, "gestion/rondas/1/publicar/"), {**data, "public_value": "6"})
    assert response.status_code == 400 and "Este sorteo ya está publicado o anulado." in text_of(response)
    draw.refresh_from_db()
    assert draw.public_value == "5" and sorted(Match.objects.values_list("pair_a", "pair_b", "table_number")) == before


def test_redraw_needs_a_reason_amm_5_5():
    sim = new_tournament(6, seed=1)
    publish_next(sim)
    response = staff_client(sim).post(url(sim, "gestion/rondas/1/repetir-sorteo/"), {"reason": "   "})
    assert response.status_code == 400
    assert "Un nuevo sorteo necesita un motivo, que queda registrado." in text_of(response)
    assert Draw.objects.get().status == Draw.Status.PUBLISHED and Match.objects.count() == 3


def test_redraw_is_logged_and_its_reason_is_public_and_the_old_draw_stays_verifiable_amm_5_5():
    sim = new_tournament(9, seed=1)
    round_ = publish_next(sim, public_value="111")
    old = live_draw(round_)
    client = staff_client(sim)
    response = client.post(url(sim, "gestion/rondas/1/repetir-sorteo/"), {"reason": "Faltaba la pareja 3 en la sala"})
    assert response.status_code == 302
    new = live_draw(round_)
    assert new.replaces == old and new.status == Draw.Status.COMMITTED
    # The redrawn round cannot be cancelled: the superseded draw stays on record.
    cancel = client.post(url(sim, "gestion/rondas/1/anular/"))
    assert cancel.status_code == 400 and "no se puede anular" in text_of(cancel)
    public = Client().get(url(sim, "rondas/1/"))
    text = text_of(public)
    assert "Motivo: «Faltaba la pareja 3 en la sala»" in text and new.commitment in text and old.secret in text
    client.post(
        url(sim, "gestion/rondas/1/publicar/"),
        {"public_value": "222", "witness": sim.juez.pk, "commitment": new.commitment},
    )
    public = Client().get(url(sim, "rondas/1/"))
    inputs = pool_inputs(public)
    assert len(inputs) == 2  # the current draw and the superseded one, each recomputable
    assert {command_output(data)["seed"] for data in inputs} == {old.seed, live_draw(round_).seed}
    download = Client().get(url(sim, "rondas/1/sorteo.json") + f"?sorteo={old.pk}")
    assert json.loads(download.content)["public"] == "111"


def test_only_the_organizer_redraws():
    sim = new_tournament(6, seed=1)
    publish_next(sim)
    control = grant(UserFactory(), sim.tournament, "control")
    client = Client()
    client.force_login(control)
    assert "Solo la organización puede repetir un sorteo publicado." in text_of(
        client.get(url(sim, "gestion/rondas/1/"))
    )
    assert client.post(url(sim, "gestion/rondas/1/repetir-sorteo/"), {"reason": "x"}).status_code == 403
    assert Draw.objects.get().status == Draw.Status.PUBLISHED


def test_redraw_refused_once_results_exist():
    sim = new_tournament(6, seed=1)
    round_ = publish_next(sim)
    result_submit(match=round_.matches.exclude(pair_b=None).first(), by=sim.organizer, games_a=3, games_b=0)
    response = staff_client(sim).post(url(sim, "gestion/rondas/1/repetir-sorteo/"), {"reason": "otra vez"})
    assert response.status_code == 400
    assert "Ya hay resultados en esta ronda: no se puede repetir el sorteo." in text_of(response)


def test_cancel_a_prepared_round_but_never_a_published_one():
    sim = new_tournament(6, seed=1)
    round_prepare(tournament=sim.tournament, by=sim.organizer)
    client = staff_client(sim)
    response = client.post(url(sim, "gestion/rondas/1/anular/"))
    assert response.status_code == 302 and not Round.objects.exists()
    publish_next(sim)
    response = client.post(url(sim, "gestion/rondas/1/anular/"))
    assert response.status_code == 400
    assert "Una ronda publicada no se puede anular" in text_of(response) and Round.objects.get().is_published


def test_next_round_waits_for_results_and_names_the_missing_tables():
    sim = new_tournament(8, seed=3, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next(sim)
    missing = round_.matches.exclude(pair_b=None).order_by("table_number").first()
    for match in round_.matches.exclude(pk=missing.pk).filter(outcome=Match.Outcome.PENDING):
        sim.enter_result(match)
    client = staff_client(sim)
    assert "Falta 1 resultado de la ronda anterior" in text_of(client.get(url(sim, "gestion/rondas/")))
    response = client.post(url(sim, "gestion/rondas/preparar/"))
    assert response.status_code == 400
    assert f"Faltan resultados de la ronda 1: mesas {missing.table_number}." in text_of(response)
    assert Round.objects.filter(tournament=sim.tournament).count() == 1


def test_withdrawn_and_expelled_pairs_are_not_drawn():
    sim = new_tournament(10, seed=2, format=Tournament.Format.CEROS, max_losses=3)
    finish_round(sim, publish_next(sim))
    gone = list(Pair.objects.filter(tournament=sim.tournament).order_by("number")[:2])
    pair_withdraw(pair=gone[0])
    Pair.objects.filter(pk=gone[1].pk).update(status=Pair.Status.EXPELLED)
    staff_client(sim).post(url(sim, "gestion/rondas/preparar/"))
    response = Client().get(url(sim, "rondas/2/"))
    listed = re.findall(r'<span class="pair-num">(\d+)</span>', response.content.decode())
    assert "8 parejas" in text_of(response) and sorted(map(int, listed)) == list(range(3, 11))


def test_the_juez_may_not_prepare_or_publish():
    sim = new_tournament(6, seed=1)
    client = Client()
    client.force_login(sim.juez)
    assert client.post(url(sim, "gestion/rondas/preparar/")).status_code == 403
    draw = live_draw(round_prepare(tournament=sim.tournament, by=sim.organizer))
    response = client.post(
        url(sim, "gestion/rondas/1/publicar/"),
        {"public_value": "5", "witness": sim.juez.pk, "commitment": draw.commitment},
    )
    assert response.status_code == 403 and not Match.objects.exists()


def test_the_rondas_finales_are_marked_on_every_page_amm_5_8_d():
    sim = new_tournament(8, seed=17, format=Tournament.Format.CEROS, max_losses=1, final_phase_from_round=2)
    finish_round(sim, publish_next(sim))
    publish_next(sim)
    assert "Ronda final · sin suplentes (AMM 5.8.d)" not in text_of(Client().get(url(sim, "rondas/1/")))
    for path in ("rondas/2/", "rondas/"):
        assert "Ronda final · sin suplentes (AMM 5.8.d)" in text_of(Client().get(url(sim, path)))
    assert "ronda final" in text_of(Client().get(url(sim, "rondas/2/proyector/")))


# --- the tournament form ---------------------------------------------------------------------------


def test_the_tournament_form_groups_the_format_parameters_by_format():
    sim = new_tournament(2)
    page = staff_client(sim).get(url(sim, "gestion/editar/")).content.decode()
    legends = re.findall(r"<legend>(.*?)</legend>", page)
    assert legends == ["El torneo", "Partidas", "Inscripción", "Formato y sorteos", "Resultados y clasificación"]
    blocks = dict(
        re.findall(r'<div class="format-params" data-formats="([^"]+)">(.*?)</div>\s*(?=<div|</fieldset)', page, re.S)
    )
    assert 'name="repesca_until_round"' in blocks["repesca"] and 'name="swiss_rounds"' in blocks["swiss"]
    assert 'name="group_count"' in blocks["groups"] and 'name="max_losses"' in blocks["ceros repesca"]
    # Every field of the form is rendered exactly once (nothing lost, nothing twice).
    from torneo.forms.tournaments import TournamentForm

    for name in TournamentForm.Meta.fields:
        assert len(re.findall(rf'name="{name}"', page)) == 1, name
    assert "js/rounds.js" in page


def test_the_tournament_form_still_saves_a_format_and_reports_its_missing_parameter():
    sim = new_tournament(2)
    data = {
        "name": "Open",
        "start_date": "2026-12-12",
        "end_date": "2026-12-12",
        "rule_set": "amm",
        "games_to_win": 3,
        "points_per_game": 40,
        "entry_fee": "0",
        "status": "open",
        "format": "swiss",
        "max_losses": 1,
        "pool_b_max_losses": 2,
        "group_qualifiers": 2,
        "first_table_number": 1,
        "points_per_win": 1,
        "tiebreaks": "juegos,tantos",
    }
    client = staff_client(sim)
    response = client.post(url(sim, "gestion/editar/"), data)
    assert "Indica cuántas rondas tiene el suizo." in text_of(response)
    assert client.post(url(sim, "gestion/editar/"), {**data, "swiss_rounds": 5}).status_code == 302
    sim.tournament.refresh_from_db()
    assert sim.tournament.format == "swiss" and sim.tournament.swiss_rounds == 5


# --- a constant number of queries ------------------------------------------------------------------


def _published_tournament(pairs: int) -> Simulation:
    sim = new_tournament(pairs, seed=pairs)
    first = publish_next(sim)
    finish_round(sim, first)  # results shown on the page
    return sim


@pytest.mark.parametrize(
    ("path", "cold"),
    # the public state (tournament, stamp: torneo.pagecache.public_state); tournament, the body's
    # stamp; then rounds, (draws,) matches, the pairs with their players (and on the round's page,
    # its suplentes, AMM 5.8)
    [("rondas/1/", 9), ("rondas/1/proyector/", 7), ("rondas/1/cartel/", 8)],
)
def test_the_public_round_pages_take_the_same_queries_for_16_and_120_pairs(path, cold, django_assert_num_queries):
    small, large = _published_tournament(16), _published_tournament(120)
    for sim in (small, large):
        cache.clear()
        with django_assert_num_queries(cold):
            assert Client().get(url(sim, path)).status_code == 200
        with django_assert_num_queries(2):  # the whole page from the cache: the public state
            assert Client().get(url(sim, path)).status_code == 200


def test_the_prepared_round_page_takes_the_same_queries_for_16_and_120_pairs(django_assert_num_queries):
    for pairs in (16, 120):
        sim = new_tournament(pairs, seed=pairs)
        round_prepare(tournament=sim.tournament, by=sim.organizer)
        cache.clear()
        # the public state (tournament, stamp); tournament, stamp, rounds, draws, pairs with players
        with django_assert_num_queries(7):
            assert Client().get(url(sim, "rondas/1/")).status_code == 200


@pytest.mark.slow
def test_a_100_pair_knockout_with_rondas_finales_runs_entirely_through_the_staff_pages_amm_5_8_d():
    """Every round prepared and published in the staff pages; results through the results service."""
    sim = new_tournament(101, seed=21, format=Tournament.Format.CEROS, max_losses=1, final_phase_from_round=6)
    client = staff_client(sim)
    for number in range(1, 30):
        response = client.post(url(sim, "gestion/rondas/preparar/"))
        if response.status_code == 400:
            assert "El torneo ya está decidido: no hay más rondas." in text_of(response)
            break
        round_ = Round.objects.get(tournament=sim.tournament, number=number)
        if round_.kind == Round.Kind.DRAW:
            data = {
                "public_value": f"{number}{number}",
                "witness": sim.juez.pk,
                "commitment": live_draw(round_).commitment,
            }
        else:
            data = {}
        assert client.post(url(sim, f"gestion/rondas/{number}/publicar/"), data).status_code == 302
        public = Client().get(url(sim, f"rondas/{number}/"))
        for data in pool_inputs(public):
            assert command_output(data)["verified"] is True
        finish_round(sim, round_)
    rounds = list(Round.objects.filter(tournament=sim.tournament).order_by("number"))
    assert len(rounds) == 7  # 101 -> 51 -> 26 -> 13 -> 7 -> 4 -> 2 -> 1
    assert [r.is_final for r in rounds] == [False] * 5 + [True] * 2
    assert [r.kind for r in rounds] == ["draw"] * 6 + ["bracket"]
