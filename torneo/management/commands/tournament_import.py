"""Import a tournament from a JSON backup (torneo.backup) as a new tournament of this site."""

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from torneo.backup import BackupError, import_tournament, loads


class Command(BaseCommand):
    help = (
        "Importa un torneo desde una copia hecha con tournament_export, como un torneo nuevo (todo o nada). "
        "Imprime en la salida estándar el identificador del torneo creado (el original si está libre, si no "
        "<slug>-2…); los avisos (funciones omitidas porque su usuario no existe) van a la salida de errores."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="la copia (JSON); «-» para leerla de la entrada estándar")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as exc:
            message = _("No se puede leer «%(file)s»: %(error)s") % {"file": name, "error": exc.strerror}
            raise CommandError(message) from exc
        notes: list[str] = []
        try:
            tournament = import_tournament(data=loads(raw), notes=notes)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        for note in notes:
            self.stderr.write(self.style.WARNING(note))
        # Who can now manage it: the file named them; the person importing should see who.
        roles = tournament.roles.select_related("user").order_by("role", "user__username")
        if roles:
            self.stderr.write(
                _("Funciones en el torneo importado: %(roles)s.")
                % {"roles": "; ".join(f"{r.get_role_display()}: {r.user.get_username()}" for r in roles)}
            )
        self.stderr.write(
            _("Torneo «%(name)s» importado: /torneos/%(slug)s/") % {"name": tournament.name, "slug": tournament.slug}
        )
        self.stdout.write(tournament.slug)
