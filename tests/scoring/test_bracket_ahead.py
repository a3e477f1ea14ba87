"""The bracket drawn ahead (issue 34, item 6): every round up to the final shown from the first
knockout round, its seats empty until the results that fill them count."""

import pytest
from django.test import Client

from scoring.selectors import standings as selectors
from scoring.standings import BYE, DOUBLE_LOSS, PENDING, PLAYED, AheadNode, MatchRecord, bracket_ahead, bracket_forest
from tests.scoring import publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Tournament


def won(a, b, *, r=1, slot=None):
    return MatchRecord(a=a, b=b, outcome=PLAYED, winner=a, games_a=3, games_b=0, round_number=r, slot=slot)


def pending(a, b, *, r=1, slot=None):
    return MatchRecord(a=a, b=b, outcome=PENDING, round_number=r, slot=slot)


def rounds_of(nodes):
    """Matches per round, over the whole tree."""
    counts = {}
    stack = list(nodes)
    while stack:
        n = stack.pop()
        number = n.round_number if isinstance(n, AheadNode) else n.match.round_number
        counts[number] = counts.get(number, 0) + 1
        stack.extend(n.children)
    return counts


# --- the pure core ------------------------------------------------------------------------------------


def test_eight_pairs_after_the_first_round_draw_two_semifinals_and_an_empty_final():
    r1 = [won(1, 2, slot=0), pending(3, 4, slot=1), won(5, 6, slot=2), won(7, 8, slot=3)]
    (final,) = bracket_ahead(bracket_forest(r1))
    assert isinstance(final, AheadNode) and final.round_number == 3
    assert (final.a.pair, final.b.pair) == (None, None)
    assert rounds_of([final]) == {1: 4, 2: 2, 3: 1}
    first, second = final.children
    assert (first.a.pair, first.b.pair) == (1, None)  # 3–4 still being played
    assert first.b.source.match.a == 3
    assert (second.a.pair, second.b.pair) == (5, 7)


def test_exentas_of_a_padded_line_go_straight_through():
    # Six qualifiers in a bracket of eight: seeds 1 and 2 have the exenta.
    r1 = [
        MatchRecord(1, None, BYE, winner=1, round_number=4, slot=0),
        won(4, 5, r=4, slot=1),
        MatchRecord(2, None, BYE, winner=2, round_number=4, slot=2),
        won(3, 6, r=4, slot=3),
    ]
    (final,) = bracket_ahead(bracket_forest(r1))
    assert rounds_of([final]) == {4: 4, 5: 2, 6: 1}
    assert [(s.a.pair, s.b.pair) for s in final.children] == [(1, 4), (2, 3)]


def test_an_odd_line_gives_the_last_seat_the_exenta_and_a_double_loss_sends_nobody():
    r1 = [won(1, 2, slot=0), won(3, 4, slot=1), won(5, 6, slot=2)]  # six pairs, redrawn knockout
    (final,) = bracket_ahead(bracket_forest(r1))
    assert rounds_of([final]) == {1: 3, 2: 2, 3: 1}
    semi, bye = final.children
    assert (semi.a.pair, semi.b.pair) == (1, 3) and bye.a.pair == 5 and bye.b is None
    assert final.a.pair is None and final.b.pair == 5  # the exenta goes through
    r1 = [
        MatchRecord(1, 2, DOUBLE_LOSS, round_number=1, slot=0),
        won(3, 4, slot=1),
        won(5, 6, slot=2),
        won(7, 8, slot=3),
    ]
    (final,) = bracket_ahead(bracket_forest(r1))
    first, _ = final.children
    assert first.a.pair == 3 and first.b is None  # AMM 6.5.b: the neighbour has the exenta


def test_a_decided_final_adds_nothing():
    matches = [won(1, 2, slot=0), won(3, 4, slot=1), won(1, 3, r=2, slot=0)]
    (root,) = bracket_ahead(bracket_forest(matches))
    assert not isinstance(root, AheadNode) and root.match.round_number == 2


# --- the page -----------------------------------------------------------------------------------------


def page(sim):
    return Client().get(f"/torneos/{sim.tournament.slug}/cuadro/").content.decode()


def seated(html, number):
    """How many undecided seats the pair holds: a drawn-ahead seat, or a side of a pending match."""
    return html.count(f'<div class="bk-side"><span class="num">{number}</span>')


