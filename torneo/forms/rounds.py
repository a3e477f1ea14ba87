"""Forms of the rounds pages: they collect and type-check input; the round services decide and write."""

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from torneo.models import Draw, Session, Tournament
from torneo.selectors.rounds import jueces_of, person_label

PUBLIC_VALUE_REQUIRED = _("Escribe el valor público obtenido en la sala (un número cantado, los dados…).")
WITNESS_REQUIRED = _("Indica el juez presente en el sorteo (AMM 5.5).")
REASON_REQUIRED = _("Un nuevo sorteo necesita un motivo, que queda registrado.")


class RoundPrepareForm(forms.Form):
    session = forms.ModelChoiceField(
        label=_("Jornada (opcional)"),
        queryset=Session.objects.none(),
        required=False,
        empty_label=_("Sin jornada"),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["session"].queryset = tournament.sessions.order_by("starts_at")  # type: ignore[attr-defined]


class WitnessField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        return person_label(obj)


class DrawPublishForm(forms.Form):
    """The public act (AMM 5.5): the value produced in the room and the juez who saw it."""

    commitment = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)
    public_value = forms.CharField(
        label=_("Valor público obtenido en la sala"),
        max_length=200,
        help_text=_("Un número cantado en voz alta, la tirada de unos dados… Se publica tal cual."),
        error_messages={
            "required": PUBLIC_VALUE_REQUIRED,
            "max_length": _("El valor público es demasiado largo (máximo 200 caracteres)."),
        },
        widget=forms.TextInput(attrs={"autocomplete": "off", "inputmode": "text"}),
    )
    witness = WitnessField(
        label=_("Juez presente"),
        queryset=get_user_model().objects.none(),
        empty_label=_("— elige el juez —"),
        error_messages={"required": WITNESS_REQUIRED, "invalid_choice": WITNESS_REQUIRED},
    )

    def __init__(self, *args: Any, tournament: Tournament, draw: Draw, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {}).setdefault("commitment", draw.commitment)
        super().__init__(*args, **kwargs)
        self.draw = draw
        self.fields["witness"].queryset = jueces_of(tournament)  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        # AMM 5.5: the commitment the person saw on the page. If it changed meanwhile (the round was
        # prepared again, or redrawn), the room was shown another one: the draw must not go ahead.
        cleaned = super().clean() or {}
        if cleaned.get("commitment") != self.draw.commitment:
            raise ValidationError(
                _(
                    "El compromiso del sorteo ha cambiado desde que abriste esta página (la ronda se ha "
                    "preparado de nuevo o se ha repetido el sorteo): comprueba el compromiso nuevo antes de sortear."
                ),
                code="stale_commitment",
            )
        return cleaned


class RedrawForm(forms.Form):
    reason = forms.CharField(
        label=_("Motivo del nuevo sorteo"),
        max_length=1000,
        help_text=_("Queda registrado y se publica junto al sorteo anulado."),
        error_messages={"required": REASON_REQUIRED},
        widget=forms.Textarea(attrs={"rows": 3}),
    )
