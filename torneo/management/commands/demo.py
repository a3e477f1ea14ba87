"""Load the demo tournament and its users (idempotent) and print the logins."""

from typing import Any

from django.core.management.base import BaseCommand

from torneo.demo.build import RUNNING_SLUG, build_demo
from torneo.models import Tournament


class Command(BaseCommand):
    help = "Crea (si no existe) el torneo de demostración y los usuarios de cada función, e imprime sus accesos."

    def handle(self, *args: Any, **options: Any) -> None:
        tournament, logins = build_demo()
        self.stdout.write(
            self.style.SUCCESS(f"Torneo de demostración: {tournament.name} (/torneos/{tournament.slug}/)")
        )
        running = Tournament.objects.filter(slug=RUNNING_SLUG).first()
        if running:
            self.stdout.write(self.style.SUCCESS(f"Torneo en juego: {running.name} (/torneos/{running.slug}/)"))
        self.stdout.write("Accesos de demostración (contraseñas guardadas en var/demo-logins.json):")
        for login in logins:
            self.stdout.write(f"  {login.username:<12} {login.password:<14} {login.role}")
