"""In a real browser, from the keyboard only: the mesa de control types a table number and Enter,
sees the two pairs, types the juegos and Enter, and is back on the table field for the next acta;
the list of tables missing an acta empties. A table someone else entered meanwhile gets a clear
conflict message instead of being overwritten."""

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from scoring.models import ResultSubmission
from scoring.services.results import result_submit
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(browser, live_server, username: str) -> None:
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/cuenta/entrar/")
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys("clave-de-prueba" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "/cuenta/entrar/" not in d.current_url)


def focused(browser) -> str:
    return browser.switch_to.active_element.get_attribute("name") or ""


def wait_focus(browser, name: str) -> None:
    WebDriverWait(browser, 5).until(lambda d: focused(d) == name, f"el foco no llegó a {name}")


def wait_pairs(browser, match) -> None:
    """The cursor moves on at once; the pairs appear when the lookup answers."""
    WebDriverWait(browser, 5).until(
        lambda d: match.pair_a.display_name in d.find_element(By.ID, "entry-match").text,
        f"no aparecen las parejas de la mesa {match.table_number}",
    )


def test_the_mesa_enters_every_acta_from_the_keyboard_only(live_server, browser):
    sim = new_tournament(6, seed=41, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    grant(UserFactory(username="mesa"), sim.tournament, "control")
    log_in(browser, live_server, "mesa")
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/resultados/")
    wait_focus(browser, "table")  # the cursor starts on the table number (autofocus, once the page is parsed)
    for match in playing(round_):
        browser.switch_to.active_element.send_keys(f"{match.table_number}" + Keys.ENTER)
        wait_focus(browser, "games_a")
        wait_pairs(browser, match)
        card = browser.find_element(By.ID, "entry-match").text
        assert match.pair_a.display_name in card and match.pair_b.display_name in card
        browser.switch_to.active_element.send_keys("3")
        wait_focus(browser, "games_b")  # one digit for pair A moves on to pair B
        browser.switch_to.active_element.send_keys("1" + Keys.ENTER)
        WebDriverWait(browser, 5).until(
            lambda d, t=match.table_number: f"Mesa {t}:" in d.find_element(By.ID, "entry-feedback").text
        )
        wait_focus(browser, "table")  # back on the table number for the next acta
        assert browser.find_element(By.ID, "id_table").get_attribute("value") == ""
    assert "Todas las mesas tienen resultado." in browser.find_element(By.ID, "entry-missing").text
    results = set(Match.objects.filter(round=round_).values_list("outcome", "games_a", "games_b"))
    assert results == {("played", 3, 1)}
    assert set(ResultSubmission.objects.filter(match__round=round_).values_list("source", flat=True)) == {"control"}


def test_a_table_entered_meanwhile_by_someone_else_shows_a_conflict(live_server, browser):
    sim = new_tournament(4, seed=42)
    round_ = publish_next_round(sim)
    grant(UserFactory(username="mesa-a"), sim.tournament, "control")
    other = grant(UserFactory(username="mesa-b"), sim.tournament, "control")
    log_in(browser, live_server, "mesa-a")
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/resultados/")
    match = playing(round_)[0]
    browser.switch_to.active_element.send_keys(f"{match.table_number}" + Keys.ENTER)
    wait_focus(browser, "games_a")
    wait_pairs(browser, match)  # the version seen: none yet
    result_submit(match=match, by=other, games_a=3, games_b=0, expected_version=0)  # meanwhile, at the other desk
    browser.switch_to.active_element.send_keys("0")
    wait_focus(browser, "games_b")
    browser.switch_to.active_element.send_keys("3" + Keys.ENTER)
    message = WebDriverWait(browser, 5).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "#entry-feedback .msg.error").text
    )
    assert "acaba de recibir otro resultado (versión 1, de mesa-b)" in message
    assert "Ya tiene resultado" in browser.find_element(By.ID, "entry-match").text
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.submissions.count()) == (3, 0, 1)


def open_desk(browser, live_server, sim, username: str = "mesa"):
    grant(UserFactory(username=username), sim.tournament, "control")
    log_in(browser, live_server, username)
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/resultados/")
    wait_focus(browser, "table")


