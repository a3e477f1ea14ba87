"""Standings as pure functions (scoring.standings) with hand-computed tables, the standings of
each format through scoring.selectors.standings in a fixed number of queries, and the standings
page's legend and its columns on a phone."""

import itertools
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.selectors import standings as selectors
from scoring.standings import (
    BYE,
    DOUBLE_LOSS,
    PENDING,
    PLAYED,
    WALKOVER,
    CerosRules,
    MatchRecord,
    bracket_forest,
    classify,
    compute,
    elimination_stages,
    survival,
)
from tests.scoring import publish_next_round
from tests.torneo.simulation import appearances, new_tournament
from torneo import snapshot
from torneo.models import Tournament


def won(a, b, ga=3, gb=0, *, r=1, ta=None, tb=None, pool="", slot=None):
    """a beats b (or b beats a when gb is the target)."""
    return MatchRecord(
        a=a,
        b=b,
        outcome=PLAYED,
        winner=a if ga > gb else b,
        games_a=ga,
        games_b=gb,
        tantos_a=ta,
        tantos_b=tb,
        round_number=r,
        pool=pool,
        slot=slot,
    )


def order(rows):
    return [r.pair for r in rows]


def ranks(rows):
    return {r.pair: (r.rank, r.rank_to) for r in rows}


# --- points and tiebreaks, by hand ------------------------------------------------------------------


def test_points_then_juegos_difference():
    matches = [won("A", "B", 3, 2), won("C", "D", 3, 0), won("A", "D", 3, 1), won("C", "B", 3, 2)]
    rows = compute("ABCD", matches, tiebreaks=("juegos",))
    # A: 2 wins, juegos 6-3 (+3); C: 2 wins, 6-2 (+4); B: 0 wins, 4-6 (-2); D: 0 wins, 1-6 (-5).
    assert order(rows) == ["C", "A", "B", "D"]
    assert [(r.points, r.juegos_diff) for r in rows] == [(2, 4), (2, 3), (0, -2), (0, -5)]


def test_head_to_head_among_three_tied_pairs_hand_computed():
    # 1, 2 and 3 end on 2 points each; among themselves 1 beat 2 and 3, 2 beat 3.
    matches = [
        won(1, 2),
        won(1, 3),
        won(2, 3),
        won(4, 1),
        won(5, 1),
        won(2, 4),
        won(3, 4),
        won(3, 5),
    ]
    rows = compute([1, 2, 3, 4, 5], matches, tiebreaks=("head_to_head",))
    assert [(r.pair, r.points) for r in rows] == [(1, 2), (2, 2), (3, 2), (4, 1), (5, 1)]
    assert ranks(rows) == {1: (1, 1), 2: (2, 2), 3: (3, 3), 4: (4, 5), 5: (4, 5)}


def test_head_to_head_is_applied_again_to_the_pairs_still_tied():
    # Four pairs on 2 points. Mini-league among them: 1 → 2 points (beat 2 and 4), 2 → 1, 3 → 1, 4 → 0.
    # 2 and 3 are still equal there, but 2 beat 3: the mini-league among those two puts 2 first.
    matches = [won(1, 2), won(1, 4), won(2, 3), won(3, 4), won(2, 5), won(3, 6), won(4, 5), won(4, 6)]
    rows = compute(range(1, 7), matches, tiebreaks=("head_to_head",))
    assert order(rows)[:4] == [1, 2, 3, 4]
    assert ranks(rows)[2] == (2, 2) and ranks(rows)[3] == (3, 3)


def test_a_cycle_in_head_to_head_leaves_the_next_tiebreak_to_decide():
    # 1 beat 2, 2 beat 3, 3 beat 1: each has one point among the three; juegos decide.
    matches = [won(1, 2, 3, 2), won(2, 3, 3, 0), won(3, 1, 3, 1)]
    rows = compute([1, 2, 3], matches, tiebreaks=("head_to_head", "juegos"))
    # Juegos: 1: 3-2 and 1-3 → -1; 2: 2-3, 3-0 → +2; 3: 0-3, 3-1 → -1.
    assert order(rows) == [2, 1, 3] and rows[1].shared and rows[2].shared
    assert ranks(rows)[1] == ranks(rows)[3] == (2, 3)


