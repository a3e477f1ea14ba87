from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RefereesConfig(AppConfig):
    name = "referees"
    verbose_name = _("Jueces")

    # The rows of a tournament's backup (torneo/backup.py) this app owns, after scoring's.
    backup_parts: tuple[tuple[str, ...], ...] = (
        ("referees.Incident", "tournament"),
        ("referees.Sanction", "tournament"),
    )
