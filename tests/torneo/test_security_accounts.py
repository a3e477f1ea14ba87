"""Security of accounts without the admin (torneo/services/accounts.py, torneo/views/accounts.py):

1. a password link is checked again when it is opened and used, and an account's pending links are
   annulled as soon as it gains a role or a player in any tournament;
2. changing or resetting a password revokes the account's API tokens and ends its other sessions;
3. once the failure window of the link pages is full, a draft tournament's slug answers like a slug
   that does not exist.
"""

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.factories import TournamentFactory, UserFactory, grant, make_pair
from torneo.models import AccountToken, Tournament, TournamentRole
from torneo.services import accounts as service
from torneo.services.tournaments import role_grant

pytestmark = pytest.mark.django_db

PASSWORD = "clave-de-prueba"  # tests/factories.py
NEW_PASSWORD = "Tute-y-mus-2026"
NEW_PASSWORDS = {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def link_of(response: Any) -> str:
    return re.search(r'id="account-link">([^<]+)<', response.content.decode()).group(1).replace("http://testserver", "")


def reset_link(tournament: Tournament, organizer: User, account: User) -> str:
    response = signed_in(organizer).post(f"/torneos/{tournament.slug}/gestion/cuentas/{account.pk}/contrasena/")
    assert response.status_code == 200, response.content[:300]
    return link_of(response)


def invitation_link(tournament: Tournament, organizer: User, role: str = "juez") -> str:
    response = signed_in(organizer).post(f"/torneos/{tournament.slug}/gestion/cuentas/", {"label": "X", "role": role})
    assert response.status_code == 200, response.content[:300]
    return link_of(response)


def page_shape(response: Any) -> str:
    """What the page says (its <main>: the header around it carries the address asked for)."""
    return re.search(r"<main.*</main>", response.content.decode(), re.S).group(0)


@pytest.fixture
def two_tournaments() -> dict[str, Any]:
    """Organizer A of T1 and a juez J of T1 only; organizer B of T2."""
    t1, t2 = TournamentFactory(), TournamentFactory()
    a, b = grant(UserFactory(), t1, "organizer"), grant(UserFactory(), t2, "organizer")
    j = grant(UserFactory(), t1, "juez")
    return {"t1": t1, "t2": t2, "a": a, "b": b, "j": j}


# --- 1. password links: the whole check at use; annulled when the account gains a role ----------


def test_password_link_refused_at_use_when_account_joined_another_tournament(two_tournaments):
    """Item 1: J joins T2 (a role written straight to the database, so that no service annuls the
    link first): A's link for J answers like any bad link, opened or posted, and changes nothing."""
    w = two_tournaments
    t1, j = w["t1"], w["j"]
    link = reset_link(t1, w["a"], j)
    assert Client().get(link).status_code == 200
    grant(j, w["t2"], "juez")
    opened = Client().get(link)
    bad = Client().get(f"/torneos/{t1.slug}/cuenta/contrasena/{'X' * 40}/")
    assert opened.status_code == bad.status_code == 404
    assert page_shape(opened) == page_shape(bad)
    posted = Client().post(link, NEW_PASSWORDS)
    assert posted.status_code == 404 and page_shape(posted) == page_shape(bad)
    j.refresh_from_db()
    assert j.check_password(PASSWORD) and not j.check_password(NEW_PASSWORD)
    token = link.rstrip("/").rsplit("/", 1)[1]
    with pytest.raises(service.InvalidLink):
        service.password_reset_find(tournament=t1, token=token)
    with pytest.raises(service.InvalidLink):
        service.password_reset_use(tournament=t1, token=token, password=NEW_PASSWORD)


def test_password_link_refused_at_use_when_its_issuer_is_no_longer_organizer(two_tournaments):
    """Item 1: the check at use is made against the link's issuer as they are now."""
    w = two_tournaments
    link = reset_link(w["t1"], w["a"], w["j"])
    TournamentRole.objects.filter(user=w["a"], tournament=w["t1"], role="organizer").update(role="control")
    assert Client().get(link).status_code == 404
    assert Client().post(link, NEW_PASSWORDS).status_code == 404
    w["j"].refresh_from_db()
    assert w["j"].check_password(PASSWORD)


def test_password_link_still_works_after_a_role_in_another_tournament_of_its_issuer(two_tournaments):
    """Item 1, legitimate use: the account's tournaments are all the issuer's, at use too."""
    w = two_tournaments
    link = reset_link(w["t1"], w["a"], w["j"])
    mine = TournamentFactory()
    grant(w["a"], mine, "organizer")
    grant(w["j"], mine, "control")  # straight to the database: no service annuls the link
    assert Client().get(link).status_code == 200
    assert Client().post(link, NEW_PASSWORDS).status_code == 302
    w["j"].refresh_from_db()
    assert w["j"].check_password(NEW_PASSWORD)


def _pending_reset(account: User) -> AccountToken:
    return AccountToken.objects.get(kind=AccountToken.Kind.RESET, user=account)


def test_pending_password_link_revoked_when_account_accepts_an_invitation(two_tournaments):
    """Item 1: J accepts B's invitation to T2: A's pending link for J is annulled at once."""
    w = two_tournaments
    link = reset_link(w["t1"], w["a"], w["j"])
    accepted = signed_in(w["j"]).post(invitation_link(w["t2"], w["b"]))
    assert accepted.status_code == 302
    assert _pending_reset(w["j"]).revoked_at is not None
    assert Client().get(link).status_code == 404


def test_pending_password_link_revoked_when_account_is_granted_a_role(two_tournaments):
    """Item 1: B gives J a role in T2 by username (Funciones): the link is annulled."""
    w = two_tournaments
    reset_link(w["t1"], w["a"], w["j"])
    role_grant(tournament=w["t2"], username=w["j"].username, role="juez")
    assert _pending_reset(w["j"]).revoked_at is not None


def test_pending_password_link_revoked_when_account_claims_a_player_code(two_tournaments):
    """Item 1: J, signed in, links their account to a player of T2 with the mesa's code."""
    w = two_tournaments
    reset_link(w["t1"], w["a"], w["j"])
    mesa = grant(UserFactory(), w["t2"], "control")
    pair = make_pair(w["t2"])
    issued = service.player_codes_issue(pair=pair, by=mesa, positions=[1])[0][1]
    service.player_code_claim(tournament=w["t2"], token_id=issued.token.pk, user=w["j"])
    assert _pending_reset(w["j"]).revoked_at is not None


# --- 2. a new password revokes API tokens and ends other sessions --------------------------------


def api_answer(token: Token | str) -> int:
    key = token.key if isinstance(token, Token) else token
    return Client(HTTP_AUTHORIZATION=f"Token {key}").get("/api/v1/tournaments/").status_code


def refused_token() -> int:
    """The API's answer to a token it does not know (403 here: SessionAuthentication comes first
    and sends no WWW-Authenticate, so DRF answers 403 rather than 401)."""
    return api_answer("0" * 40)


def is_signed_in(client: Client) -> bool:
    return client.get("/cuenta/contrasena/").status_code == 200  # anonymous: to the login page


def test_password_change_revokes_api_tokens_and_ends_other_sessions():
    """Item 2: a token made before the change answers 401 after it; another signed-in browser is
    signed out; the browser that made the change stays signed in."""
    user = UserFactory()
    token = Token.objects.create(user=user)
    here, elsewhere = signed_in(user), signed_in(user)
    assert api_answer(token) == 200 and is_signed_in(elsewhere)
    changed = here.post("/cuenta/contrasena/", {"old_password": PASSWORD, **NEW_PASSWORDS})
    assert changed.status_code == 302
    assert api_answer(token) == refused_token() in (401, 403)
    assert not Token.objects.filter(user=user).exists()
    assert not is_signed_in(elsewhere)
    assert is_signed_in(here)


def test_password_reset_link_revokes_api_tokens_and_ends_sessions(two_tournaments):
    """Item 2: the organizer's password link used: the account's tokens and sessions end."""
    w = two_tournaments
    j = w["j"]
    token = Token.objects.create(user=j)
    session = signed_in(j)
    other = Token.objects.create(user=w["a"])  # someone else's is untouched
    link = reset_link(w["t1"], w["a"], j)
    assert Client().post(link, NEW_PASSWORDS).status_code == 302
    assert api_answer(token) == refused_token() in (401, 403)
    assert not is_signed_in(session)
    assert api_answer(other) == 200


def test_credentials_revoke_deletes_only_the_accounts_tokens():
    """Item 2: the service both paths call."""
    user, someone = UserFactory(), UserFactory()
    Token.objects.create(user=user)
    Token.objects.create(user=someone)
    service.credentials_revoke(account=user)
    assert list(Token.objects.values_list("user_id", flat=True)) == [someone.pk]


# --- 3. the link pages do not tell a draft's slug from a missing one -----------------------------


@pytest.fixture
def small_limits(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "account_claim_ip": "3/hour",
            "account_claim_code": "2/hour",
        },
    }
    caches["ratelimit"].clear()


