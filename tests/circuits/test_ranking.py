"""The circuit's ranking, pure (circuits.ranking): no database."""

from fractions import Fraction

import pytest

from circuits.ranking import EventPlaces, Placed, place_points, qualifiers, ranking

TABLE = [100, 80, 65, 55, 50, 45, 40, 36]


def event(name, *places):
    """places: (entity, first[, last])."""
    return EventPlaces(name, [Placed(p[0], p[1], p[-1]) for p in places])


def test_a_place_gives_its_points_and_nothing_past_the_table():
    assert place_points(TABLE, 1, 1) == 100 and place_points(TABLE, 8, 8) == 36
    assert place_points(TABLE, 9, 9) == 0 and place_points([], 1, 1) == 0


def test_tied_pairs_share_the_points_of_the_places_they_fill():
    assert place_points(TABLE, 3, 4) == Fraction(65 + 55, 2)
    assert place_points(TABLE, 7, 10) == Fraction(40 + 36, 4)  # two of the four places past the table
    with pytest.raises(ValueError, match="puesto no válido"):
        place_points(TABLE, 4, 3)


def test_points_add_up_over_the_circuit_and_the_best_n_count():
    events = [
        event("t1", ("ana", 1), ("bea", 2), ("cris", 3)),
        event("t2", ("bea", 1), ("cris", 2), ("ana", 5)),
        event("t3", ("cris", 1), ("ana", 2), ("bea", 8)),
    ]
    rows = ranking(events, table=TABLE)
    by = {r.entity: r for r in rows}
    assert (
        by["ana"].points == 100 + 50 + 80 and by["cris"].points == 65 + 80 + 100 and by["bea"].points == 80 + 100 + 36
    )
    assert [r.entity for r in rows] == ["cris", "ana", "bea"]
    best = {r.entity: r for r in ranking(events, table=TABLE, best_of=2)}
    assert best["ana"].points == 180 and [s.event for s in best["ana"].discarded] == ["t2"]
    assert best["bea"].points == 180 and best["cris"].points == 180  # 100 + 80 each
    assert [s.points for s in best["bea"].counted] == [100, 80]


def test_equal_points_are_split_by_the_best_results_then_by_tournaments_played_then_shared():
    events = [
        event("t1", ("ana", 1), ("bea", 2), ("cris", 2)),  # bea and cris: 2nd, no tie on the place
        event("t2", ("bea", 3, 4), ("cris", 3, 4), ("dani", 5)),
    ]
    table = [100, 90, 10, 0, 0]
    rows = ranking(events, table=table)
    by = {r.entity: r for r in rows}
    assert by["bea"].points == by["cris"].points == 95
    assert by["bea"].position == by["cris"].position == 2 and by["bea"].shared and by["cris"].shared
    assert by["ana"].position == 1 and not by["ana"].shared
    # dani has 0 points in one tournament; eva none: dani played more.
    rows = ranking([event("t1", ("eva", 6)), event("t2", ("dani", 5), ("eva", 7))], table=table)
    assert [(r.entity, r.position) for r in rows] == [("eva", 1), ("dani", 2)]
    # equal totals, the better best result first
    rows = ranking([event("t1", ("x", 1)), event("t2", ("y", 2), ("z", 3))], table=[50, 30, 20])
    assert {r.entity: r.points for r in rows} == {"x": 50, "y": 30, "z": 20}
    rows = ranking([event("t1", ("x", 2)), event("t2", ("x", 3), ("y", 1))], table=[50, 30, 20])
    assert [r.entity for r in rows] == ["y", "x"] and rows[0].points == rows[1].points == 50
    assert not rows[0].shared


def test_qualifiers_take_every_row_tied_on_the_cut():
    events = [event("t1", ("a", 1), ("b", 2, 3), ("c", 2, 3), ("d", 4))]
    rows = ranking(events, table=TABLE)
    assert [r.entity for r in qualifiers(rows, 2)] == ["a", "b", "c"]
    assert [r.entity for r in qualifiers(rows, 1)] == ["a"]
    assert qualifiers(rows, 0) == []