def field_errors(browser, name: str) -> str:
    field = browser.find_element(By.NAME, name).find_element(By.XPATH, "./ancestor::div[contains(@class,'field')]")
    return " ".join(e.text for e in field.find_elements(By.CSS_SELECTOR, ".errorlist"))


def test_bad_input_is_shown_on_its_field_and_what_was_typed_stays(live_server, browser):
    """The tantos are checked before sending (the form's message); the API's refusals go next to
    their fields; nothing is written; corrected, Enter saves it."""
    sim = new_tournament(4, seed=43)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    open_desk(browser, live_server, sim)
    browser.switch_to.active_element.send_keys(f"{match.table_number}" + Keys.ENTER)
    wait_focus(browser, "games_a")
    browser.switch_to.active_element.send_keys("3")
    wait_focus(browser, "games_b")
    browser.switch_to.active_element.send_keys("3" + Keys.ENTER)  # 3-3: the service refuses it
    WebDriverWait(browser, 5).until(lambda d: "3-3 no es un resultado posible" in field_errors(d, "games_a"))
    assert "Revisa los campos marcados." in browser.find_element(By.ID, "entry-feedback").text
    assert focused(browser) == "games_a"
    # The refused value is selected: what is typed replaces it (issue 34: «3» then «30» was «330»).
    browser.switch_to.active_element.send_keys("3")
    assert browser.find_element(By.NAME, "games_a").get_attribute("value") == "3"
    games_b = browser.find_element(By.NAME, "games_b")
    games_b.clear()
    games_b.send_keys("1")  # 3-1 now
    browser.find_element(By.CSS_SELECTOR, "#entry-more summary").click()
    browser.find_element(By.NAME, "tantos").send_keys("cuarenta" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "como 40-32" in field_errors(d, "tantos"))
    assert browser.find_element(By.NAME, "games_a").get_attribute("value") == "3"
    assert not match.submissions.exists()
    tantos = browser.find_element(By.NAME, "tantos")
    tantos.clear()
    tantos.send_keys("40-10, 12-40 40-0 40-39" + Keys.ENTER)
    WebDriverWait(browser, 5).until(
        lambda d: f"Mesa {match.table_number}:" in d.find_element(By.ID, "entry-feedback").text
    )
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.tantos_a, match.tantos_b) == (3, 1, 132, 89)
    assert match.submissions.get().source == "control"  # the desk's provenance, through the API


def test_a_walkover_names_the_side_and_the_pair_number_is_sent(live_server, browser):
    sim = new_tournament(4, seed=44)
    round_ = publish_next_round(sim)
    match = playing(round_)[-1]
    open_desk(browser, live_server, sim)
    browser.switch_to.active_element.send_keys(f"{match.table_number}" + Keys.ENTER)
    wait_focus(browser, "games_a")
    wait_pairs(browser, match)
    browser.find_element(By.CSS_SELECTOR, "#entry-more summary").click()
    Select(browser.find_element(By.NAME, "outcome")).select_by_value("walkover")
    winner = Select(browser.find_element(By.NAME, "winner"))
    assert str(match.pair_b.number) in winner.options[2].text  # the options name the pairs
    winner.select_by_value("b")
    browser.find_element(By.NAME, "reason").send_keys(Keys.ENTER)  # Enter in a text field sends the form
    WebDriverWait(browser, 5).until(lambda d: "Incomparecencia" in d.find_element(By.ID, "entry-feedback").text)
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.games_a, match.games_b) == ("walkover", match.pair_b_id, 0, 3)


