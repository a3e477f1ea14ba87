"""Names and identity documents."""

import pytest
from django.core.exceptions import ValidationError

from torneo.identity import identity_key, normalize_document, normalize_name, validate_document


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  José  García-López ", "jose garcia lopez"),
        ("ÍÑIGO  Muñoz", "inigo munoz"),
        ("Mª Ángeles", "ma angeles"),
    ],
)
def test_normalize_name(raw, expected):
    assert normalize_name(raw) == expected


def test_normalize_document():
    assert normalize_document(" 12.345.678-z ") == "12345678Z"


@pytest.mark.parametrize("good", ["12345678Z", "00000000T", "X1234567L", "Y1234567X", "Z1234567R", "PAB123456", ""])
def test_valid_documents(good):
    validate_document(good)


@pytest.mark.parametrize(
    ("bad", "code"), [("12345678A", "dni_letter"), ("X1234567A", "nie_letter"), ("12-", "document_format")]
)
def test_invalid_documents(bad, code):
    with pytest.raises(ValidationError) as exc:
        validate_document(normalize_document(bad))
    assert exc.value.code == code


def test_identity_key_prefers_the_document():
    assert identity_key(document="12345678Z", first_name="A", last_name="B") == "doc:12345678Z"
    assert identity_key(document="", first_name="Álvaro", last_name="Gil") == "name:alvaro gil"
