"""User-facing errors raised by services: each carries a clear Spanish message and a code."""

from django.utils.translation import gettext_lazy as _


class TournamentError(Exception):
    """An action the user asked for cannot be done; the message says why (never a bug)."""

    code = "invalid"
    http_status = 400

    def __init__(self, message: object = "", *, code: str | None = None) -> None:
        super().__init__(str(message) if message else str(self.default_message))
        if code:
            self.code = code

    default_message = _("La operación no es válida.")


class Conflict(TournamentError):
    """Someone else changed the same thing first (concurrent entry)."""

    code = "conflict"
    http_status = 409
    default_message = _("Otra persona ha modificado estos datos; recarga y vuelve a intentarlo.")


class NotAllowed(TournamentError):
    code = "forbidden"
    http_status = 403
    default_message = _("No tienes permiso para hacer esto en este torneo.")
