"""An independent verifier of the open tournament record (issue 35; docs/registro.md).

``python -m verify registro.json [--clave CLAVE] [--generador DIR]`` checks a record without the
site and without Django (standard library and ``cryptography`` only), article by article, and
prints what agrees and what does not: the site's signature; every draw's commitment, seed and
output against its frozen input (AMM 5.5) — the random choice itself recomputed from the seed up to
22 pairs, for the liguillas and for a Swiss's first round by halves (``verify/draws.py``) —, its
exenta (5.6) and its rematches against an independent maximum matching (5.7, ``verify/matching.py``);
that the partidas are the draws' (the liguillas too); that every result counted is a possible one
(1.7.a, 3.16); and the standings tables and the final classification, recomputed from the results
and the rule set alone (``verify/standings.py``; the rules in docs/registro.md), line by line
against the published ones. ``--generador``: larger draws too, by the site's own published
generator (``verify/site_generator.py``, opt-in: not independent).
Exit status 0 when everything agrees, 1 when something does not, 2 when the file is not a record.
"""

from verify.checks import Finding, verify_record

__all__ = ["Finding", "verify_record"]
