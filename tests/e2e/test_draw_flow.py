"""In a real browser, on a phone-sized window: the mesa de control checks pairs in, prepares round 1
(its commitment is public at once), makes the public draw with the room's value before the juez
(AMM 5.5), and then anyone finds the draw by table and by surname — and recomputes it with
`python -m torneo.draws` from what the page shows."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.e2e.waits import left_the_page
from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from torneo.models import Draw, Match, Pair

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
SURNAMES = ["Zabala", "Ocaña", "Álvarez", "Ibarra", "Muñoz", "Etxeberria", "Urrutia", "Lasa", "Goñi"]


def test_check_in_prepare_and_publish_a_draw_then_find_it_by_table_and_by_surname_amm_5_5(live_server, browser):
    t = TournamentFactory(name="Open de Tolosa")
    organizer = grant(UserFactory(username="mesa"), t, "organizer")
    grant(UserFactory(username="juezprincipal", first_name="Ane", last_name="Juez"), t, "juez")
    for i, surname in enumerate(SURNAMES):
        make_pair(
            t, players=[player_data(i, last_name=f"{surname} Mendi"), player_data(40 + i, last_name=f"{surname} Txiki")]
        )
    base = f"{live_server.url}/torneos/{t.slug}"
    try:
        # Log in as the mesa de control.
        browser.get(f"{live_server.url}/cuenta/entrar/?next=/torneos/{t.slug}/gestion/parejas/")
        browser.find_element(By.ID, "id_username").send_keys(organizer.username)
        browser.find_element(By.ID, "id_password").send_keys("clave-de-prueba")
        login = browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]")
        login.click()
        WebDriverWait(browser, 10).until(left_the_page(login))

        # Check in seven of the nine pairs, one tap each (no reload).
        WebDriverWait(browser, 10).until(EC.url_contains("/gestion/parejas/"))
        for number in range(1, 8):
            button = browser.find_element(By.CSS_SELECTOR, f"#pair-{number} form.checkin button")
            button.click()
            WebDriverWait(browser, 10).until(lambda d, b=button: b.text.startswith("✔"))
        assert Pair.objects.filter(tournament=t, checked_in_at__isnull=False).count() == 7

        # Prepare round 1: only the seven present pairs will be drawn.
        browser.get(f"{base}/gestion/rondas/")
        assert "7 parejas presentes" in browser.find_element(By.CSS_SELECTOR, ".next-step").text
        prepare = browser.find_element(By.CSS_SELECTOR, ".next-step button[type=submit]")
        prepare.click()
        WebDriverWait(browser, 10).until(left_the_page(prepare))
        WebDriverWait(browser, 10).until(EC.url_contains("/gestion/rondas/1/"))
        shown_commitment = browser.find_element(By.CSS_SELECTOR, ".commitment code").text
        draw = Draw.objects.get(round__tournament=t)
        assert shown_commitment == draw.commitment
        assert len(browser.find_elements(By.CSS_SELECTOR, "ol.to-draw li")) == 7

        # The draw, in the room, before the juez: the public value and the juez present.
        browser.find_element(By.ID, "id_public_value").send_keys("dados 5 3 6")
        Select(browser.find_element(By.ID, "id_witness")).select_by_visible_text("Ane Juez")
        submit = browser.find_element(By.CSS_SELECTOR, ".publish-form button[type=submit]")
        submit.click()
        WebDriverWait(browser, 10).until(left_the_page(submit))
        message = browser.find_element(By.CSS_SELECTOR, ".messages .msg").text
        assert message == "Sorteo de la ronda 1 hecho y publicado."

        # The public page, as a player sees it on the phone (logged out).
        browser.delete_all_cookies()
        browser.get(f"{base}/rondas/1/")
        rows = browser.find_elements(By.CSS_SELECTOR, "#mesas .table-row")
        byes = browser.find_elements(By.CSS_SELECTOR, "#mesas .bye")
        assert len(rows) == 3 and len(byes) == 1  # seven pairs: three tables and one exenta (AMM 5.6)
        matches = list(Match.objects.filter(round__tournament=t).select_related("pair_a", "pair_b"))
        for m in matches:
            if m.pair_b is None:
                assert m.pair_a.display_name in byes[0].text
            else:
                row = browser.find_element(By.ID, f"mesa-{m.table_number}")
                assert m.pair_a.display_name in row.text and m.pair_b.display_name in row.text

        # By surname: fourteen players; the filter finds one's own name (accents ignored).
        people = browser.find_elements(By.CSS_SELECTOR, "#lista-apellidos li.who")
        assert len(people) == 14
        names = [p.find_element(By.CSS_SELECTOR, ".name").text for p in people]
        assert names[0].startswith("Álvarez")  # alphabetical, accents ignored
        search = browser.find_element(By.CSS_SELECTOR, "input.surname-filter")
        search.send_keys("ocana txiki")
        visible = [p for p in people if p.is_displayed()]
        assert len(visible) == 1 and visible[0].find_element(By.CSS_SELECTOR, ".name").text.startswith("Ocaña Txiki")
        ocana = Pair.objects.get(tournament=t, members__player__last_name="Ocaña Txiki")
        match = next(m for m in matches if ocana.pk in (m.pair_a_id, m.pair_b_id))
        if match.pair_b is None:
            assert "Exenta" in visible[0].text
        else:
            assert f"Mesa {match.table_number}" in visible[0].text

        # Verify the draw with the command, from the page alone.
        page_input = json.loads(
            browser.find_element(By.CSS_SELECTOR, "#comprobar pre.json").get_attribute("textContent")
        )
        command = browser.find_element(By.CSS_SELECTOR, "#comprobar pre.cmd").text
        assert command == "python -m torneo.draws < sorteo-ronda-1.json"
        out = subprocess.run(
            [sys.executable, "-m", "torneo.draws"],
            input=json.dumps(page_input),
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert out.returncode == 0, out.stdout + out.stderr
        result = json.loads(out.stdout)
        draw.refresh_from_db()
        assert result["verified"] is True and result["seed"] == draw.seed and page_input["public"] == "dados 5 3 6"
        played = {frozenset((m.pair_a.number, m.pair_b.number)) for m in matches if m.pair_b is not None}
        assert {frozenset(m) for m in result["matches"]} == played
        assert result["bye"] == next(m.pair_a.number for m in matches if m.pair_b is None)
    finally:
        browser.delete_all_cookies()
