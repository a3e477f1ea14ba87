"""No log line shows a key (issue 32, torneo/logsafe.py): a pair's private link, an account's invitation or
password link, a player's code. ``redact`` on each kind of address; Django's loggers (a wrong or withdrawn
link's «Not Found: <path>») through the settings' handlers; gunicorn's access and error logs through its
logger class, in process and in a real gunicorn started as scripts/run.sh starts it."""

import datetime
import logging
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from gunicorn.config import Config
from gunicorn.glogging import Logger as GunicornLogger

from tests.factories import TournamentFactory, UserFactory, grant, make_pair
from torneo.logsafe import RedactingGunicornLogger, RedactLinks, redact
from torneo.services.accounts import ALPHABET
from torneo.services.terminals import terminal_issue, terminal_revoke

ROOT = Path(__file__).resolve().parents[2]


def new_token() -> str:
    """A token of the links' shape (torneo/services/terminals.py, accounts.py): 8 characters of the
    codes' alphabet and 32 of ``token_urlsafe``."""
    return "".join(secrets.choice(ALPHABET) for _ in range(8)) + secrets.token_urlsafe(24)


TOKEN = "K7M2QXPA" + "q3Zt-9vB_x1LmN0pRsTuVwXyZ2a4b6c8"  # fixed: the cases' ids must match across xdist workers
CODE = "ABCD-EFGH-JKMN"

# (what a log would have held, what it holds)
REDACTED = [
    # A pair's tarjeta: the path, with a query, in a request line, in a full address (a Referer).
    (f"/torneos/t/tarjeta/{TOKEN}/", "/torneos/t/tarjeta/…/"),
    (f"/torneos/t/tarjeta/{TOKEN}", "/torneos/t/tarjeta/…"),
    (f"/torneos/t/tarjeta/{TOKEN}/?utm=qr&x=1", "/torneos/t/tarjeta/…/?utm=qr&x=1"),
    (f"/torneos/t/tarjeta/{TOKEN}?x=1", "/torneos/t/tarjeta/…?x=1"),
    (f"/torneos/t/tarjeta/{TOKEN}#arriba", "/torneos/t/tarjeta/…#arriba"),
    (f"GET /torneos/t/tarjeta/{TOKEN}/ HTTP/1.1", "GET /torneos/t/tarjeta/…/ HTTP/1.1"),
    (f"https://mus.example.org/torneos/t/tarjeta/{TOKEN}/", "https://mus.example.org/torneos/t/tarjeta/…/"),
    (f'"https://h/torneos/t/tarjeta/{TOKEN}" "Mozilla"', '"https://h/torneos/t/tarjeta/…" "Mozilla"'),
    (f"Not Found: /torneos/t/tarjeta/{TOKEN}x/", "Not Found: /torneos/t/tarjeta/…/"),  # a wrong one too
    (f"/torneos/t/Tarjeta/{TOKEN}/", "/torneos/t/Tarjeta/…/"),
    # URL-encoded: a login's ?next= (once), a ?next= inside a ?next= (twice), characters of the token.
    (
        f"/cuenta/entrar/?next=%2Ftorneos%2Ft%2Ftarjeta%2F{TOKEN}%2F",
        "/cuenta/entrar/?next=%2Ftorneos%2Ft%2Ftarjeta%2F…%2F",
    ),
    (
        f"?next=%252Ftorneos%252Ft%252Ftarjeta%252F{TOKEN}%252F&a=1",
        "?next=%252Ftorneos%252Ft%252Ftarjeta%252F…%252F&a=1",
    ),
    (f"/torneos/t/tarjeta/%41{TOKEN}/", "/torneos/t/tarjeta/…/"),
    (f"/torneos/t/tarjeta/{TOKEN}%3Fx%3D1", "/torneos/t/tarjeta/…%3Fx%3D1"),
    # An account's invitation and password links (torneo/services/accounts.py).
    (f"/torneos/t/cuenta/invitacion/{TOKEN}/", "/torneos/t/cuenta/invitacion/…/"),
    (f"/torneos/t/cuenta/contrasena/{TOKEN}/?x=1", "/torneos/t/cuenta/contrasena/…/?x=1"),
    (
        f"/cuenta/entrar/?next=%2Ftorneos%2Ft%2Fcuenta%2Finvitacion%2F{TOKEN}%2F",
        "/cuenta/entrar/?next=%2Ftorneos%2Ft%2Fcuenta%2Finvitacion%2F…%2F",
    ),
    (
        f"/cuenta/entrar/?next=%2Ftorneos%2Ft%2Fcuenta%2Fcontrasena%2F{TOKEN}%2F",
        "/cuenta/entrar/?next=%2Ftorneos%2Ft%2Fcuenta%2Fcontrasena%2F…%2F",
    ),
    # A player's code in its QR's address; the venue's check-in code in the screen's QR.
    (f"/torneos/t/cuenta/?codigo={CODE}", "/torneos/t/cuenta/?codigo=…"),
    (f"/torneos/t/cuenta/?lang=es&codigo={CODE}&x=1", "/torneos/t/cuenta/?lang=es&codigo=…&x=1"),
    ("/torneos/t/presente/?codigo=K7M2QX HTTP/1.1", "/torneos/t/presente/?codigo=… HTTP/1.1"),
    (f"?next=%2Ftorneos%2Ft%2Fcuenta%2F%3Fcodigo%3D{CODE}", "?next=%2Ftorneos%2Ft%2Fcuenta%2F%3Fcodigo%3D…"),
    (f"codigo={CODE}&x=1", "codigo=…&x=1"),  # a query string alone (gunicorn's %(q)s)
    (f'query: "codigo={CODE}"', 'query: "codigo=…"'),
    # Several in one line, and a line already redacted.
    (
        f"/torneos/t/tarjeta/{TOKEN}/ from https://h/torneos/t/cuenta/invitacion/{TOKEN[::-1]}/",
        "/torneos/t/tarjeta/…/ from https://h/torneos/t/cuenta/invitacion/…/",
    ),
    ("/torneos/t/tarjeta/…/", "/torneos/t/tarjeta/…/"),
]

