"""Standings from match results, as plain data (a pure core: no Django, mypy strict): points and a
configurable tiebreak order, survival in "a N ceros" formats, the final classification and the
bracket's tree.

The lowest layer of the tournament after the engine: the draw manager (torneo.draws.manager) reads
it for Swiss score groups, liguilla tables and bracket seeds; the standings, bracket, classification
and players' pages (scoring.selectors) and the exports read it through the tournament snapshot
(torneo.snapshot); it reads nothing of them. Modules: ``records`` (a match's result), ``points``
(points and tiebreaks), ``ceros`` (survival, repesca), ``classification`` (final places),
``bracket`` (the tree), ``tables`` (the tables the pages show).

A win is worth ``points_win`` (an exenta counts as a win: the pair goes through, AMM 5.6); a double
loss (AMM 6.1.b, 6.5.b) gives both pairs nothing and counts as a loss for both. Ties are broken by
the tiebreaks in the tournament's order; pairs still equal on all of them share the position.

Tiebreaks (identifiers used in the tournament's configuration):

* ``juegos``: juegos won minus juegos lost;
* ``tantos``: tantos won minus tantos lost, from the juegos whose tantos were recorded;
* ``buchholz``: the sum of the points of the opponents met (exentas add nothing);
* ``head_to_head``: points in the matches among the tied pairs only (a mini-league); when it
  separates some of them, it is applied again among those still tied (three pairs A, B, C: if A
  beat both, B and C are then compared by their own match);
* ``wins``: matches won (exentas not counted).

Final classification (decided for this system, shown on the classification page):

* knockout and "a N ceros" (with or without repesca): the champion first, then the other pairs by
  the round in which they were eliminated (later is better; in the rondas finales one loss
  eliminates). Pairs eliminated in the same round are ordered by points and then by the
  tournament's tiebreak order; pairs equal on all of them share the position (3.º–4.º). With
  Buchholz in the order (the default), of two semifinal losers the one beaten by the champion is
  3rd. A repesca without re-entry has two classifications, grupo A and grupo B (its own prizes).
* Swiss: the standings order (points, then the tiebreak order).
* liguillas and cuadro: the bracket pairs by the bracket round where they were eliminated, then the
  pairs that did not qualify by their position in their liguilla, then points and tiebreaks.
* Withdrawn pairs keep the place their results gave them; expelled pairs (descalificadas, AMM
  3.16.b) are not classified.
"""

from scoring.standings.bracket import AheadNode, BracketNode, Seat, bracket_ahead, bracket_blank, bracket_forest
from scoring.standings.ceros import CerosRules, Survival, survival, survival_order
from scoring.standings.classification import Place, classify, elimination_stages
from scoring.standings.points import DEFAULT_TIEBREAKS, TIEBREAKS, Row, check_tiebreaks, compute
from scoring.standings.records import (
    BYE,
    DOUBLE_LOSS,
    PENDING,
    PLAYED,
    RETIRED,
    RULING,
    WALKOVER,
    MatchRecord,
    PairId,
    losses_and_byes,
)
from scoring.standings.tables import (
    Line,
    Table,
    ceros_survival,
    ceros_tables,
    liguilla_tables,
    points_table,
    renumber,
    shown_tiebreaks,
)

__all__ = [
    "BYE",
    "DEFAULT_TIEBREAKS",
    "DOUBLE_LOSS",
    "PENDING",
    "PLAYED",
    "RETIRED",
    "RULING",
    "TIEBREAKS",
    "WALKOVER",
    "AheadNode",
    "BracketNode",
    "CerosRules",
    "Line",
    "MatchRecord",
    "PairId",
    "Place",
    "Row",
    "Seat",
    "Survival",
    "Table",
    "bracket_ahead",
    "bracket_blank",
    "bracket_forest",
    "ceros_survival",
    "ceros_tables",
    "check_tiebreaks",
    "classify",
    "compute",
    "elimination_stages",
    "liguilla_tables",
    "losses_and_byes",
    "points_table",
    "renumber",
    "shown_tiebreaks",
    "survival",
    "survival_order",
]
