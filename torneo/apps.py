"""The tournament app: tournaments, players, pairs, registrations, rounds, matches."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TorneoConfig(AppConfig):
    name = "torneo"
    verbose_name = _("Torneos")

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
