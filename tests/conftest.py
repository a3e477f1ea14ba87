"""Shared test setup: the real database must be the one the test command promised, fast password
hashing, per-test rate-limit windows, and the shared ``world`` (tests/world.py)."""

import os
import shutil
import subprocess
from collections.abc import Callable

import pytest
from django.db import connection

from tests.world import World, build_world


def pytest_report_header(config: pytest.Config) -> list[str]:
    from django.conf import settings

    lines = [f"base de datos: {settings.DATABASES['default']['ENGINE']}"]
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if os.path.exists(chromium):
        version = subprocess.run([chromium, "--version"], capture_output=True, text=True, check=False).stdout.strip()
        lines.append(f"navegador: {version}")
    return lines


@pytest.fixture(scope="session", autouse=True)
def _required_database(django_db_blocker: object) -> None:
    """With REQUIRE_POSTGRES=1 (the test command), running on anything else is a failure."""
    if os.environ.get("REQUIRE_POSTGRES") == "1":
        assert connection.vendor == "postgresql", f"se exigía PostgreSQL y la base es {connection.vendor}"


@pytest.fixture
def on_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("necesita PostgreSQL (bloqueos de fila y transacciones concurrentes)")


@pytest.fixture(autouse=True)
def _site_language() -> None:
    """Every test starts in the site's language (es): a request in English leaves English active in
    the worker's thread (LocaleMiddleware does not switch back), and a service test that ran after it
    on the same worker would read its messages in English."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: object) -> None:
    """PBKDF2's deliberate slowness has no place in tests (users are created by the hundred)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _rate_limit_cache(settings: object) -> None:
    """Rate-limit windows (torneo/ratelimit.py) and the pages' cache in this process's memory, empty
    for every test: never the shared caches under var/, which the running site and other test runs
    use too."""
    from django.core.cache import caches

    settings.CACHES = {  # type: ignore[attr-defined]
        **settings.CACHES,  # type: ignore[attr-defined]
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages-tests"},
        "ratelimit": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "ratelimit-tests"},
    }
    caches["ratelimit"].clear()
    caches["default"].clear()
    from torneo.pagecache import recent_bodies, recent_pages

    recent_pages().clear()  # the whole pages this process served (torneo.pagecache.RecentPages)
    recent_bodies().clear()  # and the page bodies it used
    # A page changed is rendered again at the next request (production waits a few seconds during
    # a burst: tests/torneo/test_pagecache.py tests that with its own setting).
    settings.PAGES_RENDER_EVERY_SECONDS = 0  # type: ignore[attr-defined]
    # A tournament's public state is read at every request (kept for a second in production: the
    # tests of torneo.pagecache set it themselves).
    settings.PAGES_STATE_SECONDS = 0  # type: ignore[attr-defined]
    # No pair page pre-rendered by a worker (tests/torneo/test_pagecache.py runs it itself).
    settings.PAGES_PRERENDER = False  # type: ignore[attr-defined]


@pytest.fixture
def world(db: object) -> World:
    """A tournament with a user in every role (tests/world.py), for any test that asks for it."""
    return build_world()


@pytest.fixture
def terminal_role(world: World) -> Callable[[str], None]:
    """The pairs' private links (issue 32) as roles of the permission matrices (tests/torneo/matrix.py):
    ``terminal_role(role)`` puts the account of ``role`` in ``world.users`` when it is one of them, and
    does nothing for the other roles (their world stays as it was).

    - "terminal": the terminal of the player's pair (``world.own_pair``), issued by the mesa de control;
      it may do exactly what the player may.
    - "other_terminal": the terminal of a third pair of the tournament, which plays at none of the
      matrices' tables; it may do what anyone may, none of the player's pair's actions."""
    from tests.factories import make_pair
    from torneo.services.terminals import terminal_issue

    def add(role: str) -> None:
        if role in world.users or role not in ("terminal", "other_terminal"):
            return
        pair = world.own_pair if role == "terminal" else make_pair(world.tournament)
        world.users[role] = terminal_issue(pair=pair, by=world.users["control"]).terminal.user

    return add
