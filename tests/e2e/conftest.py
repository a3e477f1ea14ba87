"""A real headless Chromium (Debian's chromium + chromium-driver) driven by Selenium.

Under the test command (REQUIRE_CHROMIUM=1) a browser that cannot start is a failure, never a skip.
"""

import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


@pytest.fixture(scope="session")
def browser() -> Iterator[webdriver.Chrome]:
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        message = f"faltan {CHROMIUM} o {CHROMEDRIVER} (paquetes chromium y chromium-driver)"
        if os.environ.get("REQUIRE_CHROMIUM") == "1":
            pytest.fail(message)
        pytest.skip(message)
    profile = tempfile.mkdtemp(prefix="torneo-chromium-")
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
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
