"""Every download of a table the site offers (results, standings, classification, registrations),
in the three formats a person asks for with ``?formato=``:

- ``csv`` (the default): comma separated, UTF-8 with a BOM; what LibreOffice, Google Sheets and
  programs read. The registrations import reads it back.
- ``excel``: the same table separated by ';', UTF-8 with a BOM, CRLF line ends: what Excel set up
  for Spain (whose list separator is ';') opens with a double click, accents and columns right.
  No "sep=;" line: with it Excel ignores the BOM and garbles the accents.
- ``xlsx``: an Excel workbook (openpyxl): numbers are numbers and text is text whatever the
  locale of the computer that opens it.

A `Sheet` checks that every row is as wide as its header, so a misaligned file (a value under the
wrong heading) is an error, never a download. CSV (formula) injection: both CSV formats write every
cell through torneo.csvsafe.neutralize (a text starting with = + - @ tab or CR gets a leading
quote; numbers the code writes stay numbers); in the workbook every text cell is typed as text, so
a spreadsheet never runs it and no quote is needed.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from numbers import Number
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse

from torneo import csvsafe

FORMATS = ("csv", "excel", "xlsx")
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# Characters an .xlsx file cannot hold (XML 1.0): control characters other than tab, LF and CR.
_ILLEGAL_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


@dataclass(frozen=True)
class Sheet:
    """One table: its header (column names) and its rows, each exactly as wide as the header."""

    header: Sequence[str]
    rows: Sequence[Sequence[object]]
    title: str = ""  # the worksheet's name in the .xlsx

    def __post_init__(self) -> None:
        for index, row in enumerate(self.rows):
            if len(row) != len(self.header):
                raise ValueError(
                    f"row {index + 1} has {len(row)} cells for {len(self.header)} columns: {list(self.header)}"
                )

    def csv(self) -> str:
        """Comma separated, BOM first (torneo.csvsafe)."""
        return csvsafe.csv_text([self.header, *self.rows])

    def excel_csv(self) -> str:
        """Semicolon separated, BOM first, CRLF: Spanish Excel's own CSV."""
        out = io.StringIO()
        writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
        for row in [self.header, *self.rows]:
            writer.writerow([csvsafe.neutralize(v) for v in row])
        return csvsafe.BOM + out.getvalue()

    def xlsx(self) -> bytes:
        """An Excel workbook of one worksheet, the header in bold and frozen."""
        from openpyxl import Workbook  # type: ignore[import-untyped]
        from openpyxl.cell import WriteOnlyCell  # type: ignore[import-untyped]
        from openpyxl.styles import Font  # type: ignore[import-untyped]

        book = Workbook(write_only=True)
        sheet = book.create_sheet(_sheet_title(self.title))
        sheet.freeze_panes = "A2"
        bold = Font(bold=True)

        def cell(value: object, header: bool = False) -> Any:
            if isinstance(value, Number) and not isinstance(value, bool):
                return WriteOnlyCell(sheet, value=value)
            text = "" if value is None else _ILLEGAL_XML.sub("", str(value))
            c = WriteOnlyCell(sheet, value=text)
            c.data_type = "s"  # text, never a formula: openpyxl would read "=..." as one
            if header:
                c.font = bold
            return c

        sheet.append([cell(h, header=True) for h in self.header])
        for row in self.rows:
            sheet.append([cell(v) for v in row])
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()


def _sheet_title(title: str) -> str:
    """A worksheet's name: at most 31 characters, none of []:*?/\\ ."""
    return re.sub(r"[\[\]:*?/\\]", " ", title).strip()[:31] or "Hoja1"


class SheetResponse(HttpResponse):
    """A download of `sheet`; `basename` is the file name without its extension."""

    sheet: Sheet
    basename: str


def sheet_response(sheet: Sheet, basename: str, fmt: str = "csv") -> SheetResponse:
    """The file of `sheet` in the format `fmt` (one of FORMATS), as a download."""
    if fmt == "xlsx":
        response = SheetResponse(sheet.xlsx(), content_type=XLSX_TYPE)
        filename = f"{basename}.xlsx"
    elif fmt == "excel":
        response = SheetResponse(sheet.excel_csv(), content_type="text/csv; charset=utf-8")
        filename = f"{basename}-excel.csv"
    else:
        response = SheetResponse(sheet.csv(), content_type="text/csv; charset=utf-8")
        filename = f"{basename}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.sheet, response.basename = sheet, basename
    return response


def requested_format(request: HttpRequest) -> str:
    """The format the page's link asked for (?formato=csv|excel|xlsx; csv when absent)."""
    fmt = request.GET.get("formato", "csv") or "csv"
    if fmt not in FORMATS:
        raise Http404
    return fmt


def download(request: HttpRequest, sheet: Sheet, basename: str) -> SheetResponse:
    """`sheet` in the format the request asks for."""
    return sheet_response(sheet, basename, requested_format(request))


def with_formats(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a view that answers a `sheet_response` in CSV: the same table in the format asked for."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        fmt = requested_format(request)
        response = view(request, *args, **kwargs)
        if fmt != "csv" and isinstance(response, SheetResponse):
            return sheet_response(response.sheet, response.basename, fmt)
        return response

    return wrapped
