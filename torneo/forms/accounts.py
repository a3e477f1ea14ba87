"""Accounts without the admin (torneo/services/accounts.py): the code a player types, a new account,
an invitation. Passwords are checked by Django's own forms (the site's AUTH_PASSWORD_VALIDATORS)."""

from django import forms
from django.contrib.auth.forms import SetPasswordForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from torneo.models import TournamentRole
from torneo.services.accounts import INVITABLE_ROLES


class ClaimCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Código"),
        max_length=40,
        help_text=_("El que te ha dado la mesa de control, p. ej. ABCD-EFGH-JKMN."),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false", "autofocus": True}
        ),
    )


class NewAccountForm(UserCreationForm):  # type: ignore[type-arg]
    """Username and password twice: only validated here; the service creates the account."""

    field_for_service = {"username": "username", "password": "password1"}


class NewPasswordForm(SetPasswordForm):  # type: ignore[type-arg]
    """A new password twice, for an account that exists: only validated here; the service sets it."""

    field_for_service = {"password": "new_password1"}


class InvitationForm(forms.Form):
    label = forms.CharField(
        label=_("Nombre o correo de la persona"),
        max_length=150,
        help_text=_("Solo para reconocer la invitación en la lista; no se envía ningún correo."),
    )
    role = forms.ChoiceField(
        label=_("Función"),
        choices=[(value, label) for value, label in TournamentRole.Role.choices if value in INVITABLE_ROLES],
    )
