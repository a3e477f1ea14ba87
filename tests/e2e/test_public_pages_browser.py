"""In a real browser: the public pages kept whole for anonymous visitors (torneo.pagecache) arrive
gzipped and read as the page itself, and the language form, which has no token so that those
pages hold no secret of anyone's (torneo/views/language.py), works from the page."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.torneo.simulation import new_tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_kept_round_page_arrives_gzipped_and_its_language_form_works(live_server, browser):
    sim = new_tournament(12, seed=3)
    round_ = sim.play_round()
    url = f"{live_server.url}/torneos/{sim.tournament.slug}/rondas/{round_.number}/"
    browser.set_window_size(390, 844)
    browser.get(f"{live_server.url}/")
    browser.add_cookie({"name": "django_language", "value": "es"})
    browser.get(url)  # rendered, and kept whole
    browser.get(url)  # the kept bytes, gzipped
    encoding = browser.execute_script(
        "return fetch(location.href).then(r => [r.headers.get('Content-Encoding'), r.text()])"
        ".then(([e, t]) => t.then(text => [e, text.includes('data-live-version')]));"
    )
    assert encoding == ["gzip", True]
    main = browser.find_element(By.TAG_NAME, "main").text
    assert all(m.pair_a.display_name in main for m in round_.matches.select_related("pair_a"))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es"

    Select(browser.find_element(By.CSS_SELECTOR, "form.lang select")).select_by_value("en")
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en")
    assert browser.current_url == url
    assert browser.get_cookie("django_language")["value"] == "en"
