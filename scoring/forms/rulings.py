"""The phone form of the facts a juez adds to a recorded hand to rule on it (AMM chapter IV). It
only turns fields into the engine's facts (scoring/mus/rulings_io.py) and back; the service asks
the engine, and its errors, keyed by the fact at fault, come back to the fields (``field_for``).
Seats are the hand's own: 0 mano … 3 postre, A the hand's mano pair."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from scoring.forms.hands import LANCE_LABELS, LANCES
from scoring.mus.senas import SENAS
from scoring.selectors.hands import SEAT_LABELS

RECTIFICATION_ROWS = 2
SENA_ROWS = 2
EMPTY = [("", "—")]
LANCE_CHOICES = EMPTY + [(lance, LANCE_LABELS[lance]) for lance in LANCES]
WHEN_CHOICES = [
    *EMPTY,
    ("antes", _("antes del lance (o al declarar)")),
    ("durante", _("durante el lance")),
    ("despues", _("después del lance")),
]
GRANDE_CHOICES = [
    *EMPTY,
    ("antes_grande", _("antes de acabar la grande")),
    ("tras_grande", _("después de la grande")),
]
# The señas of AMM 7.1, by the engine's names (scoring.mus.senas.SENAS).
SENA_LABELS = {
    "dos reyes": _("dos reyes"),
    "dos ases": _("dos ases"),
    "medias de reyes": _("medias de reyes"),
    "medias": _("medias"),
    "medias de ases": _("medias de ases"),
    "duples": _("duples"),
    "juego": _("juego"),
    "treinta y una": _("treinta y una"),
    "treinta": _("treinta"),
    "veintinueve": _("veintinueve"),
    "ciego": _("ciego"),
}
MISSING_SEAT = _("Falta el asiento de esta fila.")
MISSING_LANCE = _("Falta el lance.")


def _choice(label: Any, choices: list[tuple[Any, Any]]) -> forms.ChoiceField:
    return forms.ChoiceField(label=label, required=False, choices=choices)


def _flag(label: Any) -> forms.BooleanField:
    return forms.BooleanField(label=label, required=False)


class RulingForm(forms.Form):
    """The juez's facts about one hand. Every field is optional; a row counts once its seat is
    chosen. `rectifications`, `senas` and `declined` group the bound fields for the template."""

    expected_version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    deck_recovered = _flag(_("Se pudieron sacar de la baraja y enseñar (AMM 3.20)"))
    wrong_when = _choice(_("Cuándo se advirtió (AMM 2.7)"), GRANDE_CHOICES)
    wrong_admitted = _flag(_("Admite que pidió mal las cartas (AMM 2.7.b)"))
    mano_repetida = _choice(_("La misma pareja fue mano dos veces seguidas; se advirtió (AMM 2.8)"), GRANDE_CHOICES)
    rival_showed_cards = _flag(
        _("Tras un órdago a pares querido con jugada mínima, un contrario enseñó sus cartas (AMM 3.12.b)")
    )
    obligada_lance = _choice(_("Lance de la jugada obligada (AMM 4.1d)"), LANCE_CHOICES)
    out_lance = _choice(_("Lance evidente con el que se veía fuera (AMM 3.4.b)"), LANCE_CHOICES)
    out_bet = forms.IntegerField(
        label=_("Envite que quieren echar los contrarios en ese lance (AMM 3.4.b)"),
        required=False,
        min_value=2,
        max_value=100,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "tanto"}),
    )
    out_ordago = _flag(_("Los contrarios echan órdago en ese lance (AMM 3.4.b)"))
    out_continued = _flag(_("Los contrarios eligieron seguir jugando: renuncian a las penalizaciones (AMM 3.4.b)"))

    def __init__(self, *args: Any, names: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = names or {"A": "A", "B": "B"}
        seats = EMPTY + [
            (str(seat), f"{capfirst(SEAT_LABELS[seat])} · {self._pair(seat)} ({names[self._pair(seat)]})")
            for seat in range(4)
        ]
        for n in range(1, RECTIFICATION_ROWS + 1):
            self.fields[f"rect{n}_seat"] = _choice(_("Quién rectificó (AMM 4.3)"), seats)
            self.fields[f"rect{n}_lance"] = _choice(_("Lance de la rectificación (AMM 4.4)"), LANCE_CHOICES)
            self.fields[f"rect{n}_when"] = _choice(_("Cuándo, respecto a ese lance (AMM 4.4.a–c)"), WHEN_CHOICES)
            self.fields[f"rect{n}_rival"] = _flag(_("La pareja contraria ya había hablado en el lance (AMM 4.4.c)"))
            self.fields[f"rect{n}_infractor"] = _flag(
                _("El infractor había envidado o revocado en el lance (AMM 4.4.c)")
            )
        sena_choices = EMPTY + [(sena, SENA_LABELS.get(sena, sena)) for sena in SENAS]
        for n in range(1, SENA_ROWS + 1):
            self.fields[f"sena{n}_seat"] = _choice(_("Quién pasó la seña (AMM 4.1a)"), seats)
            self.fields[f"sena{n}_sena"] = _choice(_("Seña (AMM 7.1)"), sena_choices)
            self.fields[f"sena{n}_lance"] = _choice(_("Lance en que la pasó, si consta (AMM 4.1b)"), LANCE_CHOICES)
        for lance in LANCES:
            self.fields[f"declined_{lance}"] = forms.IntegerField(
                label=LANCE_LABELS[lance],
                required=False,
                min_value=1,
                max_value=200,
                help_text=_("Tantos del envite que no quiso por el error (AMM 4.2.f)"),
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "tanto"}),
            )
        self.fields["deck_seat"] = _choice(_("Quién metió sus cartas en la baraja (AMM 3.20)"), seats)
        self.fields["wrong_seat"] = _choice(_("Quién tuvo cartas de más o de menos (AMM 2.7)"), seats)
        self.fields["obligada_seat"] = _choice(_("Quién tenía jugada obligada (AMM 4.1d)"), seats)
        self.fields["out_seat"] = _choice(_("Quién enseñó las cartas por estar fuera (AMM 3.4.b)"), seats)

    @staticmethod
    def _pair(seat: int) -> str:
        return "A" if seat % 2 == 0 else "B"

    # groups for the template
    def rectifications(self) -> list[dict[str, Any]]:
        return [
            {
                "number": n,
                "seat": self[f"rect{n}_seat"],
                "lance": self[f"rect{n}_lance"],
                "when": self[f"rect{n}_when"],
                "rival": self[f"rect{n}_rival"],
                "infractor": self[f"rect{n}_infractor"],
            }
            for n in range(1, RECTIFICATION_ROWS + 1)
        ]

    def senas(self) -> list[dict[str, Any]]:
        return [
            {"number": n, "seat": self[f"sena{n}_seat"], "sena": self[f"sena{n}_sena"], "lance": self[f"sena{n}_lance"]}
            for n in range(1, SENA_ROWS + 1)
        ]

    def declined(self) -> list[forms.BoundField]:
        return [self[f"declined_{lance}"] for lance in LANCES]

    def has_values(self, *names: str) -> bool:
        """Whether any of these fields has a value or an error."""
        return any(self[name].value() not in (None, "", False) or name in self.errors for name in names)

    def open_details(self) -> dict[str, bool]:
        """Which of the less common facts' <details> start open: those filled or with an error."""
        return {
            "deck": self.has_values("deck_seat", "deck_recovered"),
            "wrong": self.has_values("wrong_seat", "wrong_when", "wrong_admitted"),
            "mano": self.has_values("mano_repetida"),
            "showed": self.has_values("rival_showed_cards"),
            "obligada": self.has_values("obligada_seat", "obligada_lance"),
            "out": self.has_values("out_seat", "out_lance", "out_bet", "out_ordago", "out_continued"),
        }

    def hidden_copy(self) -> list[tuple[str, Any]]:
        """The posted values, to post them again as they are (the «Confirmar el fallo» button)."""
        copy = []
        for name in self.fields:
            value = self.data.get(self.add_prefix(name))
            if value not in (None, ""):
                copy.append((self.add_prefix(name), value))
        return copy

    # ---------------------------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for n in range(1, RECTIFICATION_ROWS + 1):
            self._row(
                data,
                f"rect{n}_seat",
                {
                    f"rect{n}_lance": _("Falta el lance en que rectificó."),
                    f"rect{n}_when": _("Falta cuándo rectificó: antes, durante o después del lance."),
                },
                optional=(f"rect{n}_rival", f"rect{n}_infractor"),
            )
        for n in range(1, SENA_ROWS + 1):
            self._row(data, f"sena{n}_seat", {f"sena{n}_sena": _("Falta la seña.")}, optional=(f"sena{n}_lance",))
        self._row(data, "deck_seat", {}, optional=("deck_recovered",))
        self._row(
            data,
            "wrong_seat",
            {"wrong_when": _("Falta cuándo se advirtió: antes o después de la grande.")},
            optional=("wrong_admitted",),
        )
        self._row(data, "obligada_seat", {"obligada_lance": MISSING_LANCE})
        self._row(data, "out_seat", {"out_lance": MISSING_LANCE}, optional=("out_bet", "out_ordago", "out_continued"))
        if data.get("out_bet") and data.get("out_ordago"):
            self.add_error("out_bet", _("O un envite o un órdago, no los dos."))
        return data

    def _row(self, data: dict[str, Any], seat: str, required: dict[str, Any], optional: tuple[str, ...] = ()) -> None:
        """A row counts once its seat is chosen: then its other required fields must be too; a row
        filled without its seat is a mistake (nothing of it would reach the engine)."""
        if seat not in data:  # the seat itself was invalid: its error is already there
            return
        if data[seat] in (None, ""):
            if any(data.get(name) not in (None, "", False) for name in (*required, *optional)):
                self.add_error(seat, MISSING_SEAT)
            return
        for name, message in required.items():
            if name in data and data[name] in (None, ""):
                self.add_error(name, message)

    def to_facts(self) -> dict[str, Any]:
        """The engine's facts (scoring/mus/rulings_io.py) from the cleaned fields, only rows filled."""
        data = self.cleaned_data
        facts: dict[str, Any] = {}
        rectifications = []
        for n in range(1, RECTIFICATION_ROWS + 1):
            if data.get(f"rect{n}_seat"):
                entry: dict[str, Any] = {
                    "seat": int(data[f"rect{n}_seat"]),
                    "lance": data[f"rect{n}_lance"],
                    "when": data[f"rect{n}_when"],
                }
                if data.get(f"rect{n}_rival"):
                    entry["rival_intervened"] = True
                if data.get(f"rect{n}_infractor"):
                    entry["infractor_intervened"] = True
                rectifications.append(entry)
        if rectifications:
            facts["rectifications"] = rectifications
        declined = {lance: data[f"declined_{lance}"] for lance in LANCES if data.get(f"declined_{lance}")}
        if declined:
            facts["declined_by_error"] = declined
        senas = []
        for n in range(1, SENA_ROWS + 1):
            if data.get(f"sena{n}_seat"):
                sena: dict[str, Any] = {"seat": int(data[f"sena{n}_seat"]), "sena": data[f"sena{n}_sena"]}
                if data.get(f"sena{n}_lance"):
                    sena["lance"] = data[f"sena{n}_lance"]
                senas.append(sena)
        if senas:
            facts["senas"] = senas
        if data.get("deck_seat"):
            facts["into_deck"] = [{"seat": int(data["deck_seat"]), "recovered": bool(data.get("deck_recovered"))}]
        if data.get("wrong_seat"):
            wrong: dict[str, Any] = {"seat": int(data["wrong_seat"]), "when": data["wrong_when"]}
            if data.get("wrong_admitted"):
                wrong["admitted"] = True
            facts["wrong_cards"] = [wrong]
        if data.get("mano_repetida"):
            facts["mano_repetida"] = data["mano_repetida"]
        if data.get("rival_showed_cards"):
            facts["rival_showed_cards"] = True
        if data.get("obligada_seat"):
            facts["obligadas"] = [{"seat": int(data["obligada_seat"]), "lance": data["obligada_lance"]}]
        if data.get("out_seat"):
            out: dict[str, Any] = {"seat": int(data["out_seat"]), "lance": data["out_lance"]}
            if data.get("out_ordago"):
                out["rival_bet"] = "ordago"
            elif data.get("out_bet"):
                out["rival_bet"] = int(data["out_bet"])
            if data.get("out_continued"):
                out["continued"] = True
            facts["showed_out"] = out
        return facts

    @staticmethod
    def initial_from(facts: dict[str, Any], *, version: int | None = None) -> dict[str, Any]:
        """The form's initial values from stored facts (a ruling's, to rule again from them)."""
        initial: dict[str, Any] = {"expected_version": version}
        for n, entry in enumerate((facts.get("rectifications") or [])[:RECTIFICATION_ROWS], start=1):
            initial[f"rect{n}_seat"] = str(entry.get("seat", ""))
            initial[f"rect{n}_lance"] = entry.get("lance", "")
            initial[f"rect{n}_when"] = entry.get("when", "")
            initial[f"rect{n}_rival"] = bool(entry.get("rival_intervened"))
            initial[f"rect{n}_infractor"] = bool(entry.get("infractor_intervened"))
        for lance, points in (facts.get("declined_by_error") or {}).items():
            if isinstance(points, int):
                initial[f"declined_{lance}"] = points
        for n, entry in enumerate((facts.get("senas") or [])[:SENA_ROWS], start=1):
            initial[f"sena{n}_seat"] = str(entry.get("seat", ""))
            initial[f"sena{n}_sena"] = entry.get("sena", "")
            initial[f"sena{n}_lance"] = entry.get("lance") or ""
        for entry in (facts.get("into_deck") or [])[:1]:
            initial["deck_seat"] = str(entry.get("seat", ""))
            initial["deck_recovered"] = entry.get("recovered", True) is not False
        for entry in (facts.get("wrong_cards") or [])[:1]:
            initial["wrong_seat"] = str(entry.get("seat", ""))
            initial["wrong_when"] = entry.get("when", "")
            initial["wrong_admitted"] = bool(entry.get("admitted"))
        if facts.get("mano_repetida"):
            initial["mano_repetida"] = facts["mano_repetida"]
        initial["rival_showed_cards"] = bool(facts.get("rival_showed_cards"))
        for entry in (facts.get("obligadas") or [])[:1]:
            initial["obligada_seat"] = str(entry.get("seat", ""))
            initial["obligada_lance"] = entry.get("lance", "")
        out = facts.get("showed_out")
        if isinstance(out, dict):
            initial["out_seat"] = str(out.get("seat", ""))
            initial["out_lance"] = out.get("lance", "")
            bet = out.get("rival_bet")
            initial["out_ordago"] = bet == "ordago"
            initial["out_bet"] = bet if isinstance(bet, int) else None
            initial["out_continued"] = bool(out.get("continued"))
        return initial


