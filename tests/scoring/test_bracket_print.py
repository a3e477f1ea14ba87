"""The bracket on paper (issue 34, item 6): A3 landscape for the wall, A4 for the mesa, drawn
ahead to the final like the page, cut into sheets that say where each part goes on."""

import io
import itertools
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scoring.models import PrintJob
from scoring.selectors.bracket_sheets import A3_LANDSCAPE, A4_PORTRAIT, bracket_sheets
from scoring.selectors.standings import bracket
from tests.scoring import publish_next_round
from tests.scoring.test_actas import pdf_text, save_preview
from tests.scoring.test_printables import download_name, run_queued, staff
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Tournament

pytestmark = pytest.mark.django_db

A3_PT = (1190.55, 841.89)  # 420 × 297 mm
A4_PT = (595.28, 841.89)  # 210 × 297 mm


def knockout(pairs: int, *, seed: int = 5) -> Any:
    sim = new_tournament(pairs, seed=seed, format=Tournament.Format.CEROS, max_losses=1)
    publish_next_round(sim)
    return sim


def print_bracket(client: Client, sim: Any, kind: str) -> tuple[PrintJob, bytes]:
    response = client.post(reverse("scoring:printables", args=[sim.tournament.slug]), {"kind": kind})
    assert response.status_code == 302
    run_queued()
    job = PrintJob.objects.get(kind=kind)
    assert job.status == PrintJob.Status.DONE, job.error
    pdf = client.get(reverse("scoring:printable_job_pdf", args=[sim.tournament.slug, job.pk]))
    assert download_name(pdf) == f"cuadro-{kind.removeprefix('bracket_')}.pdf"
    return job, pdf.content


def sizes(content: bytes) -> set[tuple[float, float]]:
    return {
        (round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2))
        for p in PdfReader(io.BytesIO(content)).pages
    }


def test_an_eight_pair_knockout_prints_on_one_a3_landscape_and_one_a4_sheet_drawn_to_the_final() -> None:
    sim = knockout(8)
    first = list(Match.objects.filter(round=sim.rounds[-1]).select_related("pair_a", "pair_b"))
    client = staff(sim)
    job, a3 = print_bracket(client, sim, "bracket_a3")
    assert sizes(a3) == {A3_PT} and job.pages == 1
    _pages, text = pdf_text(a3)
    assert "cuadro" in text and "hoja 1 de 1" in text
    for match in first:  # every pair of the first round, each table named in the round after
        assert match.pair_a.display_name in text and match.pair_b.display_name in text
        assert f"Ganadora de la mesa {match.table_number}" in text
    assert text.count("R2") == 2 and text.count("R3") == 1 and "por sortear" in text
    _job, a4 = print_bracket(client, sim, "bracket_a4")
    assert sizes(a4) == {A4_PT}
    assert pdf_text(a4)[1].count("Ganadora de la mesa") == 4


def test_results_fill_the_printed_bracket_and_a_new_print_is_a_new_version() -> None:
    sim = knockout(8)
    client = staff(sim)
    before, _pdf = print_bracket(client, sim, "bracket_a3")
    for match in Match.objects.filter(round=sim.rounds[-1]).select_related("round__tournament"):
        sim.enter_result(match)
    client.post(reverse("scoring:printables", args=[sim.tournament.slug]), {"kind": "bracket_a3"})
    run_queued()
    after = PrintJob.objects.filter(kind="bracket_a3").exclude(pk=before.pk).get()
    assert after.digest != before.digest
    content = client.get(reverse("scoring:printable_job_pdf", args=[sim.tournament.slug, after.pk])).content
    save_preview(content, "cuadro-a3")  # the README's picture
    text = pdf_text(content)[1]
    assert text.count("Ganadora de la mesa") == 0  # the semifinals' seats are all known
    for match in Match.objects.filter(round=sim.rounds[-1]).select_related("winner"):
        assert text.count(match.winner.display_name) == 2, text  # its first-round box and its semifinal seat


