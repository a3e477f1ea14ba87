"""Export one tournament, everything it holds, to a JSON backup (torneo.backup)."""

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from torneo.backup import dumps, export_tournament
from torneo.models import Tournament


class Command(BaseCommand):
    help = (
        "Exporta un torneo entero (inscripciones con los datos personales de los jugadores, jornadas, "
        "funciones, rondas, sorteos, partidas, todas las versiones de resultados y manos) a un archivo JSON. "
        "Se carga en cualquier sitio con tournament_import."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="identificador del torneo en la dirección (/torneos/<slug>/)")
        parser.add_argument(
            "-o",
            "--output",
            help="archivo de salida (se crea legible solo por su dueño); por omisión, la salida estándar",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["slug"]
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(_("No existe ningún torneo con el identificador «%(slug)s».") % {"slug": slug})
        data = export_tournament(tournament=tournament)
        text = dumps(data)
        output = options["output"]
        if not output or output == "-":
            self.stdout.write(text)
            return
        try:
            # Personal data: readable by its owner only, like the database itself.
            fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with open(fd, "w", encoding="utf-8") as file:
                file.write(text + "\n")
        except OSError as exc:
            raise CommandError(
                _("No se puede escribir «%(file)s»: %(error)s") % {"file": output, "error": exc.strerror}
            ) from exc
        counts = {label: len(rows) for label, rows in data["objects"].items()}
        pairs, matches, results = (counts["torneo.pair"], counts["torneo.match"], counts["scoring.resultsubmission"])
        parts = (
            ngettext("%(n)d pareja", "%(n)d parejas", pairs) % {"n": pairs},
            ngettext("%(n)d partida", "%(n)d partidas", matches) % {"n": matches},
            ngettext("%(n)d acta", "%(n)d actas", results) % {"n": results},
        )
        self.stderr.write(
            _("Copia de «%(name)s» escrita en %(file)s: %(parts)s.")
            % {"name": tournament.name, "file": output, "parts": ", ".join(parts)}
        )
