"""PDFs from HTML print templates with WeasyPrint, fetching nothing but the site's static files.

A print template is an ordinary Django template whose CSS is written for paper (placed blocks, no
tables, grids or flex boxes: WeasyPrint lays those out several times slower). Rendering must never
reach the network or the server's disk beyond the static files: the URL fetcher answers
``/static/…`` from the staticfiles finders and ``data:`` URIs (what the page itself carries, the
QR codes) from their own bytes, and refuses every other address (``file://``, ``http(s)://``)
with an error that stops the rendering.
"""

from __future__ import annotations

import base64
import contextlib
import gc
import io
import mimetypes
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

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


def _data_uri(url: str) -> tuple[bytes, dict[str, str]]:
    """The bytes and type of a ``data:`` URI (RFC 2397)."""
    header, _comma, data = url[5:].partition(",")
    mime = header.split(";", 1)[0] or "text/plain"
    body = base64.b64decode(data) if header.endswith(";base64") else unquote_to_bytes(data)
    return body, {"Content-Type": mime}


def _fetcher_class() -> type[Any]:
    from weasyprint.urls import URLFetcher, URLFetcherResponse  # heavy: only printing needs it

    class StaticOnlyFetcher(URLFetcher):  # type: ignore[misc]
        """WeasyPrint's fetcher answering ``/static/…`` from the staticfiles finders and refusing
        every other address; a refusal stops the rendering (``fail_on_errors``): a print template
        asking for anything else is a bug to see, not a missing picture."""

        def __init__(self) -> None:
            super().__init__(fail_on_errors=True, allowed_protocols=("http",))

        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.startswith("data:"):  # an image the page carries (the acta's QR code): no fetching
                return URLFetcherResponse(url, *_data_uri(url))
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
    frame: tuple[str, dict[str, Any]] | None = None,
) -> tuple[bytes, int]:
    """One PDF of many sheets (a round's actas, a long listing) and its page count.

    ``template`` renders ``context`` with ``key`` set to a chunk of ``items``; each chunk is laid
    out and written as it comes (``progress`` hears how many items are done), then the chunks'
    pages are joined into one PDF. ``frame`` (a template and its context) is a one-page drawing
    laid out once and placed under every page as a shared form XObject: the acta's lines, boxes and
    labels, the same on all the actas of a round, are then drawn by WeasyPrint once instead of once
    per table, and each page only lays out its own text. That, more than the stylesheets and fonts
    parsed once, is what makes a round several times faster than one document per acta
    (benchmarks/actas.py)."""
    from pypdf import PdfReader, PdfWriter
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()

    def render(html: str) -> bytes:
        pdf: bytes = HTML(string=html, base_url=BASE_URL, url_fetcher=static_only_fetcher()).write_pdf(
            font_config=fonts
        )
        return pdf

    writer = PdfWriter()
    with _young_garbage_per_chunk() as chunk_done:
        for start in range(0, max(len(items), 1), CHUNK):
            html = render_to_string(template, {**context, key: items[start : start + CHUNK]})
            writer.append(PdfReader(io.BytesIO(render(html))))
            chunk_done()
            if progress is not None:
                progress(min(start + CHUNK, len(items)))
    if frame is not None:
        _stamp(writer, PdfReader(io.BytesIO(render(render_to_string(frame[0], frame[1])))).pages[0])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), len(writer.pages)


@contextlib.contextmanager
def _young_garbage_per_chunk() -> Iterator[Callable[[], None]]:
    """Python's cycle collector paused while a chunk is laid out, and run on the young objects
    after it: WeasyPrint makes hundreds of thousands of short-lived objects a chunk, and the
    collector kept walking them mid-layout (a fifth of a round's time). Memory stays bounded by
    a chunk; whatever the chunk left in cycles is freed when it is done."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield lambda: gc.collect(0)
    finally:
        if enabled:
            gc.enable()


def _stamp(writer: Any, frame: Any) -> None:
    """Draw ``frame`` (a page of another PDF) under every page of ``writer``: its content becomes
    one form XObject, and each page's content is prefixed with a call to it."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject, RectangleObject

    form = DecodedStreamObject()
    form.set_data(frame.get_contents().get_data())
    form[NameObject("/Type")] = NameObject("/XObject")
    form[NameObject("/Subtype")] = NameObject("/Form")
    form[NameObject("/BBox")] = RectangleObject(frame.mediabox)
    form[NameObject("/Resources")] = frame["/Resources"].clone(writer)
    form_ref = writer._add_object(form)
    call = DecodedStreamObject()
    call.set_data(b"q /ActaFrame Do Q\n")
    call_ref = writer._add_object(call)
    name = NameObject("/ActaFrame")
    for page in writer.pages:
        resources = page[NameObject("/Resources")].get_object()
        if "/XObject" not in resources:
            resources[NameObject("/XObject")] = DictionaryObject()
        resources["/XObject"].get_object()[name] = form_ref
        contents = page.raw_get("/Contents")  # the reference: a stream inside an array must be indirect
        existing = contents.get_object()
        page[NameObject("/Contents")] = ArrayObject(
            [call_ref, *(existing if isinstance(existing, ArrayObject) else [contents])]
        )
