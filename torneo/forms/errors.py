"""A service's errors on a form: `service_errors` wraps the service call of a view (a ValidationError
goes on the form's fields, a TournamentError on the whole form with its message) and `attach_errors`
puts a ValidationError keyed 'players.<i>.<field>' (or any key `field_for` maps) on its form field."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django import forms
from django.core.exceptions import PermissionDenied, ValidationError

from torneo.errors import NotAllowed, TournamentError
from torneo.forms.registrations import player_field_name


def _pair_form_field(key: str) -> str | None:
    """'players.1.email' -> 'p2_email' (the pair forms' field names); other keys unchanged."""
    parts = key.split(".")
    if len(parts) == 3 and parts[0] == "players":
        return player_field_name(int(parts[1]), parts[2])
    return key


def attach_errors(
    form: forms.Form, error: ValidationError, field_for: Callable[[str], str | None] = _pair_form_field
) -> None:
    """Put a service's ValidationError on the form's matching fields (or on the whole form).

    `field_for` maps the service's error keys to the form's field names (None: a non-field error).
    """
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for key, errors in error.error_dict.items():
        target = field_for(key)
        if target not in form.fields:
            target = None
        for e in errors:
            form.add_error(target, e)


@dataclass
class ServiceCall:
    """What `service_errors` saw of the service call: the error it put on the form, if any."""

    error: ValidationError | TournamentError | None = None

    @property
    def ok(self) -> bool:
        """The service did what was asked: its result may be used."""
        return self.error is None


@contextmanager
def service_errors(
    form: forms.Form,
    *,
    field_for: Callable[[str], str | None] = _pair_form_field,
) -> Iterator[ServiceCall]:
    """Run a view's service call and put its refusal on the form: a ValidationError on the matching
    fields (`attach_errors` with `field_for`), a TournamentError on the whole form with its message.
    A NotAllowed is not a mistake in the form: it becomes PermissionDenied (403, with the service's
    reason). Any other exception goes up untouched.

        with service_errors(form) as call:
            pair = pair_register(...)
        if call.ok:
            return redirect(...)
    """
    call = ServiceCall()
    try:
        yield call
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    except ValidationError as exc:
        call.error = exc
        attach_errors(form, exc, field_for)
    except TournamentError as exc:
        call.error = exc
        form.add_error(None, str(exc))