UNCHANGED = [
    "/torneos/t/gestion/parejas/3/tarjeta/",  # the mesa's page that issues a link
    "POST /torneos/t/gestion/parejas/3/tarjeta/ HTTP/1.1",
    "/torneos/t/gestion/imprimir/tarjetas-de-pareja.pdf",
    "/cuenta/contrasena/",  # changing one's own password
    "/cuenta/contrasena/?next=/torneos/t/",
    "/torneos/t/gestion/cuentas/12/contrasena/",  # the mesa issues a password link
    "/torneos/t/cuenta/",
    "/torneos/t/resultados/?ronda=2&mesa=7",
    "/torneos/t/resultados/?ronda=2&elcodigo=7",
    "Ese no es el código de la sala",
    "",
]


@pytest.mark.parametrize(("text", "expected"), REDACTED)
def test_redact_takes_the_token_out_of_every_kind_of_link(text: str, expected: str) -> None:
    assert redact(text) == expected
    assert TOKEN not in redact(text) and CODE not in redact(text)


@pytest.mark.parametrize("text", UNCHANGED)
def test_redact_leaves_every_other_address_as_it_was(text: str) -> None:
    assert redact(text) == text


# --- Django's loggers ------------------------------------------------------------------------------


def _record(msg: Any, *args: Any, **extra: Any) -> logging.LogRecord:
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, msg, args, None)
    record.__dict__.update(extra)
    return record


def test_the_filter_renders_and_redacts_the_message_and_keeps_the_request() -> None:
    request = object()
    record = _record("%s: %s", "Not Found", f"/torneos/t/tarjeta/{TOKEN}/", request=request, status_code=404)
    assert RedactLinks().filter(record) is True
    assert record.getMessage() == "Not Found: /torneos/t/tarjeta/…/"
    assert record.args == ()
    assert record.request is request and record.status_code == 404  # type: ignore[attr-defined]


