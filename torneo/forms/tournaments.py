"""Forms of tournaments: a tournament, its jornadas and its staff's functions."""

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from torneo.models import Session, Tournament, TournamentRole
from torneo.permissions import ROLE_LABELS
from torneo.services.tournaments import TOURNAMENT_FIELDS


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%d", **kwargs)


KEPT_WHEN_LEFT_OUT = ("clock_rules", "ladder_scope")
"""Chapter VI's timings and the ladder's scope (5.4): left out of a form (or an older client), they
stay as they are."""


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    """A tournament's data. Editing one already drawn: `locked` fields (name -> reason) are shown
    disabled with their reason, and `confirm` is the second step of a change that alters the
    standings or the pairings (the service asks for it, with what the change does)."""

    confirm = forms.BooleanField(
        label=_("Confirmo el cambio, sabiendo lo que altera"),
        label_suffix="",
        required=False,
    )

    class Meta:
        model = Tournament
        fields = [f for f in TOURNAMENT_FIELDS if f != "slug"]
        widgets = {
            "start_date": DateInput(),
            "end_date": DateInput(),
            "description": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args: Any, locked: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is None:
            del self.fields["confirm"]
        for name, reason in (locked or {}).items():
            if name in self.fields:
                self.fields[name].disabled = True
                self.fields[name].help_text = reason
        for name in KEPT_WHEN_LEFT_OUT:
            if name in self.fields:
                self.fields[name].required = False

    def clean_clock_rules(self) -> str:
        return str(self.cleaned_data.get("clock_rules") or self.instance.clock_rules)

    def clean_ladder_scope(self) -> str:
        return str(self.cleaned_data.get("ladder_scope") or self.instance.ladder_scope)


class SessionForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Session
        fields = ["name", "starts_at", "courtesy_minutes"]
        widgets = {"starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")}


def role_choices() -> list[tuple[str, str]]:
    """The functions as every page names them (torneo.permissions.ROLE_LABELS: «Organizador», not the
    model's «Organización»)."""
    return [(role.value, capfirst(str(ROLE_LABELS[role]))) for role in TournamentRole.Role]


class RoleForm(forms.Form):
    username = forms.CharField(label=_("Usuario o correo"), max_length=150)
    role = forms.ChoiceField(label=_("Función"), choices=lambda: role_choices())
    full_name = forms.CharField(
        label=_("Nombre y apellidos (opcional)"),
        max_length=150,
        required=False,
        help_text=_("Como lo leen los demás: «ante el juez Juan Pérez». Solo para una cuenta que aún no tiene nombre."),
    )
    tables = forms.CharField(
        label=_("Mesas del juez (opcional)"),
        max_length=200,
        required=False,
        help_text=_("Su zona de la sala, p. ej. «1-20, 41-50»: las ve primero en la mesa del juez."),
    )
