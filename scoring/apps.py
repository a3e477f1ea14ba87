from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Resultados")

    # The rows of a tournament's backup (torneo/backup.py) that this app owns, in dependency order
    # (after torneo's, see TorneoConfig.backup_parts): the app says which of its rows belong to a
    # tournament, so torneo.backup never imports scoring (referees adds its own the same way).
    backup_parts: tuple[tuple[str, ...], ...] = (
        ("scoring.ResultSubmission", "match__round__tournament"),
        ("scoring.RecordedGame", "match__round__tournament"),
        ("scoring.RecordedHand", "game__match__round__tournament"),
        ("scoring.HandRuling", "hand__game__match__round__tournament"),
        ("scoring.MatchClock", "match__round__tournament"),
        ("scoring.ClockPause", "clock__match__round__tournament"),
        ("scoring.ClockJuego", "clock__match__round__tournament"),
        ("scoring.JuegoClaim", "clock__match__round__tournament"),
        ("scoring.DelayWarning", "clock__match__round__tournament"),
        ("scoring.ClockEvent", "clock__match__round__tournament"),
    )

    def ready(self) -> None:
        # The acta shows the juez's rulings on recorded hands (AMM chapter IV) as notes.
        from scoring import acta
        from scoring.selectors.rulings import ruling_notes

        acta.register(ruling_notes)
