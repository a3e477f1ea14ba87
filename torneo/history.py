"""Writes that keep django-simple-history's log complete.

A queryset's ``update()`` writes no historical record, so a status flipped that way (a result
superseded, a ruling replaced, a substitution cancelled) would be missing from the organizer's log
of changes (torneo/selectors/audit.py). These rows are few (the current version of one thing), so
each is saved on its own: its historical record names the user of the request, like any edit.
"""

from typing import Any

from django.db.models import QuerySet


def update_with_history(rows: QuerySet[Any], **values: Any) -> int:
    """``rows.update(**values)``, one ``save`` per row so that each change is in the history."""
    changed = 0
    for row in rows.all():  # a fresh query: the caller's queryset keeps no stale cache
        for name, value in values.items():
            setattr(row, name, value)
        row.save(update_fields=list(values))
        changed += 1
    return changed


__all__ = ["update_with_history"]
