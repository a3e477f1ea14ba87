"""A partida's acta as a real PDF (WeasyPrint, AMM 3.16): one A4 page with the tournament, round
and table, both pairs and their players, the juegos to win and the tantos per juego, the maximum
time (6.2), a box per possible juego, the losing pair's signature, the juez's notes (a ruling on a
hand among them) and the QR code's address; staff only; nothing fetched but static files."""

import io
from pathlib import Path

import pypdfium2
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scoring.printing import FetchRefused, pdf_from_html, static_only_fetcher
from scoring.services.hands import hand_record
from scoring.services.hands.rulings import hand_ruling_confirm
from tests.scoring.test_hands_services import table

pytestmark = pytest.mark.django_db

HANDS = ["12o 12c 5e 4b", "11o 7c 6e 4c", "10o 7o 5c 1e", "1o 4e 6c 7e"]
LIE = [{"pares": True, "juego": False}, {"pares": True, "juego": False}, {"pares": False}, {"pares": False}]


ARTEFACTS = Path(__file__).resolve().parents[2] / "var" / "test-artefacts"


def save_preview(content: bytes, name: str) -> Path:
    """A PNG of the first page, for a person to look at (var/test-artefacts/, not in git;
    docs/test-artefacts/ keeps the committed copies the README links)."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page = pypdfium2.PdfDocument(content)[0]
    path = ARTEFACTS / f"{name}.png"
    page.render(scale=100 / 72).to_pil().save(path)
    return path


def pdf_text(content: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(content))
    return len(reader.pages), " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)


def test_the_acta_is_one_page_with_what_the_table_needs_amm_3_16() -> None:
    t = table()
    hand = hand_record(match=t.match, by=t.juez, record={"hands": HANDS, "declarations": LIE}, mano="a").hand
    hand_ruling_confirm(hand=hand, by=t.juez, facts={})
    client = Client()
    client.force_login(t.control)
    url = reverse("scoring:acta_pdf", args=[t.tournament.slug, t.match.pk])
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    save_preview(response.content, "acta")
    pages, text = pdf_text(response.content)
    assert pages == 1
    assert "Acta de la partida" in text and t.tournament.name in text
    assert f"Ronda 1 · Mesa {t.match.table_number}" in text
    for pair in (t.match.pair_a, t.match.pair_b):
        for member in pair.ordered_members():
            assert member.player.full_name in text
    assert "A 3 juegos ganados" in text and "Juegos a 40 tantos" in text
    assert "Tiempo máximo: 60 minutos (AMM 6.2)" in text
    assert "Juego 5" in text and "Juego 6" not in text  # a box per possible juego: 2 × 3 − 1
    assert "Firma de la pareja perdedora (AMM 3.16)" in text
    assert "Fallo del juez en el juego 1, mano 1 (AMM 4.1a, 4.2.b, 4.2.c, 4.2.e)" in text
    assert f"/partidas/{t.match.pk}/manos/" in text  # the QR code's address, printed under it too
    assert save_preview(response.content, "acta").stat().st_size > 10_000


def test_only_the_staff_print_actas() -> None:
    t = table()
    url = reverse("scoring:acta_pdf", args=[t.tournament.slug, t.match.pk])
    assert Client().get(url).status_code == 302  # to the login page
    for user, status in ((t.player_a, 403), (t.juez, 200), (t.organizer, 200)):
        client = Client()
        client.force_login(user)
        assert client.get(url).status_code == status


@pytest.mark.parametrize(
    "url",
    ["file:///etc/passwd", "https://example.com/static/x.css", "http://print.invalid/static/../../settings.py"],
)
def test_printing_fetches_nothing_but_static_files(url: str) -> None:
    with pytest.raises(FetchRefused):
        static_only_fetcher().fetch(url)
    assert static_only_fetcher().fetch("http://print.invalid/static/css/print.css").content_type == "text/css"


def test_a_print_template_asking_for_anything_else_stops_the_rendering() -> None:
    from weasyprint.urls import FatalURLFetchingError

    with pytest.raises(FatalURLFetchingError):
        pdf_from_html('<link rel="stylesheet" href="file:///etc/passwd"><p>x</p>')


def test_the_result_history_links_to_the_acta() -> None:
    t = table()
    client = Client()
    client.force_login(t.control)
    page = client.get(reverse("scoring:result_history", args=[t.tournament.slug, t.match.pk]))
    assert reverse("scoring:acta_pdf", args=[t.tournament.slug, t.match.pk]) in page.content.decode()


def test_a_match_to_four_juegos_has_seven_boxes_on_one_page_amm_1_7_a() -> None:
    t = table(games_to_win=4)
    client = Client()
    client.force_login(t.control)
    response = client.get(reverse("scoring:acta_pdf", args=[t.tournament.slug, t.match.pk]))
    save_preview(response.content, "acta-a-cuatro")
    pages, text = pdf_text(response.content)
    assert pages == 1 and "A 4 juegos ganados" in text and "Juego 7" in text and "Juego 8" not in text


def test_notes_that_do_not_fit_are_counted_not_lost_off_the_page() -> None:
    import dataclasses

    from django.template.loader import render_to_string

    from scoring.selectors.actas import acta_for

    t = table()
    acta = acta_for(t.match, url="http://mus.test/")
    fit = acta.layout.notes_fit
    crowded = dataclasses.replace(acta, notes=tuple(f"Nota número {i} del juez." for i in range(1, fit + 4)))
    pages, text = pdf_text(pdf_from_html(render_to_string("scoring/print/acta.html", {"acta": crowded})))
    assert pages == 1
    assert f"Nota número {fit} del juez." in text and f"Nota número {fit + 1} del juez." not in text
    assert "… y 3 notas más: véase el historial de la partida." in text


def test_the_printed_qr_code_reads_as_the_partidas_address_amm_3_16() -> None:
    """What a phone reads from the printed acta's QR code (zxing-cpp decoding the rendered page)
    is the address of the partida's page, where its result is entered and confirmed."""
    import zxingcpp

    t = table()
    client = Client()
    client.force_login(t.control)
    content = client.get(reverse("scoring:acta_pdf", args=[t.tournament.slug, t.match.pk])).content
    page = pypdfium2.PdfDocument(content)[0].render(scale=200 / 72).to_pil()
    found = [code.text for code in zxingcpp.read_barcodes(page) if code.format == zxingcpp.BarcodeFormat.QRCode]
    assert found == [f"{settings.SITE_URL}/torneos/{t.tournament.slug}/partidas/{t.match.pk}/manos/"]
