"""PDFs from HTML print templates with WeasyPrint, fetching nothing but the site's static files.

A print template is an ordinary Django template whose CSS is written for paper (blocks and grids,
no large tables: WeasyPrint is slow on those). Rendering must never reach the network or the
server's disk beyond the static files: the URL fetcher answers ``/static/…`` from the staticfiles
finders and refuses every other address (``file://``, ``http(s)://`` elsewhere, ``data:`` included
only because WeasyPrint handles it itself).
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string

PDF_TYPE = "application/pdf"
BASE_URL = "http://print.invalid/"
"""Relative URLs resolve against a base that is never fetched, so only ``/static/…`` reaches the
fetcher."""
CHUNK = 64
"""Sheets laid out per WeasyPrint document in a batch: big enough that a document's fixed cost
(the user-agent stylesheet, fonts) is paid rarely, small enough for a progress bar that moves."""


class FetchRefused(ValueError):
    """A print template asked for something other than a static file."""


def _static_file(url: str) -> Path:
    """The static file that ``url`` names, or FetchRefused."""
    marker = settings.STATIC_URL
    index = url.find(marker)
    if not url.startswith((BASE_URL, "/")) or index < 0:
        raise FetchRefused(f"solo se imprimen ficheros estáticos: {url[:80]}")
    relative = url[index + len(marker) :].split("?", 1)[0].split("#", 1)[0]
    if ".." in Path(relative).parts:
        raise FetchRefused(f"ruta no permitida: {relative[:80]}")
    found = finders.find(relative)
    if not found:
        raise FetchRefused(f"no existe el fichero estático {relative[:80]}")
    return Path(found if isinstance(found, str) else found[0])


def _fetcher_class() -> type[Any]:
    from weasyprint.urls import URLFetcher, URLFetcherResponse  # heavy: only printing needs it

    class StaticOnlyFetcher(URLFetcher):  # type: ignore[misc]
        """WeasyPrint's fetcher answering ``/static/…`` from the staticfiles finders and refusing
        every other address; a refusal stops the rendering (``fail_on_errors``): a print template
        asking for anything else is a bug to see, not a missing picture."""

        def __init__(self) -> None:
            super().__init__(fail_on_errors=True, allowed_protocols=("http",))

        def fetch(self, url: str, headers: Any = None) -> Any:
            path = _static_file(url)
            mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime})

    return StaticOnlyFetcher


def static_only_fetcher() -> Any:
    """A new fetcher for one rendering (WeasyPrint's fetchers keep per-request state)."""
    return _fetcher_class()()


def pdf_from_html(html: str) -> bytes:
    """The PDF of one rendered print template."""
    from weasyprint import HTML  # imported here: heavy, and only printing needs it

    document: bytes = HTML(string=html, base_url=BASE_URL, url_fetcher=static_only_fetcher()).write_pdf()
    return document


def pdf_of_sheets(
    template: str,
    items: Sequence[Any],
    *,
    context: dict[str, Any],
    key: str = "actas",
    progress: Callable[[int], None] | None = None,
) -> tuple[bytes, int]:
    """One PDF of many sheets (a round's actas) and its page count. ``template`` renders
    ``context`` with ``key`` set to a chunk of ``items``; each chunk is laid out as it comes
    (``progress`` hears how many items are done), then every page is written as one document, the
    fonts embedded once. One document per sheet would parse the stylesheets, load the fonts and
    embed them again for each."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    documents = []
    for start in range(0, max(len(items), 1), CHUNK):
        html = render_to_string(template, {**context, key: items[start : start + CHUNK]})
        documents.append(
            HTML(string=html, base_url=BASE_URL, url_fetcher=static_only_fetcher()).render(font_config=fonts)
        )
        if progress is not None:
            progress(min(start + CHUNK, len(items)))
    pages = [page for document in documents for page in document.pages]
    pdf: bytes = documents[0].copy(pages).write_pdf()
    return pdf, len(pages)
