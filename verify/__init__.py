"""An independent verifier of the open tournament record (issue 35; docs/registro.md).

``python -m verify registro.json [--clave CLAVE]`` checks a record without the site and without
Django (standard library and ``cryptography`` only), article by article, and prints what agrees and
what does not: the site's signature; every draw's commitment, seed and output against its frozen
input (AMM 5.5) — the random choice itself recomputed from the seed up to 22 pairs and for the
liguillas (``verify/draws.py``) —, its exenta (5.6) and its rematches against an independent optimal matching (5.7);
that the partidas are the draws' (the liguillas too); that every result counted is a possible one
(1.7.a, 3.16); and the final classification, recomputed from the results and the rule set alone
(``verify/standings.py``; the rules in docs/registro.md), row by row against the published one.
Exit status 0 when everything agrees, 1 when something does not, 2 when the file is not a record.
"""

from verify.checks import Finding, verify_record

__all__ = ["Finding", "verify_record"]
