"""The circuit's form: it type-checks; the service (circuits.services) decides, in Spanish."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from circuits.models import Circuit


class CircuitForm(forms.Form):
    name = forms.CharField(label=_("Nombre"), max_length=200)
    season = forms.CharField(label=_("Temporada"), max_length=40, help_text=Circuit._meta.get_field("season").help_text)
    points_table = forms.CharField(
        label=_("Puntos por puesto"),
        max_length=1200,
        help_text=_(
            "Del 1.º en adelante, separados por comas: «100, 80, 65, 55, 50». "
            "Los puestos empatados se reparten sus puntos."
        ),
    )
    best_of = forms.IntegerField(
        label=_("Resultados que cuentan"),
        required=False,
        min_value=1,
        max_value=100,
        help_text=Circuit._meta.get_field("best_of").help_text,
    )
    final_spots = forms.IntegerField(
        label=_("Plazas para la final"),
        min_value=0,
        max_value=1000,
        initial=0,
        help_text=Circuit._meta.get_field("final_spots").help_text,
    )
    description = forms.CharField(
        label=_("Descripción"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )

    @classmethod
    def of(cls, circuit: Circuit) -> "CircuitForm":
        return cls(
            initial={
                "name": circuit.name,
                "season": circuit.season,
                "points_table": ", ".join(str(p) for p in circuit.points_table),
                "best_of": circuit.best_of,
                "final_spots": circuit.final_spots,
                "description": circuit.description,
            }
        )


class TournamentChoiceForm(forms.Form):
    tournament = forms.ModelChoiceField(label=_("Torneo"), queryset=None, empty_label=None)  # type: ignore[arg-type]

    def __init__(self, *args: object, tournaments: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["tournament"].queryset = tournaments  # type: ignore[attr-defined]


class RegistrationChoice(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: object) -> str:
        player: Any = obj
        return f"{player.full_name} · {player.tournament.name}"


class PersonLinkForm(forms.Form):
    player_a = RegistrationChoice(label=_("Inscripción"), queryset=None)  # type: ignore[arg-type]
    player_b = RegistrationChoice(label=_("Es la misma persona que"), queryset=None)  # type: ignore[arg-type]
    consent = forms.CharField(
        label=_("Consentimiento"),
        max_length=2000,
        help_text=_("Cómo y cuándo consintió la persona que se unan sus resultados (RGPD)."),
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, players: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("player_a", "player_b"):
            self.fields[name].queryset = players  # type: ignore[attr-defined]
