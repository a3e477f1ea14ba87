"""In a real browser: the mesa de control ticks pairs present on the list of pairs, one tap each and
without reloading (static/js/checkin.js, through the API's check-in), and undoes a tick the same
way. An error is said plainly; with no answer from the API, or without JavaScript, the same button
is a plain form POST and the list comes back with the pair ticked."""

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.waits import left_the_page
from tests.factories import TournamentFactory, UserFactory, grant, make_pair
from torneo.models import Pair
from torneo.services.registrations import pair_withdraw

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def open_pairs(browser, live_server, t) -> None:
    grant(UserFactory(username="mesa"), t, "control")
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/cuenta/entrar/")
    browser.find_element(By.ID, "id_username").send_keys("mesa")
    browser.find_element(By.ID, "id_password").send_keys("clave-de-prueba" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "/cuenta/entrar/" not in d.current_url)
    browser.get(f"{live_server.url}/torneos/{t.slug}/gestion/parejas/")


def button(browser, number: int):
    return browser.find_element(By.CSS_SELECTOR, f"#pair-{number} form.checkin button")


def shown_time(pair: Pair) -> str:
    pair.refresh_from_db()
    return "✔ " + timezone.localtime(pair.checked_in_at).strftime("%H:%M")


def test_check_in_and_undo_without_reloading(live_server, browser):
    t = TournamentFactory()
    first, second = make_pair(t), make_pair(t)
    open_pairs(browser, live_server, t)
    browser.execute_script("window.samePage = true")

    def counter() -> str:
        return browser.find_element(By.ID, "checked-in-count").text

    assert counter() == "0 presentes"
    for count, pair in enumerate((first, second), 1):
        button(browser, pair.number).click()
        WebDriverWait(browser, 5).until(lambda d, n=pair.number: button(d, n).text.startswith("✔"))
        assert button(browser, pair.number).text == shown_time(pair)  # the time the page itself shows
        # Issue 34: the counter follows each tap (as the server counts: every desk's taps).
        WebDriverWait(browser, 5).until(lambda d, c=count: counter() == ("1 presente" if c == 1 else f"{c} presentes"))
    button(browser, first.number).click()  # undo
    WebDriverWait(browser, 5).until(lambda d: button(d, first.number).text == "Presente")
    WebDriverWait(browser, 5).until(lambda d: counter() == "1 presente")
    first.refresh_from_db()
    assert first.checked_in_at is None and Pair.objects.get(pk=second.pk).checked_in_at is not None
    button(browser, first.number).click()  # and again
    WebDriverWait(browser, 5).until(lambda d: button(d, first.number).text.startswith("✔"))
    assert Pair.objects.filter(tournament=t, checked_in_at__isnull=False).count() == 2
    assert browser.execute_script("return window.samePage") is True  # never reloaded


def test_a_refused_check_in_is_said_plainly(live_server, browser):
    t = TournamentFactory()
    pair = make_pair(t)
    open_pairs(browser, live_server, t)
    pair_withdraw(pair=pair, reason="enfermo")  # meanwhile, at another desk
    button(browser, pair.number).click()
    alert = WebDriverWait(browser, 5).until(EC.alert_is_present())
    assert "retirada" in alert.text
    alert.accept()
    assert button(browser, pair.number).text == "Presente" and button(browser, pair.number).is_enabled()
    pair.refresh_from_db()
    assert pair.checked_in_at is None


def test_with_no_answer_from_the_api_the_plain_form_is_sent(live_server, browser):
    t = TournamentFactory()
    pair = make_pair(t)
    open_pairs(browser, live_server, t)
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/v1/*"]})
    try:
        old = button(browser, pair.number)
        old.click()
        WebDriverWait(browser, 10).until(left_the_page(old))
        WebDriverWait(browser, 5).until(lambda d: button(d, pair.number).text.startswith("✔"))
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    assert button(browser, pair.number).text == shown_time(pair)


def test_without_javascript_the_plain_form_works(live_server, browser):
    t = TournamentFactory()
    pair = make_pair(t)
    open_pairs(browser, live_server, t)
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(browser.current_url)
        old = button(browser, pair.number)
        old.click()
        WebDriverWait(browser, 10).until(left_the_page(old))
        assert f"#pair-{pair.number}" in browser.current_url  # back at the same row
        assert button(browser, pair.number).text == shown_time(pair)
        old = button(browser, pair.number)
        old.click()  # undo
        WebDriverWait(browser, 10).until(left_the_page(old))
        assert button(browser, pair.number).text == "Presente"
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    pair.refresh_from_db()
    assert pair.checked_in_at is None
