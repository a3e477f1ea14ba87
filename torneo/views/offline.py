"""When the venue's Wi-Fi fails (issue 33): the service worker and its offline page.

``GET /sw.js`` serves static/js/sw.js from the site's root, so that its scope is every page, with
the app shell it precaches written in (the addresses ``{% static %}`` gives: the hashed names of
ManifestStaticFilesStorage in production, the plain ones locally) and a version that is a hash of
the worker, of the shell's files and of their addresses: when any of them changes, the phones see
another worker and install it (the browser compares the worker's bytes). ``GET /sin-conexion/``:
the page the worker answers for a page that was never opened on this phone (cached when the worker
installs; a page of its own, not base.html's frame, which would hold the user's name and a token).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

WORKER = "js/sw.js"
OFFLINE_TEMPLATE = "offline.html"
# What base.html and the desk's, the terminal's, the clocks' and the hall's screen's pages load: kept
# on install.
APP_SHELL = (
    "css/site.css",
    "css/scoring.css",
    "css/players.css",
    "css/rounds.css",
    "css/print.css",
    "css/projector.css",
    "img/favicon.svg",
    "js/live.js",
    "js/sw-register.js",
    "js/offline-queue.js",
    "js/terminal-offline.js",
    "js/clocks.js",
    "js/rounds.js",
    "js/projector.js",
    "js/results-entry.js",
    "js/checkin.js",
    "js/hands.js",
    "js/referees-tables.js",
    "js/printing.js",
)


def _source(name: str) -> Path | None:
    """A static file as it is on disk: from the finders (static/), else from STATIC_ROOT."""
    found = finders.find(name)
    if isinstance(found, list):
        found = found[0] if found else None
    if found:
        return Path(found)
    collected = Path(settings.STATIC_ROOT) / name
    return collected if collected.is_file() else None


def worker_source() -> str:
    """sw.js as the phones get it: its version and its app shell written in."""
    path = _source(WORKER)
    if path is None:
        raise Http404
    code = path.read_text(encoding="utf-8")
    digest = hashlib.sha256(path.read_bytes())
    shell = []
    for name in APP_SHELL:
        source = _source(name)
        if source is None:  # not in this checkout: not precached (the install would fail)
            continue
        url = static(name)
        shell.append(url)
        digest.update(url.encode())
        digest.update(source.read_bytes())
    offline = reverse("offline")
    shell.append(offline)
    digest.update(offline.encode())
    digest.update(Path(get_template(OFFLINE_TEMPLATE).origin.name).read_bytes())
    written = {
        "VERSION": digest.hexdigest()[:16],
        "PRECACHE": shell,
        "OFFLINE_URL": offline,
        "STATIC_URL": settings.STATIC_URL,
    }
    for name, value in written.items():
        line = f"const {name} = {json.dumps(value)};"
        code = re.sub(rf"^const {name} = .*;$", lambda _match, line=line: line, code, count=1, flags=re.M)
    return code


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(worker_source(), content_type="application/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """What a phone shows, without network, for a page it never opened."""
    response = render(request, OFFLINE_TEMPLATE)
    response["Cache-Control"] = "no-cache"
    return response
