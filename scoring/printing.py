"""PDFs from HTML print templates with WeasyPrint, fetching nothing but the site's static files.

A print template is an ordinary Django template whose CSS is written for paper (blocks and grids,
no large tables: WeasyPrint is slow on those). Rendering must never reach the network or the
server's disk beyond the static files: the URL fetcher answers ``/static/…`` from the staticfiles
finders and refuses every other address (``file://``, ``http(s)://`` elsewhere, ``data:`` included
only because WeasyPrint handles it itself).
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders

PDF_TYPE = "application/pdf"


class FetchRefused(ValueError):
    """A print template asked for something other than a static file."""


def static_only_fetcher(url: str, timeout: int = 10, ssl_context: Any = None) -> dict[str, Any]:
    """WeasyPrint's URL fetcher restricted to the static files (``STATIC_URL`` paths)."""
    marker = settings.STATIC_URL
    index = url.find(marker)
    if not url.startswith(("http://print.invalid/", "/")) or index < 0:
        raise FetchRefused(f"solo se imprimen ficheros estáticos: {url[:80]}")
    relative = url[index + len(marker) :].split("?", 1)[0].split("#", 1)[0]
    if ".." in Path(relative).parts:
        raise FetchRefused(f"ruta no permitida: {relative[:80]}")
    found = finders.find(relative)
    if not found:
        raise FetchRefused(f"no existe el fichero estático {relative[:80]}")
    path = Path(found if isinstance(found, str) else found[0])
    return {
        "string": path.read_bytes(),
        "mime_type": mimetypes.guess_type(path.name)[0] or "application/octet-stream",
        "redirected_url": url,
    }


def pdf_from_html(html: str) -> bytes:
    """The PDF of one rendered print template. Relative URLs resolve against a base that is never
    fetched (``print.invalid``), so only ``/static/…`` reaches the fetcher."""
    from weasyprint import HTML  # imported here: heavy, and only printing needs it

    document: bytes = HTML(string=html, base_url="http://print.invalid/", url_fetcher=static_only_fetcher).write_pdf()
    return document