def test_buchholz_is_the_sum_of_the_opponents_points_hand_computed():
    # Round 1: A-B (A), C-D (C), E bye. Round 2: A-C (C), B-E (B), D bye.
    matches = [
        won("A", "B", r=1),
        won("C", "D", r=1),
        MatchRecord("E", None, BYE, winner="E", round_number=1),
        won("C", "A", r=2),
        won("B", "E", r=2),
        MatchRecord("D", None, BYE, winner="D", round_number=2),
    ]
    rows = {r.pair: r for r in compute("ABCDE", matches, tiebreaks=("buchholz",))}
    # Points: A 1, B 1, C 2, D 1 (bye), E 1 (bye). Exentas add nothing to Buchholz.
    assert {p: r.points for p, r in rows.items()} == {"A": 1, "B": 1, "C": 2, "D": 1, "E": 1}
    assert {p: r.buchholz for p, r in rows.items()} == {"A": 1 + 2, "B": 1 + 1, "C": 1 + 1, "D": 2, "E": 1}
    table = compute("ABCDE", matches, tiebreaks=("buchholz",))
    assert order(table) == ["C", "A", "B", "D", "E"]
    assert ranks(table)["B"] == ranks(table)["D"] == (3, 4)


def test_tantos_difference_counts_only_the_juegos_with_tantos():
    matches = [
        won("A", "X", 3, 1, ta=160, tb=110),  # +50
        won("A", "B", 3, 1),  # no tantos on this acta: counts nothing for tantos
        won("A", "Z", 3, 0, ta=120, tb=60),  # +60
        won("Y", "A", 3, 0, ta=130, tb=90),  # A -40
        won("B", "Y", 3, 1, ta=150, tb=120),  # +30
    ]
    rows = {r.pair: r for r in compute("ABXYZ", matches)}
    assert rows["A"].tantos_diff == 50 + 60 - 40
    assert rows["B"].tantos_diff == 30 and rows["X"].tantos_diff == -50


def test_tantos_decide_when_juegos_are_equal():
    # Equal points and juegos (+2 each); tantos: A +50, B +51.
    tied = [won("A", "X", 3, 1, ta=160, tb=110), won("B", "Y", 3, 1, ta=161, tb=110)]
    assert order(compute("ABXY", tied, tiebreaks=("juegos", "tantos")))[:2] == ["B", "A"]
    # Without tantos in the order they share the first place.
    assert ranks(compute("ABXY", tied, tiebreaks=("juegos",)))["A"] == (1, 2)


def test_equal_on_every_tiebreak_shares_the_position():
    matches = [won("A", "X", 3, 1, ta=150, tb=100), won("B", "Y", 3, 1, ta=150, tb=100)]
    rows = compute("ABXY", matches)
    assert ranks(rows) == {"A": (1, 2), "B": (1, 2), "X": (3, 4), "Y": (3, 4)}
    assert all(r.shared for r in rows)


def test_an_exenta_counts_as_a_win_but_not_as_a_match_amm_5_6():
    matches = [MatchRecord("A", None, BYE, winner="A"), won("B", "C")]
    rows = {r.pair: r for r in compute("ABC", matches, points_win=2)}
    assert (rows["A"].points, rows["A"].byes, rows["A"].played, rows["A"].wins) == (2, 1, 0, 0)
    assert (rows["B"].points, rows["B"].wins, rows["B"].played) == (2, 1, 1)


def test_a_double_loss_gives_both_pairs_a_loss_and_no_points_amm_6_5_b():
    matches = [MatchRecord("A", "B", DOUBLE_LOSS, games_a=2, games_b=2), won("C", "D")]
    rows = {r.pair: r for r in compute("ABCD", matches)}
    assert (rows["A"].points, rows["A"].losses, rows["B"].losses) == (0, 1, 1)
    assert rows["A"].juegos_diff == 0 and rows["C"].points == 1


