"""A pair's private link (issue 32, item 1): the mesa issues it, a phone that opens it becomes the
pair's terminal without an account (the player role of that pair, nothing more), the link leaves
the address bar and never travels as a Referer, and a new link or its withdrawal stops the old one
and signs its phones out at once. Wrong links get one answer that names nobody."""

from typing import Any

import pytest
from django.contrib.auth import get_user
from django.test import Client

from scoring.models import MatchClock
from tests.factories import UserFactory, make_pair, player_data
from tests.scoring.test_hands_services import Table, table
from torneo.errors import NotAllowed, TournamentError
from torneo.models import Pair, PairTerminal, PushSubscription, Tournament
from torneo.permissions import is_player_of, own_pair_numbers
from torneo.services import terminals as service

pytestmark = pytest.mark.django_db


def issue(t: Table, pair: Pair | None = None) -> str:
    """The mesa issues the pair's link through its page; the link's path as printed."""
    pair = pair or t.match.pair_a
    mesa = Client()
    mesa.force_login(t.control)
    response = mesa.post(f"/torneos/{t.tournament.slug}/gestion/parejas/{pair.number}/tarjeta/")
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    path = response.context["url"].split("://", 1)[1].split("/", 1)[1]
    return "/" + path


def test_the_mesa_issues_a_link_and_the_phone_that_opens_it_is_the_pairs_terminal():
    t = table()
    link = issue(t)
    assert link.startswith(f"/torneos/{t.tournament.slug}/tarjeta/")
    phone = Client()
    opened = phone.get(link)
    # Signed in, and sent to the pair's page without the link in the address bar or a Referer.
    assert opened.status_code == 303 and opened["Location"].endswith(f"/parejas/{t.match.pair_a.number}/ficha/")
    assert opened["Referrer-Policy"] == "no-referrer" and "no-store" in opened["Cache-Control"]
    account = get_user(phone)
    assert account.is_authenticated and account == PairTerminal.objects.get(pair=t.match.pair_a).user
    assert not account.has_usable_password()
    # The player role of that pair, and of no other.
    assert own_pair_numbers(account, t.tournament) == [t.match.pair_a.number]
    assert is_player_of(account, t.match)
    page = phone.get(opened["Location"])
    assert page.status_code == 200
    # The session lasts until the tournament is over, not two weeks.
    assert phone.session.get_expiry_date().date() > t.tournament.end_date


def test_the_terminal_taps_its_own_tables_clock_only():
    t = table()
    MatchClock.objects.create(match=t.match, started_at=t.match.round.published_at)
    other = table(number=2)
    phone = Client()
    phone.get(issue(t))
    base = f"/api/v1/tournaments/{t.tournament.slug}/clocks"
    assert (
        phone.post(f"{base}/{t.match.pk}/tantos/", {"a": 10, "b": 3}, content_type="application/json").status_code
        == 200
    )
    elsewhere = f"/api/v1/tournaments/{other.tournament.slug}/clocks/{other.match.pk}/tantos/"
    assert phone.post(elsewhere, {"a": 1, "b": 1}, content_type="application/json").status_code in (403, 404)


def test_a_new_link_stops_the_old_one_and_signs_its_phones_out():
    t = table()
    first = issue(t)
    phone = Client()
    phone.get(first)
    assert get_user(phone).is_authenticated
    second = issue(t)
    assert second != first
    assert not get_user(phone).is_authenticated  # signed out at its next request
    refused = Client().get(first)
    assert refused.status_code == 404 and "no es válido" in refused.content.decode()
    assert Client().get(second).status_code == 303
    assert PairTerminal.objects.get(pair=t.match.pair_a).issues == 2


def test_withdrawing_the_link_stops_it_and_signs_its_phones_out():
    t = table()
    link = issue(t)
    phone = Client()
    phone.get(link)
    mesa = Client()
    mesa.force_login(t.control)
    url = f"/torneos/{t.tournament.slug}/gestion/parejas/{t.match.pair_a.number}/tarjeta/"
    assert mesa.post(url, {"retirar": "1"}).status_code == 302
    assert not get_user(phone).is_authenticated
    assert Client().get(link).status_code == 404


@pytest.mark.parametrize("how", ["renovar", "retirar"])
def test_a_replaced_or_withdrawn_link_stops_the_pushes_to_its_phones(how):
    """A lost tarjeta's phone, signed out, must not go on receiving the pair's notifications (its
    table, the results to sign, the juez's answers): its push subscriptions end with the link; other
    accounts' stay."""
    t = table()
    phone = Client()
    phone.get(issue(t))
    account = get_user(phone)
    endpoint = "https://push.example.com/send/{}"
    PushSubscription.objects.create(user=account, endpoint=endpoint.format(1), p256dh="k", auth="a")
    PushSubscription.objects.create(user=t.player_b, endpoint=endpoint.format(2), p256dh="k", auth="a")
    if how == "renovar":
        issue(t)
    else:
        service.terminal_revoke(pair=t.match.pair_a, by=t.control)
    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [t.player_b.pk]


def test_wrong_links_answer_alike_naming_nobody():
    t = table()
    link = issue(t)
    other = table()
    token = link.rstrip("/").rsplit("/", 1)[1]
    wrong = [
        f"/torneos/{t.tournament.slug}/tarjeta/{token[:-1]}{'y' if token.endswith('x') else 'x'}/",  # a wrong secret
        f"/torneos/{t.tournament.slug}/tarjeta/corto/",
        f"/torneos/{other.tournament.slug}/tarjeta/{token}/",  # another tournament's page
    ]
    bodies = set()
    for url in wrong:
        response = Client().get(url)
        assert response.status_code == 404
        assert t.match.pair_a.display_name not in response.content.decode()
        bodies.add(str(response.context["message"]))
    assert len(bodies) == 1


