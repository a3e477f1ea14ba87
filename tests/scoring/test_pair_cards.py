"""The tarjetas de pareja (issue 32, item 1): one A6 card per registered pair, four to an A4 sheet,
each with the QR of its private link; printing makes the links of the pairs that have none (or new
ones for all with «renovar»). Real WeasyPrint PDFs."""

import io

import pytest
from django.conf import settings
from django.test import Client
from pypdf import PdfReader

from tests.factories import make_pair, player_data
from tests.scoring.test_hands_services import table
from torneo.models import Pair, PairTerminal
from torneo.services import terminals as service

pytestmark = pytest.mark.django_db


def pdf_text(content: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(content))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_the_mesa_prints_a_card_for_every_registered_pair_four_to_a_sheet():
    t = table()
    extra = [make_pair(t.tournament, players=[player_data(400 + 2 * i), player_data(401 + 2 * i)]) for i in range(3)]
    waiting = make_pair(t.tournament, players=[player_data(500), player_data(501)])
    Pair.objects.filter(pk=waiting.pk).update(status=Pair.Status.WAITLISTED)
    mesa = Client()
    mesa.force_login(t.control)
    url = f"/torneos/{t.tournament.slug}/gestion/imprimir/tarjetas-de-pareja.pdf"
    response = mesa.post(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "no-store"
    pages, text = pdf_text(response.content)
    assert pages == 2  # five registered pairs: four on the first sheet, one on the second
    for pair in [t.match.pair_a, t.match.pair_b, *extra]:
        assert f"Pareja {pair.number}" in text
        assert PairTerminal.objects.get(pair=pair).is_active
    assert f"Pareja {waiting.number}" not in text and not PairTerminal.objects.filter(pair=waiting).exists()
    # Printed again: nothing to print (every pair has its card), unless renewed.
    again = mesa.post(url)
    assert again.status_code == 302
    renewed = mesa.post(url, {"renovar": "1"})
    assert renewed.status_code == 200 and pdf_text(renewed.content)[0] == 2
    assert set(PairTerminal.objects.values_list("issues", flat=True)) == {2}


def test_the_links_printed_open_each_pairs_terminal():
    t = table()
    issued = service.terminals_for_cards(tournament=t.tournament, by=t.control)
    assert [item.terminal.pair for item in issued] == sorted([t.match.pair_a, t.match.pair_b], key=lambda p: p.number)
    for item in issued:
        url = service.terminal_url(t.tournament, item.token)
        assert url.startswith(f"{settings.SITE_URL}/torneos/")  # never a request's Host
        phone = Client()
        opened = phone.get(url.removeprefix(settings.SITE_URL))
        assert opened.status_code == 303 and opened["Location"].endswith(f"/parejas/{item.terminal.pair.number}/ficha/")


def test_only_the_organizer_and_the_mesa_print_cards():
    t = table()
    url = f"/torneos/{t.tournament.slug}/gestion/imprimir/tarjetas-de-pareja.pdf"
    juez = Client()
    juez.force_login(t.juez)
    assert juez.post(url).status_code == 403
    assert "Tarjetas de pareja" not in juez.get(f"/torneos/{t.tournament.slug}/gestion/imprimir/").content.decode()
    assert juez.get(url).status_code in (403, 405)
    assert not PairTerminal.objects.exists()
    mesa = Client()
    mesa.force_login(t.control)
    assert "Tarjetas de pareja" in mesa.get(f"/torneos/{t.tournament.slug}/gestion/imprimir/").content.decode()
