"""A round's actas in one PDF (AMM 3.16), prepared by a worker with a progress bar, stored and reused
until the round's data change; blank actas; the printing desk's permissions and bad input; the
sweep that runs what a lost message or a dead worker left behind. The Celery task's body runs here
in the test process (``print_job_task.apply``); tests/scoring/test_printables_worker.py runs a
real worker."""

import datetime
import io
import itertools
import re
from collections import Counter
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

import scoring.printing
from scoring.models import MatchClock, PrintJob
from scoring.printing import pdf_from_html
from scoring.services import printing as svc
from scoring.tasks import print_job_task
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.scoring.test_actas import MM, Run, pdf_text, save_preview, text_runs
from tests.torneo.simulation import new_tournament
from torneo.models import Pair, PairMember

pytestmark = pytest.mark.django_db


def eleven_pairs() -> Any:
    """Eleven pairs, round 1 published: five tables and an exenta."""
    sim = new_tournament(11)
    publish_next_round(sim)
    return sim


@pytest.fixture
def sim() -> Any:
    return eleven_pairs()


def staff(sim: Any) -> Client:
    client = Client()
    client.force_login(sim.organizer)
    return client


def ask(client: Client, sim: Any, **data: Any) -> Any:
    url = reverse("scoring:printables", args=[sim.tournament.slug])
    return client.post(url, {"kind": "actas", "round": 1, **data})


def page_texts(content: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(content))
    return [" ".join((page.extract_text() or "").split()) for page in reader.pages]


def run_queued() -> None:
    for pk in PrintJob.objects.filter(status=PrintJob.Status.QUEUED).values_list("pk", flat=True):
        print_job_task.apply(args=[pk])


def test_a_rounds_actas_print_in_one_pdf_a_page_per_table_and_none_for_the_exenta_amm_3_16(sim: Any) -> None:
    client = staff(sim)
    response = ask(client, sim)
    job = PrintJob.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/imprimir/{job.pk}/")
    assert job.status == PrintJob.Status.QUEUED and job.total == 5
    page = client.get(response["Location"]).content.decode()
    assert 'id="print-progress"' in page and 'data-active="1"' in page

    run_queued()
    job.refresh_from_db()
    assert (job.status, job.done, job.pages, job.percent) == (PrintJob.Status.DONE, 5, 5, 100)
    state = client.get(reverse("scoring:printable_job_state", args=[sim.tournament.slug, job.pk])).json()
    assert state["status"] == "done" and state["pages"] == 5 and state["percent"] == 100
    pdf = client.get(reverse("scoring:printable_job_pdf", args=[sim.tournament.slug, job.pk]))
    assert pdf["Content-Type"] == "application/pdf"
    save_preview(pdf.content, "actas-ronda")
    pages, text = pdf_text(pdf.content)
    assert pages == 5
    for match in playing(sim.rounds[0]):
        assert f"Ronda 1 · Mesa {match.table_number}" in text
        assert match.pair_a.display_name in text and match.pair_b.display_name in text
        assert f"/partidas/{match.pk}/manos/" in text  # its QR code's address
    bye = sim.rounds[0].matches.get(pair_b=None)
    assert bye.pair_a.display_name not in text  # an exenta has no acta
    # The QR code of the first page, drawn over the shared frame, reads as the first table's address.
    import pypdfium2
    import zxingcpp

    first = playing(sim.rounds[0])[0]
    image = pypdfium2.PdfDocument(pdf.content)[0].render(scale=200 / 72).to_pil()
    assert [c.text for c in zxingcpp.read_barcodes(image)] == [
        f"{settings.SITE_URL}/torneos/{sim.tournament.slug}/partidas/{first.pk}/manos/"  # never the request's Host
    ]


def test_the_rounds_actas_are_reused_until_its_data_change_amm_3_16(sim: Any) -> None:
    client = staff(sim)
    ask(client, sim)
    run_queued()
    first = PrintJob.objects.get()
    assert ask(client, sim)["Location"].endswith(f"/imprimir/{first.pk}/")  # the same PDF, not rendered again
    assert PrintJob.objects.count() == 1

    match = playing(sim.rounds[0])[0]
    Pair.objects.filter(pk=match.pair_a_id).update(name="Los del Órdago")
    ask(client, sim)
    second = PrintJob.objects.exclude(pk=first.pk).get()
    assert second.status == PrintJob.Status.QUEUED
    run_queued()
    _pages, text = pdf_text(bytes(PrintJob.objects.get(pk=second.pk).pdf))
    assert "Los del Órdago" in text


