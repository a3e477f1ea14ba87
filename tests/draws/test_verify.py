"""The verifiable public draw (AMM 5.5): commitment, seed derivation, checking."""

import hashlib
import json

import pytest

from torneo.draws import DrawUserError, check_commitment, commitment, derive_seed, make_draw, new_secret


def test_commitment_and_seed_vectors():
    assert commitment("secreto") == "88e774c1b97f9c6dc5c9b2f40b965b8c5292fdb51d82c79b2f6af940af3409b6"
    assert derive_seed("secreto", "17") == "e97c16fe8fd41ac30cbaff24b635f35ff52a0221a9a43c3abf713882bb28e1a4"


def test_encodings_are_the_documented_ones():
    assert commitment("s") == hashlib.sha256(b"torneo-mus/compromiso/v1\ns").hexdigest()
    payload = json.dumps(["s", "dados 3 5"], ensure_ascii=True, separators=(",", ":"))
    assert derive_seed("s", "dados 3 5") == hashlib.sha256(("torneo-mus/semilla/v1\n" + payload).encode()).hexdigest()


def test_text_is_normalised_before_hashing():
    assert derive_seed(" secreto ", "17\n") == derive_seed("secreto", "17")
    # "ñ" typed as n + combining tilde is the same value as the precomposed "ñ" (NFC).
    assert derive_seed("s", "an\u0303o") == derive_seed("s", "a\u00f1o")


def test_secret_and_public_value_both_change_the_seed():
    assert derive_seed("a", "1") != derive_seed("a", "2")
    assert derive_seed("a", "1") != derive_seed("b", "1")
    # No ambiguity from joining: ("ab", "c") and ("a", "bc") differ.
    assert derive_seed("ab", "c") != derive_seed("a", "bc")


def test_check_commitment():
    secret = new_secret()
    assert len(secret) == 64
    published = commitment(secret)
    assert check_commitment(secret, published)
    assert check_commitment(secret, published.upper())
    assert not check_commitment(secret + "0", published)


@pytest.mark.parametrize("bad", ["", "   ", 5, None])
def test_bad_secret_or_public_value_is_a_user_error(bad):
    with pytest.raises(DrawUserError):
        derive_seed(bad, "1")
    with pytest.raises(DrawUserError):
        derive_seed("s", bad)


def test_public_draw_is_recomputable_from_secret_and_public_value_amm_5_5():
    secret = "c0ffee" * 8
    published_commitment = commitment(secret)
    seed = derive_seed(secret, "4 y 6")
    pairs = [f"p{i}" for i in range(23)]
    at_the_site = make_draw(pairs, history=[["p1", "p2"]], byes=["p3"], seed=seed)
    # Later, anyone: check the commitment, derive the same seed, recompute the same draw.
    assert check_commitment(secret, published_commitment)
    again = make_draw(list(reversed(pairs)), history=[["p2", "p1"]], byes=["p3"], seed=derive_seed(secret, "4 y 6"))
    assert again == at_the_site
