"""The long lists of the round page (tables, players by surname) and of the results page (tables),
written in Python (torneo/templatetags/round_rows.py, scoring/views/render.py `results_rows`) so
that the worker renders a 573-table round in a few milliseconds instead of ~250 ms (issue 32's
players' report, benchmarks/load.py --mode players): they must write exactly what the template
loops they replace wrote, the reference kept here, escaping included."""

import dataclasses

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from scoring.selectors import results as result_selectors
from scoring.views.render import results_rows
from tests.factories import make_pair, player_data
from tests.torneo.simulation import new_tournament
from tests.torneo.test_round_views import publish_next
from torneo.models import Match
from torneo.services.registrations import pair_check_in
from torneo.templatetags.round_rows import surname_rows, table_rows
from torneo.views.rounds import _page

pytestmark = pytest.mark.django_db

# The template loops as they were (templates/torneo/rounds/_tables.html, _surnames.html and
# templates/scoring/_results_body.html before the rows moved to Python).
TABLES_LOOP = Template(
    '{% load i18n %}{% translate "Mesa" as mesa %}'
    '{% for t in tables %}<li class="table-row{% if t.result %} decided{% endif %}"{% if t.number %} '
    'id="mesa-{{ t.number }}"{% endif %}><span class="table-no"><small>{{ mesa }}</small> '
    '{{ t.number|default:"—" }}</span><span class="match"><span class="side{% if t.a_won %} winner{% endif %}">'
    '<span class="pair-num">{{ t.pair_a.number }}</span> <span class="pair-name">{{ t.pair_a.name }}</span> '
    '<small class="pair-players">{{ t.pair_a.players }}</small></span><span class="side{% if t.b_won %} winner'
    '{% endif %}"><span class="pair-num">{{ t.pair_b.number }}</span> <span class="pair-name">{{ t.pair_b.name }}'
    '</span> <small class="pair-players">{{ t.pair_b.players }}</small></span></span><span class="result">'
    "{{ t.result }}</span></li>\n{% endfor %}"
)
SURNAMES_LOOP = Template(
    '{% load i18n %}{% translate "Mesa" as mesa %}{% translate "Exenta" as exenta %}'
    '{% translate "contra" as contra %}{% for r in rows %}{% ifchanged r.letter %}<li class="letter" '
    'id="letra-{{ r.letter }}">{{ r.letter }}</li>\n{% endifchanged %}<li class="who"><span class="name"><strong>'
    "{{ r.last_name }}</strong>{% if r.first_name %}, {{ r.first_name }}{% endif %}</span><span class=\"where\">"
    "{% if r.table.is_bye %}{{ exenta }}{% else %}{{ mesa }} <strong>{{ r.table.number|default:\"—\" }}</strong>"
    '{% endif %}</span><span class="vs">{% if r.opponent %}{{ contra }} {{ r.opponent.number }} · '
    "{{ r.opponent.name }}{% endif %}{% if r.table.pool_title %} ({{ r.table.pool_title }}){% endif %}"
    "{% if r.table.result %} · {{ r.table.result }}{% endif %}</span></li>\n{% endfor %}"
)
RESULTS_LOOP = Template(
    "{% load i18n %}{% for m in matches %}\n"
    '  <li class="sc-match{% if not m.decided %} pending{% endif %}" id="mesa-{{ m.table|default:\'\' }}">\n'
    '    <span class="sc-table-no">{% if m.table %}{% translate "Mesa" %} {{ m.table }}{% else %}—{% endif %}'
    "{% if m.pool %} · {{ m.pool }}{% endif %}</span>\n"
    '    <span class="sc-side{% if m.winner_side == \'a\' %} won{% endif %}">'
    '{% include "scoring/_pair.html" with pair=m.a %}</span>\n'
    '    <span class="sc-score">{% if m.is_bye %}{% translate "Exenta" %}{% elif m.decided %}'
    '{{ m.score|default:"–" }}{% if m.special %}<small>{{ m.outcome_label }}</small>{% endif %}{% else %}'
    '<small>{% translate "pendiente" %}</small>{% endif %}</span>\n'
    "    {% if m.b %}<span class=\"sc-side{% if m.winner_side == 'b' %} won{% endif %}\">"
    '{% include "scoring/_pair.html" with pair=m.b %}</span>{% endif %}\n'
    '    {% if is_staff %}<a class="sc-history" href="{% url \'scoring:result_history\' slug m.id %}">'
    '{% translate "historial" %}</a>{% endif %}\n'
    "  </li>\n  {% endfor %}"
)


def _round_with_every_kind_of_row():
    """Seven pairs (one exenta), names an attacker chose, a played result, a walkover and a table
    still pending. Two pairs have a hostile name: the draw is random, and an exenta's pair is
    nobody's opponent, so with one such pair its name showed in no row of the surnames list
    whenever it drew the exenta (a CI flake on SQLite)."""
    sim = new_tournament(5)
    t = sim.tournament
    for n, name in enumerate(['<script>alert("x")</script> & Cía', '<script>alert("y")</script> & Hijos']):
        hostile = make_pair(
            t,
            name=name,
            players=[
                player_data(1 + 2 * n, last_name=f"O'Brien <b>{'' if n == 0 else ' II'}"),
                player_data(2 + 2 * n, first_name="Ane > Miren", last_name=f"Zubiri & Hijos {n}"),
            ],
        )
        pair_check_in(pair=hostile)
    round_ = publish_next(sim)
    tables = list(round_.matches.filter(pair_b__isnull=False).order_by("table_number"))
    sim.enter_result(tables[0])
    Match.objects.filter(pk=tables[1].pk).update(
        outcome=Match.Outcome.WALKOVER, winner_id=tables[1].pair_b_id, games_a=None, games_b=None
    )
    return t, round_


def test_the_round_pages_rows_are_what_the_template_loops_wrote_escaping_included():
    t, round_ = _round_with_every_kind_of_row()
    with translation.override("es"):
        page = _page(t, round_.number)
        kinds = {table.outcome for pool in page.pools for table in pool.tables + pool.byes}
        assert {Match.Outcome.PLAYED, Match.Outcome.WALKOVER, Match.Outcome.PENDING, Match.Outcome.BYE} <= kinds
        for pool in page.pools:
            expected = TABLES_LOOP.render(Context({"tables": pool.tables}))
            assert table_rows(pool.tables) == expected
        expected = SURNAMES_LOOP.render(Context({"rows": page.by_surname}))
        written = surname_rows(page.by_surname)
        assert written == expected
    assert "&lt;script&gt;" in written and "O&#x27;Brien &lt;b&gt;" in written and "<script>" not in written


@pytest.mark.parametrize("is_staff", [False, True])
def test_the_results_pages_rows_are_what_the_template_loop_wrote_escaping_included(is_staff):
    t, round_ = _round_with_every_kind_of_row()
    matches = result_selectors.round_matches(round_)
    # A repesca pool's name and a fixed round's walkover without a table, as the page shows them.
    matches[0] = dataclasses.replace(matches[0], pool="B<")
    matches[-1] = dataclasses.replace(matches[-1], table=None)
    with translation.override("es"):
        expected = RESULTS_LOOP.render(Context({"matches": matches, "is_staff": is_staff, "slug": t.slug}))
        history = reverse("scoring:result_history", args=[t.slug, 0]) if is_staff else None
        written = results_rows(matches, history=history)
    assert written == expected
    assert ("historial" in written) is is_staff and "&lt;script&gt;" in written and "· B&lt;" in written
