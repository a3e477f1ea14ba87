"""Issue 34, item 10: the staff's menu fits a 1366 px laptop — every entry of the management bar
in view at once, none hidden behind a sideways scroll, in Spanish and in the language with the
longest words (Basque) — while a phone keeps it as one line that scrolls sideways."""

import pytest
from selenium.webdriver.common.by import By

from tests.e2e.test_referees_browser import log_in
from tests.factories import UserFactory, grant
from tests.torneo.simulation import new_tournament
from torneo.templatetags.menus import STAFF

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LAPTOP = (1366, 768)


def bar(browser) -> dict:
    """The management bar as the browser lays it out: its links' boxes, and whether it scrolls."""
    return browser.execute_script(
        "const nav = document.querySelector('nav.subnav');"
        "const links = [...nav.querySelectorAll('a')].map(a => {const r = a.getBoundingClientRect();"
        " return {text: a.textContent.trim(), left: r.left, right: r.right, top: Math.round(r.top)};});"
        "return {links, scrolls: nav.scrollWidth > nav.clientWidth, viewport: document.documentElement.clientWidth,"
        " page: document.documentElement.scrollWidth};"
    )


@pytest.mark.parametrize("language", ["es", "eu"])
def test_every_entry_of_the_staff_menu_is_in_view_on_a_1366_px_laptop(live_server, browser, language):
    sim = new_tournament(4, results_double_check=True)
    grant(UserFactory(username=f"organiza-{language}"), sim.tournament, "organizer")
    log_in(browser, live_server, f"organiza-{language}")
    browser.add_cookie({"name": "django_language", "value": language})
    browser.set_window_size(*LAPTOP)
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/")
    assert browser.find_element(By.CSS_SELECTOR, "html").get_attribute("lang") == language
    shown = bar(browser)
    assert len(shown["links"]) == len(STAFF)  # «Por confirmar» included: the tournament double-checks
    assert not shown["scrolls"] and shown["page"] <= shown["viewport"]
    for link in shown["links"]:
        assert link["left"] >= 0 and link["right"] <= shown["viewport"], link
    assert len({link["top"] for link in shown["links"]}) <= 2  # two lines at most


def test_on_a_phone_the_staff_menu_is_one_line_that_scrolls_sideways(live_server, browser):
    sim = new_tournament(4)
    grant(UserFactory(username="organiza-movil"), sim.tournament, "organizer")
    log_in(browser, live_server, "organiza-movil")
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/")
    shown = bar(browser)
    assert shown["scrolls"] and shown["page"] <= shown["viewport"]  # the bar scrolls, not the page
    assert len({link["top"] for link in shown["links"]}) == 1
