"""No log line shows a key (issue 32): the links and codes that open something by themselves.

Some of the site's addresses are capabilities: whoever holds one gets in, with no password.

- ``/torneos/<slug>/tarjeta/<token>/``: a pair's private link, its terminal (torneo/services/terminals.py);
- ``/torneos/<slug>/cuenta/invitacion/<token>/`` and ``/torneos/<slug>/cuenta/contrasena/<token>/``: an
  account's invitation and its password link (torneo/services/accounts.py);
- ``?codigo=<code>``: a player's one-time code in its QR's address (``/torneos/<slug>/cuenta/?codigo=``),
  and the venue's check-in code of these minutes (``/torneos/<slug>/presente/?codigo=``).

Each token is 8 characters of the codes' alphabet and 32 of ``secrets.token_urlsafe``; ``redact`` cuts
whatever follows those paths up to the next ``/``, ``?``, ``#``, ``&``, quote or space, so a mistyped or
lengthened token goes too. Also URL-encoded (``%2Ftarjeta%2F…``, as in a login's ``?next=``, encoded once or
more) and in a full address (a Referer). What is left says which kind of link it was: ``/tarjeta/…``.

Two places write request paths, and both go through ``redact``:

- Django's loggers (``django.request``'s «Not Found: <path>» for a wrong or withdrawn link, CSRF refusals,
  the API's own warnings): ``RedactLinks``, a filter on every handler of settings.LOGGING;
- gunicorn's access log and error log: ``RedactingGunicornLogger``, its ``--logger-class``
  (scripts/run.sh, docs/production.md).

A proxy in front (nginx) keeps its own access log: that one is the proxy's configuration.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from gunicorn.glogging import Logger as GunicornLogger  # type: ignore[import-untyped]

REDACTED = "…"

_SLASH = r"(?:/|%(?:25)*2f)"  # a slash, or a slash URL-encoded (once, or again inside a ?next=)
# Where a token ends: a path or query delimiter, a quote, a space; or one of them URL-encoded.
_END = r"(?:[/?#&;\s\"'<>]|%(?:25)*(?:2f|3f|23|26|20|22|27|3c|3e))"
_TOKEN = rf"(?:(?!{_END}).)+"
_PATHS = rf"tarjeta|cuenta{_SLASH}invitacion|cuenta{_SLASH}contrasena"
_LINKS = re.compile(
    rf"(?P<head>{_SLASH}(?:{_PATHS}){_SLASH}"  # /tarjeta/<token>, /cuenta/invitacion/<token>…
    # ?codigo=<code>, &codigo=<code>, or a query string alone (gunicorn's %(q)s): codigo=<code>
    rf"|(?:(?<![^\s\"'])|[?&;]|%(?:25)*(?:3f|26))codigo(?:=|%(?:25)*3d))"
    rf"(?P<token>{_TOKEN})",
    re.IGNORECASE,
)


def redact(text: str) -> str:
    """``text`` without the tokens of the site's capability links: ``/tarjeta/…``, ``?codigo=…``."""
    if not text:
        return text
    return _LINKS.sub(lambda m: m["head"] + REDACTED, text)


class RedactLinks(logging.Filter):
    """A logging filter (settings.LOGGING, on the handlers) that takes the tokens out of a record:
    its message, rendered with its arguments; its traceback and stack. A record with no link is
    left as it was. Never drops a record. ``django.request``'s ``record.request`` and
    ``record.status_code`` stay as they are, for the handlers that use them."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: the handler reports it as it would have
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, ()
        if record.exc_info and not record.exc_text:
            # The traceback as the formatters would print it, kept on the record (which they then
            # print instead) only when it holds a link: other tracebacks stay their formatters' own.
            text = logging.Formatter().formatException(record.exc_info)
            if redact(text) != text:
                record.exc_text = text
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


class RedactingGunicornLogger(GunicornLogger):  # type: ignore[misc]
    """gunicorn's logger (``--logger-class torneo.logsafe.RedactingGunicornLogger``) whose access log
    never shows a token: every text atom is redacted — the request line (``%(r)s``), the path
    (``%(U)s``), the query (``%(q)s``), the Referer (``%(f)s``), the headers and the environment
    (``%({referer}i)s``, ``%({raw_uri}e)s``…) — and whose error log («Error handling request <path>»)
    goes through ``RedactLinks``."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        if not any(isinstance(f, RedactLinks) for f in self.error_log.filters):
            self.error_log.addFilter(RedactLinks())

    def atoms(self, resp: Any, req: Any, environ: Mapping[str, Any], request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {key: redact(value) if isinstance(value, str) else value for key, value in atoms.items()}
