"""Forms of the results pages: they collect and type-check input; scoring.services.results decides.

Service errors come keyed by the service's field names (games_a, games_b, winner, tantos, reason,
outcome), which are these forms' field names, so torneo.forms.errors.attach_errors puts each on its field.
"""

import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.models import ResultSubmission
from torneo.models import Match

Outcome = Match.Outcome

# The outcomes the mesa can enter, with the names used at the table (the exenta is never entered:
# the draw gives it, AMM 5.6).
OUTCOME_CHOICES = [
    (Outcome.PLAYED, _("Jugada")),
    (Outcome.WALKOVER, _("Incomparecencia")),
    (Outcome.RETIRED, _("Retirada")),
    (Outcome.DOUBLE_LOSS, _("Pierden ambas")),
    (Outcome.RULING, _("Decisión del juez")),
]
SIDE_CHOICES = [("", "—"), ("a", _("Pareja A")), ("b", _("Pareja B"))]
_JUEGO = re.compile(r"(\d{1,3})\s*[-–:/]\s*(\d{1,3})")


def parse_tantos(text: str) -> list[list[int]]:
    """ "40-32, 38-40 40-12" → [[40, 32], [38, 40], [40, 12]]. Raises ValidationError in Spanish."""
    text = (text or "").strip()
    if not text:
        return []
    found = _JUEGO.findall(text)
    rest = _JUEGO.sub(" ", text)
    if not found or re.sub(r"[\s,;]+", "", rest):
        raise forms.ValidationError(
            _("Escribe los tantos de cada juego como 40-32, separados por espacios o comas."), code="tantos"
        )
    return [[int(a), int(b)] for a, b in found]


def _number(label: str, **kwargs: Any) -> forms.IntegerField:
    widget = forms.NumberInput(attrs={"inputmode": "numeric", "autocomplete": "off", "min": 0})
    return forms.IntegerField(label=label, widget=widget, **kwargs)


class ResultFields(forms.Form):
    """The result itself: juegos, the special outcome and its winner, tantos, a reason."""

    games_a = _number(_("Juegos A"), required=False, min_value=0, max_value=9)
    games_b = _number(_("Juegos B"), required=False, min_value=0, max_value=9)
    outcome = forms.ChoiceField(label=_("Resultado"), choices=OUTCOME_CHOICES, initial=Outcome.PLAYED, required=False)
    winner = forms.ChoiceField(label=_("Gana (o se presenta)"), choices=SIDE_CHOICES, required=False)
    tantos = forms.CharField(
        label=_("Tantos de cada juego (opcional)"),
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": "40-32 38-40 40-12", "autocomplete": "off"}),
    )
    reason = forms.CharField(
        label=_("Motivo (corrección, decisión del juez)"),
        required=False,
        max_length=500,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    version = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)

    def clean_tantos(self) -> list[list[int]]:
        return parse_tantos(self.cleaned_data.get("tantos", ""))

    def clean_outcome(self) -> str:
        return self.cleaned_data.get("outcome") or Outcome.PLAYED

    @property
    def is_lookup_only(self) -> bool:
        """Only the table was typed (no juegos, no special outcome): show the pairs first."""
        data = self.cleaned_data
        return (
            data.get("games_a") is None
            and data.get("games_b") is None
            and data.get("outcome", Outcome.PLAYED) == Outcome.PLAYED
            and not data.get("tantos")
            and not data.get("winner")
        )


class EntryForm(ResultFields):
    """The mesa de control's fast entry: table number first, then the result."""

    table = _number(_("Mesa"), min_value=1, max_value=32767)
    round = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)  # the view picks the round

    field_order = ["round", "table", "games_a", "games_b", "outcome", "winner", "tantos", "reason", "version"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].widget.attrs.update({"autofocus": True, "enterkeyhint": "next"})
        self.fields["table"].error_messages.update({"required": _("Escribe el número de mesa.")})


class CorrectionForm(ResultFields):
    """A correction from the match's history page (a new version)."""


class ResolveForm(ResultFields):
    """The third decision on two actas that disagree (double check, AMM 3.16): keep one of them,
    or enter another result; always with a reason, which stays in the acta's history."""

    NEW = "nuevo"

    choice = forms.ChoiceField(label=_("Decisión"), widget=forms.RadioSelect)

    field_order = ["choice", "games_a", "games_b", "outcome", "winner", "tantos", "reason"]

    def __init__(self, *args: Any, versions: Sequence[ResultSubmission] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice = self.fields["choice"]
        assert isinstance(choice, forms.ChoiceField)
        choice.choices = [(str(v.pk), _("Vale la versión %(v)d") % {"v": v.version}) for v in versions] + [
            (self.NEW, _("Otro resultado (escríbelo debajo)"))
        ]
        choice.error_messages.update(
            {"required": _("Elige una de las dos actas en desacuerdo, o anota otro resultado.")}
        )
        reason = self.fields["reason"]
        reason.required = True
        reason.label = _("Motivo de la decisión")
        reason.error_messages.update(
            {"required": _("Escribe el motivo de la decisión: queda en el historial del acta.")}
        )

    @property
    def keeps(self) -> int | None:
        """The id of the version kept; None: another result."""
        choice = self.cleaned_data.get("choice")
        return None if choice in (None, "", self.NEW) else int(choice)


class RejectForm(forms.Form):
    reason = forms.CharField(label=_("Motivo del rechazo"), required=False, max_length=500)


class ReportForm(forms.Form):
    """A pair's report from its phone (issue 32): the juegos of each pair, and the tantos of each
    juego if it wishes; the labels name the pairs (set by the view)."""

    games_a = _number(_("Juegos"), min_value=0, max_value=9)
    games_b = _number(_("Juegos"), min_value=0, max_value=9)
    tantos = forms.CharField(
        label=_("Tantos de cada juego (opcional)"),
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": "40-32 38-40 40-12", "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key, pair in (("games_a", match.pair_a), ("games_b", match.pair_b)):
            if pair is not None:
                self.fields[key].label = _("Juegos de la pareja %(n)s") % {"n": pair.number}
                self.fields[key].error_messages.update({"required": _("Escribe los juegos de cada pareja.")})

    def clean_tantos(self) -> list[list[int]]:
        return parse_tantos(self.cleaned_data.get("tantos", ""))
