"""The one writer of every CSV the site produces, safe against CSV (formula) injection.

A spreadsheet runs a cell that starts with '=', '+', '-' or '@' as a formula (and tab or carriage
return can hide such a start), so a pair named '=HYPERLINK("http://evil","x")' on the public form
would become a live link, or worse, on the organizer's computer. Following OWASP, such a text cell
is written with a single quote in front ("'=HYPERLINK(...)"): the spreadsheet shows it as text.

The subtle point, decided here: only text is neutralised. A number the code writes as a number
(int, float, Decimal...: a tantos difference of -12, a tiebreak value) is not user text and can
never be a formula, so it is written as is and stays numeric in the spreadsheet. Everything else
(str, lazy translations, dates...) is text: None is written as an empty cell, the rest as str().
A text cell that merely looks like a negative number ('-12' typed by someone) is still quoted.

The registrations CSV is also read back (export -> import): `unneutralize` removes the quote again
when it precedes one of those characters, so the round trip gives back the original text.
"""

import csv
import io
from collections.abc import Iterable
from numbers import Number

BOM = "\ufeff"  # spreadsheets then read the accents right
DANGEROUS_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralize(value: object) -> object:
    """The cell as it must be written: numbers unchanged, text quoted when it starts dangerously."""
    if isinstance(value, Number):
        return value
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(DANGEROUS_STARTS) else text


def unneutralize(cell: str) -> str:
    """The text of a cell read from a CSV: the quote `neutralize` added is removed again."""
    if cell[:1] == "'" and cell[1:].startswith(DANGEROUS_STARTS):
        return cell[1:]
    return cell


def csv_text(rows: Iterable[Iterable[object]]) -> str:
    """The whole CSV file (BOM, comma separated, header first if given), every cell neutralised."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([neutralize(v) for v in row])
    return BOM + out.getvalue()
