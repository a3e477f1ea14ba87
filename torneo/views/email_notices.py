"""The notices by e-mail (issue 33; torneo/services/email_notices.py): the pair page's form, the
confirmation link and the one-click unsubscribe link. The links are keys: their pages are not
cached and their address goes as Referer to this site only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from torneo.errors import NotAllowed
from torneo.models import Pair
from torneo.ratelimit import table_write_refused
from torneo.services import email_notices as service
from torneo.views.access import LoginRequired, tournament_for
from torneo.views.accounts import _private


class EmailNoticeForm(forms.Form):
    email = forms.EmailField(
        label=gettext_lazy("Correo electrónico"),
        max_length=254,
        error_messages={
            "required": gettext_lazy("Escribe tu correo electrónico."),
            "invalid": gettext_lazy("Escribe un correo electrónico válido."),
        },
    )
    consent = forms.BooleanField(
        error_messages={
            "required": gettext_lazy("Marca la casilla para aceptar recibir los avisos del torneo en ese correo.")
        },
        label=gettext_lazy(
            "Acepto recibir en este correo los avisos de este torneo (mi mesa, los resultados por confirmar, el "
            "reloj y el juez). Puedo darme de baja con el enlace de cada correo."
        )
    )


_FIELDS = {"email": gettext_lazy("Correo electrónico"), "consent": gettext_lazy("Consentimiento")}


def _say_errors(request: HttpRequest, errors: Mapping[str, Iterable[str]]) -> None:
    """Each error on the pair page, naming its field."""
    for field, texts in errors.items():
        for text in texts:
            messages.error(request, _("%(field)s: %(error)s") % {"field": _FIELDS.get(field, field), "error": text})


@require_POST
def email_subscribe(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A player of the pair (its phone or an account) asks for the notices by e-mail."""
    tournament = tournament_for(request, slug)
    if not request.user.is_authenticated:
        raise LoginRequired
    pair = Pair.objects.filter(tournament=tournament, number=number).first()
    if pair is None:
        raise Http404
    if (refused := table_write_refused(request, tournament)) is not None:
        return refused
    form = EmailNoticeForm(request.POST)
    if not form.is_valid():
        _say_errors(request, form.errors)
        return redirect("scoring:pair_page", slug=slug, number=number)
    try:
        service.email_subscribe(
            pair=pair,
            by=request.user,
            email=form.cleaned_data["email"],
            consent=form.cleaned_data["consent"],
            language=get_language(),
        )
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    except ValidationError as exc:
        _say_errors(request, exc.message_dict)
    else:
        messages.success(
            request,
            _("Te hemos enviado un correo a %(e)s: abre su enlace para empezar a recibir los avisos.")
            % {"e": form.cleaned_data["email"]},
        )
    return redirect("scoring:pair_page", slug=slug, number=number)


@require_http_methods(["GET", "POST"])
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the confirmation e-mail: a button (a mail scanner that opens links confirms
    nothing), and the consent recorded when it is pressed."""
    done = service.email_confirm(token=token) if request.method == "POST" else None
    context = {"done": done, "posted": request.method == "POST"}
    status = 400 if request.method == "POST" and done is None else 200
    return _private(render(request, "torneo/email/confirm.html", context, status=status))


@csrf_exempt  # the token is the key; mail programs POST here (RFC 8058) with no page before
@require_http_methods(["GET", "POST"])
def email_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The one-click link of every notice: a button on the page, or the mail program's own POST.
    Answered alike whether there was anything to delete."""
    if request.method == "POST":
        service.email_unsubscribe(token=token)
    return _private(render(request, "torneo/email/unsubscribe.html", {"posted": request.method == "POST"}))
