"""The staff's page of the announcements to the hall (issue 34): write one, remove one. Whoever runs
the rounds may (Action.DRAWS_MANAGE: the organizer, the mesa de control). Thin: the service decides
(torneo/services/announcements.py), its Spanish messages are shown as they come."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from torneo.errors import TournamentError
from torneo.forms.announcements import AnnouncementForm
from torneo.forms.errors import service_errors
from torneo.permissions import Action
from torneo.selectors.announcements import announcements_of
from torneo.services.announcements import announcement_create, announcement_delete
from torneo.views.access import tournament_for


def announcements(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.DRAWS_MANAGE)
    form = AnnouncementForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with service_errors(form) as call:
            announcement_create(tournament=tournament, by=request.user, text=form.cleaned_data["text"])
        if call.ok:
            messages.success(request, _("Aviso publicado: sale en la pantalla de la sala y en la página del torneo."))
            return redirect("torneo:manage_announcements", slug=slug)
    context = {"tournament": tournament, "form": form, "announcements": announcements_of(tournament)}
    return render(request, "torneo/manage/announcements.html", context, status=400 if form.errors else 200)


@require_POST
def announcement_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.DRAWS_MANAGE)
    try:
        announcement_delete(tournament=tournament, announcement_id=pk, by=request.user)
    except TournamentError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Aviso borrado."))
    return redirect("torneo:manage_announcements", slug=slug)
