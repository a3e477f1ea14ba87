"""Forms of registrations: a pair (or trío) with each player's details, the CSV import, a withdrawal.
The pair forms' fields are named `player_field_name(i, field)` ('p1_first_name'…)."""

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from torneo.models import Tournament
from torneo.services.registrations import PLAYER_FIELDS, PlayerData

_PLAYER_LABELS = {
    "first_name": _("Nombre"),
    "last_name": _("Apellidos"),
    "id_document": _("DNI / NIE / pasaporte"),
    "phone": _("Teléfono"),
    "email": _("Correo electrónico"),
    "club": _("Club o peña"),
}
_INPUT_ATTRS = {
    "first_name": {"autocomplete": "given-name"},
    "last_name": {"autocomplete": "family-name"},
    "id_document": {"autocapitalize": "characters"},
    "phone": {"inputmode": "tel", "autocomplete": "tel"},
    "email": {"autocomplete": "email"},
    "club": {},
}


def player_field_name(index: int, field: str) -> str:
    return f"p{index + 1}_{field}"


class PairForm(forms.Form):
    """A pair (or trío): optional pair name and each player's details."""

    name = forms.CharField(label=_("Nombre de la pareja (opcional)"), max_length=120, required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        for index in range(tournament.max_players_per_pair):
            optional = index >= 2
            for field in PLAYER_FIELDS:
                required = field in ("first_name", "last_name") and not optional
                form_field: forms.Field
                if field == "email":
                    form_field = forms.EmailField(max_length=254, required=False)
                else:
                    form_field = forms.CharField(max_length=150, required=required)
                form_field.label = _PLAYER_LABELS[field]
                form_field.widget.attrs.update(_INPUT_ATTRS[field])
                self.fields[player_field_name(index, field)] = form_field

    def player_groups(self) -> list[tuple[int, list[forms.BoundField]]]:
        """The fields grouped by player, for the template."""
        return [
            (index + 1, [self[player_field_name(index, f)] for f in PLAYER_FIELDS])
            for index in range(self.tournament.max_players_per_pair)
        ]

    def players(self) -> list[PlayerData]:
        players = []
        for index in range(self.tournament.max_players_per_pair):
            values = {f: (self.cleaned_data.get(player_field_name(index, f)) or "") for f in PLAYER_FIELDS}
            if index >= 2 and not any(values.values()):
                continue  # the optional third player left empty
            players.append(PlayerData(**values))
        return players

    @classmethod
    def initial_for(cls, pair: Any) -> dict[str, Any]:
        initial: dict[str, Any] = {"name": pair.name}
        for index, member in enumerate(pair.ordered_members()):
            for field in PLAYER_FIELDS:
                initial[player_field_name(index, field)] = getattr(member.player, field)
        return initial


class CsvImportForm(forms.Form):
    file = forms.FileField(
        label=_("Archivo CSV"),
        help_text=_("Exportado de una hoja de cálculo (separado por comas o por punto y coma)."),
    )

    def clean_file(self) -> Any:
        f = self.cleaned_data["file"]
        if not f.name.lower().endswith((".csv", ".txt")):
            raise ValidationError(_("El archivo debe ser un CSV (.csv)."))
        return f


class WithdrawForm(forms.Form):
    reason = forms.CharField(label=_("Motivo (opcional)"), max_length=200, required=False)
