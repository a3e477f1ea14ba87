"""Who a player is: normalised names and identity documents, for 'one person, one pair'.

A player cannot be in two pairs of the same tournament; the match is on the identity document when
it is given, else on the normalised name (accents, case, punctuation and spacing removed).

Text typed by people is stored composed (NFC) and without the invisible characters that would let
the same name pass as another (`clean_text`): zero-width spaces and joiners, bidi controls
(U+202A–U+202E, U+2066–U+2069), the BOM, soft hyphens — Unicode's «format» (Cf) and «control» (Cc)
categories. Identity matching goes further (`normalize_name`): compatibility forms (NFKC/NFKD, so a
full-width «Ｊｏｓé» is «José» and «Mª» is «Ma»), no accents, no case, no punctuation. The stored
name keeps what the person typed («Mª Ángeles»).
"""

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
_NIE_PREFIX = {"X": "0", "Y": "1", "Z": "2"}


def clean_text(text: str) -> str:
    """What a person typed, as stored: NFC, no invisible format or control characters, single
    spaces. '  Jo\u200bsé   García ' -> 'José García'."""
    composed = unicodedata.normalize("NFC", text)
    visible = "".join(" " if c in "\t\n\r" else c for c in composed if c in "\t\n\r" or not _invisible(c))
    return " ".join(visible.split())


def _invisible(char: str) -> bool:
    return unicodedata.category(char) in ("Cf", "Cc")


def normalize_name(text: str) -> str:
    """'  José  García-López ' -> 'jose garcia lopez'."""
    decomposed = unicodedata.normalize("NFKD", clean_text(text))
    without_accents = "".join(c for c in decomposed if not unicodedata.combining(c))
    words = re.sub(r"[^\w]+", " ", without_accents.lower()).split()
    return " ".join(words)


_PHONE_SEPARATORS = re.compile(r"[\s\-.()/]+")


def normalize_phone(text: str) -> str:
    """A phone as people write it («634-556-677», «634.556.677», «(+34) 634 55 66 77») with its
    separators made single spaces: «634 556 677», «+34 634 55 66 77». What is left is checked by
    the registration service (digits and one leading «+»)."""
    return _PHONE_SEPARATORS.sub(" ", text).strip()


def normalize_document(text: str) -> str:
    """'12.345.678-z' -> '12345678Z'. Compatibility forms too (NFKC): full-width «１２…» are the same
    digits, and Python's regular expressions would take them for digits anyway."""
    return re.sub(r"[\s.\-/]", "", clean_text(unicodedata.normalize("NFKC", text))).upper()


def validate_document(document: str) -> None:
    """Check a normalised document: DNI and NIE by their control letter; other documents
    (passports, foreign IDs) only by shape, since their formats vary by country."""
    if not document:
        return
    if re.fullmatch(r"\d{8}[A-Z]", document):
        if _DNI_LETTERS[int(document[:8]) % 23] != document[8]:
            raise ValidationError(_("La letra del DNI no es correcta."), code="dni_letter")
        return
    if re.fullmatch(r"[XYZ]\d{7}[A-Z]", document):
        number = int(_NIE_PREFIX[document[0]] + document[1:8])
        if _DNI_LETTERS[number % 23] != document[8]:
            raise ValidationError(_("La letra del NIE no es correcta."), code="nie_letter")
        return
    if not re.fullmatch(r"[A-Z0-9]{5,20}", document):
        raise ValidationError(_("El documento debe tener entre 5 y 20 letras o cifras."), code="document_format")


def identity_key(*, document: str, first_name: str, last_name: str) -> str:
    if document:
        return f"doc:{document}"
    return f"name:{normalize_name(f'{first_name} {last_name}')}"