def test_pending_matches_count_for_nothing():
    rows = {r.pair: r for r in compute("AB", [MatchRecord("A", "B", PENDING)])}
    assert rows["A"].played == 0 and rows["B"].played == 0


def test_unknown_tiebreak_is_refused():
    with pytest.raises(ValueError, match="Desempate desconocido"):
        compute("AB", [], tiebreaks=("juegos", "sorteo"))


def test_among_ranks_a_subset_with_figures_from_every_match():
    matches = [won("A", "B"), won("C", "A"), won("B", "D")]
    rows = compute("ABCD", matches, among=["A", "B"])
    # A and B: one win each, juegos 0; Buchholz counts C's and D's points though they are not ranked.
    assert order(rows) == ["A", "B"] and [r.buchholz for r in rows] == [2, 1]
    assert {r.pair: r.played for r in rows} == {"A": 2, "B": 2}


# --- a N ceros: survival ------------------------------------------------------------------------------


def test_a_dos_ceros_pair_is_out_at_its_second_loss():
    matches = [won(1, 2, r=1), won(3, 4, r=1), won(2, 3, r=2), won(1, 4, r=2), won(1, 2, r=3)]
    states = survival([1, 2, 3, 4], matches, CerosRules(max_losses=2), last_round=3)
    assert states[4].out_round == 2 and states[2].out_round == 3 and states[3].alive
    assert (states[3].losses, states[1].losses) == (1, 0)


def test_a_double_loss_counts_a_cero_for_both_amm_6_5_b():
    matches = [MatchRecord(1, 2, DOUBLE_LOSS, round_number=1), won(3, 4, r=1)]
    states = survival([1, 2, 3, 4], matches, CerosRules(max_losses=1), last_round=1)
    assert states[1].out_round == states[2].out_round == 1 and states[3].alive and not states[4].alive
    assert states[3].champion  # the only pair left, nothing pending


def test_an_exenta_is_a_pass_not_a_loss_amm_5_6():
    matches = [MatchRecord(1, None, BYE, winner=1, round_number=1), won(2, 3, r=1)]
    states = survival([1, 2, 3], matches, CerosRules(max_losses=1), last_round=1)
    assert states[1].alive and states[1].byes == 1 and states[1].losses == 0


def test_repesca_first_losses_go_to_pool_b_with_its_own_limit():
    rules = CerosRules(max_losses=1, repesca_until=1, pool_b_max_losses=2)
    matches = [won(1, 2, r=1, pool="A"), won(3, 4, r=1, pool="A"), won(1, 3, r=2, pool="A"), won(2, 4, r=2, pool="B")]
    states = survival([1, 2, 3, 4], matches, rules, last_round=2)
    assert (states[2].pool, states[2].alive) == ("B", True)
    assert (states[4].pool, states[4].out_round) == ("B", 2)
    assert states[3].out_round == 2  # lost in pool A after the repesca rounds: out at once
    assert states[1].champion and states[2].champion  # each pool has a single pair left


def test_in_the_rondas_finales_one_loss_eliminates():
    matches = [won(1, 2, r=1), won(3, 4, r=1), won(2, 3, r=2)]
    states = survival([1, 2, 3, 4], matches, CerosRules(max_losses=3, final_from_round=2), last_round=2)
    assert states[3].out_round == 2 and states[4].alive


def test_withdrawn_pairs_are_out_without_an_elimination_round():
    states = survival([1, 2], [won(1, 2, r=1)], CerosRules(max_losses=3), withdrawn=[1], last_round=1)
    assert not states[1].alive and states[1].out_round is None
    assert elimination_stages(states)[1][1] == "withdrawn"


# --- classification -----------------------------------------------------------------------------------


