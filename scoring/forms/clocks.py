"""The forms of the clock pages (plain POSTs that work without JavaScript). They only collect and
type-check: scoring.services.clocks decides, and its errors come keyed by these field names
(``winner``, ``pair``, ``reason``, ``note``, ``a``, ``b``), so torneo.forms.errors puts each on its
field."""

from django import forms
from django.utils.translation import gettext_lazy as _

SIDES = [("A", "A"), ("B", "B")]

# What a POST asks for. The table page: juego, undo, tantos. The juez's dashboard: all of them.
TABLE_ACTIONS = ("juego", "undo", "tantos")
MANAGE_ACTIONS = (
    "start_round",
    "start",
    "pause",
    "resume",
    "absent",
    "arrived",
    "warning",
    "juego",
    "undo",
    "tantos",
)


class ClockActionForm(forms.Form):
    """One action on a clock. Every field but ``action`` is optional here: the service says what
    each action needs, in Spanish, keyed by the field."""

    action = forms.ChoiceField(choices=[(a, a) for a in MANAGE_ACTIONS])
    match = forms.IntegerField(required=False, min_value=1)
    round = forms.IntegerField(required=False, min_value=1)
    winner = forms.ChoiceField(choices=SIDES, required=False)
    pair = forms.ChoiceField(choices=SIDES, required=False)
    reason = forms.CharField(label=_("Motivo"), required=False, strip=True)
    note = forms.CharField(label=_("Nota"), required=False, strip=True)
    a = forms.IntegerField(label=_("Tantos A"), required=False, min_value=0, max_value=100)
    b = forms.IntegerField(label=_("Tantos B"), required=False, min_value=0, max_value=100)
    # The juego a tap is for, as the page showed the score (scoring.services.clocks._refuse_stale).
    number = forms.IntegerField(required=False, min_value=1, max_value=99)

    def __init__(self, *args: object, actions: tuple[str, ...] = MANAGE_ACTIONS, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["action"].choices = [(a, a) for a in actions]  # type: ignore[attr-defined]

    def messages(self) -> list[str]:
        """Every error of the form, as the sentences a flash message shows."""
        return [str(e) for errors in self.errors.values() for e in errors]
