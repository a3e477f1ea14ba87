"""Creating and editing tournaments, jornadas and roles (AMM 1.7.a: juegos per partida set per tournament)."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError

from tests.factories import TournamentFactory, UserFactory, make_pair
from torneo.errors import TournamentError
from torneo.models import Pair, Tournament, TournamentRole
from torneo.services.tournaments import (
    role_grant,
    role_revoke,
    session_save,
    tournament_create,
    tournament_update,
)

pytestmark = pytest.mark.django_db
MADRID = ZoneInfo("Europe/Madrid")


def data(**overrides):
    base = {
        "name": "Campeonato de Madrid",
        "start_date": datetime.date(2027, 3, 6),
        "end_date": datetime.date(2027, 3, 7),
    }
    base.update(overrides)
    return base


def test_create_defaults_to_amm_rules_three_juegos_to_forty_amm_1_7_a():
    user = UserFactory()
    t = tournament_create(by=user, data=data())
    assert (t.rule_set, t.games_to_win, t.points_per_game, t.status) == ("amm", 3, 40, "draft")
    assert t.slug == "campeonato-de-madrid"
    assert TournamentRole.objects.filter(tournament=t, user=user, role="organizer").exists()


def test_four_juegos_and_thirty_tantos_are_allowed_amm_1_7_a():
    t = tournament_create(by=UserFactory(), data=data(games_to_win=4, points_per_game=30))
    assert (t.games_to_win, t.points_per_game) == (4, 30)


def test_slugs_stay_unique():
    user = UserFactory()
    slugs = [tournament_create(by=user, data=data()).slug for _ in range(3)]
    assert slugs == ["campeonato-de-madrid", "campeonato-de-madrid-2", "campeonato-de-madrid-3"]


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"end_date": datetime.date(2027, 3, 1)}, "__all__"),
        ({"games_to_win": 0}, "games_to_win"),
        ({"points_per_game": 33}, "points_per_game"),
        ({"max_pairs": 1}, "max_pairs"),
        ({"name": ""}, "name"),
        ({"rule_set": "poker"}, "rule_set"),
        ({"entry_fee": -5}, "entry_fee"),
    ],
)
def test_bad_tournament_data_names_the_field_and_writes_nothing(overrides, field):
    with pytest.raises(ValidationError) as exc:
        tournament_create(by=UserFactory(), data=data(**overrides))
    assert field in exc.value.message_dict
    assert not Tournament.objects.exists()


def test_end_before_start_message_is_spanish():
    with pytest.raises(ValidationError) as exc:
        tournament_create(by=UserFactory(), data=data(end_date=datetime.date(2027, 3, 1)))
    assert "no puede ser anterior" in exc.value.message_dict["__all__"][0]


def test_raising_capacity_moves_waitlisted_pairs_up():
    t = TournamentFactory(max_pairs=1)
    make_pair(t), make_pair(t), make_pair(t)
    tournament_update(tournament=t, data={"max_pairs": 2})
    assert Pair.objects.filter(tournament=t, status="confirmed").count() == 2
    tournament_update(tournament=t, data={"max_pairs": None})
    assert Pair.objects.filter(tournament=t, status="waitlisted").count() == 0


def test_session_must_start_within_the_tournament_dates():
    t = TournamentFactory(start_date=datetime.date(2026, 12, 12), end_date=datetime.date(2026, 12, 13))
    ok = session_save(tournament=t, name="Jornada 1", starts_at=datetime.datetime(2026, 12, 12, 10, tzinfo=MADRID))
    assert ok.pk
    with pytest.raises(ValidationError) as exc:
        session_save(tournament=t, name="Jornada 3", starts_at=datetime.datetime(2026, 12, 14, 10, tzinfo=MADRID))
    assert "entre el 12/12/2026 y el 13/12/2026" in exc.value.message_dict["starts_at"][0]


def test_session_day_is_the_madrid_day():
    # 23:30 UTC on the 11th is 00:30 on the 12th in Madrid: inside the tournament.
    t = TournamentFactory(start_date=datetime.date(2026, 12, 12), end_date=datetime.date(2026, 12, 12))
    utc = datetime.datetime(2026, 12, 11, 23, 30, tzinfo=datetime.UTC)
    assert session_save(tournament=t, name="Nocturna", starts_at=utc).pk


def test_role_grant_by_username_or_email_and_unknown_user():
    t = TournamentFactory()
    user = UserFactory(username="maria", email="maria@example.com")
    assert role_grant(tournament=t, username="maria", role="juez").user == user
    assert role_grant(tournament=t, username="MARIA@example.com", role="control").user == user
    with pytest.raises(ValidationError) as exc:
        role_grant(tournament=t, username="nadie", role="juez")
    assert "No hay ningún usuario «nadie»" in exc.value.message_dict["username"][0]
    with pytest.raises(ValidationError):
        role_grant(tournament=t, username="maria", role="rey")


def test_a_juez_granted_with_a_name_is_read_by_that_name_never_by_username():
    """Issue 34: the public draw said «ante el juez juez del torneo» for an account without a name.
    Granting the role names the account, unless it already has a name (the owner's)."""
    from torneo.selectors.rounds import witness_label

    t = TournamentFactory()
    nameless = UserFactory(username="juez-1", first_name="", last_name="")
    role_grant(tournament=t, username="juez-1", role="juez", full_name="  Juan   Pérez Gil ")
    nameless.refresh_from_db()
    assert (nameless.first_name, nameless.last_name) == ("Juan", "Pérez Gil")
    assert witness_label(nameless) == "Juan Pérez Gil"
    named = UserFactory(username="juez-2", first_name="Ana", last_name="Sanz")
    role_grant(tournament=t, username="juez-2", role="juez", full_name="Otro Nombre")
    named.refresh_from_db()
    assert named.get_full_name() == "Ana Sanz"  # the owner's own name stays


def test_the_last_organizer_cannot_be_removed():
    user = UserFactory()
    t = tournament_create(by=user, data=data())
    only = TournamentRole.objects.get(tournament=t, role="organizer")
    with pytest.raises(TournamentError, match="al menos una persona"):
        role_revoke(tournament_role=only)
    second = role_grant(tournament=t, username=UserFactory().username, role="organizer")
    role_revoke(tournament_role=only)
    assert list(TournamentRole.objects.filter(tournament=t)) == [second]


def test_rule_set_choices_are_exactly_the_engines_presets():
    from scoring.mus import RULE_SETS
    from torneo.rulesets import RULE_SET_CHOICES

    assert [name for name, _label in RULE_SET_CHOICES] == list(RULE_SETS)
