"""Whole numbers typed in an address, a form or a JSON body, read one way: ASCII digits only.

Python's ``str.isdigit()`` is True for '²' and '①', on which ``int()`` raises (a 500), and
``int()`` itself takes '٣', ' 3', '+3' and '3_0': every one a number no page means, and a second
spelling of an address. `parse_int` takes only what a person or a program writes for a number
here, within a range the database holds; `canonical_int` only the one spelling ``str(n)`` gives.
"""

from typing import TypeGuard

DB_MAX = 2**31 - 1  # the largest value of the database's integer columns (no query overflows)
MAX_DIGITS = 18  # leading zeros included: never a number worth reading past this


def is_digits(text: object) -> TypeGuard[str]:
    """Whether ``text`` is written with ASCII digits only (at least one, of any length), whatever
    number that is: for the answers that tell "not a number" (400) from "no such one" (404)."""
    return isinstance(text, str) and text.isascii() and text.isdigit()


def parse_int(text: object, *, low: int = 0, high: int = DB_MAX) -> int | None:
    """The number ``text`` writes (ASCII digits, leading zeros allowed; an int as it is) when it
    lies in ``low``..``high``; None for anything else: empty, a sign, spaces, other digits."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        value = text
    elif is_digits(text) and len(text) <= MAX_DIGITS:
        value = int(text)
    else:
        return None
    return value if low <= value <= high else None


def canonical_int(text: object, *, low: int = 0, high: int = DB_MAX) -> int | None:
    """Like `parse_int`, but only the number's one spelling: '3', never '03' (an address that
    names a page must name it one way, or each spelling is a page of its own to keep)."""
    value = parse_int(text, low=low, high=high)
    return value if value is not None and str(value) == str(text) else None
