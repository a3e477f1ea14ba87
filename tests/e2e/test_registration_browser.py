"""In a real browser, on a phone-sized window: a pair registers through the public form and then
finds itself in the public list by searching its name."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.waits import left_the_page
from tests.factories import TournamentFactory
from torneo.models import Pair

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_register_a_pair_then_find_it_in_the_public_list(live_server, browser):
    t = TournamentFactory(name="Open de Pamplona")
    browser.get(f"{live_server.url}/torneos/{t.slug}/")
    link = browser.find_element(By.LINK_TEXT, "Inscribir una pareja")
    link.click()
    WebDriverWait(browser, 10).until(left_the_page(link))
    fields = {
        "id_name": "Los de Txantrea",
        "id_p1_first_name": "Íñigo",
        "id_p1_last_name": "Goikoetxea Urrutia",
        "id_p1_id_document": "12345678z",
        "id_p1_email": "inigo@example.com",
        "id_p2_first_name": "Maite",
        "id_p2_last_name": "Olano Aguirre",
        "id_p2_phone": "600 123 456",
    }
    for element_id, value in fields.items():
        browser.find_element(By.ID, element_id).send_keys(value)
    submit = browser.find_element(By.CSS_SELECTOR, "form.form button[type=submit]")
    submit.click()
    WebDriverWait(browser, 10).until(left_the_page(submit))  # a loaded machine answers slowly

    message = browser.find_element(By.CSS_SELECTOR, ".messages .msg").text
    assert message == "Pareja Los de Txantrea inscrita con el número 1."
    assert browser.current_url.endswith(f"/torneos/{t.slug}/parejas/")

    search = browser.find_element(By.ID, "q")
    search.send_keys("inigo goikoetxea")
    search.submit()
    WebDriverWait(browser, 10).until(left_the_page(search))
    rows = browser.find_elements(By.CSS_SELECTOR, ".pair-list .pair")
    assert len(rows) == 1
    assert "Íñigo Goikoetxea Urrutia" in rows[0].text and "Maite Olano Aguirre" in rows[0].text
    assert Pair.objects.get(tournament=t).ordered_members()[0].player.id_document == "12345678Z"


def test_bad_input_in_the_browser_shows_spanish_errors_on_the_field(live_server, browser):
    t = TournamentFactory()
    browser.get(f"{live_server.url}/torneos/{t.slug}/inscripcion/")
    browser.find_element(By.ID, "id_p1_first_name").send_keys("Ana")
    browser.find_element(By.ID, "id_p1_last_name").send_keys("Sanz")
    browser.find_element(By.ID, "id_p1_id_document").send_keys("12345678A")
    browser.find_element(By.ID, "id_p2_first_name").send_keys("Luis")
    browser.find_element(By.ID, "id_p2_last_name").send_keys("Gil")
    browser.find_element(By.CSS_SELECTOR, "form.form button[type=submit]").click()
    error = browser.find_element(By.CSS_SELECTOR, ".has-error .errorlist").text
    assert error == "Jugador 1: la letra del DNI no es correcta."
    assert not Pair.objects.exists()