def test_knockout_classification_by_round_of_elimination_with_shared_places():
    # Semifinals 1-2 and 3-4 (both 3-0); final 1-3 (3-0): 2 and 4 lost identical semifinals.
    matches = [won(1, 2, r=1), won(3, 4, r=1), won(1, 3, r=2)]
    states = survival([1, 2, 3, 4], matches, CerosRules(max_losses=1), last_round=2)
    stages = elimination_stages(states)
    places = {p.pair: p for p in classify([1, 2, 3, 4], matches, stage=stages, tiebreaks=("juegos", "tantos"))}
    assert (places[1].position, places[1].stage) == (1, "champion")
    assert (places[3].position, places[3].stage) == (2, "out:2")
    assert (places[2].position, places[2].position_to) == (3, 4) and places[4].shared


def test_knockout_third_place_by_buchholz_goes_to_the_pair_beaten_by_the_champion():
    matches = [won(1, 2, r=1), won(3, 4, r=1), won(1, 3, r=2)]
    states = survival([1, 2, 3, 4], matches, CerosRules(max_losses=1), last_round=2)
    places = {p.pair: p for p in classify([1, 2, 3, 4], matches, stage=elimination_stages(states))}
    # Default order juegos, tantos, buchholz: equal juegos; 2's opponent (the champion) has 2 points, 4's has 1.
    assert (places[2].position, places[4].position) == (3, 4) and not places[2].shared


def test_knockout_tie_broken_by_juegos_when_they_differ():
    matches = [won(1, 2, 3, 2, r=1), won(3, 4, 3, 0, r=1), won(1, 3, r=2)]
    states = survival([1, 2, 3, 4], matches, CerosRules(max_losses=1), last_round=2)
    stages = elimination_stages(states)
    places = {p.pair: p for p in classify([1, 2, 3, 4], matches, stage=stages, tiebreaks=("juegos",))}
    assert (places[2].position, places[4].position) == (3, 4)  # 2 lost 2-3, 4 lost 0-3


# --- the bracket tree ---------------------------------------------------------------------------------


def test_bracket_forest_of_a_redrawn_knockout_is_a_tree():
    matches = [won(1, 2, r=1), won(3, 4, r=1), won(5, 6, r=1), won(7, 8, r=1), won(5, 1, r=2), won(3, 7, r=2)]
    matches.append(won(5, 3, r=3))
    (root,) = bracket_forest(matches)
    assert (root.match.a, root.match.b) == (5, 3) and root.depth == 3
    firsts = {frozenset((c.match.a, c.match.b)) for semi in root.children for c in semi.children}
    assert firsts == {frozenset(p) for p in ((1, 2), (3, 4), (5, 6), (7, 8))}


def test_a_double_loss_hangs_next_to_the_exenta_it_caused_amm_6_5_b():
    r1 = [
        MatchRecord(1, 2, DOUBLE_LOSS, round_number=1, slot=0),
        won(3, 4, r=1, slot=1),
        won(5, 6, r=1, slot=2),
        won(7, 8, r=1, slot=3),
    ]
    r2 = [MatchRecord(3, None, BYE, winner=3, round_number=2, slot=0), won(5, 7, r=2, slot=1)]
    (root,) = [n for n in bracket_forest([*r1, *r2]) if n.match.round_number == 2][:1]
    assert root.match.a == 3 and {c.match.a for c in root.children} == {1, 3}


# --- selectors: every format, fixed number of queries ---------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields",
    [
        {"format": Tournament.Format.CEROS, "max_losses": 1},
        {"format": Tournament.Format.CEROS, "max_losses": 2, "same_losses": True},
        {"format": Tournament.Format.REPESCA, "repesca_until_round": 1, "pool_b_max_losses": 2},
        {"format": Tournament.Format.SWISS, "swiss_rounds": 4},
        {"format": Tournament.Format.LIGUILLAS, "group_count": 3, "group_qualifiers": 2},
    ],
    ids=["knockout", "dos-ceros", "repesca", "swiss", "groups"],
)
def test_standings_classification_and_bracket_in_a_fixed_number_of_queries(fields):
    counts = []
    for pairs in (7, 19):
        sim = new_tournament(pairs, seed=pairs, **fields)
        sim.play_all()
        t = Tournament.objects.get(pk=sim.tournament.pk)
        with CaptureQueriesContext(connection) as captured:
            data = snapshot.load(t)
            standings = selectors.standings(t, data)
            result = selectors.classification(t, data)
            selectors.bracket(t, data)
        counts.append(len(captured))
        placed = sorted(r.pair.number for s in result.sections for r in s.rows)
        assert placed == sorted(data.in_matches())
        assert sum(len(table.rows) for table in standings.tables) == len(data.in_matches())
        assert result.final
    assert counts[0] == counts[1] == 4


