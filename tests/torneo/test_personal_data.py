"""Personal data belongs to one tournament's registration (RGPD; security issue, item 1), names are
names (item 8), and a registration is two or three players, checked before the lock (item 3).

Each test walks an attack the probe made: a stranger's form that looked a person up by DNI, read
back their name and club, overwrote their phone and e-mail; the mesa of one tournament reading and
renaming another tournament's player through its own pair."""

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from torneo.identity import clean_text
from torneo.models import Pair, Player
from torneo.services import registrations
from torneo.services.registrations import PlayerData, pair_register

pytestmark = pytest.mark.django_db

DNI = "12345678Z"


@pytest.fixture
def victim():
    """María, registered by the mesa of tournament 1 with her DNI, phone, e-mail and club."""
    t1 = TournamentFactory(name="Torneo uno")
    maria = player_data(1, first_name="María", last_name="Victoria Real", id_document=DNI, club="Peña Secreta")
    maria = PlayerData(**{**maria.__dict__, "phone": "600111222", "email": "maria@example.com"})
    pair = make_pair(t1, players=[maria, player_data(2)])
    return t1, pair


def _maria(t1):
    return Player.objects.get(tournament=t1, id_document=DNI)


def _anonymous_registration(tournament, **player):
    body = {
        "players": [
            {"first_name": "Intruso", "last_name": "Anónimo", **player},
            {"first_name": "Otro", "last_name": "Más"},
        ]
    }
    return APIClient().post(f"/api/v1/tournaments/{tournament.slug}/registrations/", body, format="json")


def test_anonymous_registration_with_someone_elses_dni_reveals_nothing_of_theirs(victim):
    t1, _pair = victim
    t2 = TournamentFactory(name="Torneo dos")
    response = _anonymous_registration(t2, id_document=DNI)
    assert response.status_code == 201, response.json()
    text = response.content.decode()
    assert "María" not in text and "Victoria" not in text and "Peña Secreta" not in text
    assert response.json()["players"][0] == {"first_name": "Intruso", "last_name": "Anónimo", "club": ""}
    # The registration holds what it brought, in its own tournament; María's record is untouched.
    assert Player.objects.get(tournament=t2, id_document=DNI).first_name == "Intruso"
    assert _maria(t1).first_name == "María" and _maria(t1).club == "Peña Secreta"


def test_anonymous_registration_cannot_overwrite_contact_data_of_another_tournament(victim):
    t1, _pair = victim
    t2 = TournamentFactory()
    response = _anonymous_registration(t2, id_document=DNI, phone="699999999", email="atacante@example.com")
    assert response.status_code == 201
    maria = _maria(t1)
    assert (maria.phone, maria.email) == ("600111222", "maria@example.com")


@pytest.fixture
def other_mesa():
    """Tournament 2, its mesa's API client, and its own registration of María (same DNI)."""
    t2 = TournamentFactory()
    pair2 = make_pair(
        t2, players=[player_data(1, first_name="María", last_name="Victoria Real", id_document=DNI), player_data(3)]
    )
    client = APIClient()
    client.force_authenticate(grant(UserFactory(), t2, "control"))
    return t2, client, pair2


def test_mesa_of_another_tournament_cannot_read_its_contact_data(victim, other_mesa):
    t1, _pair = victim
    t2, client, pair2 = other_mesa
    own = client.get(f"/api/v1/tournaments/{t2.slug}/pairs/{pair2.number}/").json()["players"][0]
    assert own["phone"] == "" and own["email"] == "" and own["club"] == ""
    listed = client.get("/api/v1/players/", {"q": "victoria"}).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert "600111222" not in str(rows) and "maria@example.com" not in str(rows)
    assert {row["id"] for row in rows} == {m.player_id for m in pair2.members.all() if m.position == 1}
    # And tournament 1's private endpoints stay closed to tournament 2's mesa.
    assert client.get(f"/api/v1/tournaments/{t1.slug}/pairs/1/").json()["players"][0].get("phone") is None


def test_mesa_of_another_tournament_cannot_rename_its_player(victim, other_mesa):
    t1, pair1 = victim
    t2, client, pair2 = other_mesa
    body = {
        "version": pair2.version,
        "players": [
            {"first_name": "Renombrada", "last_name": "Por Otro", "id_document": DNI},
            {"first_name": player_data(3).first_name, "last_name": player_data(3).last_name},
        ],
    }
    response = client.put(f"/api/v1/tournaments/{t2.slug}/pairs/{pair2.number}/", body, format="json")
    assert response.status_code == 200, response.json()
    assert _maria(t1).first_name == "María"
    page = APIClient().get(f"/api/v1/tournaments/{t1.slug}/pairs/{pair1.number}/").json()
    assert page["players"][0]["first_name"] == "María"


