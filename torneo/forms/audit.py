"""The filters of the organizer's log of changes (torneo/selectors/audit.py), from the query string."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from torneo.selectors.audit import KINDS, AuditFilter


class AuditFilterForm(forms.Form):
    tipo = forms.ChoiceField(
        label=_("Tipo de cambio"), required=False, choices=[("", _("Todos los cambios")), *KINDS.items()]
    )
    usuario = forms.CharField(label=_("Usuario"), required=False, max_length=150)
    desde = forms.DateField(label=_("Desde el día"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    hasta = forms.DateField(label=_("Hasta el día"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("desde"), data.get("hasta")
        if since and until and until < since:
            self.add_error("hasta", _("«Hasta el día» no puede ser anterior a «Desde el día»."))
        return data

    def filters(self) -> AuditFilter:
        """What the form says, or no filter at all when it is not valid (its errors are shown)."""
        if not self.is_bound or not self.is_valid():
            return AuditFilter()
        data = self.cleaned_data
        return AuditFilter(
            kind=data["tipo"] or "", user=(data["usuario"] or "").strip(), since=data["desde"], until=data["hasta"]
        )
