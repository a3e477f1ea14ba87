"""The interface is fully translatable: the English catalogue has every string, none fuzzy, and the
compiled .mo (committed, so the venue laptop needs no gettext) matches the .po."""

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from tests.factories import TournamentFactory

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "en" / "LC_MESSAGES"


def po_entries(text: str) -> list[tuple[str, list[str], bool]]:
    """(msgid, msgstrs, fuzzy) for every entry but the header; a small parser for the test."""
    return [(msgid, strs, fuzzy) for msgid, _plural, strs, fuzzy in po_catalogue(text)]


def po_catalogue(text: str) -> list[tuple[str, str, list[str], bool]]:
    """(msgid, msgid_plural or "", msgstrs, fuzzy) for every entry but the header."""

    def unquote(lines: list[str]) -> str:
        return "".join(ast.literal_eval(line) for line in lines)  # PO strings are C-like literals

    entries = []
    for block in text.strip().split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#") or line.startswith("#,")]
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        fields: dict[str, list[str]] = {}
        key = None
        for line in lines:
            match = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) (".*")$', line)
            if match:
                key = match.group(1)
                fields[key] = [match.group(2)]
            elif line.startswith('"') and key:
                fields[key].append(line)
        msgid = unquote(fields.get("msgid", ['""']))
        if msgid:
            strs = [unquote(v) for k, v in fields.items() if k.startswith("msgstr")]
            entries.append((msgid, unquote(fields.get("msgid_plural", ['""'])), strs, fuzzy))
    return entries


# What a translation must keep of its Spanish string: its placeholders (Python's and the script's
# {braces}) and its HTML tags.
PLACEHOLDER = re.compile(
    r"%\([a-z_0-9]+\)[sdfi]|%[sdfi]|\{[a-z_0-9]*\}|</?(?:a|abbr|b|br|code|em|i|kbd|li|p|small|span|strong|ul)\b[^>]*>"
)
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_language_has_every_string_of_the_site_with_its_placeholders(language):
    """Issue 34: English, euskara, galego… each catalogue has every string the English one has
    (which `makemessages` collects from the code, the templates, the PDFs and the e-mails), none
    empty or fuzzy, none with a placeholder or a tag lost or made up, and its compiled .mo matches."""
    folder = LOCALE.parents[1] / language / "LC_MESSAGES"
    entries = po_catalogue((folder / "django.po").read_text())
    reference = {msgid for msgid, _strs, _fuzzy in po_entries((LOCALE / "django.po").read_text())}
    assert reference - {msgid for msgid, *_rest in entries} == set()
    assert [msgid for msgid, _plural, strs, fuzzy in entries if fuzzy or not strs or not all(strs)] == []
    broken = []
    for msgid, plural, strs, _fuzzy in entries:
        wanted = [sorted(PLACEHOLDER.findall(msgid))]
        if plural:  # the singular may leave the count out, as the Spanish and English do
            wanted = [sorted(PLACEHOLDER.findall(plural))]
            allowed = set(PLACEHOLDER.findall(msgid)) | set(wanted[0])
            if (
                any(set(PLACEHOLDER.findall(s)) - allowed for s in strs)
                or sorted(PLACEHOLDER.findall(strs[-1])) != wanted[0]
            ):
                broken.append(msgid)
        elif sorted(PLACEHOLDER.findall(strs[0])) != wanted[0]:
            broken.append(msgid)
    assert broken == []
    with (folder / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for msgid, plural, strs, _fuzzy in entries:
        if not plural:
            assert compiled.gettext(msgid) == strs[0], msgid


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading", "menu"),
    [
        ("eu", "Izena emandako bikoteak", "Sailkapena"),
        ("gl", "Parellas inscritas", "Clasificación"),
        ("ca", "Parelles inscrites", "Classificació"),
    ],
)
def test_the_pages_speak_basque_galician_and_catalan(language, heading, menu):
    t = TournamentFactory()
    html = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/torneos/{t.slug}/parejas/").content.decode()
    assert f'<html lang="{language}"' in html and heading in html and menu in html


