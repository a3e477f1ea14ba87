"""The organizer's log of changes: a page (filtered, by pages of 50) and the same list to download."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from torneo import sheets
from torneo.forms.audit import AuditFilterForm
from torneo.permissions import Action
from torneo.selectors import audit
from torneo.selectors.audit import AuditFilter
from torneo.views.access import tournament_for


class _Counted:
    """What the paginator pages: the count of every source, and only the page's rows read."""

    def __init__(self, tournament: object, filters: AuditFilter) -> None:
        self.tournament, self.filters = tournament, filters

    def count(self) -> int:
        return audit.count(tournament=self.tournament, filters=self.filters)  # type: ignore[arg-type]

    def __getitem__(self, window: slice) -> list[audit.Change]:
        start = window.start or 0
        return audit.changes(
            tournament=self.tournament,  # type: ignore[arg-type]
            filters=self.filters,
            offset=start,
            limit=(window.stop or start) - start,
        )


def audit_log(request: HttpRequest, slug: str) -> HttpResponse:
    """Who changed what and when, from what to what (torneo/selectors/audit.py): the organizer's."""
    tournament = tournament_for(request, slug, Action.AUDIT_VIEW)
    form = AuditFilterForm(request.GET or None)
    filters = form.filters()
    page = Paginator(_Counted(tournament, filters), audit.PAGE_SIZE).get_page(request.GET.get("pagina"))
    context = {
        "tournament": tournament,
        "form": form,
        "filtered": filters != AuditFilter(),
        "page": page,
    }
    return render(request, "torneo/manage/audit.html", context, status=400 if form.errors else 200)


def audit_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The log under the same filters, as a spreadsheet: one row per changed field."""
    tournament = tournament_for(request, slug, Action.AUDIT_VIEW)
    filters = AuditFilterForm(request.GET or None).filters()
    header = [_("Fecha y hora"), _("Usuario"), _("Tipo"), _("Acción"), _("Qué"), _("Campo"), _("Antes"), _("Después")]
    header.append(_("Motivo"))
    rows: list[list[object]] = []
    for change in audit.changes(tournament=tournament, filters=filters):
        when = timezone.localtime(change.when).strftime("%Y-%m-%d %H:%M:%S")
        start = [when, change.user, change.kind_label, change.action_label, change.what]
        for field in change.fields or [None]:
            cells = [field.name, field.before, field.after] if field else ["", "", ""]
            rows.append([*start, *cells, change.reason])
    sheet = sheets.Sheet(header, rows, title=_("Cambios"))
    return sheets.download(request, sheet, f"cambios-{tournament.slug}")