@pytest.mark.django_db
def test_an_eight_pair_knockout_shows_every_round_from_the_first():
    sim = new_tournament(8, seed=3, format=Tournament.Format.CEROS, max_losses=1)
    publish_next_round(sim)
    html = page(sim)
    assert html.count('<div class="bk-tree">') == 1
    assert html.count('class="bk-match') == 4 + 2 + 1 and html.count("bk-match pending ahead") == 3
    assert html.count('class="bk-side tbd"') == 6 and "por sortear" in html
    round_ = sim.rounds[-1]
    for match in round_.matches.select_related("round__tournament"):
        sim.enter_result(match)
    winners = [m.winner for m in Match.objects.filter(round=round_).select_related("winner")]
    html = page(sim)
    assert html.count('class="bk-match') == 7 and html.count('class="bk-side tbd"') == 2  # the final's
    assert all(seated(html, w.number) == 1 for w in winners)  # in their semifinal seat
    tree = selectors.bracket(Tournament.objects.get(pk=sim.tournament.pk)).tree
    (final,) = tree
    assert final["match"] is None and final["ahead"].a.pair is None and final["ahead"].b.pair is None
    assert {s["ahead"].a.pair.number for s in final["children"]} | {
        s["ahead"].b.pair.number for s in final["children"]
    } == {w.number for w in winners}


@pytest.mark.django_db
def test_a_six_pair_knockout_draws_the_exenta_of_its_second_round():
    sim = new_tournament(6, seed=5, format=Tournament.Format.CEROS, max_losses=1)
    publish_next_round(sim)
    html = page(sim)
    assert html.count('class="bk-match') == 3 + 2 + 1
    assert html.count('class="bk-side bye"') == 1  # 3 winners: one has the exenta in round 2
    for match in sim.rounds[-1].matches.select_related("round__tournament"):
        sim.enter_result(match)
    sim.play_round()  # round 2, drawn and played: the tree keeps its shape
    html = page(sim)
    assert html.count('class="bk-match') == 3 + 2 + 1 and html.count("bk-match pending ahead") == 1
    assert html.count('class="bk-side bye"') == 1 and 'class="bk-side tbd"' not in html  # the final is seated


@pytest.mark.django_db
def test_the_bracket_after_the_liguillas_shows_its_exentas_and_the_winners_of_each_table():
    sim = new_tournament(12, seed=4, format=Tournament.Format.LIGUILLAS, group_count=3, group_qualifiers=2)
    for _ in range(3):
        sim.play_round()
    first = publish_next_round(sim)  # six qualifiers in a bracket of eight: two exentas
    html = page(sim)
    assert html.count('class="bk-match') == 4 + 2 + 1
    assert html.count('class="bk-side bye"') == 2 and "por sortear" not in html
    tables = sorted(m.table_number for m in first.matches.exclude(pair_b=None))
    for t in tables:
        assert f"Ganadora de la mesa {t}" in html
    seeded = [m.pair_a.number for m in first.matches.filter(pair_b=None)]
    assert all(seated(html, n) == 1 for n in seeded)  # exentas already in the semifinals


def play_until_the_bracket(sim) -> list[Match]:
    """Play the liguillas, then publish the cuadro's first round without results."""
    from tests.scoring import playing
    from torneo.models import Round

    for _ in range(20):
        round_ = publish_next_round(sim)
        if round_.phase == Round.Phase.BRACKET:
            return playing(round_)
        for match in playing(round_):
            sim.enter_result(match)
    raise AssertionError("no bracket round")


@pytest.mark.django_db
def test_the_cuadro_after_the_liguillas_is_drawn_ahead_as_a_fixed_bracket():
    """Six qualifiers (three liguillas, two each) in a cuadro of eight: the top seeds' exentas go
    straight to their semifinal seats; the semifinals are not drawn again, so nothing says
    «por sortear»."""
    sim = new_tournament(12, seed=4, format=Tournament.Format.LIGUILLAS, group_count=3, group_qualifiers=2)
    first = play_until_the_bracket(sim)
    assert len(first) == 2
    tree = selectors.bracket(Tournament.objects.get(pk=sim.tournament.pk)).tree
    (final,) = tree
    assert final["match"] is None and not final["ahead"].redrawn
    semis = [s["ahead"] for s in final["children"]]
    assert len(semis) == 2 and not any(s.redrawn for s in semis)
    seats = [seat for s in semis for seat in (s.a, s.b)]
    tables = sorted(seat.after_table for seat in seats if seat.pair is None)
    assert tables == sorted(m.table_number for m in first)  # each played match feeds one seat
    assert sum(1 for seat in seats if seat.pair is not None) == 2  # the two exentas, already seated
    html = page(sim)
    assert "por sortear" not in html and html.count('class="bk-side tbd"') == 2 + 2


