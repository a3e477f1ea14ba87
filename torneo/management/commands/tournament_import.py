"""Import a tournament from a JSON backup (torneo.backup) as a new tournament of this site."""

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from torneo.backup import AccountLinks, BackupError, import_tournament, loads


class Command(BaseCommand):
    help = (
        "Importa un torneo desde una copia hecha con tournament_export, como un torneo nuevo (todo o nada). "
        "Imprime en la salida estándar el identificador del torneo creado (el original si está libre, si no "
        "<slug>-2…); los avisos (funciones omitidas porque su usuario no existe) van a la salida de errores. "
        "Ninguna cuenta de este sitio se vincula si no se nombra con --link-account: las demás quedan sin "
        "vincular, y se listan las vinculadas y las no vinculadas."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="la copia (JSON); «-» para leerla de la entrada estándar")
        parser.add_argument(
            "--link-account",
            "--link-accounts",
            dest="link_accounts",
            action="append",
            default=[],
            metavar="USUARIO",
            help=(
                "vincula esta cuenta de este sitio (funciones, jugadores…) si la copia la nombra; se puede repetir "
                "o separar por comas (u1,u2). Sin nombrarla, ninguna cuenta existente se vincula: la copia podría "
                "poner una cuenta ajena en el torneo y su organizador restablecer su contraseña."
            ),
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
        except OSError as exc:
            message = _("No se puede leer «%(file)s»: %(error)s") % {"file": name, "error": exc.strerror}
            raise CommandError(message) from exc
        link = {name.strip() for value in options["link_accounts"] for name in value.split(",") if name.strip()}
        notes: list[str] = []
        links = AccountLinks()
        try:
            tournament = import_tournament(data=loads(raw), notes=notes, link_accounts=link, links=links)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        for note in notes:
            self.stderr.write(self.style.WARNING(note))
        self._accounts(links, link)
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

    def _accounts(self, links: AccountLinks, named: set[str]) -> None:
        """Every account the file names, linked or not: nothing is attached without the person
        importing seeing it."""
        self.stderr.write(
            _("Cuentas vinculadas: %(users)s.") % {"users": ", ".join(sorted(links.linked)) or _("ninguna")}
        )
        if links.not_linked:
            message = _(
                "Cuentas no vinculadas (existen en este sitio, pero no se han nombrado con --link-account): %(users)s."
            )
            self.stderr.write(self.style.WARNING(message % {"users": ", ".join(sorted(links.not_linked))}))
        if links.missing:
            self.stderr.write(
                _("Cuentas no vinculadas (no existen en este sitio): %(users)s.")
                % {"users": ", ".join(sorted(links.missing))}
            )
        unknown = named - links.linked - links.missing
        if unknown:
            self.stderr.write(
                self.style.WARNING(
                    _("--link-account: la copia no nombra estas cuentas: %(users)s.")
                    % {"users": ", ".join(sorted(unknown))}
                )
            )