def test_the_progress_moves_while_the_worker_lays_out_the_actas(sim: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's state (what its progress bar reads) is seen moving between chunks of actas."""
    monkeypatch.setattr(scoring.printing, "CHUNK", 2)
    client = staff(sim)
    ask(client, sim)
    job = PrintJob.objects.get()
    state_url = reverse("scoring:printable_job_state", args=[sim.tournament.slug, job.pk])
    seen: list[tuple[str, int]] = []
    render = svc.pdf_of_sheets

    def watched(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def report(done: int) -> None:
            progress(done)
            state = client.get(state_url).json()
            seen.append((state["status"], state["done"]))

        return render(*args, progress=report, **kwargs)

    monkeypatch.setattr(svc, "pdf_of_sheets", watched)
    run_queued()
    assert seen == [("running", 2), ("running", 4), ("running", 5)]
    assert client.get(state_url).json()["status"] == "done"


def test_blank_actas_carry_the_terms_and_nothing_else() -> None:
    sim = new_tournament(4)
    client = staff(sim)
    url = reverse("scoring:blank_actas_pdf", args=[sim.tournament.slug])
    response = client.get(url, {"n": 3})
    assert response.status_code == 200
    save_preview(response.content, "actas-en-blanco")
    pages, text = pdf_text(response.content)
    assert pages == 3
    assert text.count("Acta de la partida") == 3 and "A 3 juegos ganados" in text
    assert "Mesa 1" not in text and "/partidas/" not in text


@pytest.mark.parametrize("count", ["0", "51", "muchas", ""])
def test_a_bad_number_of_blank_actas_is_a_message_not_an_error(count: str) -> None:
    sim = new_tournament(4)
    client = staff(sim)
    url = reverse("scoring:blank_actas_pdf", args=[sim.tournament.slug])
    response = client.get(url, {"n": count}, follow=True)
    assert response.status_code == 200
    assert "Actas en blanco: indica un número entre 1 y 50." in response.content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"round": 9}, "La ronda 9 no existe en este torneo."),
        ({"round": "x"}, "La ronda debe ser un número."),
        ({"kind": "carteles"}, "Documento desconocido: «carteles»."),
    ],
)
def test_bad_requests_say_what_is_wrong_and_queue_nothing(sim: Any, data: dict[str, Any], message: str) -> None:
    response = ask(staff(sim), sim, **data)
    assert response.status_code == 302
    page = staff(sim).get(response["Location"])
    assert not PrintJob.objects.exists()
    messages = [str(m) for m in response.wsgi_request._messages]  # type: ignore[attr-defined]
    assert messages == [message], page


def test_only_the_tournaments_staff_print_and_see_the_documents(sim: Any) -> None:
    ask(staff(sim), sim)
    job = PrintJob.objects.get()
    urls = [
        reverse("scoring:printables", args=[sim.tournament.slug]),
        reverse("scoring:printable_job", args=[sim.tournament.slug, job.pk]),
        reverse("scoring:printable_job_state", args=[sim.tournament.slug, job.pk]),
        reverse("scoring:blank_actas_pdf", args=[sim.tournament.slug]),
    ]
    stranger, juez, control = UserFactory(), UserFactory(), UserFactory()
    grant(juez, sim.tournament, "juez")
    grant(control, sim.tournament, "control")
    for url in urls:
        assert Client().get(url).status_code == 302  # to the login page
        client = Client()
        client.force_login(stranger)
        assert client.get(url).status_code == 403
        for user in (juez, control):
            client.force_login(user)
            assert client.get(url).status_code in (200, 302), url
    client = Client()
    client.force_login(stranger)
    assert ask(client, sim).status_code == 403
    assert PrintJob.objects.count() == 1

    other = new_tournament(4)
    client.force_login(other.organizer)
    assert client.get(urls[1].replace(sim.tournament.slug, other.tournament.slug)).status_code == 404


def test_the_pdf_is_not_served_before_it_is_done(sim: Any) -> None:
    client = staff(sim)
    ask(client, sim)
    job = PrintJob.objects.get()
    assert client.get(reverse("scoring:printable_job_pdf", args=[sim.tournament.slug, job.pk])).status_code == 404