@pytest.mark.django_db
def test_the_rondas_finales_are_drawn_ahead_from_their_first_round_and_not_redrawn_amm_5_8_d():
    sim = new_tournament(16, seed=6, format=Tournament.Format.CEROS, max_losses=1, final_phase_from_round=2)
    round_ = publish_next_round(sim)
    for match in round_.matches.exclude(pair_b=None).select_related("round__tournament"):
        sim.enter_result(match)
    publish_next_round(sim)  # round 2: the first of the fixed bracket
    (final,) = selectors.bracket(Tournament.objects.get(pk=sim.tournament.pk)).tree
    assert final["ahead"].round_number == 4 and not final["ahead"].redrawn
    semis = [s["ahead"] for s in final["children"]]
    assert [s.round_number for s in semis] == [3, 3] and not any(s.redrawn for s in semis)
    rounds = rounds_of_view(final)
    assert rounds == {1: 8, 2: 4, 3: 2, 4: 1}


def rounds_of_view(node) -> dict[int, int]:
    counts: dict[int, int] = {}
    stack = [node]
    while stack:
        n = stack.pop()
        number = n["ahead"].round_number if n["match"] is None else n["match"].round_number
        counts[number] = counts.get(number, 0) + 1
        stack.extend(n["children"])
    return counts


def shape(tree) -> list[dict[int, int]]:
    """Matches per round of each tree, and where the exentas are: what a blank bracket promises."""
    return [rounds_of_view(root) for root in tree]


def exentas(node) -> list[int]:
    """The rounds where a seat is an exenta, in bracket order."""
    out = [] if node["match"] is not None or not node["ahead"].b.bye else [node["ahead"].round_number]
    if node["match"] is not None and node["match"].b is None:
        out = [node["match"].round_number]
    return [r for c in node["children"] for r in exentas(c)] + out


@pytest.mark.django_db
@pytest.mark.parametrize("pairs", [8, 7])
def test_a_knockout_is_drawn_blank_before_its_first_draw_in_the_shape_the_draw_then_gives(pairs):
    sim = new_tournament(pairs, seed=2, format=Tournament.Format.CEROS, max_losses=1)
    view = selectors.bracket(Tournament.objects.get(pk=sim.tournament.pk))
    assert view.blank and not view.roots
    html = page(sim)
    assert "Cuadro aún vacío" in html and html.count('class="bk-side"><span class="num">') == 0
    assert html.count('class="bk-match pending ahead') == pairs - 1 + (pairs % 2)  # an exenta's box too
    blank = shape(view.tree)
    publish_next_round(sim)
    drawn = selectors.bracket(Tournament.objects.get(pk=sim.tournament.pk))
    assert not drawn.blank and shape(drawn.tree) == blank
    assert len(exentas(drawn.tree[0])) == len(exentas(view.tree[0])) == pairs % 2


@pytest.mark.django_db
def test_the_cuadro_of_the_liguillas_is_drawn_blank_from_the_start_with_the_top_seeds_exentas():
    """12 pairs in three liguillas of four (three rounds each), two go through: a cuadro of eight
    from round 4 with two exentas, drawn before the liguillas start and matching the real one."""
    sim = new_tournament(12, seed=4, format=Tournament.Format.LIGUILLAS, group_count=3, group_qualifiers=2)
    before = selectors.bracket(Tournament.objects.get(pk=sim.tournament.pk))
    assert before.blank and shape(before.tree) == [{4: 4, 5: 2, 6: 1}]
    assert exentas(before.tree[0]) == [4, 4]
    assert "por sortear" not in page(sim)  # seeded, not drawn by lot
    play_until_the_bracket(sim)
    after = selectors.bracket(Tournament.objects.get(pk=sim.tournament.pk))
    assert not after.blank and shape(after.tree) == shape(before.tree)
    assert exentas(after.tree[0]) == [4, 4]


@pytest.mark.django_db
def test_the_rondas_finales_of_an_n_ceros_wait_for_their_draw_amm_5_8_d():
    sim = new_tournament(12, seed=2, format=Tournament.Format.CEROS, max_losses=2, final_phase_from_round=3)
    view = selectors.bracket(Tournament.objects.get(pk=sim.tournament.pk))
    assert view.applies and not view.tree and not view.blank
    assert "todavía no se ha sorteado" in page(sim)
