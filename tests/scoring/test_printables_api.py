"""The printables through the API: ask for a round's actas (202), follow the job until it is done,
fetch the PDF; the same document unchanged is the same job, ready at once (200); bad input is a
400 keyed by field that queues nothing; only the tournament's staff print (AMM 3.16)."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import PrintJob
from tests.factories import UserFactory, grant
from tests.scoring.test_actas import pdf_text
from tests.scoring.test_printables import eleven_pairs, run_queued
from tests.torneo.simulation import new_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def sim() -> Any:
    return eleven_pairs()


def client_for(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def base(sim: Any) -> str:
    return f"/api/v1/tournaments/{sim.tournament.slug}/printables/"


def test_a_rounds_actas_through_the_api_from_the_request_to_the_pdf_amm_3_16(sim: Any) -> None:
    client = client_for(sim.organizer)
    response = client.post(base(sim), {"kind": "actas", "round": 1}, format="json")
    assert response.status_code == 202
    job = response.json()
    assert (job["status"], job["total"], job["round"], job["pdf"]) == ("queued", 5, 1, None)
    run_queued()
    state = client.get(f"{base(sim)}{job['id']}/").json()
    assert state["status"] == "done" and state["percent"] == 100 and state["pages"] == 5
    assert state["pdf"].endswith(f"/printables/{job['id']}/pdf/")
    pdf = client.get(state["pdf"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf_text(pdf.content)[0] == 5
    again = client.post(base(sim), {"kind": "actas", "round": 1}, format="json")
    assert again.status_code == 200 and again.json()["id"] == job["id"]  # unchanged: ready at once
    assert [j["id"] for j in client.get(base(sim)).json()] == [job["id"]]


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"kind": "actas", "round": 7}, "round", "La ronda 7 no existe en este torneo."),
        ({"kind": "actas"}, "round", "Indica la ronda."),
        ({"kind": "carteles", "round": 1}, "kind", None),
        ({"kind": "actas", "round": "uno"}, "round", None),
    ],
)
def test_bad_input_is_a_400_by_field_and_queues_nothing(
    sim: Any,
    body: dict[str, Any],
    field: str,
    message: str | None,
) -> None:
    response = client_for(sim.organizer).post(base(sim), body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    if message:
        assert message in str(response.json()[field])
    assert not PrintJob.objects.exists()


def test_only_the_staff_print_through_the_api(sim: Any) -> None:
    client_for(sim.organizer).post(base(sim), {"kind": "standings"}, format="json")
    job = PrintJob.objects.get()
    assert job.round_number == 0
    run_queued()
    urls = [base(sim), f"{base(sim)}{job.pk}/", f"{base(sim)}{job.pk}/pdf/"]
    for url in urls:
        assert client_for().get(url).status_code in (401, 403)
        assert client_for(UserFactory()).get(url).status_code == 403
        for role in ("juez", "control"):
            assert client_for(grant(UserFactory(), sim.tournament, role)).get(url).status_code == 200
    assert client_for(UserFactory()).post(base(sim), {"kind": "standings"}, format="json").status_code == 403
    other = new_tournament(4)
    outsider = client_for(other.organizer)
    assert outsider.get(f"/api/v1/tournaments/{other.tournament.slug}/printables/{job.pk}/").status_code == 404