def test_one_person_one_pair_stays_per_tournament(victim):
    t1, _pair = victim
    with pytest.raises(ValidationError):
        make_pair(t1, players=[player_data(9, id_document=DNI), player_data(10)])
    assert make_pair(TournamentFactory(), players=[player_data(9, id_document=DNI), player_data(10)]).pk


def test_a_registration_never_links_an_account_by_itself(victim):
    t1, _pair = victim
    maria = _maria(t1)
    maria.user = UserFactory()
    maria.save()
    t2 = TournamentFactory()
    _anonymous_registration(t2, id_document=DNI)
    assert Player.objects.get(tournament=t2, id_document=DNI).user is None


# --- names are names (item 8) ------------------------------------------------------------------


@pytest.mark.parametrize(
    "disguised",
    [
        "Jo\u200bsé",  # zero-width space
        "Jo\u200dsé",  # zero-width joiner
        "\u202eJosé",  # right-to-left override
        "José\u2066",  # left-to-right isolate
        "\ufeffJosé",  # byte-order mark
        "Jo\u00adsé",  # soft hyphen
        "Ｊｏｓé",  # full-width letters (NFKC)
    ],
)
def test_invisible_characters_do_not_make_another_person(disguised):
    t = TournamentFactory()
    make_pair(t, players=[PlayerData("José", "García"), player_data(2)])
    with pytest.raises(ValidationError) as exc:
        make_pair(t, players=[PlayerData(disguised, "García"), player_data(3)])
    assert "ya está inscrito" in str(exc.value)


def test_a_full_width_or_disguised_document_is_the_same_document():
    t = TournamentFactory()
    make_pair(t, players=[player_data(1, id_document=DNI), player_data(2)])
    for disguised in ("１２３４５６７８Ｚ", "1234\u200b5678Z"):
        with pytest.raises(ValidationError) as exc:
            make_pair(t, players=[player_data(5, id_document=disguised), player_data(6)])
        assert "mismo documento" in str(exc.value)


def test_names_are_stored_without_invisible_characters():
    t = TournamentFactory()
    pair = make_pair(
        t, players=[PlayerData("Jo\u200bsé\u202e", " Gar\u00adcía "), player_data(2)], name="Los\u200b del \u2066Bar"
    )
    player = pair.members.get(position=1).player
    assert (player.first_name, player.last_name, pair.name) == ("José", "García", "Los del Bar")


def test_clean_text_keeps_what_people_type():
    assert clean_text("  Mª  Ángeles\tO'Brien-Núñez ") == "Mª Ángeles O'Brien-Núñez"


# --- a registration is two or three players, checked before the lock (item 3) ------------------


def test_a_registration_of_thousands_of_players_is_refused_before_the_lock(monkeypatch):
    t = TournamentFactory(allow_trios=True)

    def no_lock(tournament):
        raise AssertionError("the tournament row was locked for a request that could never be valid")

    monkeypatch.setattr(registrations, "_lock", no_lock)
    with pytest.raises(ValidationError) as exc:
        pair_register(tournament=t, players=[player_data(i) for i in range(3000)], source=Pair.Source.PUBLIC_FORM)
    assert exc.value.message_dict == {"players": ["Un trío tiene como máximo tres jugadores (AMM 5.8.e)."]}


def test_the_api_refuses_more_than_three_players_with_a_clear_400():
    t = TournamentFactory(allow_trios=True)
    players = [{"first_name": f"N{i}", "last_name": f"A{i}"} for i in range(3000)]
    response = APIClient().post(f"/api/v1/tournaments/{t.slug}/registrations/", {"players": players}, format="json")
    assert response.status_code == 400
    assert "players" in response.json()
    assert not Pair.objects.filter(tournament=t).exists()


# --- erasure on request (RGPD) -----------------------------------------------------------------


def test_erasure_removes_document_phone_and_email_also_from_the_history(victim):
    t1, pair = victim
    organizer = grant(UserFactory(), t1, "organizer")
    maria = _maria(t1)
    client = APIClient()
    client.force_authenticate(organizer)
    response = client.post(f"/api/v1/players/{maria.pk}/erase-personal-data/")
    assert response.status_code == 200, response.content
    assert (response.json()["id_document"], response.json()["phone"], response.json()["email"]) == ("", "", "")
    maria.refresh_from_db()
    assert (maria.first_name, maria.club, maria.id_document, maria.phone, maria.email) == (
        "María",
        "Peña Secreta",
        "",
        "",
        "",
    )
    history = Player.history.filter(id=maria.pk)
    assert history.count() >= 2
    assert not history.exclude(id_document="", phone="", email="").exists()
    member = pair.members.get(player=maria)
    assert DNI not in (member.identity_key or "")
    assert not member.history.filter(identity_key__contains=DNI).exists()
    # The pair keeps its place, and «one person, one pair» goes on by the name.
    with pytest.raises(ValidationError):
        make_pair(t1, players=[PlayerData("María", "Victoria Real"), player_data(8)])


