"""A partida's acta as a real PDF (WeasyPrint, AMM 3.16): one A4 page with the tournament, round
and table, both pairs and their players, the juegos to win and the tantos per juego, the maximum
time (6.2), a box per possible juego, the losing pair's signature, the juez's notes (a ruling on a
hand among them) and the QR code's address; the caption of each pair's box clear of its name and
the ruled lines clear of the juez's notes (issue 34); staff only; nothing fetched but static
files."""

import dataclasses
import io
from pathlib import Path
from typing import Any

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


@dataclasses.dataclass(frozen=True)
class Run:
    """A piece of text as a page draws it: where its baseline starts, in pt from the page's top
    left corner, and the size it is printed at, in pt."""

    text: str
    x: float
    y: float
    size: float


def text_runs(content: bytes, page: int = 0) -> list[Run]:
    """The page's text in the order it is drawn (a drawing under the page, the acta's frame,
    included), each piece placed: the text matrix times the current one (WeasyPrint draws in px,
    scaled to pt and flipped)."""
    reader = PdfReader(io.BytesIO(content))
    height = float(reader.pages[page].mediabox.height)
    runs = []

    def visit(text: str, cm: Any, tm: Any, _font: Any, size: float) -> None:
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            scale = abs(tm[2] * cm[1] + tm[3] * cm[3])
            runs.append(Run(" ".join(text.split()), round(x, 2), round(height - y, 2), round(size * scale, 2)))

    reader.pages[page].extract_text(visitor_text=visit)
    return runs


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


# --- Issue 34: the pair's caption clear of its name, the ruled lines clear of the juez's notes ----

MM = 72 / 25.4  # pt


def crowded_acta() -> Any:
    """An acta whose pair A has a name of two lines and whose juez wrote notes of several lines."""
    from scoring.selectors.actas import acta_for

    acta = acta_for(table().match, url="http://mus.test/")
    long_name = "Los del Órdago de Arrasate y Mondragón de toda la vida"
    words = "una observación que ocupa más de una línea, "
    notes = tuple(f"Nota número {i} del juez: " + words * 2 * i for i in (1, 2, 3))
    return dataclasses.replace(acta, pair_a=dataclasses.replace(acta.pair_a, name=long_name), notes=notes)


def printed_both_ways(acta: Any) -> list[bytes]:
    """The acta alone (its frame in its own page) and in a round's PDF (the frame drawn once, under
    every page: scoring.printing.pdf_of_sheets)."""
    from django.template.loader import render_to_string

    from scoring.printing import pdf_of_sheets
    from scoring.selectors.actas import acta_frame

    alone = pdf_from_html(render_to_string("scoring/print/acta.html", {"acta": acta}))
    frame = acta_frame([acta])
    batch, _pages = pdf_of_sheets("scoring/print/actas.html", [acta], context={"title": "Actas"}, frame=frame)
    return [alone, batch]


def test_each_pairs_caption_has_a_line_of_its_own_above_the_pairs_name() -> None:
    """«PAREJA A» was printed against the pair's name. The caption and the pair's number share a
    line at the top of the box; the name (whole, on two lines if long) starts below it, clear of
    the caption's descenders by a millimetre at least."""
    acta = crowded_acta()
    for content in printed_both_ways(acta):
        runs = text_runs(content)
        for caption, pair in (("PAREJA A", acta.pair_a), ("PAREJA B", acta.pair_b)):
            [label] = [r for r in runs if r.text == caption]
            in_box = [r for r in runs if label.x - MM <= r.x < label.x + 90 * MM]
            [number] = [r for r in in_box if r.text == f"n.º {pair.number}"]
            name = sorted((r for r in in_box if r.text in pair.name), key=lambda r: r.y)
            assert abs(number.y - label.y) < 0.5 and number.x > label.x + 40 * MM  # the caption's line, at its right
            assert " ".join(r.text for r in name) == pair.name
            first = name[0]
            # DejaVu Sans: ascender 0.93 em, descender 0.24 em.
            assert first.y - 0.93 * first.size >= label.y + 0.24 * label.size + MM, (caption, first, label)
        assert len([r for r in runs if r.text in acta.pair_a.name]) == 2  # the long name on two lines


def ruled_lines(content: bytes, *, top: float, bottom: float) -> list[float]:
    """The heights (pt from the page's top) between ``top`` and ``bottom`` where a line is drawn
    unbroken across the notes' box: a row of pixels dark from one side to the other (text never
    is: there are gaps between its words)."""
    scale = 3
    image = pypdfium2.PdfDocument(content)[0].render(scale=scale).to_pil().convert("L")
    left, right = int((12 + 8) * MM * scale), int((12 + 178) * MM * scale)  # inside the rules (12 mm margin)
    rows = [
        y
        for y in range(int(top * scale), int(bottom * scale))
        if all(image.getpixel((x, y)) < 235 for x in range(left, right, 2))
    ]
    lines: list[float] = []
    for y in rows:
        if not lines or y / scale - lines[-1] > 1:
            lines.append(y / scale)
    return lines


def test_the_ruled_lines_show_below_the_juezs_notes_never_through_them() -> None:
    """The notes' box is ruled for the juez's hand; the notes the apps print (sanctions, rulings,
    the clock) sat on the same lines, struck through. The ruled lines now show only below the
    printed notes, on an acta alone and on a round's actas (where the rules are the frame drawn
    under the page)."""
    acta = crowded_acta()
    for content in printed_both_ways(acta):
        runs = text_runs(content)
        [heading] = [r for r in runs if r.text == "NOTAS DEL JUEZ (AMM 5.4)"]
        [foot] = [r for r in runs if r.text.startswith("El acta debe estar siempre encima")]
        notes = [r for r in runs if heading.y < r.y < foot.y - foot.size]
        assert "Nota número 1 del juez" in notes[0].text and len(notes) >= 6  # three notes, on six lines or more
        text_top = min(r.y - r.size for r in notes)
        text_bottom = max(r.y + 0.3 * r.size for r in notes)
        assert ruled_lines(content, top=text_top, bottom=text_bottom) == []
        below = ruled_lines(content, top=text_bottom, bottom=foot.y - foot.size)
        assert len(below) >= 4  # still ruled for the juez's hand (the box's own border the last)
    save_preview(content, "acta-notas")
