"""The round page's long lists written in Python: its tables and its players by surname.

A 1,146-pair round has 573 tables and 2,292 players: as template loops they were ~31,000 variable
lookups, 160 ms of the 350 ms the page cost to render — and a worker renders it again every few
seconds while the results come in (torneo.views.prerender, benchmarks/load.py --mode players).
These tags write exactly the HTML the loops wrote, escaping every value as the template did.
"""

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from torneo.selectors.rounds import PairView, SurnameRow, Table

register = template.Library()


def _e(value: object) -> str:
    """What ``{{ value }}`` writes: safe strings as they are, anything else as escaped text."""
    return value if isinstance(value, SafeString) else escape(str(value))


def _side(pair: PairView, won: bool) -> str:
    return (
        f'<span class="side{" winner" if won else ""}"><span class="pair-num">{pair.number}</span> '
        f'<span class="pair-name">{_e(pair.name)}</span> <small class="pair-players">{_e(pair.players)}</small></span>'
    )


# Side B of a table without one (a pool's tables have two pairs; its exentas are listed apart).
_NOBODY = (
    '<span class="side"><span class="pair-num"></span> <span class="pair-name"></span> '
    '<small class="pair-players"></small></span>'
)


@register.simple_tag
def table_rows(tables: list[Table]) -> SafeString:
    """The ``<li>`` of each table of a pool (templates/torneo/rounds/_tables.html)."""
    mesa = _e(_("Mesa"))
    rows = []
    for t in tables:
        anchor = f' id="mesa-{t.number}"' if t.number else ""
        b = _side(t.pair_b, t.b_won) if t.pair_b is not None else _NOBODY
        rows.append(
            f'<li class="table-row{" decided" if t.result else ""}"{anchor}>'
            f'<span class="table-no"><small>{mesa}</small> {t.number or "—"}</span>'
            f'<span class="match">{_side(t.pair_a, t.a_won)}{b}</span>'
            f'<span class="result">{_e(t.result)}</span></li>\n'
        )
    return mark_safe("".join(rows))


@register.simple_tag
def surname_rows(rows: list[SurnameRow]) -> SafeString:
    """Each player of the round with their table and rivals, under a heading per initial
    (templates/torneo/rounds/_surnames.html)."""
    mesa, exenta, contra = _e(_("Mesa")), _e(_("Exenta")), _e(_("contra"))
    out = []
    letter = None
    for r in rows:
        if r.letter != letter:
            letter = r.letter
            out.append(f'<li class="letter" id="letra-{_e(letter)}">{_e(letter)}</li>\n')
        table = r.table
        first = f", {_e(r.first_name)}" if r.first_name else ""
        where = exenta if table.is_bye else f"{mesa} <strong>{table.number or '—'}</strong>"
        vs = f"{contra} {r.opponent.number} · {_e(r.opponent.name)}" if r.opponent else ""
        if table.pool_title:
            vs += f" ({_e(table.pool_title)})"
        if table.result:
            vs += f" · {_e(table.result)}"
        out.append(
            f'<li class="who"><span class="name"><strong>{_e(r.last_name)}</strong>{first}</span>'
            f'<span class="where">{where}</span><span class="vs">{vs}</span></li>\n'
        )
    return mark_safe("".join(out))
