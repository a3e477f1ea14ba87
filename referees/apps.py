from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RefereesConfig(AppConfig):
    name = "referees"
    verbose_name = _("Jueces")

    # The rows of a tournament's backup (torneo/backup.py) this app owns, after scoring's.
    backup_parts: tuple[tuple[str, ...], ...] = (
        ("referees.Incident", "tournament"),
        ("referees.Sanction", "tournament"),
        ("referees.Substitution", "tournament"),
    )

    def ready(self) -> None:
        # The juez's sanctions of a partida go on its acta (AMM 5.4.1), shown by scoring's pages.
        from referees.selectors.sanctions import adjudicated_juegos, match_notes, substitution_notes
        from scoring import acta, adjudications

        acta.register(match_notes)
        acta.register(substitution_notes)  # AMM 5.8: who played in whose place
        # AMM 5.4.2: a juego lost by sanction without a clock still binds the acta.
        adjudications.register(adjudicated_juegos)
        # AMM 3.20.c: a ruling that calls for the generic warning records it on the ladder.
        from referees.services.rulings import on_ruling_changed
        from scoring.signals import ruling_changed

        ruling_changed.connect(on_ruling_changed, dispatch_uid="referees.3.20.c")
