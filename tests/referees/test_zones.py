"""A juez's zone of the room (AMM 5.1: «uno o varios jueces»): the organizer gives a juez tables,
«1-20, 41-50»; the juez's desk shows theirs, and every table on request."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Tournament, TournamentRole
from torneo.services.tournaments import role_grant
from torneo.tableranges import format_tables, in_tables, parse_tables


def test_tables_are_numbers_or_ranges_separated_by_commas():
    assert parse_tables(" 41-50, 1 - 20; 60 ,") == ((1, 20), (41, 50), (60, 60))
    assert format_tables(parse_tables("60, 1-20")) == "1-20, 60"
    assert parse_tables("") == ()
    assert in_tables(15, parse_tables("1-20")) and not in_tables(21, parse_tables("1-20"))
    assert in_tables(99, ())  # no zone: every table
    for bad in ("1-", "a", "20-1", "0", "1-99999"):
        with pytest.raises(ValueError, match="mesa"):
            parse_tables(bad)


@pytest.mark.django_db
def test_the_organizer_gives_a_juez_a_zone_and_only_a_juez_amm_5_1():
    sim = new_tournament(4, seed=48)
    user = UserFactory(username="juez-zona")
    role = role_grant(tournament=sim.tournament, username="juez-zona", role="juez", tables="41-50,1-20")
    assert role.tables == "1-20, 41-50"
    with pytest.raises(ValidationError) as bad:
        role_grant(tournament=sim.tournament, username="juez-zona", role="juez", tables="mesas del fondo")
    assert "tables" in bad.value.message_dict
    with pytest.raises(ValidationError) as bad:
        role_grant(tournament=sim.tournament, username=user.username, role="control", tables="1-5")
    assert "tables" in bad.value.message_dict
    page = Client()
    page.force_login(sim.organizer)
    response = page.post(
        reverse("torneo:manage_roles", args=[sim.tournament.slug]),
        {"username": "juez-zona", "role": "juez", "tables": "3-4"},
    )
    assert response.status_code == 302
    assert TournamentRole.objects.get(user=user, role="juez").tables == "3-4"


@pytest.mark.django_db
def test_the_juez_sees_their_tables_and_every_table_on_request_amm_5_1():
    sim = new_tournament(8, seed=49, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    matches = playing(round_)
    juez = grant(UserFactory(username="juez-zona-2"), sim.tournament, "juez")
    mine = matches[0].table_number
    TournamentRole.objects.filter(user=juez, role="juez").update(tables=str(mine))
    client = Client()
    client.force_login(juez)
    url = reverse("referees:juez_desk", args=[sim.tournament.slug])
    html = client.get(url).content.decode()
    assert f"Tus mesas: {mine}" in html
    shown = html.count('id="mesa-')
    every = client.get(url, {"todas": "1"}).content.decode()
    assert shown == 1 and every.count('id="mesa-') == len(matches)
