"""The printables never follow a request's Host header: the actas' QR codes and printed addresses
are the site's configured address (settings.SITE_URL), and a document is one job whatever name or
port it was asked through, so asking through other Hosts neither makes new jobs nor lets the
cleanup of old versions delete the organizer's. Asserted on the HTML that goes to WeasyPrint (the
rendering itself is tested in test_printables.py and test_actas.py)."""

from collections.abc import Sequence
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

import scoring.views.printing
from scoring.models import PrintJob
from scoring.services import printing as svc
from tests.scoring import playing
from tests.scoring.test_printables import eleven_pairs, run_queued, staff

pytestmark = pytest.mark.django_db

SITE = "https://mus.example.org"


@pytest.fixture
def sim(settings: Any) -> Any:
    settings.SITE_URL = SITE
    settings.ALLOWED_HOSTS = [".example", "testserver"]  # a.example:8000, b.example:9000…
    return eleven_pairs()


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The HTML of every sheet the worker lays out (a PDF of nothing: no WeasyPrint here)."""
    pages: list[str] = []

    def fake_pdf_of_sheets(
        template: str, items: Sequence[Any], *, context: dict[str, Any], key: str = "actas", **_: Any
    ) -> tuple[bytes, int]:
        pages.extend(render_to_string(template, {**context, key: [item]}) for item in items)
        return b"%PDF-1.7 fake", len(items)

    monkeypatch.setattr(svc, "pdf_of_sheets", fake_pdf_of_sheets)
    return pages


def ask(client: Client, sim: Any, host: str) -> Any:
    url = reverse("scoring:printables", args=[sim.tournament.slug])
    return client.post(url, {"kind": "actas", "round": 1}, HTTP_HOST=host)


def partida_address(sim: Any, match: Any) -> str:
    return f"{SITE}/torneos/{sim.tournament.slug}/partidas/{match.pk}/manos/"


def test_a_rounds_actas_asked_through_two_hosts_are_one_job(sim: Any) -> None:
    client = staff(sim)
    first, second = ask(client, sim, "a.example:8000"), ask(client, sim, "b.example:9000")
    job = PrintJob.objects.get()
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] and first["Location"].endswith(f"/imprimir/{job.pk}/")
    assert job.base_url == f"{SITE}/"
    api = APIClient()
    api.force_authenticate(sim.organizer)
    url = f"/api/v1/tournaments/{sim.tournament.slug}/printables/"
    response = api.post(url, {"kind": "actas", "round": 1}, format="json", HTTP_HOST="c.example:8443")
    assert response.json()["id"] == job.pk and PrintJob.objects.count() == 1


def test_the_rounds_actas_print_the_sites_address_never_the_requests_host(sim: Any, rendered: list[str]) -> None:
    ask(staff(sim), sim, "b.example:9000")
    run_queued()
    assert PrintJob.objects.get().status == PrintJob.Status.DONE
    html = "\n".join(rendered)
    for match in playing(sim.rounds[0]):
        assert partida_address(sim, match) in html
    assert "b.example" not in html and "9000" not in html


def test_one_partidas_acta_prints_the_sites_address_never_the_requests_host(
    sim: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages: list[str] = []
    monkeypatch.setattr(scoring.views.printing, "pdf_from_html", lambda html: pages.append(html) or b"%PDF-1.7 fake")
    match = playing(sim.rounds[0])[0]
    url = reverse("scoring:acta_pdf", args=[sim.tournament.slug, match.pk])
    assert staff(sim).get(url, HTTP_HOST="b.example:9000").status_code == 200
    (html,) = pages
    assert partida_address(sim, match) in html and "b.example" not in html


def test_asking_through_many_hosts_never_deletes_the_organizers_job(sim: Any, rendered: list[str]) -> None:
    client = staff(sim)
    ask(client, sim, "a.example:8000")
    run_queued()
    genuine = PrintJob.objects.get()
    for port in range(9001, 9001 + svc.KEEP + 2):  # more than the versions kept (scoring.services.printing)
        assert ask(client, sim, f"b.example:{port}")["Location"].endswith(f"/imprimir/{genuine.pk}/")
        run_queued()
    assert list(PrintJob.objects.values_list("pk", "status")) == [(genuine.pk, PrintJob.Status.DONE)]