def test_two_workers_given_the_same_job_render_it_once(sim: Any) -> None:
    ask(staff(sim), sim)
    job = PrintJob.objects.get()
    assert svc.printable_run(job_id=job.pk) is True
    assert svc.printable_run(job_id=job.pk) is False  # claimed already: done


def test_a_failed_job_says_why_and_is_queued_again_when_asked_again(sim: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client = staff(sim)
    ask(client, sim)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("sin fuentes")

    monkeypatch.setattr(svc, "pdf_of_sheets", broken)
    run_queued()
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.FAILED and "sin fuentes" in job.error
    page = client.get(reverse("scoring:printable_job", args=[sim.tournament.slug, job.pk])).content.decode()
    assert "No se ha podido preparar el documento" in page and "sin fuentes" in page
    monkeypatch.undo()
    ask(client, sim)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.QUEUED and job.error == ""
    run_queued()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE


def test_the_sweep_runs_a_job_whose_message_was_lost_and_one_whose_worker_died(sim: Any) -> None:
    client = staff(sim)
    ask(client, sim)
    lost = PrintJob.objects.get()
    now = timezone.now()
    assert svc.printables_sweep(now=now) == 0  # within its grace: a worker will take it
    assert svc.printables_sweep(now=now + datetime.timedelta(seconds=60)) == 1
    lost.refresh_from_db()
    assert lost.status == PrintJob.Status.DONE

    PrintJob.objects.filter(pk=lost.pk).update(
        status=PrintJob.Status.RUNNING, started_at=now - datetime.timedelta(hours=1), pdf=None
    )
    assert svc.printables_sweep(now=now) == 1
    lost.refresh_from_db()
    assert lost.status == PrintJob.Status.DONE and lost.pdf


# --- The wall sheets and the standings -----------------------------------------------------------


def printed(client: Client, sim: Any, kind: str, round_number: int = 1) -> tuple[int, str, bytes]:
    """Ask for a document, run its job, and read its PDF: (pages, text, bytes)."""
    response = ask(client, sim, kind=kind, round=round_number)
    assert response.status_code == 302, response
    job = PrintJob.objects.get(pk=int(response["Location"].rstrip("/").rsplit("/", 1)[1]))
    run_queued()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE, job.error
    content = client.get(reverse("scoring:printable_job_pdf", args=[sim.tournament.slug, job.pk])).content
    pages, text = pdf_text(content)
    assert pages == job.pages
    return pages, text, content


def test_the_draw_for_the_wall_by_table_lists_every_table_and_the_exenta(sim: Any) -> None:
    pages, text, content = printed(staff(sim), sim, "draw_tables")
    save_preview(content, "sorteo-por-mesas")
    assert pages == 1 and "ronda 1 · sorteo por mesas" in text and "hoja 1 de 1" in text
    for match in playing(sim.rounds[0]):
        assert match.pair_a.display_name in text and match.pair_b.display_name in text
    bye = sim.rounds[0].matches.get(pair_b=None)
    assert f"Exenta {bye.pair_a.number} · {bye.pair_a.display_name}" in text


def test_the_draw_for_the_wall_by_player_is_in_alphabetical_order_with_each_ones_table(sim: Any) -> None:
    _pages, text, content = printed(staff(sim), sim, "draw_players")
    save_preview(content, "sorteo-por-jugadores")
    seats = []
    for match in sim.rounds[0].matches.select_related("pair_a", "pair_b"):
        for pair in (match.pair_a, match.pair_b):
            for member in pair.ordered_members() if pair else []:
                p = member.player
                seats.append((f"{p.last_name}, {p.first_name}", "Exenta" if match.is_bye else str(match.table_number)))
    assert len(seats) == 22
    positions = [text.index(name) for name, _where in sorted(seats, key=lambda s: s[0].casefold())]
    assert positions == sorted(positions)  # alphabetical, as printed
    for name, where in seats:
        assert name in text and where in text[text.index(name) : text.index(name) + 60]


def test_the_draw_by_player_sorts_accented_surnames_as_the_web_page_does() -> None:
    """Issue 34: «Álvarez» was printed after «Zubiri». Spanish order, as the round's page by
    surname: accents and case ignored, ñ after n."""
    sim = new_tournament(6)
    round_ = publish_next_round(sim)
    surnames = ["Zubiri", "Álvarez", "Ñandú", "Nuño", "ávila", "Olano"]
    players = [m.player for m in PairMember.objects.filter(tournament=sim.tournament).order_by("pk")]
    for player, surname in zip(players, surnames, strict=False):
        player.last_name = surname
        player.save()
    _pages, text, _content = printed(staff(sim), sim, "draw_players", round_.number)
    order = ["Álvarez", "ávila", "Nuño", "Ñandú", "Olano", "Zubiri"]
    positions = [text.index(f"{surname}, ") for surname in order]
    assert positions == sorted(positions)


def test_a_long_listing_is_cut_into_numbered_sheets_each_with_its_titles() -> None:
    sim = new_tournament(40)
    publish_next_round(sim)
    pages, text, content = printed(staff(sim), sim, "draw_players")
    save_preview(content, "sorteo-por-jugadores-largo")
    assert pages == 4  # 80 players, 25 a sheet, none running over onto a sheet of its own
    assert "hoja 1 de 4" in text and "hoja 4 de 4" in text and text.count("Jugador Mesa Pareja n.º") == 4


def test_the_wall_sheets_are_only_for_a_published_draw() -> None:
    sim = new_tournament(6)
    from torneo.services.rounds import round_prepare

    round_prepare(tournament=sim.tournament, by=sim.organizer)
    response = ask(staff(sim), sim, kind="draw_tables")
    messages = [str(m) for m in response.wsgi_request._messages]  # type: ignore[attr-defined]
    assert messages == ["La ronda 1 no está publicada: el sorteo aún no es público."]
    assert not PrintJob.objects.exists()


def test_the_standings_and_the_final_classification_print_as_the_site_shows_them(sim: Any) -> None:
    for match in playing(sim.rounds[0]):
        sim.enter_result(match)
    client = staff(sim)
    pages, text, content = printed(client, sim, "standings", 0)
    save_preview(content, "clasificacion")
    assert pages >= 1 and "clasificación" in text and "Puesto" in text
    for pair in Pair.objects.filter(tournament=sim.tournament):
        assert pair.display_name in text
    _pages, final, content = printed(client, sim, "classification", 0)
    save_preview(content, "clasificacion-final")
    assert "clasificación final" in final
    job = PrintJob.objects.get(kind="standings")
    assert job.round_number == 0  # the tournament's document, whatever round was sent


def test_the_running_demos_current_round_prints_with_its_clocks_sanctions_and_suplente_amm_3_16() -> None:
    """The demo's running round (72 pairs, round 3 under way): its actas carry each table's clock
    start, the juez's sanction and the suplente; its wall sheets and the standings print too."""
    from django.core.management import call_command

    from referees.models import Sanction, Substitution
    from torneo.demo.build import RUNNING_SLUG
    from torneo.models import Tournament, TournamentRole

    call_command("demo", verbosity=0)
    tournament = Tournament.objects.get(slug=RUNNING_SLUG)
    current = tournament.rounds.order_by("number").last()
    control = TournamentRole.objects.filter(tournament=tournament, role="control").first().user
    client = Client()
    client.force_login(control)
    demo = type("Demo", (), {"tournament": tournament})
    pages, text, content = printed(client, demo, "actas", current.number)
    save_preview(content, "demo-actas")
    assert pages == current.matches.exclude(pair_b=None).count()
    sub = Substitution.objects.get(tournament=tournament, match__round=current)
    assert f"Suplente: {sub.name} juega por {sub.replaced.full_name}" in text
    lost = Sanction.objects.get(match__round=current, step=Sanction.Step.JUEGO, status="in_force")
    assert f"Juez: pérdida de un juego a la pareja {lost.pair.number} (AMM 3.20.c)." in text
    started = MatchClock.objects.filter(match__round=current).values_list("started_at", flat=True).first()
    # Every table's clock started at once: each page has the frame's label and the time on its line.
    for page in page_texts(content):
        assert "Reloj en marcha desde:" in page and f"{timezone.localtime(started):%H:%M}" in page
    assert text.count(f"Ronda {current.number} · Mesa") == pages
    for kind, number in (("draw_tables", current.number), ("draw_players", current.number), ("standings", 0)):
        assert printed(client, demo, kind, number)[0] >= 1


def test_a_rounds_actas_are_read_in_a_fixed_number_of_queries(sim: Any) -> None:
    """The notes of every table come from one query per source (sanctions, suplentes, rulings),
    not one per table: asking for a 500-table round's actas answers at once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.selectors.printables import round_actas_printable

    with CaptureQueriesContext(connection) as few:
        round_actas_printable(sim.tournament, 1, "http://mus.test/")
    more = new_tournament(41)
    publish_next_round(more)
    with CaptureQueriesContext(connection) as many:
        printable = round_actas_printable(more.tournament, 1, "http://mus.test/")
    assert len(printable.items) == 20 and len(many) == len(few)


def test_only_the_newest_versions_of_a_document_are_kept(sim: Any) -> None:
    """A round reprinted after each change keeps its three newest PDFs, not every one."""
    client = staff(sim)
    match = playing(sim.rounds[0])[0]
    for n in range(5):
        Pair.objects.filter(pk=match.pair_a_id).update(name=f"Versión {n}")
        ask(client, sim)
        run_queued()
    kept = PrintJob.objects.filter(kind="actas").order_by("-finished_at")
    assert kept.count() == svc.KEEP == 3
    assert "Versión 4" in pdf_text(bytes(kept.first().pdf))[1]


# --- The cartel (the round's wall sheets, printed by the browser: tests render it with WeasyPrint) --


def cartel_pdf(sim: Any, number: int = 1) -> bytes:
    """The round's «Cartel para imprimir» page as paper: its print stylesheet laid out on A4."""
    response = Client().get(f"/torneos/{sim.tournament.slug}/rondas/{number}/cartel/")
    assert response.status_code == 200
    return pdf_from_html(response.content.decode())


def mesa_labels(runs: list[Run]) -> list[tuple[Run, Run]]:
    """Each «Mesa» of the list by surname with the table's number drawn after it (in bold: a run of
    its own; «Mesa» may end the run of the player's first name)."""
    return [(label, number) for label, number in itertools.pairwise(runs) if re.search(r"(^| )Mesa$", label.text)]


def test_the_cartel_fills_a4_sheets_in_large_type_mesa_and_its_number_on_one_line(sim: Any) -> None:
    """Issue 34: the cartel came out in small type at the top of the sheet, «Mesa» and «8» on two
    lines, the table's number run together with the pairs'. Now: A4, a sheet by surname filled in
    large type (one column for a small round) with «Mesa 8» on the name's line, and a sheet by
    table where «Mesa 8» is one large bold piece and each pair's number a smaller one in its own
    box, well to its right."""
    content = cartel_pdf(sim)
    save_preview(content, "cartel")
    reader = PdfReader(io.BytesIO(content))
    assert len(reader.pages) == 2  # 22 players, 5 tables and an exenta: a sheet each
    for page in reader.pages:
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (595, 842)  # A4
    tables = [m.table_number for m in playing(sim.rounds[0])]
    bye = sim.rounds[0].matches.get(pair_b=None)

    by_surname = text_runs(content, 0)
    assert by_surname[0].text.endswith("Ronda 1 · por apellido")
    pairs = mesa_labels(by_surname)
    assert Counter(int(number.text) for _label, number in pairs) == Counter(tables * 4)
    for label, number in pairs:
        assert abs(number.y - label.y) < 0.5 and number.x > label.x  # «Mesa 8» on one line
    seats = {m.pair_a_id: f"Mesa {m.table_number}" for m in playing(sim.rounds[0])}
    seats |= {m.pair_b_id: f"Mesa {m.table_number}" for m in playing(sim.rounds[0])} | {bye.pair_a_id: "Exenta"}
    for member in PairMember.objects.filter(tournament=sim.tournament).select_related("player"):
        [surname] = [r for r in by_surname if r.text == member.player.last_name]
        line = " ".join(r.text for r in sorted(by_surname, key=lambda r: r.x) if abs(r.y - surname.y) < 0.5)
        # The table on the name's line (its runs joined by spaces: the bold surname is a run of its own).
        assert line == f"{surname.text} , {member.player.first_name} {seats[member.pair_id]}"
        assert surname.size >= 16  # large type: the old sheet was 10 pt
    assert max(r.y for r in by_surname) > 0.7 * 842  # the sheet filled, not a strip at its top

    by_table = text_runs(content, 1)
    assert by_table[0].text.endswith("Ronda 1 · por mesa")
    for match in playing(sim.rounds[0]):
        [mesa] = [r for r in by_table if r.text == f"Mesa {match.table_number}"]
        assert mesa.size >= 24
        for pair in (match.pair_a, match.pair_b):
            [number] = [r for r in by_table if r.text == str(pair.number) and abs(r.y - mesa.y) < 50]
            assert number.size <= 0.7 * mesa.size and number.x - mesa.x >= 30 * MM
    text = pdf_text(content)[1]
    assert "exenta (AMM 5.6)" in text and f"{bye.pair_a.display_name}" in text


def test_a_big_rounds_cartel_keeps_mesa_and_its_number_together_in_two_columns() -> None:
    """80 players: two columns of 12 pt on A4 sheets, and still never «Mesa» on one line and its
    number on the next."""
    sim = new_tournament(40)
    round_ = publish_next_round(sim)
    content = cartel_pdf(sim)
    save_preview(content, "cartel-grande")
    reader = PdfReader(io.BytesIO(content))
    assert {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in reader.pages} == {(595, 842)}
    pairs = [pair for page in range(len(reader.pages)) for pair in mesa_labels(text_runs(content, page))]
    assert len(pairs) == 4 * round_.matches.exclude(pair_b=None).count()
    for label, number in pairs:
        assert abs(number.y - label.y) < 0.5 and number.x > label.x and label.size >= 12


# --- Issue 34: every PDF downloads with a Spanish name ---------------------------------------------


def download_name(response: Any) -> str:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    [name] = re.findall(r'filename="([^"]+)"', response["Content-Disposition"])
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*\.pdf", name), name  # lowercase, hyphenated, plain letters
    return name


def test_every_pdf_downloads_with_a_spanish_name(sim: Any) -> None:
    """The round's documents came as «draw_tables-ronda-1.pdf», the standings as «standings.pdf»
    (and «standings-torneo.pdf» through the API). Each document of the printing desk, through the
    page and through the API, an acta, the blank actas and the tarjetas de pareja: a Spanish name
    that says what it is, never an id."""
    from rest_framework.test import APIClient

    from scoring.selectors.printables import acta_filename
    from torneo.models import Match, Round

    for match in playing(sim.rounds[0]):
        sim.enter_result(match)
    client = staff(sim)
    api = APIClient()
    api.force_authenticate(sim.organizer)
    slug = sim.tournament.slug
    names = {
        ("actas", 1): "actas-ronda-1.pdf",
        ("draw_tables", 1): "sorteo-ronda-1-mesas.pdf",
        ("draw_players", 1): "sorteo-ronda-1-jugadores.pdf",
        ("standings", 0): "clasificacion.pdf",
        ("classification", 0): "clasificacion-final.pdf",
    }
    # A new document needs its name here; the bracket's (a knockout's) are checked in test_bracket_print.
    assert {kind for kind, _round in names} | {"bracket_a3", "bracket_a4"} == set(PrintJob.Kind.values)
    for (kind, number), name in names.items():
        location = ask(client, sim, kind=kind, round=number)["Location"]
        run_queued()
        job = int(location.rstrip("/").rsplit("/", 1)[1])
        assert download_name(client.get(reverse("scoring:printable_job_pdf", args=[slug, job]))) == name
        assert download_name(api.get(f"/api/v1/tournaments/{slug}/printables/{job}/pdf/")) == name

    match = playing(sim.rounds[0])[0]
    acta = client.get(reverse("scoring:acta_pdf", args=[slug, match.pk]))
    assert download_name(acta) == f"acta-ronda-1-mesa-{match.table_number}.pdf"
    blank = client.get(reverse("scoring:blank_actas_pdf", args=[slug]), {"n": 3})
    assert download_name(blank) == "actas-en-blanco-3.pdf"
    cards = client.post(reverse("scoring:pair_cards_pdf", args=[slug]))
    assert download_name(cards) == "tarjetas-de-pareja.pdf"
    # A partida with no table (a walkover of a fixed round) is named by its pairs, not by its id.
    walkover = Match(round=Round(number=2), table_number=None, pair_a=Pair(number=3), pair_b=Pair(number=5))
    assert acta_filename(walkover) == "acta-ronda-2-parejas-3-y-5.pdf"
