"""Recompute every player rating from every partida played in a circuit's tournaments."""

import time
from typing import Any

from django.core.management.base import BaseCommand

from circuits.ratings import ratings_recompute


class Command(BaseCommand):
    help = "Recalcula desde cero el rating de cada jugador con todas las partidas de los torneos de un circuito."

    def handle(self, *args: Any, **options: Any) -> None:
        start = time.perf_counter()
        people = ratings_recompute()
        seconds = time.perf_counter() - start
        self.stdout.write(self.style.SUCCESS(f"{people} jugadores con rating, en {seconds:.2f} s."))
