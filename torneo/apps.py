"""The tournament app: tournaments, players, pairs, registrations, rounds, matches."""

import os
import stat
from typing import Any

from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _


class TorneoConfig(AppConfig):
    name = "torneo"
    verbose_name = _("Torneos")

    # The rows of a tournament's backup (torneo/backup.py) that this app owns: (model label, lookup
    # from the model to its tournament[, a second lookup used when the model has that field]), in
    # dependency order. Each app declares its own here, so torneo.backup imports none of the apps
    # above it (scoring and referees declare theirs on their AppConfig the same way).
    backup_parts: tuple[tuple[str, ...], ...] = (
        ("torneo.Tournament", "pk"),
        ("torneo.Session", "tournament"),
        ("torneo.TournamentRole", "tournament"),
        ("torneo.Player", "memberships__pair__tournament", "tournament"),  # also Player.tournament
        ("torneo.Pair", "tournament"),
        ("torneo.PairMember", "pair__tournament"),
        ("torneo.Round", "tournament"),
        ("torneo.Draw", "round__tournament"),
        ("torneo.Match", "round__tournament"),
        ("torneo.Announcement", "tournament"),  # the organizer's announcements to the hall (issue 34)
    )

    def ready(self) -> None:
        # Load the Celery app here rather than in torneo/__init__.py: importing the package must
        # stay Django-free so that the pure cores (torneo.draws, torneo.clock) import nothing
        # from Django, while every Django process still binds @shared_task to our app.
        # The failed-login counters listen to user_login_failed from the first request on, whatever
        # the URLs import (torneo/ratelimit.py).
        from torneo import (
            celery,  # noqa: F401
            ratelimit,  # noqa: F401
        )

        connection_created.connect(_private_sqlite_file, dispatch_uid="torneo.private_sqlite_file")
        from torneo import frame_changes

        frame_changes.connect()


def _private_sqlite_file(sender: Any, connection: Any, **kwargs: Any) -> None:
    """The SQLite file holds personal data and API tokens: readable by this account only (0600).
    SQLite creates it with the umask's mode (usually 0644) and copies that mode to its -wal and
    -shm files, so it is narrowed at every new connection (one ``stat`` when already right)."""
    if connection.vendor != "sqlite":
        return
    name = str(connection.settings_dict.get("NAME") or "")
    if not name or name == ":memory:" or name.startswith("file:"):
        return
    for path in (name, f"{name}-wal", f"{name}-shm"):
        try:
            mode = os.stat(path).st_mode
            if stat.S_IMODE(mode) & 0o077:
                os.chmod(path, 0o600)
        except OSError:  # not there yet (-wal, -shm) or not ours: nothing to narrow
            continue