_ROWS = {
    "rectifications": (
        "rect",
        RECTIFICATION_ROWS,
        {
            "seat": "seat",
            "lance": "lance",
            "when": "when",
            "rival_intervened": "rival",
            "infractor_intervened": "infractor",
        },
    ),
    "senas": ("sena", SENA_ROWS, {"seat": "seat", "sena": "sena", "lance": "lance"}),
}
_SINGLE_ROWS = {
    "into_deck": {"seat": "deck_seat", "recovered": "deck_recovered"},
    "wrong_cards": {"seat": "wrong_seat", "when": "wrong_when", "admitted": "wrong_admitted"},
    "obligadas": {"seat": "obligada_seat", "lance": "obligada_lance"},
}


def field_for(key: str) -> str | None:
    """The form field where an error keyed by the engine's fact (``rectifications[0].when``,
    ``senas[1].sena``, ``declined_by_error.pares``…) belongs; None: on the whole form."""
    if match := re.fullmatch(r"(\w+)\[(\d+)\](?:\.(\w+))?", key):
        name, index, part = match[1], int(match[2]), match[3] or "seat"
        if name in _ROWS:
            prefix, rows, parts = _ROWS[name]
            if index < rows and part in parts:
                return f"{prefix}{index + 1}_{parts[part]}"
            return None
        if name in _SINGLE_ROWS and index == 0:
            return _SINGLE_ROWS[name].get(part)
        return None
    if match := re.fullmatch(r"declined_by_error\.(\w+)", key):
        return f"declined_{match[1]}" if match[1] in LANCES else None
    if key in ("mano_repetida", "rival_showed_cards"):
        return key
    if match := re.fullmatch(r"showed_out\.(\w+)", key):
        return {"seat": "out_seat", "lance": "out_lance", "rival_bet": "out_bet", "continued": "out_continued"}.get(
            match[1]
        )
    return None