def test_the_filter_leaves_a_record_without_links_as_it_was() -> None:
    record = _record("%s: %s", "Not Found", "/torneos/t/rondas/9/")
    assert RedactLinks().filter(record) is True
    assert record.msg == "%s: %s" and record.args == ("Not Found", "/torneos/t/rondas/9/")


def test_the_filter_redacts_a_traceback_and_a_stack() -> None:
    try:
        raise ValueError(f"no se pudo abrir /torneos/t/tarjeta/{TOKEN}/")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "fallo", (), sys.exc_info())
    record.stack_info = f"Stack (most recent call last):\n  url = '/torneos/t/cuenta/invitacion/{TOKEN}/'"
    RedactLinks().filter(record)
    printed = logging.Formatter().format(record)
    assert "ValueError: no se pudo abrir /torneos/t/tarjeta/…/" in printed and TOKEN not in printed


def test_every_handler_of_the_settings_redacts() -> None:
    declared = settings.LOGGING["handlers"]
    assert declared and all("redact_links" in handler.get("filters", []) for handler in declared.values())
    assert settings.LOGGING["filters"]["redact_links"]["()"] == "torneo.logsafe.RedactLinks"
    # And so the handlers Django's setup made: the root's, Django's (DEBUG or not) and runserver's.
    for name in ("", "django", "django.server"):
        handlers = [h for h in logging.getLogger(name).handlers if not type(h).__module__.startswith("_pytest")]
        assert handlers, name
        for handler in handlers:
            assert any(isinstance(f, RedactLinks) for f in handler.filters), (name, handler)


@pytest.fixture
def links(db: None) -> tuple[Any, list[str]]:
    """A tournament with a withdrawn link, a replaced one, a wrong one and a mistyped one: all 404."""
    tournament = TournamentFactory()
    mesa = grant(UserFactory(), tournament, "control")
    pair, other = make_pair(tournament), make_pair(tournament)
    withdrawn = terminal_issue(pair=pair, by=mesa).token
    terminal_revoke(pair=pair, by=mesa)
    replaced = terminal_issue(pair=other, by=mesa).token
    terminal_issue(pair=other, by=mesa)
    tokens = [withdrawn, replaced, new_token(), replaced[:-1] + "x"]
    return tournament, tokens


def _open_all(tournament: Any, tokens: list[str]) -> None:
    for token in tokens:
        response = Client().get(f"/torneos/{tournament.slug}/tarjeta/{token}/?x=1")
        assert response.status_code == 404


def _tokens_logged(records: list[logging.LogRecord], text: str, tokens: list[str]) -> list[str]:
    shown = [r.getMessage() for r in records] + [text]
    return [token for token in tokens if any(token in line for line in shown)]


def test_a_wrong_or_withdrawn_link_logs_its_404_without_the_token(
    links: tuple[Any, list[str]], caplog: pytest.LogCaptureFixture
) -> None:
    tournament, tokens = links
    caplog.set_level(logging.WARNING)
    _open_all(tournament, tokens)
    not_found = [r for r in caplog.records if r.name == "django.request"]
    assert len(not_found) == len(tokens)
    for record in not_found:
        assert record.getMessage() == f"Not Found: /torneos/{tournament.slug}/tarjeta/…/"
        # The record's request is untouched, for the handlers that use it (Django's e-mail to ADMINS).
        assert record.request.path.startswith(f"/torneos/{tournament.slug}/tarjeta/")  # type: ignore[attr-defined]
        assert record.status_code == 404  # type: ignore[attr-defined]
    assert _tokens_logged(caplog.records, caplog.text, tokens) == []