def test_every_string_has_an_english_translation():
    entries = po_entries((LOCALE / "django.po").read_text())
    assert len(entries) > 200
    missing = [msgid for msgid, strs, fuzzy in entries if fuzzy or not all(strs)]
    assert missing == []


def test_compiled_catalogue_matches_the_po_file():
    with (LOCALE / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for msgid, strs, _fuzzy in po_entries((LOCALE / "django.po").read_text()):
        if len(strs) == 1:
            assert compiled.gettext(msgid) == strs[0], msgid


@pytest.mark.django_db
def test_pages_render_in_english():
    t = TournamentFactory()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    html = client.get(f"/torneos/{t.slug}/parejas/").content.decode()
    assert "Registered pairs" in html
    with translation.override("es"):
        assert "Parejas inscritas" in Client().get(f"/torneos/{t.slug}/parejas/").content.decode()


def test_the_clock_presets_labels_are_translated_but_the_pure_core_keeps_the_spanish():
    """The presets live in the pure core (torneo.clock.rules, no Django): the site shows their
    labels through gettext, the command line keeps them as written."""
    from django.utils import translation

    from torneo.clock.rules import CLUB_15
    from torneo.models import Tournament

    field = Tournament._meta.get_field("clock_rules")
    with translation.override("en"):
        assert {k: str(v) for k, v in field.choices}["club-15"] == "Club: match lost at 15 minutes"
    with translation.override("es"):
        assert {k: str(v) for k, v in field.choices}["club-15"] == CLUB_15.label
    assert CLUB_15.label == "Club: partida perdida a los 15 minutos"


USTED = re.compile(r"\b(Introduzca|Asegúrese|Escoja|Seleccione|Compruebe|[Uu]sted|[Ss]u contraseña)\b|carácteres")


def test_the_stock_messages_of_django_and_drf_speak_to_you_as_the_site_does():
    """Issue 34: «Asegúrese de que este valor es menor o igual a 9» on the result desk. The site's
    own catalogue (locale/es) gives Django's, django.contrib.auth's and DRF's messages in «tú»,
    and wins over theirs (LOCALE_PATHS first)."""
    from django import forms
    from rest_framework import serializers

    class Desk(forms.Form):
        games = forms.IntegerField(max_value=9)
        outcome = forms.ChoiceField(choices=[("played", "Jugada")])
        reason = forms.CharField(max_length=5)

    class Api(serializers.Serializer):
        games = serializers.IntegerField(max_value=9)
        reason = serializers.CharField(max_length=5)

    with translation.override("es"):
        desk = Desk({"games": "30", "outcome": "bye", "reason": "demasiado"})
        assert not desk.is_valid()
        said = {name: " ".join(errors) for name, errors in desk.errors.items()}
        assert said["games"] == "Este valor debe ser como mucho 9."
        assert said["outcome"].startswith("Elige una opción válida.")
        assert said["reason"] == "Este valor debe tener como mucho 5 caracteres (tiene 9)."
        assert Desk({"games": "tres"}).errors["games"] == ["Escribe un número entero."]
        api = Api(data={"games": 30, "reason": "demasiado"})
        assert not api.is_valid()
        assert [str(e) for e in api.errors["games"]] == ["Este valor debe ser como mucho 9."]
        assert [str(e) for e in api.errors["reason"]] == ["Este campo debe tener como mucho 5 caracteres."]
    catalogue = (LOCALE.parents[1] / "es" / "LC_MESSAGES" / "django.po").read_text()
    entries = po_entries(catalogue)
    assert len(entries) > 200
    assert [msgid for msgid, strs, _fuzzy in entries if any(USTED.search(s) for s in strs)] == []
    with (LOCALE.parents[1] / "es" / "LC_MESSAGES" / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for msgid, strs, _fuzzy in entries:
        if len(strs) == 1:
            assert compiled.gettext(msgid) == strs[0], msgid