@pytest.mark.django_db
def test_swiss_standings_show_the_tournaments_tiebreak_columns_in_order():
    sim = new_tournament(8, seed=2, format=Tournament.Format.SWISS, swiss_rounds=2, tiebreaks="buchholz,juegos,wins")
    sim.play_all()
    standings = selectors.standings(Tournament.objects.get(pk=sim.tournament.pk))
    assert [c[0] for c in standings.tiebreak_columns] == ["buchholz", "juegos", "wins"]
    rows = standings.tables[0].rows
    # Points, then Buchholz, then juegos, then wins.
    assert all((a.points, a.values) >= (b.points, b.values) for a, b in itertools.pairwise(rows))


@pytest.mark.django_db
def test_groups_standings_per_liguilla_mark_the_pairs_the_bracket_takes():
    sim = new_tournament(12, seed=4, format=Tournament.Format.LIGUILLAS, group_count=3, group_qualifiers=2)
    for _ in range(3):  # the liguilla rounds
        sim.play_round()
    standings = selectors.standings(Tournament.objects.get(pk=sim.tournament.pk))
    assert [t.title for t in standings.tables] == ["Liguilla 1", "Liguilla 2", "Liguilla 3"]
    for table in standings.tables:
        assert [r.qualifies for r in table.rows].count(True) == 2
        assert all(r.played == 3 for r in table.rows)
    qualified = {r.pair.id for t in standings.tables for r in t.rows if r.qualifies}
    bracket = publish_next_round(sim)
    assert set(appearances(bracket)) == qualified  # the same pairs torneo.draws.manager seeded


@pytest.mark.django_db
def test_ceros_standings_list_the_pairs_still_in_first():
    sim = new_tournament(10, seed=6, format=Tournament.Format.CEROS, max_losses=2)
    sim.play_round()
    sim.play_round()
    (table,) = selectors.standings(Tournament.objects.get(pk=sim.tournament.pk)).tables
    statuses = [r.status for r in table.rows]
    alive = statuses.count("alive")
    assert statuses[:alive] == ["alive"] * alive and "alive" not in statuses[alive:]
    assert [r.losses for r in table.rows[:alive]] == sorted(r.losses for r in table.rows[:alive])
    assert table.alive == alive and all(r.losses == 2 for r in table.rows[alive:])


@pytest.mark.django_db
def test_pending_round_makes_the_standings_provisional():
    sim = new_tournament(6, seed=1)
    publish_next_round(sim)
    t = Tournament.objects.get(pk=sim.tournament.pk)
    assert selectors.standings(t).pending
    assert not selectors.classification(t).final


def test_walkover_counts_as_a_win_for_the_present_pair_amm_6_1_b():
    rows = {r.pair: r for r in compute("AB", [MatchRecord("A", "B", WALKOVER, winner="A", games_a=3, games_b=0)])}
    assert rows["A"].wins == 1 and rows["B"].losses == 1 and rows["A"].juegos_diff == 3


# --- the standings page: its legend and a phone ---------------------------------------------------------


def standings_page(tournament: Tournament) -> str:
    response = Client().get(f"/torneos/{tournament.slug}/clasificacion/")
    assert response.status_code == 200
    return response.content.decode()