def test_without_the_filter_the_same_404s_would_log_the_tokens(
    links: tuple[Any, list[str]], caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test above can fail: with the filter off every handler, the tokens are in the log."""
    tournament, tokens = links
    for name in ("", "django"):
        for handler in logging.getLogger(name).handlers:
            monkeypatch.setattr(handler, "filters", [f for f in handler.filters if not isinstance(f, RedactLinks)])
    caplog.set_level(logging.WARNING)
    _open_all(tournament, tokens)
    assert _tokens_logged(caplog.records, caplog.text, tokens) == tokens


# --- gunicorn ------------------------------------------------------------------------------------


@pytest.fixture
def gunicorn_logs() -> Iterator[None]:
    """gunicorn's loggers (``gunicorn.error``, ``gunicorn.access``) as they were, after the test."""
    loggers = [logging.getLogger(name) for name in ("gunicorn.error", "gunicorn.access")]
    saved = [(log, list(log.handlers), list(log.filters), log.level, log.propagate) for log in loggers]
    yield
    for log, handlers, filters, level, propagate in saved:
        for handler in log.handlers:
            if handler not in handlers:
                handler.close()
        log.handlers, log.filters, log.level, log.propagate = handlers, filters, level, propagate


def _fakes(token: str) -> tuple[Any, Any, dict[str, Any], datetime.timedelta]:
    """A response, a request and its WSGI environment as gunicorn's workers hand them to ``access``."""
    path, query = f"/torneos/t/tarjeta/{token}/", f"codigo={CODE}&x=1"
    referer = f"https://mus.example.org/torneos/t/cuenta/invitacion/{token}/"
    resp = SimpleNamespace(
        status="404 Not Found",
        sent=1234,
        headers=[
            ("Content-Type", "text/html"),
            ("Location", f"/cuenta/entrar/?next=%2Ftorneos%2Ft%2Ftarjeta%2F{token}%2F"),
        ],
    )
    req = SimpleNamespace(headers=[("HOST", "mus.example.org"), ("REFERER", referer), ("USER-AGENT", "Mozilla/5.0")])
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"{path}?{query}",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.0.2.7",
        "HTTP_REFERER": referer,
        "HTTP_USER_AGENT": "Mozilla/5.0",
        "wsgi.url_scheme": "https",
    }
    return resp, req, environ, datetime.timedelta(seconds=0, microseconds=4200)


def _leaks(atoms: dict[str, Any], token: str) -> dict[str, Any]:
    return {key: value for key, value in atoms.items() if token in str(value) or CODE in str(value)}


@pytest.mark.usefixtures("gunicorn_logs")
def test_gunicorns_atoms_hold_no_token() -> None:
    token = new_token()
    fakes = _fakes(token)
    plain = GunicornLogger(Config()).atoms(*fakes)
    assert {"r", "U", "q", "f", "{referer}i", "{location}o", "{raw_uri}e"} <= set(_leaks(plain, token))
    atoms = RedactingGunicornLogger(Config()).atoms(*fakes)
    assert _leaks(atoms, token) == {}
    assert atoms["r"] == "GET /torneos/t/tarjeta/…/?codigo=…&x=1 HTTP/1.1"
    assert atoms["U"] == "/torneos/t/tarjeta/…/" and atoms["q"] == "codigo=…&x=1"
    assert atoms["f"] == atoms["{referer}i"] == "https://mus.example.org/torneos/t/cuenta/invitacion/…/"
    assert atoms["{location}o"] == "/cuenta/entrar/?next=%2Ftorneos%2Ft%2Ftarjeta%2F…%2F"
    # Everything else as gunicorn gives it.
    assert {key: atoms[key] for key in ("h", "s", "m", "H", "b", "B", "a", "D")} == {
        key: plain[key] for key in ("h", "s", "m", "H", "b", "B", "a", "D")
    }


