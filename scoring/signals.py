"""Signals scoring sends for the apps above it, which it never imports (the referees' desk).

``ruling_changed``: a juez's ruling on a recorded hand was confirmed or withdrawn (chapter IV),
sent inside the ruling's transaction so that what a receiver writes stands or falls with it.
Arguments: ``ruling`` (the HandRuling), ``by`` (who), ``withdrawn`` (True when taken back). The
referees' desk records the generic warning a ruling calls for (AMM 3.20.c) and takes it back.

``result_counted``: a partida's result counts now (entered, confirmed, corrected), sent inside its
transaction. Argument: ``match``. The circuits app recomputes the ratings once it commits."""

from django.dispatch import Signal

ruling_changed = Signal()
result_counted = Signal()
