"""The juez's pages (AMM chapter V), Spanish and phone first, complete without JavaScript:

- the juez's desk (Action.INCIDENTS_MANAGE): an incident logged from the table's number in three
  taps (5.3.a), the open incidents newest first, and the round's tables by urgency (open incidents
  first, then by number) with their clocks' phase;
- an incident (Action.INCIDENTS_MANAGE): the pair's sanctions in force, what the ladder of 5.4
  proposes (the steps above it need a reason, 5.4.a), the sanction given, or the incident closed
  without one;
- the log (Action.VIEW_PRIVATE: the organizer, the jueces and, read-only, the mesa de control, who
  enters the results a sanction changes): every incident with its sanctions, filtered, and a
  sanction undone with its reason (Action.INCIDENTS_MANAGE); the same rows as a spreadsheet;
- the players' report (5.3): a player of the partida (or its staff) tells the jueces.

Thin: referees.services write (plain POSTs; a refusal shown next to its field with status 400,
nothing written; then POST/redirect/GET with a Spanish message), referees.selectors read."""

from referees.views.desk import juez_desk
from referees.views.incidents import incident_answer_view, incident_detail, incident_log, incident_log_csv, report
from referees.views.substitutes import substitute_cancel_view, substitutes

__all__ = [
    "incident_answer_view",
    "incident_detail",
    "incident_log",
    "incident_log_csv",
    "juez_desk",
    "report",
    "substitute_cancel_view",
    "substitutes",
]