def test_a_slow_network_at_human_speed(live_server, browser):
    """Every answer takes 400 ms: Enter on the table moves on at once and the pairs follow, Enter on
    the juegos waits for a lookup still in flight, and the lists of missing tables refresh from the answer."""
    sim = new_tournament(6, seed=45, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    open_desk(browser, live_server, sim)
    browser.execute_cdp_cmd("Network.enable", {})
    slow = {"offline": False, "latency": 400, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
    try:
        for match in playing(round_):
            for key in str(match.table_number):
                browser.switch_to.active_element.send_keys(key)
            browser.switch_to.active_element.send_keys(Keys.ENTER)
            wait_focus(browser, "games_a")
            wait_pairs(browser, match)
            browser.switch_to.active_element.send_keys("3")
            wait_focus(browser, "games_b")
            browser.switch_to.active_element.send_keys("2" + Keys.ENTER)
            WebDriverWait(browser, 5).until(
                lambda d, t=match.table_number: f"Mesa {t}:" in d.find_element(By.ID, "entry-feedback").text
            )
            wait_focus(browser, "table")
            missing = browser.find_element(By.ID, "entry-missing").text
            assert str(match.table_number) not in missing.split()
        assert "Todas las mesas tienen resultado." in browser.find_element(By.ID, "entry-missing").text
    finally:
        off = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", off)
    assert set(Match.objects.filter(round=round_).values_list("games_a", "games_b")) == {(3, 2)}


def test_with_no_answer_from_the_api_the_acta_is_kept_and_sent_later(live_server, browser):
    """The API unreachable (blocked here): the acta is kept on this device (issue 33,
    static/js/offline-queue.js) and sent once when the API answers again; the form is ready for
    the next table meanwhile."""
    sim = new_tournament(4, seed=46)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    open_desk(browser, live_server, sim)
    browser.switch_to.active_element.send_keys(f"{match.table_number}" + Keys.ENTER)
    wait_focus(browser, "games_a")
    wait_pairs(browser, match)
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/v1/*"]})
    try:
        browser.switch_to.active_element.send_keys("3")
        wait_focus(browser, "games_b")
        browser.switch_to.active_element.send_keys("0" + Keys.ENTER)
        WebDriverWait(browser, 10).until(
            lambda d: (
                f"Mesa {match.table_number}: sin conexión, guardada en este dispositivo"
                in d.find_element(By.ID, "entry-feedback").text
            )
        )
        wait_focus(browser, "table")
        assert not match.submissions.exists()
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    browser.execute_script("return window.TorneoQueue.flush()")  # as the queue does by itself
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return window.TorneoQueue.pending()") == 0)
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.submissions.get().source) == (3, 0, "control")


def test_without_javascript_the_plain_form_works(live_server, browser):
    sim = new_tournament(4, seed=47)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    grant(UserFactory(username="mesa"), sim.tournament, "control")
    log_in(browser, live_server, "mesa")
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/resultados/")
        browser.find_element(By.NAME, "table").send_keys(f"{match.table_number}" + Keys.ENTER)
        # The submit replaces the page: the old page's element may go stale under the wait's feet,
        # which Chromium reports either as a stale element or as «Node with given id does not belong
        # to the document» (a plain WebDriverException): both mean «not yet», and the wait goes on.
        WebDriverWait(browser, 5, ignored_exceptions=(StaleElementReferenceException, WebDriverException)).until(
            lambda d: match.pair_a.display_name in d.find_element(By.ID, "entry-match").text
        )
        browser.find_element(By.NAME, "games_a").send_keys("1")
        browser.find_element(By.NAME, "games_b").send_keys("3" + Keys.ENTER)
        WebDriverWait(browser, 5).until(lambda d: "?ronda=1" in d.current_url)
        assert "Anotado (versión 1)." in browser.find_element(By.CSS_SELECTOR, ".messages .msg").text
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    match.refresh_from_db()
    assert (match.games_a, match.games_b) == (1, 3)


# --- typing ahead of the network: nothing typed is ever lost (the issue «The site as its users meet it») ---

KEY_PAUSE = 0.15  # a person at the desk: one key every 150 ms


def type_keys(browser, keys: str) -> None:
    """Type as a person does: one key at a time into whatever has the focus, 150 ms apart, never
    waiting for the page (Keys.ENTER is one character of the string)."""
    for key in keys:
        browser.switch_to.active_element.send_keys(key)
        time.sleep(KEY_PAUSE)


@contextmanager
def network_latency(browser, latency: int) -> Iterator[None]:
    """Every request of the page takes `latency` ms more (the DevTools protocol's throttling)."""
    browser.execute_cdp_cmd("Network.enable", {})
    conditions = {"offline": False, "latency": latency, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
    try:
        yield
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {**conditions, "latency": 0})


# Holds the answers of the page's fetch() calls whose "METHOD address" matches a pattern (the first
# `count` of them; -1: all) until the test releases them: the request reaches the server at once,
# only the page hears back late. Gone with the next page load.
HOLD_ANSWERS = """
const pattern = new RegExp(arguments[0]);
let left = arguments[1];
const real = window.fetch.bind(window);
window.heldAnswers = [];
window.heldSeen = 0;
window.heldDelivered = 0;
window.fetch = (input, init) => {
  const what = ((init && init.method) || "GET").toUpperCase() + " " + String(input);
  const answer = real(input, init);
  if (left === 0 || !pattern.test(what)) return answer;
  left -= 1;
  window.heldSeen += 1;
  return new Promise((resolve, reject) => window.heldAnswers.push(() => answer.then(resolve, reject)
    .finally(() => setTimeout(() => { window.heldDelivered += 1; }, 0))));
};
window.releaseAnswers = () => {
  const held = window.heldAnswers.splice(0);
  held.forEach((go) => go());
  return held.length;
};
"""


def hold_answers(browser, pattern: str, count: int = -1) -> None:
    browser.execute_script(HOLD_ANSWERS, pattern, count)


def held(browser) -> int:
    return browser.execute_script("return window.heldSeen")


def release_answers(browser) -> None:
    """Let the held answers through and wait until the page has had them (and a moment to act)."""
    released = browser.execute_script("return window.releaseAnswers()")
    assert released, "no había ninguna respuesta retenida"
    WebDriverWait(browser, 5).until(lambda d: d.execute_script("return window.heldDelivered") >= released)
    time.sleep(0.3)


def lookup_of(table: int) -> str:
    return rf"^GET .*/results/lookup/\?.*\btable={table}$"


def at_table(round_, number: int) -> Match:
    return next(m for m in playing(round_) if m.table_number == number)


def value(browser, name: str) -> str:
    return browser.find_element(By.NAME, name).get_attribute("value") or ""


def sides(browser) -> tuple[str, str]:
    """The pairs named beside the juegos fields."""
    return tuple(e.text for e in browser.find_elements(By.CSS_SELECTOR, ".entry-side"))  # type: ignore[return-value]


def page_text(browser) -> str:
    """What the desk shows and holds: the messages, the pairs, and the number in the table field."""
    texts = [browser.find_element(By.ID, i).text for i in ("entry-feedback", "entry-match", "entry-form")]
    return " ".join([*texts, value(browser, "table")])


def test_typing_3_enter_13_enter_on_a_slow_network_enters_table_3(live_server, browser):
    """The issue's case: 250 ms per request, the mesa types «3⏎13⏎» at 150 ms a key. Enter on the
    table moves on at once; the 1 and the 3 are the juegos of table 3, never a «mesa 313»."""
    sim = new_tournament(8, seed=50, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    match = at_table(round_, 3)
    open_desk(browser, live_server, sim)
    with network_latency(browser, 250):
        type_keys(browser, "3" + Keys.ENTER + "13" + Keys.ENTER)
        WebDriverWait(browser, 10).until(
            lambda d: "Mesa 3:" in d.find_element(By.ID, "entry-feedback").text or "313" in page_text(d)
        )
    assert "313" not in page_text(browser)
    wait_focus(browser, "table")
    assert value(browser, "table") == ""
    match.refresh_from_db()
    assert (match.outcome, match.games_a, match.games_b, match.winner_id) == ("played", 1, 3, match.pair_b_id)
    assert ResultSubmission.objects.filter(match__round=round_).count() == 1


def test_a_whole_round_typed_without_waiting_for_the_network(live_server, browser):
    """Acta after acta with no pause for the answers (250 ms each): what is typed after Enter on the
    juegos is the next table, and the late answer of the saved acta wipes none of it."""
    sim = new_tournament(24, seed=51, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    tables = [2, 11, 3, 12]
    scores = ["30", "03", "13", "31"]
    open_desk(browser, live_server, sim)
    with network_latency(browser, 250):
        type_keys(browser, "".join(f"{t}{Keys.ENTER}{s}{Keys.ENTER}" for t, s in zip(tables, scores, strict=True)))
        WebDriverWait(browser, 10).until(lambda d: "Mesa 12:" in d.find_element(By.ID, "entry-feedback").text)
    wait_focus(browser, "table")
    assert value(browser, "table") == ""
    entered = {
        m.table_number: (m.games_a, m.games_b)
        for m in Match.objects.filter(round=round_).exclude(outcome=Match.Outcome.PENDING)
    }
    assert entered == {t: (int(s[0]), int(s[1])) for t, s in zip(tables, scores, strict=True)}


def test_a_late_answer_for_the_table_takes_neither_the_focus_nor_the_juegos(live_server, browser):
    """The pairs of table 3 arrive after the mesa has typed both juegos: they are shown, and the
    cursor and the juegos stay where the mesa put them."""
    sim = new_tournament(8, seed=52, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    match = at_table(round_, 3)
    open_desk(browser, live_server, sim)
    hold_answers(browser, lookup_of(3))
    type_keys(browser, "3" + Keys.ENTER)
    wait_focus(browser, "games_a")  # at once: not waiting for the pairs
    type_keys(browser, "1")
    wait_focus(browser, "games_b")
    type_keys(browser, "3")
    release_answers(browser)
    WebDriverWait(browser, 5).until(lambda d: match.pair_a.display_name in d.find_element(By.ID, "entry-match").text)
    assert focused(browser) == "games_b"
    assert (value(browser, "table"), value(browser, "games_a"), value(browser, "games_b")) == ("3", "1", "3")
    assert match.pair_b.display_name in sides(browser)[1]
    type_keys(browser, Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "Mesa 3:" in d.find_element(By.ID, "entry-feedback").text)
    match.refresh_from_db()
    assert (match.games_a, match.games_b) == (1, 3)


def test_an_answer_for_an_older_table_number_is_ignored(live_server, browser):
    """The lookup of table 3 answers after the mesa changed it to 4 and typed the juegos: the page
    keeps table 4, its pairs and the juegos; the acta goes to table 4."""
    sim = new_tournament(8, seed=53, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    three, four = at_table(round_, 3), at_table(round_, 4)
    open_desk(browser, live_server, sim)
    hold_answers(browser, lookup_of(3))
    type_keys(browser, "3")
    WebDriverWait(browser, 5).until(lambda d: held(d) == 1)  # table 3 asked for
    type_keys(browser, Keys.BACKSPACE + "4" + Keys.ENTER)
    wait_focus(browser, "games_a")
    type_keys(browser, "3")
    wait_focus(browser, "games_b")
    type_keys(browser, "0")
    WebDriverWait(browser, 5).until(lambda d: four.pair_a.display_name in d.find_element(By.ID, "entry-match").text)
    release_answers(browser)
    card = browser.find_element(By.ID, "entry-match").text
    assert four.pair_a.display_name in card and three.pair_a.display_name not in card
    assert three.pair_a.display_name not in " ".join(sides(browser))
    assert focused(browser) == "games_b"
    assert (value(browser, "table"), value(browser, "games_a"), value(browser, "games_b")) == ("4", "3", "0")
    type_keys(browser, Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "Mesa 4:" in d.find_element(By.ID, "entry-feedback").text)
    four.refresh_from_db()
    three.refresh_from_db()
    assert (four.games_a, four.games_b, three.outcome) == (3, 0, Match.Outcome.PENDING)


def test_a_stale_answer_for_the_same_table_never_replaces_a_newer_one(live_server, browser):
    """Table 3 asked twice, another desk entering it in between: the first (older) answer arriving
    last is dropped, so the page keeps showing the result that stands and the version sent is the
    one seen (a knowing correction, no conflict)."""
    sim = new_tournament(8, seed=54, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    match = at_table(round_, 3)
    other = grant(UserFactory(username="otra-mesa"), sim.tournament, "control")
    open_desk(browser, live_server, sim)
    hold_answers(browser, lookup_of(3), count=1)
    type_keys(browser, "3")
    WebDriverWait(browser, 5).until(lambda d: held(d) == 1)
    result_submit(match=match, by=other, games_a=3, games_b=0, expected_version=0)  # meanwhile, at the other desk
    type_keys(browser, Keys.BACKSPACE + "3")
    WebDriverWait(browser, 5).until(lambda d: "Ya tiene resultado" in d.find_element(By.ID, "entry-match").text)
    type_keys(browser, Keys.ENTER)
    wait_focus(browser, "games_a")
    type_keys(browser, "31")
    release_answers(browser)
    assert "Ya tiene resultado" in browser.find_element(By.ID, "entry-match").text
    type_keys(browser, Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "Mesa 3:" in d.find_element(By.ID, "entry-feedback").text)
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.submissions.count()) == (3, 1, 2)


def test_a_refused_acta_answered_after_the_mesa_moved_on_waits_for_it(live_server, browser):
    """Enter on the juegos clears the form at once for the next acta; when the answer is a refusal
    and the mesa is already typing the next table, what was typed stays and the page offers to go
    back to the refused acta, which comes back with its messages."""
    sim = new_tournament(8, seed=55, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    open_desk(browser, live_server, sim)
    hold_answers(browser, r"^POST ")
    type_keys(browser, "3" + Keys.ENTER + "33" + Keys.ENTER)  # 3-3: the service refuses it
    wait_focus(browser, "table")
    type_keys(browser, "4")
    release_answers(browser)
    feedback = browser.find_element(By.ID, "entry-feedback")
    WebDriverWait(browser, 5).until(lambda d: "La mesa 3 no se ha anotado" in feedback.text)
    assert "3-3 no es un resultado posible" in feedback.text
    assert (focused(browser), value(browser, "table")) == ("table", "4")
    feedback.find_element(By.TAG_NAME, "button").click()
    WebDriverWait(browser, 5).until(lambda d: "3-3 no es un resultado posible" in field_errors(d, "games_a"))
    assert (value(browser, "table"), value(browser, "games_a"), value(browser, "games_b")) == ("3", "3", "3")
    assert not ResultSubmission.objects.filter(match__round=round_).exists()


# --- the counters and the names beside the juegos stay true after each save ------------------------


def counters(browser) -> tuple[str, str, str]:
    """Mesas sin acta, Pendientes de confirmar, «N de M con resultado»."""
    return (
        browser.find_element(By.ID, "missing-count").text,
        browser.find_element(By.ID, "awaiting-count").text,
        browser.find_element(By.ID, "decided-count").text,
    )


def test_the_counters_and_the_pairs_beside_the_juegos_stay_true_after_each_save(live_server, browser):
    sim = new_tournament(6, seed=56, format=Tournament.Format.CEROS, max_losses=1)
    sim.tournament.results_double_check = True
    sim.tournament.save()
    round_ = publish_next_round(sim)
    first, second, third = playing(round_)
    other = grant(UserFactory(username="otra-mesa"), sim.tournament, "control")
    result_submit(match=first, by=other, games_a=3, games_b=1, expected_version=0)  # awaiting confirmation
    open_desk(browser, live_server, sim)
    assert counters(browser) == ("2", "1", "0 de 3 con resultado")
    assert sides(browser) == ("A", "B")

    type_keys(browser, f"{second.table_number}" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: second.pair_a.display_name in sides(d)[0])
    assert second.pair_b.display_name in sides(browser)[1]
    type_keys(browser, "32" + Keys.ENTER)  # proposed: one more awaiting confirmation, one table less
    WebDriverWait(browser, 5).until(
        lambda d: f"Mesa {second.table_number}:" in d.find_element(By.ID, "entry-feedback").text
    )
    WebDriverWait(browser, 5).until(lambda d: counters(d) == ("1", "2", "0 de 3 con resultado"))
    assert sides(browser) == ("A", "B")
    winner = Select(browser.find_element(By.NAME, "winner"))
    assert [o.get_attribute("textContent") for o in winner.options] == ["—", "Pareja A", "Pareja B"]

    type_keys(browser, f"{first.table_number}" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: first.pair_a.display_name in sides(d)[0])
    type_keys(browser, "31" + Keys.ENTER)  # the same acta as the other desk's: confirmed
    WebDriverWait(browser, 5).until(lambda d: "Confirmado" in d.find_element(By.ID, "entry-feedback").text)
    WebDriverWait(browser, 5).until(lambda d: counters(d) == ("1", "1", "1 de 3 con resultado"))
    assert sides(browser) == ("A", "B")
    assert browser.find_element(By.ID, "entry-missing").text.split() == [str(third.table_number)]


def test_a_disagreement_shows_in_red_on_the_desk_and_own_entries_have_no_confirmar_amm_3_16(live_server, browser):
    """Issue 11.2 at the desk: after a disagreeing acta the table shows both versions in red with the
    way to the decision, the list says «ver las dos actas» instead of «confirmar», and the desk's own
    pending entry is not offered to it for confirmation."""
    sim = new_tournament(6, seed=57, format=Tournament.Format.CEROS, max_losses=1)
    sim.tournament.results_double_check = True
    sim.tournament.save()
    round_ = publish_next_round(sim)
    first, second, _third = playing(round_)
    other = grant(UserFactory(username="otra-mesa"), sim.tournament, "control")
    result_submit(match=first, by=other, games_a=3, games_b=1, expected_version=0)
    open_desk(browser, live_server, sim)

    type_keys(browser, f"{first.table_number}" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: first.pair_a.display_name in sides(d)[0])
    type_keys(browser, "13" + Keys.ENTER)  # the mesa's acta says the other pair won
    WebDriverWait(browser, 5).until(lambda d: "no coincide" in d.find_element(By.ID, "entry-feedback").text)
    awaiting = browser.find_element(By.ID, "entry-awaiting")
    WebDriverWait(browser, 5).until(lambda d: "ver las dos actas" in awaiting.text)
    link = awaiting.find_element(By.LINK_TEXT, "ver las dos actas")
    assert link.get_attribute("href").endswith(f"/{first.pk}/#desacuerdo") and "danger" in link.get_attribute("class")
    assert "confirmar" not in awaiting.text

    type_keys(browser, f"{second.table_number}" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: second.pair_a.display_name in sides(d)[0])
    type_keys(browser, "32" + Keys.ENTER)  # the desk's own proposal
    WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "awaiting-count").text == "2")
    own = [li.text for li in awaiting.find_elements(By.TAG_NAME, "li") if f"Mesa {second.table_number}:" in li.text]
    assert own and "la has anotado tú" in own[0] and "confirmar" not in own[0].replace("la confirma", "")

    type_keys(browser, f"{first.table_number}" + Keys.ENTER)
    card = WebDriverWait(browser, 5).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "#entry-match .sc-disagreement")
    )
    assert "Versión 1: 3–1" in card.text and "otra-mesa" in card.text and "Versión 2: 1–3" in card.text
    assert card.find_element(By.TAG_NAME, "a").get_attribute("href").endswith("#desacuerdo")
    browser.refresh()  # the page without the script says the same
    wait_focus(browser, "table")
    lists = browser.find_element(By.ID, "entry-awaiting").text
    assert "ver las dos actas" in lists and "la has anotado tú" in lists
    assert not any(line.endswith("confirmar") for line in lists.splitlines())


def test_a_report_refused_at_the_table_shows_on_the_open_desk_amm_3_16(live_server, browser):
    """The rival pair taps «Rechazar» on a report (AMM 3.16: it does not sign) while the mesa's desk
    is open: the desk's next refresh marks that table «rechazada», saying who refused."""
    from scoring.services.results import result_reject, result_report
    from torneo.models import PairTerminal
    from torneo.services.terminals import terminal_issue

    sim = new_tournament(4, seed=43)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    phones = []
    for pair in (match.pair_a, match.pair_b):
        terminal_issue(pair=pair, by=sim.organizer)
        phones.append(PairTerminal.objects.get(pair=pair).user)
    open_desk(browser, live_server, sim)
    report = result_report(match=match, by=phones[0], games_a=3, games_b=1)
    result_reject(submission=report, by=phones[1])
    button = WebDriverWait(browser, 20).until(
        lambda d: d.find_element(By.CSS_SELECTOR, f'#entry-missing button.refused[data-table="{match.table_number}"]')
    )
    assert "rechazada" in button.text
    title = button.get_attribute("title")
    assert f"Pareja {match.pair_b.number} · móvil" in title and "no firmó el resultado propuesto" in title
