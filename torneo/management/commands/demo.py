"""Load the demo tournament and its users (idempotent) and print the logins."""

from typing import Any

from django.apps import apps
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.utils.module_loading import import_string

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
        # The other apps' demos (AppConfig.demo_hooks: the circuits' season), each given the users.
        users = {u.username: u for u in User.objects.filter(username__in=[login.username for login in logins])}
        for config in apps.get_app_configs():
            for hook in getattr(config, "demo_hooks", ()):
                built = import_string(hook)(users)
                self.stdout.write(self.style.SUCCESS(f"{config.verbose_name}: {built} ({built.get_absolute_url()})"))
        self.stdout.write("Accesos de demostración (contraseñas guardadas en var/demo-logins.json):")
        for login in logins:
            self.stdout.write(f"  {login.username:<12} {login.password:<14} {login.role}")
