"""Circuits (issue 35): a season of tournaments whose final places give points toward a ranking of
pairs and players and the qualifiers for a final. ``circuits.ranking`` is its pure core."""