def test_a_bracket_wider_than_a_sheet_is_cut_and_each_part_says_where_it_goes_on() -> None:
    """80 pairs: 40 first-round matches, more than an A4 sheet's 16 or an A3 sheet's 32."""
    sim = knockout(80, seed=11)
    tree = bracket(Tournament.objects.get(pk=sim.tournament.pk)).tree
    first = {
        (m.pair_a.number, m.pair_b.number if m.pair_b else None) for m in Match.objects.filter(round=sim.rounds[-1])
    }
    for paper in (A4_PORTRAIT, A3_LANDSCAPE):
        sheets = bracket_sheets("Cuadro", tree, paper)
        assert len(sheets) > 1 and [s.number for s in sheets] == list(range(1, len(sheets) + 1))
        drawn = set()
        links = 0
        for sheet in sheets:
            assert sheet.of == len(sheets)
            for box in sheet.boxes:  # inside the drawing, the type no smaller than 5 pt
                assert box.x >= 0 and box.x + box.w <= paper.width + 1e-6
                assert box.y >= 0 and box.y + box.h <= paper.height + 1e-6
                if box.head.startswith("R1 "):
                    drawn.add((int(box.a.number), int(box.b.number) if box.b.number else None))
                if box.link.startswith("→"):  # drawn again as the top of the sheet it points to
                    on, key = re.fullmatch(r"→ hoja (\d+) \((\w+)\)", box.link).groups()
                    target = sheets[int(on) - 1]
                    assert int(on) > sheet.number and "viene de la hoja" in target.section
                    again = [b for b in target.boxes if b.link == f"← hoja {sheet.number} ({key})"]
                    assert [b.head for b in again] == [box.head] and again[0].x == max(b.x for b in target.boxes)
                    links += 1
            assert sheet.font_pt >= 6
            columns: dict[float, list[Any]] = {}
            for box in sheet.boxes:
                columns.setdefault(round(box.x, 3), []).append(box)
            for boxes in columns.values():  # no two boxes of a round overlap
                boxes.sort(key=lambda b: b.y)
                assert all(a.y + a.h <= b.y + 1e-6 for a, b in itertools.pairwise(boxes))
        assert drawn == first  # every first-round match on exactly one sheet
        assert links >= len(sheets) - 1  # every sheet after the first is reached from a box
        # Parts that go on share sheets: 40 first-round matches, 16 a sheet, a top sheet.
        assert len(sheets) <= 1 + -(-40 // paper.leaves) + 1


def test_a_tournament_without_knockout_has_no_bracket_to_print() -> None:
    sim = new_tournament(11, format=Tournament.Format.SWISS, swiss_rounds=4)
    publish_next_round(sim)
    client = staff(sim)
    page = client.get(reverse("scoring:printables", args=[sim.tournament.slug])).content.decode()
    assert 'value="bracket_a3"' not in page
    response = client.post(reverse("scoring:printables", args=[sim.tournament.slug]), {"kind": "bracket_a3"})
    messages = [str(m) for m in response.wsgi_request._messages]  # type: ignore[attr-defined]
    assert messages == ["Este torneo no tiene cuadro: su sistema no tiene eliminatorias."]
    assert not PrintJob.objects.exists()
    # The rondas finales of an N ceros: how many pairs reach them is known at their first draw.
    sim = new_tournament(8, format=Tournament.Format.CEROS, max_losses=2, final_phase_from_round=3)
    client = staff(sim)
    assert (
        'value="bracket_a3"' in client.get(reverse("scoring:printables", args=[sim.tournament.slug])).content.decode()
    )
    response = client.post(reverse("scoring:printables", args=[sim.tournament.slug]), {"kind": "bracket_a4"})
    messages = [str(m) for m in response.wsgi_request._messages]  # type: ignore[attr-defined]
    assert re.match("El cuadro aún no tiene partidas", messages[0])
    assert not PrintJob.objects.exists()


def test_a_knockout_prints_its_empty_bracket_before_the_draw_for_the_wall() -> None:
    sim = new_tournament(8, format=Tournament.Format.CEROS, max_losses=1)
    _job, content = print_bracket(staff(sim), sim, "bracket_a3")
    text = pdf_text(content)[1]
    assert text.count("R1 · por sortear") == 4 and text.count("R2 · por sortear") == 2 and "R3" in text
    assert "Ganadora de la mesa" not in text