def test_someone_signed_in_is_asked_before_the_phone_becomes_the_terminal():
    t = table()
    link = issue(t)
    phone = Client()
    phone.force_login(t.juez)
    asked = phone.get(link)
    assert asked.status_code == 200 and "saldrás de esa cuenta" in asked.content.decode()
    assert get_user(phone) == t.juez  # nothing changed by opening it
    assert phone.post(link).status_code == 303
    assert get_user(phone) == PairTerminal.objects.get(pair=t.match.pair_a).user
    # A player of the pair with an account is the pair's terminal already: straight to the pair's page.
    player = Client()
    player.force_login(t.player_a)
    assert player.get(link).status_code == 303 and get_user(player) == t.player_a


def test_only_the_organizer_and_the_mesa_issue_links():
    t = table()
    url = f"/torneos/{t.tournament.slug}/gestion/parejas/{t.match.pair_a.number}/tarjeta/"
    for user in (t.juez, t.player_a, UserFactory()):
        client = Client()
        client.force_login(user)
        assert client.post(url).status_code in (403, 404)
    assert Client().post(url).status_code == 302  # anonymous: the login page
    with pytest.raises(NotAllowed):
        service.terminal_issue(pair=t.match.pair_a, by=t.juez)
    assert not PairTerminal.objects.exists()
    organizer = Client()
    organizer.force_login(t.organizer)
    assert organizer.post(url).status_code == 200


def test_a_withdrawn_pair_has_no_link_and_a_finished_tournament_opens_none():
    t = table()
    link = issue(t)
    gone = make_pair(t.tournament, players=[player_data(301), player_data(302)])
    Pair.objects.filter(pk=gone.pk).update(status=Pair.Status.WITHDRAWN)
    gone.refresh_from_db()
    with pytest.raises(TournamentError):
        service.terminal_issue(pair=gone, by=t.control)
    Tournament.objects.filter(pk=t.tournament.pk).update(status=Tournament.Status.FINISHED)
    assert Client().get(link).status_code == 404


def test_the_terminal_sees_nothing_personal_of_its_players():
    t = table()
    members: list[Any] = [m.player for m in t.match.pair_a.ordered_members()]
    for n, player in enumerate(members):
        player.id_document, player.phone, player.email = f"1234567{n}Z", f"60000000{n}", f"p{n}@correo.example"
        player.save()
    phone = Client()
    page = phone.get(phone.get(issue(t))["Location"]).content.decode()
    for player in members:
        assert player.id_document not in page and player.phone not in page and player.email not in page


@pytest.fixture
def small_tarjeta_limits(settings):
    from django.core.cache import caches

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "tarjeta_browser": "3/hour",
            "tarjeta_ip": "8/hour",
        },
    }
    caches["ratelimit"].clear()


def test_stale_cards_lock_out_their_own_phone_not_the_venues_other_phones(small_tarjeta_limits):
    """At a venue every phone comes from the same address: the failures of one phone (an old card,
    a QR scanned half) are counted for that phone; the address only has a ceiling a room never
    reaches, which also stops a client that drops its cookie to start again."""
    t = table()
    link = issue(t)
    stale = f"/torneos/{t.tournament.slug}/tarjeta/{'x' * 30}/"
    venue = {"REMOTE_ADDR": "192.0.2.50"}
    careless = Client(**venue)
    for _ in range(4):  # the first answer gives the phone its cookie; the next three count for it
        assert careless.get(stale).status_code == 404
    refused = careless.get(link)
    assert refused.status_code == 429 and "tarjeta" in refused.content.decode()
    assert Client(**venue).get(link).status_code == 303  # the next phone of the room opens its card
    # A client that drops its cookie each time fills the address's window: then the address waits.
    for _ in range(4):
        assert Client(**venue).get(stale).status_code == 404
    assert Client(**venue).get(link).status_code == 429
    assert Client(REMOTE_ADDR="192.0.2.51").get(link).status_code == 303


def test_a_pairs_phone_never_becomes_staff_nor_a_players_account():
    """Issue 32, item 6: the tarjeta's link does only its pair's actions. A staff invitation or a
    player's code opened on a pair's phone would make every phone holding that tarjeta a juez or a
    player: refused in Spanish, nothing given; the phone stays the pair's terminal."""
    from torneo.models import TournamentRole
    from torneo.services import accounts

    t = table()
    phone = Client()
    phone.get(issue(t))
    account = get_user(phone)
    invitation = accounts.invitation_create(tournament=t.tournament, by=t.organizer, role="juez", label="Marta")
    link = f"/torneos/{t.tournament.slug}/cuenta/invitacion/{invitation.secret}/"
    refused = phone.post(link, follow=True)
    assert "sal («Salir») y entra con tu propia cuenta" in refused.content.decode()
    assert not TournamentRole.objects.filter(user=account).exists()
    pair = make_pair(t.tournament, players=[player_data(31), player_data(32)])
    (_player, code), *_ = accounts.player_codes_issue(pair=pair, by=t.control)
    token = accounts.player_code_verify(tournament=t.tournament, code=code.code)
    with pytest.raises(NotAllowed, match="Este móvil es el de una pareja"):
        accounts.player_code_claim(tournament=t.tournament, token_id=token.pk, user=account)
    assert not pair.members.filter(player__user=account).exists()
    assert own_pair_numbers(account, t.tournament) == [t.match.pair_a.number]
