"""The forms of the juez's pages (plain POSTs and GETs that work without JavaScript). They only
collect and type-check: referees.services decide, and their errors come keyed by the services'
field names (``article``, ``pair``, ``description``, ``step``, ``reason``, ``resolution``), which
are these forms' names too, so torneo.forms.errors puts each next to its field."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from referees.models import Incident, Sanction
from referees.selectors.sanctions import IncidentFilter, articles
from torneo.models import Match, Tournament

SIDES = [("A", _("Pareja A")), ("B", _("Pareja B"))]

OTHER = "otra"
"""The players' «Otra» (AMM 5.3): an infraction they cannot name, logged under 5.3 with their words."""
OTHER_ARTICLE = "5.3"

# The chapters of the reglamento, by the first number of an article's code (AMM v6.4).
CHAPTERS = {
    "1": _("I. Al inicio"),
    "2": _("II. Al repartir"),
    "3": _("III. Durante la partida"),
    "4": _("IV. Errores"),
    "5": _("V. Sobre el torneo"),
    "6": _("VI. El tiempo"),
    "7": _("VII. Las señas"),
}


def article_choices(tournament: Tournament) -> list[tuple[Any, Any]]:
    """The tournament's catalogue for a select, «código — título», grouped by chapter in the
    reglamento's order."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for entry in articles(tournament):
        chapter = entry.code.split(".")[0].rstrip("abcdefghijklmnopqrstuvwxyz")
        groups.setdefault(chapter, []).append((entry.code, f"{entry.code} — {_(entry.title)}"))
    return [
        (CHAPTERS.get(chapter) or _("Capítulo %(n)s") % {"n": chapter}, options) for chapter, options in groups.items()
    ]


def side_choices(match: Match | None, own: set[int] | None = None) -> list[tuple[str, str]]:
    """A/B, named by the pairs of ``match`` when known (``own``: the user's pairs, marked)."""
    if match is None or match.pair_b is None:
        return [(value, str(label)) for value, label in SIDES]
    choices = []
    for side, pair in (("A", match.pair_a), ("B", match.pair_b)):
        label = f"{pair.number} · {pair.display_name}"
        if own and pair.pk in own:
            label += " " + str(_("(vuestra pareja)"))
        choices.append((side, label))
    return choices


class DeskForm(forms.Form):
    """The juez's incident at a table (AMM 5.3.a): the table's number, the pair, the article."""

    ronda = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    table = forms.IntegerField(
        label=_("Mesa"),
        min_value=1,
        max_value=9999,
        error_messages={"required": _("Escribe el número de mesa.")},
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    pair = forms.ChoiceField(
        label=_("Pareja"),
        choices=SIDES,
        widget=forms.RadioSelect,
        error_messages={"required": _("Elige la pareja.")},
    )
    article = forms.ChoiceField(label=_("Artículo"), error_messages={"required": _("Elige el artículo.")})
    description = forms.CharField(
        label=_("Descripción"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args: Any, tournament: Tournament, match: Match | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["article"].choices = [("", _("— Elige el artículo —")), *article_choices(tournament)]  # type: ignore[attr-defined]
        self.fields["pair"].choices = side_choices(match)  # type: ignore[attr-defined]

    def messages(self) -> list[str]:
        return [str(e) for errors in self.errors.values() for e in errors]


# What a table calls the juez for, most of the time (issue 32): first in the picker, by their words.
FREQUENT_REASONS = [
    ("4.1a", _("Error en una mano (AMM 4.1a)")),
    ("6.3", _("Retraso (AMM 6.3)")),
    ("5.10", _("Conducta (AMM 5.10)")),
]


class ReportForm(forms.Form):
    """A player tells the jueces (AMM 5.3): the pair, the article or «Otra», what happened."""

    pair = forms.ChoiceField(
        label=_("Pareja"), choices=SIDES, widget=forms.RadioSelect, error_messages={"required": _("Elige la pareja.")}
    )
    article = forms.ChoiceField(label=_("Artículo"))
    description = forms.CharField(
        label=_("Qué ha pasado"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(
        self, *args: Any, tournament: Tournament, match: Match, own: set[int] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        codes = {entry.code for entry in articles(tournament)}
        frequent = [(code, label) for code, label in FREQUENT_REASONS if code in codes]
        self.fields["article"].choices = [  # type: ignore[attr-defined]
            (OTHER, _("Otra: descríbela abajo")),
            *([(_("Lo más frecuente"), frequent)] if frequent else []),
            *article_choices(tournament),
        ]
        self.fields["pair"].choices = side_choices(match, own)  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("article") == OTHER and not (data.get("description") or "").strip():
            self.add_error("description", _("Describe lo que ha pasado: has elegido «Otra»."))
        return data

    @property
    def article_code(self) -> str:
        code = str(self.cleaned_data["article"])
        return OTHER_ARTICLE if code == OTHER else code


class SanctionForm(forms.Form):
    """The juez's decision on an incident: a step of AMM 5.4 and, when needed, the reason (5.4.a)."""

    step = forms.TypedChoiceField(
        label=_("Sanción"),
        choices=Sanction.Step.choices,
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={"required": _("Elige la sanción."), "invalid_choice": _("Sanción no válida.")},
    )
    reason = forms.CharField(
        label=_("Motivo"), required=False, max_length=1000, widget=forms.Textarea(attrs={"rows": 2})
    )


class DismissForm(forms.Form):
    """Closing an incident without a sanction, with the juez's resolution."""

    resolution = forms.CharField(
        label=_("Resolución"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )


class UndoForm(forms.Form):
    """Undoing a sanction in force, with its reason (a new version of it)."""

    sanction = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Motivo"), required=False, max_length=1000)


class LogFilterForm(forms.Form):
    """The log's filters, as GET parameters (all optional)."""

    estado = forms.ChoiceField(label=_("Estado"), required=False)
    articulo = forms.ChoiceField(label=_("Artículo"), required=False)
    ronda = forms.IntegerField(label=_("Ronda"), required=False, min_value=1)
    pareja = forms.IntegerField(label=_("Pareja nº"), required=False, min_value=1)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["estado"].choices = [("", _("Cualquier estado")), *Incident.Status.choices]  # type: ignore[attr-defined]
        self.fields["articulo"].choices = [("", _("Cualquier artículo")), *article_choices(tournament)]  # type: ignore[attr-defined]

    def filters(self) -> IncidentFilter:
        """The selector's filters (a value that is not valid is ignored, the others apply)."""
        if not self.is_bound:
            return IncidentFilter()
        self.is_valid()
        data = self.cleaned_data
        return IncidentFilter(
            status=data.get("estado") or "",
            article=data.get("articulo") or "",
            round=data.get("ronda"),
            pair=data.get("pareja"),
        )


class SubstituteForm(forms.Form):
    """A suplente for a player of a table (AMM 5.8): the table, the pair, which of its players, and
    the suplente's name and document. The limits are the service's; force majeure needs a reason."""

    table = forms.IntegerField(
        label=_("Mesa"),
        min_value=1,
        max_value=9999,
        error_messages={"required": _("Escribe el número de mesa.")},
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    pair = forms.ChoiceField(
        label=_("Pareja"), choices=SIDES, widget=forms.RadioSelect, error_messages={"required": _("Elige la pareja.")}
    )
    position = forms.ChoiceField(
        label=_("Sustituye al jugador"),
        choices=[("1", _("Primero de la pareja")), ("2", _("Segundo de la pareja")), ("3", _("Tercero (trío)"))],
        widget=forms.RadioSelect,
        error_messages={"required": _("Elige a qué jugador sustituye.")},
    )
    also_missing = forms.ChoiceField(
        label=_("Trío: el otro jugador que tampoco puede jugar (AMM 5.8.e)"),
        choices=[("", _("—")), ("1", _("Primero")), ("2", _("Segundo")), ("3", _("Tercero"))],
        required=False,
    )
    first_name = forms.CharField(label=_("Nombre del suplente"), max_length=100, required=False)
    last_name = forms.CharField(label=_("Apellidos del suplente"), max_length=150, required=False)
    id_document = forms.CharField(label=_("Documento (DNI, NIE…)"), max_length=20, required=False)
    force_majeure = forms.BooleanField(
        label=_("Fuerza mayor (AMM 5.8): autorizar aunque incumpla un límite"), required=False
    )
    reason = forms.CharField(
        label=_("Motivo"), max_length=1000, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


class SubstituteCancelForm(forms.Form):
    force_majeure = forms.BooleanField(label=_("Fuerza mayor"), required=False)
    reason = forms.CharField(label=_("Motivo"), max_length=1000, required=False)