def legend_of(html: str) -> list[tuple[str, bool]]:
    """The standings legend's lines, each with whether a phone hides it."""
    (legend,) = re.findall(r'<p class="[^"]*sc-legend[^"]*">(.*?)</p>', html)
    return [(text, bool(cls)) for cls, text in re.findall(r'<span( class="sc-secondary")?>(.*?)</span>', legend)]


@pytest.mark.django_db
def test_the_legend_of_a_ceros_table_explains_its_columns_and_no_tiebreak_it_does_not_show():
    sim = new_tournament(6, seed=11, format=Tournament.Format.CEROS, max_losses=2)  # default tiebreaks
    sim.play_round()
    html = standings_page(sim.tournament)
    assert "<th" in html and "Bu</th>" not in html and "Buchholz" not in html
    assert legend_of(html) == [
        ("G: Ganadas", False),
        ("P: Perdidas", False),
        ("±J: Diferencia de juegos", True),
        ("J: Jugadas", True),
        ("E: Exentas", True),
    ]


@pytest.mark.django_db
def test_the_legend_of_a_points_table_lists_the_tournaments_tiebreak_columns_in_order():
    tiebreaks = "buchholz,wins,head_to_head"
    sim = new_tournament(6, seed=12, format=Tournament.Format.SWISS, swiss_rounds=2, tiebreaks=tiebreaks)
    sim.play_all()
    html = standings_page(sim.tournament)
    assert legend_of(html) == [
        ("Pts: Puntos", False),
        ("G: Ganadas", False),  # also the wins tiebreak's column: one line
        ("P: Perdidas", False),
        ("Bu: Buchholz (puntos de los rivales)", False),
        ("J: Jugadas", True),
        ("E: Exentas", True),
    ]
    assert "Diferencia de juegos" not in html and "±T" not in html  # not this tournament's tiebreaks


@pytest.mark.django_db
def test_no_legend_before_any_result():
    sim = new_tournament(4, seed=13)
    html = standings_page(sim.tournament)
    assert "Todavía no hay resultados." in html and "sc-legend" not in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "hidden"),
    [
        ({"format": Tournament.Format.CEROS, "max_losses": 2}, ["J", "E", "±J"]),
        ({"format": Tournament.Format.SWISS, "swiss_rounds": 2, "tiebreaks": "buchholz,juegos"}, ["J", "E"]),
    ],
    ids=["ceros", "points"],
)
def test_a_phone_hides_the_secondary_columns_and_keeps_estado(fields, hidden):
    """The phone's rules in static/css/scoring.css name columns by position: they must be the
    secondary ones of the page's table, in its head and in every row (scoring.views.render), and
    never «Estado». The real-browser check at 390 px is tests/e2e/test_standings_phone.py."""
    sim = new_tournament(6, seed=14, **fields)
    sim.play_round()
    html = standings_page(sim.tournament)
    (kind,) = re.findall(r'<table class="table sc-standings (\w+)">', html)
    heads = re.findall(r"<th[^>]*>(.*?)</th>", html)
    rows = re.findall(r"<tr id=\"pareja-\d+\"[^>]*>(.*?)</tr>", html)
    assert rows and all(row.count("<td>") == len(heads) for row in rows)
    css = (Path(settings.BASE_DIR) / "static/css/scoring.css").read_text()
    (phone,) = re.findall(r"@media \(max-width: 600px\) \{(.*?)\n\}", css, re.S)
    (positions,) = re.findall(rf"\.sc-standings\.{kind} :is\(th, td\):is\(([^)]*\)(?:, [^)]*\))*)\)", phone)
    shown = [h for i, h in enumerate(heads, 1) if f":nth-child({i})" not in positions]
    assert [h for h in heads if h not in shown] == hidden
    assert shown[:2] == ["#", "Pareja"] and {"G", "P"} <= set(shown)
    if kind == "ceros":
        assert shown[-1] == "Estado" and ".sc-standings.ceros td:last-child { white-space: normal;" in phone
    assert ".sc-legend .sc-secondary" in phone
    assert ".sc-scroll { overflow-x: auto;" in css  # a table with many tiebreaks still scrolls in its box
