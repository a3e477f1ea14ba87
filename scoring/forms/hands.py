"""The phone form of a recorded hand. It speaks the engine's format (A = the pair that is mano in
this hand, seats 0 mano … 3 postre) and only turns fields into that JSON and back; the service
validates, and its errors, keyed by the engine's field, come back to the form's fields."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

LANCES = ("grande", "chica", "pares", "juego", "punto")
LANCE_LABELS = {
    "grande": _("Grande"),
    "chica": _("Chica"),
    "pares": _("Pares"),
    "juego": _("Juego"),
    "punto": _("Punto (si nadie tiene juego)"),
}
SEAT_LABELS = (
    _("Mano"),
    _("Segundo (a la derecha del mano)"),
    _("Compañero del mano"),
    _("Postre"),
)
YES_NO = [("", "—"), ("si", _("sí")), ("no", _("no"))]
_SPLIT = re.compile(r"[,;\n]+")


def _score_field(label: Any, required: bool = False) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=required,
        min_value=0,
        max_value=200,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "tanto"}),
    )


class HandForm(forms.Form):
    """One hand. `seats`, `declarations`, `lances` and `claimed` group the bound fields for the
    template (cards and declarations by seat, bets by lance, claimed tantos by lance)."""

    game = forms.IntegerField(required=False, widget=forms.HiddenInput)
    expected_version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    mano = forms.ChoiceField(
        label=_("Pareja mano en esta mano"),
        choices=[("a", "A"), ("b", "B")],
        widget=forms.RadioSelect,
    )
    score_a = _score_field(_("Tantos de A antes de la mano"))
    score_b = _score_field(_("Tantos de B antes de la mano"))
    claimed_after_a = _score_field(_("A tras la mano"))
    claimed_after_b = _score_field(_("B tras la mano"))
    claimed_winner = forms.ChoiceField(
        label=_("¿Terminó el juego?"),
        required=False,
        choices=[("", _("no consta")), ("none", _("no")), ("A", _("sí, lo ganó A")), ("B", _("sí, lo ganó B"))],
    )

    def __init__(self, *args: Any, pair_names: tuple[str, str] = ("A", "B"), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pair_names = pair_names
        self.fields["mano"].choices = [("a", pair_names[0]), ("b", pair_names[1])]
        for seat, label in enumerate(SEAT_LABELS):
            self.fields[f"cards_{seat}"] = forms.CharField(
                label=label,
                required=False,
                max_length=40,
                widget=forms.TextInput(
                    attrs={
                        "placeholder": "12o 11c 7e 1b",
                        "autocomplete": "off",
                        "autocapitalize": "off",
                        "spellcheck": "false",
                        "class": "cards",
                    }
                ),
            )
            for what in ("pares", "juego"):
                self.fields[f"decl_{seat}_{what}"] = forms.ChoiceField(
                    label=_("Pares") if what == "pares" else _("Juego"),
                    required=False,
                    choices=YES_NO,
                    widget=forms.RadioSelect(attrs={"class": "yesno"}),
                )
        for lance in LANCES:
            self.fields[f"lance_{lance}"] = forms.CharField(
                label=LANCE_LABELS[lance],
                required=False,
                max_length=300,
                widget=forms.TextInput(
                    attrs={
                        "placeholder": "A:envido 2, B:quiero",
                        "autocomplete": "off",
                        "autocapitalize": "off",
                        "class": "bets",
                        "data-lance": lance,
                    }
                ),
            )
            self.fields[f"claimed_{lance}_a"] = _score_field(_("A"))
            self.fields[f"claimed_{lance}_b"] = _score_field(_("B"))

    # groups for the template
    def frame_names(self) -> dict[str, str]:
        """Which match pair is «A» (the mano pair of this hand) and which «B», by name, for the
        mano chosen (—: none chosen yet; hands.js updates them when the choice changes)."""
        mano = self["mano"].value()
        if mano == "a":
            return {"A": self.pair_names[0], "B": self.pair_names[1]}
        if mano == "b":
            return {"A": self.pair_names[1], "B": self.pair_names[0]}
        return {"A": "—", "B": "—"}

    def seats(self) -> list[dict[str, Any]]:
        return [
            {
                "number": seat,
                "label": SEAT_LABELS[seat],
                "pair": "A" if seat % 2 == 0 else "B",
                "cards": self[f"cards_{seat}"],
                "pares": self[f"decl_{seat}_pares"],
                "juego": self[f"decl_{seat}_juego"],
            }
            for seat in range(4)
        ]

    def lances(self) -> list[dict[str, Any]]:
        return [
            {
                "key": lance,
                "label": LANCE_LABELS[lance],
                "bets": self[f"lance_{lance}"],
                "claimed_a": self[f"claimed_{lance}_a"],
                "claimed_b": self[f"claimed_{lance}_b"],
            }
            for lance in LANCES
        ]

    def to_record(self) -> dict[str, Any]:
        """The engine's recorded hand from the cleaned fields (docs/engine.md)."""
        data = self.cleaned_data
        record: dict[str, Any] = {"hands": [data.get(f"cards_{seat}") or "" for seat in range(4)]}
        if data.get("score_a") is not None or data.get("score_b") is not None:
            record["score"] = {"A": data.get("score_a") or 0, "B": data.get("score_b") or 0}
        declarations = []
        for seat in range(4):
            entry = {}
            for what in ("pares", "juego"):
                value = data.get(f"decl_{seat}_{what}")
                if value:
                    entry[what] = value == "si"
            declarations.append(entry or None)
        if any(declarations):
            record["declarations"] = declarations
        lances = {}
        for lance in LANCES:
            bets = [b.strip() for b in _SPLIT.split(data.get(f"lance_{lance}") or "") if b.strip()]
            if bets:
                lances[lance] = bets
        if lances:
            record["lances"] = lances
        claimed: dict[str, Any] = {}
        claimed_lances = {}
        for lance in LANCES:
            a, b = data.get(f"claimed_{lance}_a"), data.get(f"claimed_{lance}_b")
            if a is not None or b is not None:
                claimed_lances[lance] = {"A": a or 0, "B": b or 0}
        if claimed_lances:
            claimed["lances"] = claimed_lances
        after_a, after_b = data.get("claimed_after_a"), data.get("claimed_after_b")
        if after_a is not None or after_b is not None:
            claimed["score"] = {"A": after_a or 0, "B": after_b or 0}
        winner = data.get("claimed_winner")
        if winner:
            claimed["game_winner"] = None if winner == "none" else winner
        if claimed:
            record["claimed"] = claimed
        return record

    @staticmethod
    def initial_from(record: dict[str, Any], *, mano: str, version: int | None = None) -> dict[str, Any]:
        """The form's initial values from a stored record (to edit it as a new version)."""
        initial: dict[str, Any] = {"mano": mano, "expected_version": version}
        for seat, text in enumerate(record.get("hands") or []):
            initial[f"cards_{seat}"] = text
        score = record.get("score") or {}
        initial["score_a"], initial["score_b"] = score.get("A", 0), score.get("B", 0)
        for seat, entry in enumerate(record.get("declarations") or []):
            for what in ("pares", "juego"):
                value = (entry or {}).get(what)
                if value is not None:
                    initial[f"decl_{seat}_{what}"] = "si" if value else "no"
        for lance, bets in (record.get("lances") or {}).items():
            initial[f"lance_{lance}"] = ", ".join(bets)
        claimed = record.get("claimed") or {}
        for lance, points in (claimed.get("lances") or {}).items():
            initial[f"claimed_{lance}_a"], initial[f"claimed_{lance}_b"] = points.get("A"), points.get("B")
        if claimed.get("score"):
            initial["claimed_after_a"], initial["claimed_after_b"] = claimed["score"]["A"], claimed["score"]["B"]
        if "game_winner" in claimed:
            initial["claimed_winner"] = claimed["game_winner"] or "none"
        return initial


def form_field(engine_field: str) -> str | None:
    """The form field where an error keyed by the engine's (or the service's) field belongs."""
    if match := re.fullmatch(r"hands\[(\d)\]", engine_field):
        return f"cards_{match[1]}"
    if engine_field in ("score", "score.A"):
        return "score_a"
    if engine_field == "score.B":
        return "score_b"
    if match := re.fullmatch(r"declarations\[(\d)\]\.(pares|juego)", engine_field):
        return f"decl_{match[1]}_{match[2]}"
    if match := re.fullmatch(r"lances\.(\w+)(?:\[\d+\])?", engine_field):
        return f"lance_{match[1]}" if match[1] in LANCES else None
    if match := re.fullmatch(r"claimed\.lances\.(\w+)(?:\.([AB]))?", engine_field):
        if match[1] in LANCES:
            return f"claimed_{match[1]}_{(match[2] or 'A').lower()}"
        return None
    if engine_field in ("claimed.score", "claimed.score.A"):
        return "claimed_after_a"
    if engine_field == "claimed.score.B":
        return "claimed_after_b"
    if engine_field == "claimed.game_winner":
        return "claimed_winner"
    if engine_field == "mano":
        return "mano"
    return None