@pytest.mark.parametrize("page", ["invitacion", "contrasena"])
def test_full_failure_window_does_not_reveal_a_draft_slug(small_limits, page):
    """Item 3: the same tries against a draft's slug and against a slug that does not exist, each
    from its own address, get the same answers, before and after the window is full, and neither
    names the tournament."""
    draft = TournamentFactory(status=Tournament.Status.DRAFT, name="Torneo Secreto de Prueba")
    answers = {}
    for slug, ip in ((draft.slug, "192.0.2.1"), ("no-existe-este-torneo", "192.0.2.2")):
        client = Client(REMOTE_ADDR=ip)
        answers[slug] = [client.get(f"/torneos/{slug}/cuenta/{page}/{'X' * 30}{n}/") for n in range(5)]
    drafts, missing = answers[draft.slug], answers["no-existe-este-torneo"]
    assert [r.status_code for r in drafts] == [r.status_code for r in missing] == [404, 404, 404, 429, 429]
    for a, b in zip(drafts, missing, strict=True):
        assert page_shape(a) == page_shape(b)
        assert a.has_header("Retry-After") == b.has_header("Retry-After")
        assert draft.name not in a.content.decode()


def test_a_valid_link_after_many_mistakes_gets_a_clear_message(small_limits):
    """Item 3, legitimate use: whoever holds a draft's good link but failed too often from this
    address is told, in Spanish, to wait (not a bare «not found»)."""
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    link = invitation_link(draft, grant(UserFactory(), draft, "organizer"))
    client = Client(REMOTE_ADDR="192.0.2.3")
    for n in range(3):
        assert client.get(f"/torneos/no-existe/cuenta/invitacion/{'X' * 30}{n}/").status_code == 404
    refused = client.get(link)
    assert refused.status_code == 429 and "Demasiados intentos" in refused.content.decode()
    assert Client(REMOTE_ADDR="192.0.2.4").get(link).status_code == 200  # from elsewhere, it works