@pytest.mark.usefixtures("gunicorn_logs")
def test_gunicorns_access_and_error_logs_hold_no_token(tmp_path: Path) -> None:
    token = new_token()
    cfg = Config()
    cfg.set("accesslog", str(tmp_path / "access.log"))
    cfg.set("errorlog", str(tmp_path / "error.log"))
    cfg.set("access_log_format", Config().access_log_format + ' "%({referer}i)s" %(U)s %(q)s %({raw_uri}e)s')
    log = RedactingGunicornLogger(cfg)
    log.setup(cfg)  # a reload (SIGHUP) sets it up again: one filter still
    assert sum(isinstance(f, RedactLinks) for f in log.error_log.filters) == 1
    log.access(*_fakes(token))
    log.error("Error handling request %s", f"/torneos/t/tarjeta/{token}/")
    try:
        raise RuntimeError(f"/torneos/t/cuenta/contrasena/{token}/")
    except RuntimeError:
        log.exception("Error handling request")
    for handler in log.access_log.handlers + log.error_log.handlers:
        handler.flush()
    access = (tmp_path / "access.log").read_text()
    error = (tmp_path / "error.log").read_text()
    assert '"GET /torneos/t/tarjeta/…/?codigo=…&x=1 HTTP/1.1" 404 1234' in access
    assert (
        "Error handling request /torneos/t/tarjeta/…/" in error
        and "RuntimeError: /torneos/t/cuenta/contrasena/…/" in error
    )
    assert token not in access + error and CODE not in access + error


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_sh_gunicorn_arguments() -> list[str]:
    """The arguments scripts/run.sh gives gunicorn, from its command line there."""
    text = (ROOT / "scripts" / "run.sh").read_text().replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.startswith("spawn gunicorn "))
    arguments = line.split()[3:]  # after "spawn gunicorn .venv/bin/gunicorn"
    assert arguments[:1] == ["torneo.wsgi"] and "--bind" in arguments
    at = arguments.index("--bind")
    return arguments[1:at] + arguments[at + 2 :]


def test_run_sh_starts_gunicorn_with_the_redacting_logger() -> None:
    arguments = _run_sh_gunicorn_arguments()
    at = arguments.index("--logger-class")
    assert arguments[at + 1] == "torneo.logsafe.RedactingGunicornLogger"
    assert arguments[arguments.index("--access-logfile") + 1] == "-"


def test_a_real_gunicorn_as_run_sh_starts_it_logs_no_token(tmp_path: Path) -> None:
    """gunicorn with scripts/run.sh's arguments, on its own SQLite database and a free port: a wrong
    link (404, Django's «Not Found») and a page asked with a link as its Referer and a code in its query;
    neither the access log (stdout) nor the error log (stderr, Django's loggers too) shows them."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "torneo.settings",
        "VAR_DIR": str(tmp_path),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "LOG_LEVEL": "WARNING",
    }
    for name in ("DJANGO_PRODUCTION", "CACHE_URL", "RATELIMIT_CACHE_URL", "REQUIRE_POSTGRES", "DEBUG"):
        env.pop(name, None)
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    port, token = _free_port(), new_token()
    arguments = _run_sh_gunicorn_arguments()
    command = [sys.executable, "-m", "gunicorn", "torneo.wsgi", "--bind", f"127.0.0.1:{port}", *arguments]
    out, err = tmp_path / "stdout.log", tmp_path / "stderr.log"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=stdout, stderr=stderr)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"{base}/salud/", timeout=5)
                    break
                except urllib.error.HTTPError:
                    break  # it answers
                except OSError:
                    assert server.poll() is None and time.monotonic() < deadline, err.read_text()[-3000:]
                    time.sleep(0.2)
            asked = [
                (f"/torneos/no-existe/tarjeta/{token}/?codigo={CODE}", f"{base}/torneos/x/cuenta/invitacion/{token}/"),
                (f"/cuenta/entrar/?next=%2Ftorneos%2Fx%2Ftarjeta%2F{token}%2F", f"{base}/torneos/x/tarjeta/{token}/"),
            ]
            statuses = []
            for path, referer in asked:
                request = urllib.request.Request(f"{base}{path}", headers={"Referer": referer})
                try:
                    statuses.append(urllib.request.urlopen(request, timeout=10).status)
                except urllib.error.HTTPError as answer:
                    statuses.append(answer.code)
            assert statuses == [404, 200]
        finally:
            server.terminate()
            server.wait(timeout=30)
    access, errors = out.read_text(), err.read_text()
    assert "GET /torneos/no-existe/tarjeta/…/?codigo=… HTTP/1.1" in access
    assert "GET /cuenta/entrar/?next=%2Ftorneos%2Fx%2Ftarjeta%2F…%2F HTTP/1.1" in access
    assert "Not Found: /torneos/no-existe/tarjeta/…/" in errors
    assert token not in access + errors and CODE not in access + errors
