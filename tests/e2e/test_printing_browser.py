"""The mesa de control prints a round's actas from a 390 px phone in a real browser (AMM 3.16): it
asks for them on the Imprimir page, the progress bar moves while a worker lays them out (here a
thread of the test, each chunk of two actas made to take a second, as a big round does), then
«Abrir el PDF» appears and opens the PDF; no page scrolls sideways."""

import threading
import time
from typing import Any

import pytest
from django.db import connection
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import scoring.printing
from scoring.models import PrintJob
from scoring.services import printing as svc
from tests.e2e.test_referees_browser import fits, log_in, submit
from tests.factories import UserFactory, grant
from tests.scoring import publish_next_round
from tests.torneo.simulation import new_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_mesa_prints_a_rounds_actas_and_watches_the_progress_from_a_phone_amm_3_16(
    live_server: Any, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    sim = new_tournament(11, seed=5)
    publish_next_round(sim)
    grant(UserFactory(username="mesa-imprime"), sim.tournament, "control")
    monkeypatch.setattr(scoring.printing, "CHUNK", 2)
    render = svc.pdf_of_sheets

    def slow(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def report(done: int) -> None:
            progress(done)
            time.sleep(1.0)  # a chunk of a big round

        return render(*args, progress=report, **kwargs)

    monkeypatch.setattr(svc, "pdf_of_sheets", slow)

    log_in(browser, live_server, "mesa-imprime")
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/imprimir/")
    fits(browser)
    submit(browser, browser.find_element(By.XPATH, "//button[@value='actas']"))
    WebDriverWait(browser, 5).until(lambda d: d.find_elements(By.ID, "print-progress"))
    fits(browser)
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.QUEUED

    def worker() -> None:
        try:
            svc.printable_run(job_id=job.pk)
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    seen = set()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not browser.find_element(By.ID, "print-ready").is_displayed():
        seen.add(int(browser.execute_script("return document.getElementById('print-progress').value")))
        time.sleep(0.2)
    thread.join(timeout=30)
    assert any(0 < value < 100 for value in seen), seen  # the bar moved while the actas were laid out
    link = browser.find_element(By.LINK_TEXT, "Abrir el PDF")
    assert link.is_displayed() and "5 p." in browser.find_element(By.ID, "print-pages").text
    assert int(browser.execute_script("return document.getElementById('print-progress').value")) == 100
    fits(browser)
    pdf = browser.execute_script(
        "const r = new XMLHttpRequest(); r.open('GET', arguments[0], false); r.send();"
        " return [r.status, r.getResponseHeader('Content-Type')];",
        link.get_attribute("href"),
    )
    assert pdf == [200, "application/pdf"]
