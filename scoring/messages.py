"""The sentence that tells the mesa de control what happened to an acta it entered ("Mesa 3: … 3–1 ….
Anotado (versión 1)."). One home for the pages (the flash message after a plain POST) and the API
(the `message` of a 201, which static/js/results-entry.js shows as it is)."""

from typing import Any

from django.utils.translation import gettext as _

from scoring.models import ResultSubmission
from scoring.selectors import results as selectors
from torneo.models import Match


def describe_submission(match: Match, sub: ResultSubmission, by: Any) -> str:
    """The table, the pairs and the score, and whether it stands (entered or confirmed, with its
    version) or awaits someone else's confirmation (double check)."""
    score = selectors.submission_score(sub)
    outcome = "" if sub.outcome == Match.Outcome.PLAYED else f" ({sub.get_outcome_display()})"
    names = f"{match.pair_a} {score or '–'} {match.pair_b}"
    table = match.table_number or "—"
    if sub.status == ResultSubmission.Status.DISPUTED:
        # AMM 3.16 with the double check: two people read the acta differently (services.results).
        return _(
            "Mesa %(t)s: %(a)s %(s)s %(b)s no coincide con el acta que ya estaba anotada. Quedan las dos en "
            "desacuerdo: no cuenta ninguna hasta que la organización o un juez decida (AMM 3.16)."
        ) % {"t": table, "a": match.pair_a, "s": score or "–", "b": match.pair_b}
    if sub.status == ResultSubmission.Status.PROPOSED:
        return _("Mesa %(t)s: %(r)s%(o)s. Pendiente de que otra persona lo confirme.") % {
            "t": table,
            "r": names,
            "o": outcome,
        }
    if sub.submitted_by_id != getattr(by, "pk", None):
        return _("Mesa %(t)s: %(r)s%(o)s. Confirmado (versión %(v)d).") % {
            "t": table,
            "r": names,
            "o": outcome,
            "v": sub.version,
        }
    return _("Mesa %(t)s: %(r)s%(o)s. Anotado (versión %(v)d).") % {
        "t": table,
        "r": names,
        "o": outcome,
        "v": sub.version,
    }
