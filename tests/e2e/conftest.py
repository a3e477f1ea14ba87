"""A real headless Chromium (Debian's chromium + chromium-driver) driven by Selenium.

Under the test command (REQUIRE_CHROMIUM=1) a browser that cannot start is a failure, never a skip.
"""

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def _require_chromium() -> None:
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        message = f"faltan {CHROMIUM} o {CHROMEDRIVER} (paquetes chromium y chromium-driver)"
        if os.environ.get("REQUIRE_CHROMIUM") == "1":
            pytest.fail(message)
        pytest.skip(message)


def _chromium(profile: str) -> webdriver.Chrome:
    """A headless Chromium with its own profile: its own cookies, storage and cache."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=412,915",
        f"--user-data-dir={profile}",
        "--lang=es",
    ):
        options.add_argument(flag)
    # The site follows the browser's languages (Spanish first, English when asked): a Spanish phone.
    options.add_experimental_option("prefs", {"intl.accept_languages": "es-ES,es"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(5)
    return driver


@pytest.fixture(scope="session")
def browser() -> Iterator[webdriver.Chrome]:
    _require_chromium()
    profile = tempfile.mkdtemp(prefix="torneo-chromium-")
    driver = _chromium(profile)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def another_browser() -> Iterator[Callable[[], webdriver.Chrome]]:
    """Starts more browsers for this test, each a separate Chromium with its own profile (another
    phone, the juez's desk): nothing shared with ``browser`` nor with each other, all at once."""
    _require_chromium()
    started: list[tuple[webdriver.Chrome, str]] = []

    def start() -> webdriver.Chrome:
        profile = tempfile.mkdtemp(prefix="torneo-chromium-")
        started.append((_chromium(profile), profile))
        return started[-1][0]

    try:
        yield start
    finally:
        for driver, profile in started:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)
