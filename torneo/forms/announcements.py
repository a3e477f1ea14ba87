"""The staff's form of an announcement to the hall: it type-checks the text; the service
(torneo/services/announcements.py) decides, with the same Spanish messages."""

from django import forms
from django.utils.translation import gettext_lazy as _

from torneo.models import ANNOUNCEMENT_MAX_LENGTH
from torneo.services.announcements import TEXT_INVALID, TEXT_REQUIRED, TEXT_TOO_LONG


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label=_("Texto del aviso"),
        max_length=ANNOUNCEMENT_MAX_LENGTH,
        help_text=_("Sale con su hora en la pantalla de la sala y en la página del torneo, hasta que lo borres."),
        error_messages={
            "required": TEXT_REQUIRED,
            "max_length": TEXT_TOO_LONG,
            "null_characters_not_allowed": TEXT_INVALID,
        },
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": ANNOUNCEMENT_MAX_LENGTH}),
    )
