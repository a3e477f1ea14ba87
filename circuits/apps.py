from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CircuitsConfig(AppConfig):
    name = "circuits"
    verbose_name = _("Circuitos")

    # Built after torneo's demo by the demo command (torneo imports nothing of this app): the
    # season's circuit of three finished tournaments.
    demo_hooks: tuple[str, ...] = ("circuits.demo.build_circuit_demo",)
    # The strength the draw manager seeds liguillas by (Tournament.seed_by_rating): the ratings.
    pair_strength_hooks: tuple[str, ...] = ("circuits.ratings.pair_strengths",)

    def ready(self) -> None:
        # A result that counts in a circuit's tournament makes the ratings stale (circuits.ratings).
        from circuits.receivers import on_result_counted
        from scoring.signals import result_counted

        result_counted.connect(on_result_counted, dispatch_uid="circuits.ratings")
