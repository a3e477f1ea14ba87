"""Issue 33 in a real browser: the mesa de control's result desk without network. The desk opens
online; the connection is cut (DevTools: Network.emulateNetworkConditions offline); the mesa types
ten actas from the keyboard, each kept on this device at once (the banner counts them) while the
organizer enters one of those tables otherwise; when the connection returns the nine others are
stored exactly once, in the order typed, and the organizer's table keeps its result and shows as a
conflict. Sending again — the queue, a replayed key, a reload — writes nothing more."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from scoring.models import ResultSubmission
from scoring.services.results import result_submit
from tests.e2e.test_results_entry import focused, log_in, wait_focus
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# What static/js/offline-queue.js keeps in IndexedDB ("torneo-offline", store "writes").
STORED_WRITES = """
const done = arguments[arguments.length - 1];
const request = indexedDB.open("torneo-offline", 1);
request.onupgradeneeded = () => request.result.createObjectStore("writes", { keyPath: "seq", autoIncrement: true });
request.onsuccess = () => {
  const db = request.result;
  const get = db.transaction("writes", "readonly").objectStore("writes").getAll();
  get.onsuccess = () => {
    db.close();
    const writes = get.result.sort((a, b) => a.seq - b.seq);
    window.keptWrites = writes; // as stored (a copy through WebDriver may reorder a body's keys)
    done(writes);
  };
  get.onerror = () => done(null);
};
request.onerror = () => done(null);
"""
CLEAR_WRITES = """
const done = arguments[arguments.length - 1];
const request = indexedDB.open("torneo-offline", 1);
request.onupgradeneeded = () => request.result.createObjectStore("writes", { keyPath: "seq", autoIncrement: true });
request.onsuccess = () => {
  const db = request.result;
  const t = db.transaction("writes", "readwrite");
  t.objectStore("writes").clear();
  t.oncomplete = () => { db.close(); done(true); };
};
request.onerror = () => done(false);
"""
ADD_WRITE = """
const done = arguments[arguments.length - 1];
const { seq, ...write } = window.keptWrites[arguments[0]];
const request = indexedDB.open("torneo-offline", 1);
request.onsuccess = () => {
  const db = request.result;
  const t = db.transaction("writes", "readwrite");
  t.objectStore("writes").add(write);
  t.oncomplete = () => { db.close(); done(true); };
};
request.onerror = () => done(false);
"""
FLUSH = "const done = arguments[arguments.length - 1]; window.TorneoQueue.flush().then(done, (e) => done(String(e)));"


def network(browser, online: bool) -> None:
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def banner(browser) -> str:
    found = browser.find_elements(By.ID, "offline-banner")
    return found[0].text if found else ""


def counts(round_) -> dict[int, int]:
    return {m.table_number: m.submissions.count() for m in playing(round_)}


def test_ten_actas_typed_offline_are_stored_once_in_order_and_a_conflict_is_shown(live_server, browser):
    sim = new_tournament(20, seed=33, format=Tournament.Format.CEROS, max_losses=1, results_double_check=False)
    round_ = publish_next_round(sim)
    matches = playing(round_)
    assert len(matches) == 10
    by_table = {m.table_number: m for m in matches}
    grant(UserFactory(username="mesa"), sim.tournament, "control")
    browser.set_script_timeout(60)
    log_in(browser, live_server, "mesa")
    desk = f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/resultados/"
    browser.get(desk)
    WebDriverWait(browser, 10).until(lambda b: b.execute_script("return !!window.TorneoQueue"))
    assert browser.execute_async_script(CLEAR_WRITES)  # nothing left over from another test's pages
    browser.get(desk)
    wait_focus(browser, "table")
    missing = browser.find_element(By.ID, "entry-missing")
    assert len(missing.find_elements(By.CSS_SELECTOR, "button[data-table]")) == 10  # the lists, loaded online

    # Typed in this order (not the tables' own), the fourth one also entered by the organizer.
    tables = sorted(by_table)
    typed = [tables[i] for i in (2, 0, 6, 9, 1, 4, 8, 3, 7, 5)]
    contested = typed[3]
    try:
        network(browser, online=False)
        for number in typed:
            browser.switch_to.active_element.send_keys(f"{number}" + Keys.ENTER)
            wait_focus(browser, "games_a")  # the cursor moves on without the lookup's answer
            browser.switch_to.active_element.send_keys("3")
            wait_focus(browser, "games_b")
            browser.switch_to.active_element.send_keys("1" + Keys.ENTER)
            WebDriverWait(browser, 10).until(
                lambda b, n=number: (
                    f"Mesa {n}: sin conexión, guardada en este dispositivo"
                    in b.find_element(By.ID, "entry-feedback").text
                ),
                f"la mesa {number} no se ha guardado en el dispositivo",
            )
            wait_focus(browser, "table")  # the form is empty for the next table at once
            assert browser.find_element(By.ID, "id_table").get_attribute("value") == ""
        WebDriverWait(browser, 10).until(lambda b: "Sin conexión — 10 " in banner(b), "el aviso no cuenta 10")
        kept = browser.execute_async_script(STORED_WRITES)
        assert [w["label"] for w in kept] == [f"Mesa {n}: 3–1" for n in typed]
        assert {w["kind"] for w in kept} == {"acta"} and len({w["key"] for w in kept}) == 10
        assert [w["body"]["table"] for w in kept] == typed
        assert all(w["body"]["version"] == 0 for w in kept)  # «sin acta» in the list the desk had
        assert not ResultSubmission.objects.filter(match__round=round_).exists()

        # Meanwhile, at another desk, the organizer enters one of those tables otherwise.
        result_submit(match=by_table[contested], by=sim.organizer, games_a=0, games_b=3, expected_version=0)

        network(browser, online=True)  # the queue sends by itself (the online event, or its timer)
        WebDriverWait(browser, 45).until(
            lambda b: b.execute_script("return window.TorneoQueue.pending()") == 0, "la cola no se ha enviado"
        )
        WebDriverWait(browser, 10).until(lambda b: "9 guardados" in banner(b))
        text = banner(browser)
        assert f"1 en conflicto (otra persona lo anotó antes): Mesa {contested}: 3–1" in text
        assert "danger" in browser.find_element(By.ID, "offline-banner").get_attribute("class")
        conflict = WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "entry-sync")).text
        assert f"Mesa {contested}: 3–1" in conflict
        assert f"La mesa {contested} acaba de recibir otro resultado (versión 1" in conflict
        WebDriverWait(browser, 15).until(  # the lists refreshed
            lambda b: "Todas las mesas tienen resultado." in b.find_element(By.ID, "entry-missing").text
        )
        # The way back to the contested acta: what was typed, beside the organizer's result.
        browser.find_element(By.CSS_SELECTOR, "#entry-sync button").click()
        WebDriverWait(browser, 10).until(lambda b: "Ya tiene resultado" in b.find_element(By.ID, "entry-match").text)
        assert browser.find_element(By.ID, "id_table").get_attribute("value") == str(contested)
        assert browser.find_element(By.ID, "id_games_a").get_attribute("value") == "3"
        assert focused(browser) == "games_a"

        # Stored exactly once each, in the order typed; the organizer's result stands.
        assert counts(round_) == dict.fromkeys(tables, 1)
        subs = list(
            ResultSubmission.objects.filter(match__round=round_)
            .exclude(match=by_table[contested])
            .order_by("submitted_at", "pk")
            .select_related("match")
        )
        assert [s.match.table_number for s in subs] == [n for n in typed if n != contested]
        assert {(s.version, s.games_a, s.games_b, s.submitted_by.username) for s in subs} == {(1, 3, 1, "mesa")}
        theirs = Match.objects.get(pk=by_table[contested].pk)
        assert (theirs.games_a, theirs.games_b) == (0, 3)
        assert theirs.submissions.get().submitted_by == sim.organizer

        # Sending again writes nothing: the queue is empty; a write sent again with its own key
        # (as when an answer is lost) gets the first answer back, replayed.
        assert browser.execute_async_script(FLUSH) == {"stored": [], "conflicts": [], "refused": []}
        assert browser.execute_async_script(ADD_WRITE, 0)  # the first acta typed, with its key
        replay = browser.execute_async_script(FLUSH)
        assert [(e["label"], e["status"]) for e in replay["stored"]] == [(f"Mesa {typed[0]}: 3–1", 201)]
        assert counts(round_) == dict.fromkeys(tables, 1)
        browser.get(desk)  # a reload: nothing waits, nothing is sent
        wait_focus(browser, "table")
        assert browser.execute_script("return window.TorneoQueue.pending()") == 0
        assert counts(round_) == dict.fromkeys(tables, 1)
        assert ResultSubmission.objects.filter(match__round=round_).count() == 10
    finally:
        network(browser, online=True)
        browser.execute_async_script(CLEAR_WRITES)