def test_erasure_keeps_two_namesakes_apart():
    t = TournamentFactory()
    make_pair(t, players=[player_data(1, first_name="Ana", last_name="Ruiz", id_document=DNI), player_data(2)])
    other = make_pair(t, players=[PlayerData("Ana", "Ruiz", id_document="X1234567L"), player_data(3)])
    from torneo.services.personal_data import player_erase_personal_data

    erased = player_erase_personal_data(player=other.members.get(position=1).player)
    assert erased.id_document == "" and Pair.objects.filter(tournament=t).count() == 2


def test_only_the_organizer_erases_personal_data(victim):
    t1, pair = victim
    maria = _maria(t1)
    for role in ("control", "juez"):
        client = APIClient()
        client.force_authenticate(grant(UserFactory(), t1, role))
        assert client.post(f"/api/v1/players/{maria.pk}/erase-personal-data/").status_code == 403
    other_organizer = grant(UserFactory(), TournamentFactory(), "organizer")
    client = APIClient()
    client.force_authenticate(other_organizer)
    assert client.post(f"/api/v1/players/{maria.pk}/erase-personal-data/").status_code == 404
    assert _maria(t1).id_document == DNI
    page = client_for_page(grant(UserFactory(), t1, "organizer"))
    response = page.post(f"/torneos/{t1.slug}/gestion/parejas/{pair.number}/borrar-datos/1/")
    maria.refresh_from_db()
    assert response.status_code == 302 and maria.id_document == ""


def client_for_page(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_the_public_form_says_who_sees_the_data():
    t = TournamentFactory()
    from django.test import Client

    page = Client().get(f"/torneos/{t.slug}/inscripcion/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Protección de datos" in page and "borre tus datos" in page


def test_the_organizer_reaches_a_withdrawn_pairs_personal_data_to_erase_it(victim):
    """RGPD: a pair that withdrew still has its players' document, phone and e-mail; the organizer
    finds them from the pairs list (the «Editar» link is only for pairs still in) and erases them.
    The mesa de control, which may not erase, gets no such link."""
    from torneo.services.registrations import pair_withdraw

    t1, pair = victim
    pair_withdraw(pair=pair, reason="se retiran")
    organizer = client_for_page(grant(UserFactory(), t1, "organizer"))
    html = organizer.get(f"/torneos/{t1.slug}/gestion/parejas/").content.decode()
    link = f'/torneos/{t1.slug}/gestion/parejas/{pair.number}/#proteccion-de-datos'
    assert link in html
    page = organizer.get(link.split("#")[0]).content.decode()
    assert 'id="proteccion-de-datos"' in page and "Borrar los datos de María Victoria Real" in page
    assert organizer.post(f"/torneos/{t1.slug}/gestion/parejas/{pair.number}/borrar-datos/1/").status_code == 302
    maria = Player.objects.get(tournament=t1, first_name="María")
    assert (maria.id_document, maria.phone, maria.email) == ("", "", "")
    mesa = client_for_page(grant(UserFactory(), t1, "control"))
    assert link not in mesa.get(f"/torneos/{t1.slug}/gestion/parejas/").content.decode()


def test_the_organizer_writes_the_registration_forms_data_protection_notice():
    """RGPD: the registration form asks for DNI, phone and e-mail, so it says who treats them and
    how to have them erased; the organizer (the controller) writes that notice, else the platform's
    general one is shown."""
    from django.test import Client

    from torneo.services.tournaments import tournament_update

    t = TournamentFactory()
    url = f"/torneos/{t.slug}/inscripcion/"
    assert "Puedes pedir a la organización que borre tus datos." in Client().get(url).content.decode()
    notice = "Responsable: Peña El Órdago.\nEscribe a <datos@example.com> para borrar tus datos."
    tournament_update(tournament=t, data={"privacy_notice": notice})
    html = Client().get(url).content.decode()
    assert "Responsable: Peña El Órdago.<br>Escribe a &lt;datos@example.com&gt;" in html
    assert "Puedes pedir a la organización que borre tus datos." not in html
    organizer = client_for_page(grant(UserFactory(), t, "organizer"))
    assert 'name="privacy_notice"' in organizer.get(f"/torneos/{t.slug}/gestion/editar/").content.decode()
