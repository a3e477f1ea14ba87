"""Accounts without the admin (torneo/services/accounts.py): players claim theirs with the mesa's
one-time code, staff are invited by link, the organizer hands out password links — each safe,
single use, expiring and confined to its tournament — and the admin's search ignores accents."""

import datetime
import re
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from tests.torneo.matrix import Case, check_case
from tests.world import EVERYONE, ORGANIZER, ROLES, STAFF_PAIRS, World
from torneo.errors import NotAllowed, TournamentError
from torneo.models import AccountToken, Pair, Player, Tournament, TournamentRole
from torneo.permissions import is_member_of, member_pairs
from torneo.services import accounts as service

pytestmark = pytest.mark.django_db

PASSWORD = "clave-de-prueba"  # tests/factories.py
NEW_PASSWORD = "Tute-y-mus-2026"
CODE_SHAPE = re.compile(r"^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$")


def staff(tournament: Tournament, role: str = "control") -> User:
    return grant(UserFactory(), tournament, role)


def signed_in(user: User | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def pair_with_data(tournament: Tournament, n: int = 1) -> Pair:
    """A pair whose first player has every kind of personal data."""
    first = player_data(
        n, first_name="José", last_name="García Núñez", id_document="12345678Z", phone="600111222", email="jg@x.es"
    )
    return make_pair(tournament, players=[first, player_data(n + 50)])


def codes_page(tournament: Tournament, pair: Pair, user: User, **data: Any) -> tuple[Any, list[str]]:
    response = signed_in(user).post(f"/torneos/{tournament.slug}/gestion/parejas/{pair.number}/cuentas/", data)
    return response, re.findall(r'data-code="([A-Z0-9-]+)"', response.content.decode())


def claim(client: Client, tournament: Tournament, code: str, **extra: Any) -> Any:
    return client.post(f"/torneos/{tournament.slug}/cuenta/", {"code": code}, **extra)


def finish(client: Client, tournament: Tournament, data: dict[str, str] | None = None) -> Any:
    url = f"/torneos/{tournament.slug}/cuenta/elegir/"
    return client.post(url, data) if data is not None else client.get(url)


def new_account(username: str = "jose_g") -> dict[str, str]:
    return {"username": username, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}


# --- player codes: the service -------------------------------------------------------------------


def test_codes_are_typeable_unguessable_and_stored_only_hashed():
    t = TournamentFactory()
    pair = pair_with_data(t)
    issued = service.player_codes_issue(pair=pair, by=staff(t))
    assert len(issued) == 2
    codes = [item.code for _player, item in issued]
    assert all(CODE_SHAPE.match(c) for c in codes) and len(set(codes)) == 2
    assert not set("01IOL") & set("".join(codes).replace("-", ""))
    for _player, item in issued:
        row = AccountToken.objects.get(pk=item.token.pk)
        secret = item.secret[service.CODE_SELECTOR_LENGTH :]
        assert row.selector == item.secret[: service.CODE_SELECTOR_LENGTH]
        assert secret not in row.secret_hash and len(row.secret_hash) == 64
        assert row.expires_at - timezone.now() <= datetime.timedelta(hours=24)
    assert len(service.ALPHABET) ** service.CODE_SECRET_LENGTH > 10**11  # ~40 bits, 5 tries an hour


def test_codes_accept_what_people_type():
    t = TournamentFactory()
    pair = make_pair(t)
    code = service.player_codes_issue(pair=pair, by=staff(t))[0][1].code
    typed = f"  {code.lower().replace('-', ' ')} "
    assert service.player_code_verify(tournament=t, code=typed).player_id == pair.ordered_members()[0].player_id


def test_a_new_code_annuls_the_previous_one_and_only_staff_of_the_mesa_make_them():
    t = TournamentFactory()
    pair = make_pair(t)
    mesa = staff(t)
    old = service.player_codes_issue(pair=pair, by=mesa, positions=[1])[0][1].code
    new = service.player_codes_issue(pair=pair, by=mesa, positions=[1])[0][1].code
    with pytest.raises(service.InvalidCode):
        service.player_code_verify(tournament=t, code=old)
    service.player_code_verify(tournament=t, code=new)
    for user in (staff(t, "juez"), UserFactory(), staff(TournamentFactory(), "organizer")):
        with pytest.raises(NotAllowed):
            service.player_codes_issue(pair=pair, by=user)


def test_no_codes_for_a_draft_or_for_players_who_already_sign_in():
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    with pytest.raises(TournamentError):
        service.player_codes_issue(pair=make_pair(draft), by=staff(draft))
    t = TournamentFactory()
    pair = make_pair(t)
    Player.objects.filter(pk__in=[m.player_id for m in pair.ordered_members()]).update(user=UserFactory())
    with pytest.raises(TournamentError):
        service.player_codes_issue(pair=pair, by=staff(t))


# --- player codes: the pages, end to end ---------------------------------------------------------


def test_the_mesa_prints_codes_and_the_player_claims_an_account():
    t = TournamentFactory()
    pair = pair_with_data(t)
    mesa = staff(t)
    page = signed_in(mesa).get(f"/torneos/{t.slug}/gestion/parejas/")
    assert f"/torneos/{t.slug}/gestion/parejas/{pair.number}/cuentas/" in page.content.decode()  # check-in link
    response, codes = codes_page(t, pair, mesa)
    assert response.status_code == 200 and len(codes) == 2
    assert response["Cache-Control"] == "no-store" and "<svg" in response.content.decode()
    assert f"/torneos/{t.slug}/cuenta/?codigo={codes[0]}" in response.content.decode()  # the QR's address

    player = Client()
    prefilled = player.get(f"/torneos/{t.slug}/cuenta/?codigo={codes[0]}")
    assert codes[0] in prefilled.content.decode() and prefilled["Referrer-Policy"] == "same-origin"
    step1 = claim(player, t, codes[0])
    assert step1.status_code == 302 and step1["Location"].endswith("/cuenta/elegir/")
    step2 = finish(player, t)
    assert "José" in step2.content.decode() and f"pareja {pair.number}" in step2.content.decode()
    done = finish(player, t, new_account())
    assert done.status_code == 302 and done["Location"] == f"/torneos/{t.slug}/"
    user = User.objects.get(username="jose_g")
    assert user.check_password(NEW_PASSWORD) and not user.first_name and not user.email  # nothing copied
    first = Player.objects.get(pk=pair.ordered_members()[0].player_id)
    assert first.user == user
    assert is_member_of(user, pair) and member_pairs(user, [pair.pk]) == {pair.pk}
    assert int(player.session["_auth_user_id"]) == user.pk  # signed in
    # The player role works: the pair's own withdrawal is allowed to them.
    assert player.post(f"/torneos/{t.slug}/parejas/{pair.number}/retirar/").status_code in (200, 302)


def test_a_code_works_once():
    t = TournamentFactory()
    pair = make_pair(t)
    code = codes_page(t, pair, staff(t))[1][0]
    first = Client()
    claim(first, t, code)
    finish(first, t, new_account("primera"))
    second = Client()
    response = claim(second, t, code)
    assert response.status_code == 200 and "no es válido" in response.content.decode()
    assert not User.objects.filter(username="segunda").exists()
    # The step-2 page of a used code sends back to step 1.
    again = Client()
    session = again.session
    session["torneo_account_claim"] = {  # what step 1 stores
        "token": AccountToken.objects.get(kind="player", used_at__isnull=False).pk,
        "tournament": t.pk,
        "until": timezone.now().timestamp() + 600,
    }
    session.save()
    assert finish(again, t, new_account("tercera")).status_code == 302
    assert not User.objects.filter(username="tercera").exists()


def test_a_code_expires_after_a_day():
    t = TournamentFactory()
    pair = make_pair(t)
    code = codes_page(t, pair, staff(t))[1][0]
    with time_machine.travel(timezone.now() + datetime.timedelta(hours=24, minutes=1)):
        response = claim(Client(), t, code)
    assert "no es válido" in response.content.decode()
    with time_machine.travel(timezone.now() + datetime.timedelta(hours=23)):
        assert claim(Client(), t, code).status_code == 302


def test_a_code_is_valid_only_in_its_tournament():
    a, b = TournamentFactory(), TournamentFactory()
    pair_a, pair_b = make_pair(a), make_pair(b)
    code = codes_page(a, pair_a, staff(a))[1][0]
    codes_page(b, pair_b, staff(b))  # b has codes too
    with pytest.raises(service.InvalidCode):
        service.player_code_verify(tournament=b, code=code)
    client = Client()
    assert "no es válido" in claim(client, b, code).content.decode()
    # Step 1 in A, then step 2 on B's address: nothing happens in B.
    claim(client, a, code)
    assert finish(client, b, new_account()).status_code == 302
    assert not User.objects.filter(username="jose_g").exists()
    assert not Player.objects.filter(user__isnull=False).exists()


def test_failures_tell_strangers_nothing():
    t = TournamentFactory()
    pair = pair_with_data(t)
    code = codes_page(t, pair, staff(t), position="1")[1][0]
    wrong_secret = code[:5] + ("2222-2222" if code[5:] != "2222-2222" else "3333-3333")
    answers = set()
    for attempt in ("ZZZZ-ZZZZ-ZZZZ", wrong_secret, "hola"):
        page = claim(Client(), t, attempt).content.decode()
        for private in ("José", "García", "12345678Z", "600111222", "jg@x.es"):
            assert private not in page
        answers.add(re.search(r'<ul class="errorlist"[^>]*>(.*?)</ul>', page, re.S).group(1))
    assert len(answers) == 1  # the same answer for a wrong selector, a wrong secret, or garbage
    # Even with the right code, step 2 shows the first name and the pair number, nothing else.
    client = Client()
    claim(client, t, code)
    page = finish(client, t).content.decode()
    assert "José" in page
    for private in ("García", "12345678Z", "600111222", "jg@x.es"):
        assert private not in page


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


def test_claim_attempts_are_limited_per_client(small_limits):
    t = TournamentFactory()
    code = codes_page(t, make_pair(t), staff(t))[1][0]
    client = Client()
    for n in range(3):
        assert claim(client, t, f"AB{n + 2}D-EFGH-JKMN", REMOTE_ADDR="192.0.2.1").status_code == 200
    refused = claim(client, t, code, REMOTE_ADDR="192.0.2.1")
    assert refused.status_code == 429 and "Retry-After" in refused
    assert claim(Client(), t, code, REMOTE_ADDR="192.0.2.2").status_code == 302  # another client


def test_mistyped_codes_lock_out_their_own_phone_not_the_venues_other_phones(settings):
    """At a venue every phone comes from one address: one phone's mistyped codes are counted for
    that phone (its cookie); the address has only a ceiling a room never reaches, which also stops
    a client that drops its cookie to start again."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "account_claim_browser": "3/hour",
            "account_claim_ip": "7/hour",
        },
    }
    caches["ratelimit"].clear()
    t = TournamentFactory()
    pair = make_pair(t)
    codes = codes_page(t, pair, staff(t))[1]
    venue = {"REMOTE_ADDR": "192.0.2.60"}
    careless = Client()
    assert careless.get(f"/torneos/{t.slug}/cuenta/", **venue).status_code == 200  # the page gives its cookie
    for n in range(3):
        assert claim(careless, t, f"AB{n + 2}D-EFGH-JKMN", **venue).status_code == 200
    refused = claim(careless, t, codes[0], **venue)
    assert refused.status_code == 429 and "Demasiados intentos" in refused.content.decode()
    assert claim(Client(), t, codes[0], **venue).status_code == 302  # the next phone of the room
    # Clients that drop their cookie each time fill the address's window: then the address waits.
    for n in range(4):
        assert claim(Client(), t, f"AB{n + 2}D-EFGH-JKMP", **venue).status_code == 200
    assert claim(Client(), t, codes[1], **venue).status_code == 429
    assert claim(Client(), t, codes[1], REMOTE_ADDR="192.0.2.61").status_code == 302


def test_claim_attempts_are_limited_per_code(small_limits):
    t = TournamentFactory()
    code = codes_page(t, make_pair(t), staff(t), position="1")[1][0]
    wrong = code[:5] + ("2222-2222" if code[5:] != "2222-2222" else "3333-3333")
    for n in range(2):  # guessing the secret of one printed code, from two clients
        assert claim(Client(), t, wrong, REMOTE_ADDR=f"192.0.2.{10 + n}").status_code == 200
    assert claim(Client(), t, code, REMOTE_ADDR="192.0.2.20").status_code == 429
    # The same selector in another tournament is another code.
    other = TournamentFactory()
    assert claim(Client(), other, wrong, REMOTE_ADDR="192.0.2.21").status_code == 200


def test_a_signed_in_user_links_their_own_account_once_per_tournament():
    t = TournamentFactory()
    pair = make_pair(t)
    codes = codes_page(t, pair, staff(t))[1]
    person = UserFactory()
    client = signed_in(person)
    claim(client, t, codes[0])
    assert "Sí, usar mi cuenta" in finish(client, t).content.decode()
    assert finish(client, t, {}).status_code == 302
    assert Player.objects.get(user=person).pk == pair.ordered_members()[0].player_id
    claim(client, t, codes[1])  # the partner's code: one person is one player of a tournament
    finish(client, t, {})
    assert Player.objects.filter(user=person).count() == 1
    assert AccountToken.objects.get(kind="player", player_id=pair.ordered_members()[1].player_id).is_pending


def test_an_account_made_for_the_player_gets_its_password_from_the_code():
    t = TournamentFactory()
    pair = make_pair(t)
    made = User.objects.create_user("hecha_por_admin")  # no usable password
    Player.objects.filter(pk=pair.ordered_members()[0].player_id).update(user=made)
    code = codes_page(t, pair, staff(t), position="1")[1][0]
    client = Client()
    claim(client, t, code)
    assert "elige su contraseña" in finish(client, t).content.decode()
    response = finish(client, t, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    made.refresh_from_db()
    assert made.check_password(NEW_PASSWORD) and made.username == "hecha_por_admin"


def test_a_weak_password_or_a_taken_username_is_refused_and_the_code_still_works():
    t = TournamentFactory()
    code = codes_page(t, make_pair(t), staff(t), position="1")[1][0]
    UserFactory(username="ocupado")
    client = Client()
    claim(client, t, code)
    weak = finish(client, t, {"username": "libre", "password1": "123", "password2": "123"})
    assert weak.status_code == 200 and not User.objects.filter(username="libre").exists()
    taken = finish(client, t, new_account("OCUPADO"))
    assert taken.status_code == 200 and User.objects.filter(username__iexact="ocupado").count() == 1
    assert finish(client, t, new_account("libre")).status_code == 302


# --- invitations ---------------------------------------------------------------------------------


def main(response: Any) -> str:
    return re.search(r"<main.*</main>", response.content.decode(), re.S).group(0)


def invite(tournament: Tournament, organizer: User, role: str = "juez", label: str = "Marta") -> str:
    response = signed_in(organizer).post(f"/torneos/{tournament.slug}/gestion/cuentas/", {"label": label, "role": role})
    assert response.status_code == 200, response.content[:500]
    link = re.search(r'id="account-link">([^<]+)<', response.content.decode()).group(1)
    return link.replace("http://testserver", "")


@pytest.mark.parametrize("role", ["control", "juez"])
def test_an_invitation_gives_its_role_in_its_tournament_only(role):
    t, other = TournamentFactory(status=Tournament.Status.DRAFT), TournamentFactory()
    organizer = staff(t, "organizer")
    link = invite(t, organizer, role)
    assert link.startswith(f"/torneos/{t.slug}/cuenta/invitacion/")
    client = Client()
    page = client.get(link)
    assert page.status_code == 200 and t.name in page.content.decode()  # a draft: the invitee sees it
    done = client.post(link, new_account("marta"))
    assert done.status_code == 302 and done["Location"] == f"/torneos/{t.slug}/gestion/"
    marta = User.objects.get(username="marta")
    assert set(TournamentRole.objects.filter(user=marta).values_list("tournament_id", "role")) == {(t.pk, role)}
    assert client.get(done["Location"]).status_code == 200  # signed in, with the role
    assert signed_in(marta).get(f"/torneos/{other.slug}/gestion/").status_code == 403
    # Single use: the link is dead, for anyone; a draft's dead link looks like no tournament at all.
    dead = Client().get(link)
    assert dead.status_code == 404 and t.name not in dead.content.decode()
    nothing = Client().get("/torneos/no-existe/cuenta/invitacion/x/")
    assert main(dead) == main(nothing)
    assert Client().post(link, new_account("otra")).status_code == 404
    assert not User.objects.filter(username="otra").exists()


def test_an_invitation_expires_is_annulled_and_is_bound_to_its_tournament():
    t, other = TournamentFactory(), TournamentFactory()
    organizer = staff(t, "organizer")
    link = invite(t, organizer)
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert Client().get(f"/torneos/{other.slug}/cuenta/invitacion/{token}/").status_code == 404
    with time_machine.travel(timezone.now() + datetime.timedelta(days=7, minutes=1)):
        assert Client().get(link).status_code == 404
    invitation = AccountToken.objects.get(kind="invite")
    revoke = signed_in(organizer).post(f"/torneos/{t.slug}/gestion/cuentas/invitaciones/{invitation.pk}/anular/")
    assert revoke.status_code == 302
    page = Client().get(link)
    assert page.status_code == 404 and t.name not in page.content.decode()  # names no tournament


def test_a_signed_in_user_accepts_with_their_account():
    t = TournamentFactory()
    link = invite(t, staff(t, "organizer"), "control")
    person = UserFactory()
    client = signed_in(person)
    assert "Aceptar" in client.get(link).content.decode()
    assert client.post(link).status_code == 302
    assert TournamentRole.objects.filter(tournament=t, user=person, role="control").exists()


def test_organizers_are_not_invited_by_link():
    t = TournamentFactory()
    organizer = staff(t, "organizer")
    with pytest.raises(ValidationError):
        service.invitation_create(tournament=t, by=organizer, role="organizer", label="Alguien")
    with pytest.raises(NotAllowed):
        service.invitation_create(tournament=t, by=staff(t, "control"), role="juez", label="Alguien")


def test_wrong_links_are_rate_limited(small_limits):
    t = TournamentFactory()
    link = invite(t, staff(t, "organizer"))
    for n in range(3):
        assert Client().get(f"/torneos/{t.slug}/cuenta/invitacion/{'X' * 30}{n}/").status_code == 404
    assert Client().get(link).status_code == 429


# --- password links ------------------------------------------------------------------------------


def reset_link(tournament: Tournament, organizer: User, account: User) -> Any:
    return signed_in(organizer).post(f"/torneos/{tournament.slug}/gestion/cuentas/{account.pk}/contrasena/")


def link_of(response: Any) -> str:
    return re.search(r'id="account-link">([^<]+)<', response.content.decode()).group(1).replace("http://testserver", "")


def test_the_organizer_resets_a_password_of_their_tournament_once():
    t = TournamentFactory()
    organizer, juez = staff(t, "organizer"), staff(t, "juez")
    response = reset_link(t, organizer, juez)
    assert response.status_code == 200
    link = link_of(response)
    page = Client().get(link)
    assert juez.username in page.content.decode()
    done = Client().post(link, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/cuenta/entrar/"
    juez.refresh_from_db()
    assert juez.check_password(NEW_PASSWORD) and not juez.check_password(PASSWORD)
    assert Client().get(link).status_code == 404  # once
    later = link_of(reset_link(t, organizer, juez))
    with time_machine.travel(timezone.now() + datetime.timedelta(hours=24, minutes=1)):
        assert Client().get(later).status_code == 404  # a day


def test_a_players_password_too(world: World):
    response = reset_link(world.tournament, world.users["organizer"], world.users["player"])
    link = link_of(response)
    Client().post(link, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    world.users["player"].refresh_from_db()
    assert world.users["player"].check_password(NEW_PASSWORD)


def test_password_links_only_for_accounts_that_are_only_the_organizers(world: World):
    t, users = world.tournament, world.users
    organizer = users["organizer"]
    allowed = {
        name for name in ROLES[1:] if service.password_reset_allowed(by=organizer, tournament=t, account=users[name])
    }
    assert allowed == {"player", "juez", "control"}
    # Also a juez elsewhere, in someone else's tournament: no.
    grant(users["juez"], TournamentFactory(), "juez")
    assert not service.password_reset_allowed(by=organizer, tournament=t, account=users["juez"])
    assert reset_link(t, organizer, users["juez"]).status_code == 403
    # ...but in another tournament of the same organizer: yes.
    mine = TournamentFactory()
    grant(organizer, mine, "organizer")
    grant(users["control"], mine, "juez")
    assert service.password_reset_allowed(by=organizer, tournament=t, account=users["control"])
    # Outsiders of the tournament are not even found; superusers and organizers are refused.
    assert reset_link(t, organizer, users["outsider"]).status_code == 404
    assert reset_link(t, organizer, users["other_organizer"]).status_code == 404
    co_organizer = staff(t, "organizer")
    assert reset_link(t, organizer, co_organizer).status_code == 403
    admin = staff(t, "juez")
    admin.is_staff = True
    admin.save()
    assert reset_link(t, organizer, admin).status_code == 403
    # The mesa does not hand out password links.
    assert reset_link(t, users["control"], users["juez"]).status_code in (302, 403)


def test_a_password_link_stops_working_if_its_account_becomes_an_organizer():
    t = TournamentFactory()
    organizer, juez = staff(t, "organizer"), staff(t, "juez")
    link = link_of(reset_link(t, organizer, juez))
    grant(juez, TournamentFactory(), "organizer")
    assert Client().get(link).status_code == 404
    assert Client().post(link, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}).status_code == 404


def test_anyone_signed_in_changes_their_own_password():
    user = UserFactory()
    client = signed_in(user)
    response = client.post(
        "/cuenta/contrasena/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert Client().get("/cuenta/contrasena/").status_code == 302  # to the login page


# --- the permission matrix of the new pages ------------------------------------------------------


def slug(w: World) -> str:
    return w.tournament.slug


def _invitation(w: World) -> AccountToken:
    return service.invitation_create(tournament=w.tournament, by=w.users["organizer"], role="juez", label="X").token


CASES = [
    Case(
        "pair accounts page",
        "get",
        lambda w: f"/torneos/{slug(w)}/gestion/parejas/{w.other_pair.number}/cuentas/",
        STAFF_PAIRS,
    ),
    Case(
        "print player codes",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/parejas/{w.other_pair.number}/cuentas/",
        STAFF_PAIRS,
    ),
    Case("accounts page", "get", lambda w: f"/torneos/{slug(w)}/gestion/cuentas/", ORGANIZER),
    Case(
        "invite",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/cuentas/",
        ORGANIZER,
        lambda w: {"label": "Marta", "role": "juez"},
    ),
    Case(
        "annul an invitation",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/cuentas/invitaciones/{_invitation(w).pk}/anular/",
        ORGANIZER,
    ),
    Case(
        "password link",
        "post",
        lambda w: f"/torneos/{slug(w)}/gestion/cuentas/{w.users['juez'].pk}/contrasena/",
        ORGANIZER,
    ),
    Case("claim page", "get", lambda w: f"/torneos/{slug(w)}/cuenta/", EVERYONE),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_permission_matrix(world: World, case: Case, role: str) -> None:
    check_case(world, case, role)


# --- the admin's search ignores accents ----------------------------------------------------------


def test_admin_search_ignores_accents_and_case():
    t = TournamentFactory(name="Open de Peñafiel", venue="Peña El Órdago")
    garcia = pair_with_data(t)  # José García Núñez
    plain = make_pair(t, players=[player_data(80, first_name="Ines", last_name="Garcia Lopez"), player_data(81)])
    other = make_pair(t, name="Los Ñus")
    client = signed_in(UserFactory(is_staff=True, is_superuser=True))

    def found(model: str, q: str) -> str:
        response = client.get(f"/admin/torneo/{model}/", {"q": q})
        assert response.status_code == 200
        return response.content.decode()

    page = found("player", "Garcia")
    assert "José García Núñez" in page and "Ines Garcia Lopez" in page
    page = found("player", "garcía nuñez")
    assert "José García Núñez" in page and "Ines Garcia Lopez" not in page
    page = found("pair", "GARCIA")
    assert f"/admin/torneo/pair/{garcia.pk}/change/" in page and f"/admin/torneo/pair/{plain.pk}/change/" in page
    assert f"/admin/torneo/pair/{other.pk}/change/" not in page
    assert f"/admin/torneo/pair/{other.pk}/change/" in found("pair", "los nus")
    assert "Open de Peñafiel" in found("tournament", "penafiel ordago")
    assert "Open de Peñafiel" not in found("tournament", "penafiel bilbao")
    assert "0 jugadores" in found("player", "Gárcíx") or "0 players" in found("player", "Gárcíx")


def test_the_admin_lists_codes_without_their_hash():
    t = TournamentFactory()
    service.player_codes_issue(pair=make_pair(t), by=staff(t))
    token = AccountToken.objects.first()
    client = signed_in(UserFactory(is_staff=True, is_superuser=True))
    page = client.get(f"/admin/torneo/accounttoken/{token.pk}/change/").content.decode()
    assert token.selector in page and token.secret_hash not in page


# --- the demo shows the flows --------------------------------------------------------------------


def test_the_demo_has_a_pending_player_code_and_invitation(capsys):
    from django.core.management import call_command

    call_command("demo")
    out = capsys.readouterr().out
    code = re.search(r"\?codigo=([A-Z0-9-]+)", out).group(1)
    invitation = re.search(r"(/torneos/[^ ]+/cuenta/invitacion/[^ /]+/)", out).group(1)
    call_command("demo")  # a second run keeps them
    again = capsys.readouterr().out
    assert code in again and invitation in again
    client = Client()
    slug_ = invitation.split("/")[2]
    assert claim(client, Tournament.objects.get(slug=slug_), code).status_code == 302
    assert Client().get(invitation).status_code == 200
