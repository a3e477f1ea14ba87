"""Registrations through the service layer: capacity and waiting list, one person in one pair,
tríos (AMM 5.8.e), check-in, withdrawal, and edits that refuse stale data."""

import pytest
from django.core.exceptions import ValidationError

from tests.factories import TournamentFactory, make_pair, player_data
from torneo.errors import Conflict, TournamentError
from torneo.models import Pair, PairMember, Player, Tournament
from torneo.services.registrations import (
    PlayerData,
    RowErrors,
    pair_check_in,
    pair_check_in_undo,
    pair_register,
    pair_update,
    pair_withdraw,
    pairs_register_many,
)

pytestmark = pytest.mark.django_db


def messages_of(exc: ValidationError) -> dict[str, list[str]]:
    return exc.message_dict


def test_register_numbers_pairs_in_order_and_normalises_input():
    t = TournamentFactory()
    first = make_pair(t)
    second = pair_register(
        tournament=t,
        players=[
            PlayerData("  josé ", " García   López ", id_document="12.345.678-z", email=" Jose@Example.COM "),
            PlayerData("Ana", "Ruiz", phone="+34 600 111 222"),
        ],
    )
    assert (first.number, second.number) == (1, 2)
    jose = second.ordered_members()[0].player
    assert (jose.first_name, jose.last_name, jose.id_document, jose.email) == (
        "josé",
        "García López",
        "12345678Z",
        "jose@example.com",
    )
    assert jose.normalized_name == "jose garcia lopez"
    assert second.status == Pair.Status.CONFIRMED


def test_over_capacity_goes_to_the_waiting_list():
    t = TournamentFactory(max_pairs=2)
    statuses = [make_pair(t).status for _ in range(4)]
    assert statuses == ["confirmed", "confirmed", "waitlisted", "waitlisted"]


def test_withdrawal_moves_the_oldest_waitlisted_pair_up():
    t = TournamentFactory(max_pairs=2)
    a, _b, c, d = (make_pair(t) for _ in range(4))
    promoted = pair_withdraw(pair=a, reason="lesión")
    a.refresh_from_db(), c.refresh_from_db(), d.refresh_from_db()
    assert a.status == Pair.Status.WITHDRAWN and "lesión" in a.notes
    assert promoted == c and c.status == Pair.Status.CONFIRMED
    assert d.status == Pair.Status.WAITLISTED


def test_no_promotion_once_the_tournament_is_running():
    t = TournamentFactory(max_pairs=1)
    a, b = make_pair(t), make_pair(t)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    assert pair_withdraw(pair=a) is None
    b.refresh_from_db()
    assert b.status == Pair.Status.WAITLISTED


def test_same_document_cannot_be_in_two_pairs():
    t = TournamentFactory()
    make_pair(t, players=[player_data(1, id_document="12345678Z"), player_data(2)])
    with pytest.raises(ValidationError) as exc:
        make_pair(t, players=[player_data(3), player_data(4, id_document="12345678z")])
    errors = messages_of(exc.value)
    assert list(errors) == ["players.1.first_name"]
    assert "Jugador 2" in errors["players.1.first_name"][0]
    assert "mismo documento" in errors["players.1.first_name"][0]
    assert Pair.objects.filter(tournament=t).count() == 1  # nothing half-written


def test_same_normalised_name_without_document_is_the_same_person():
    t = TournamentFactory()
    make_pair(t, players=[PlayerData("José Luis", "Sánchez Ortega"), player_data(2)])
    with pytest.raises(ValidationError) as exc:
        make_pair(t, players=[PlayerData("JOSE  LUIS", "sanchez-ortega"), player_data(3)])
    assert "mismo nombre" in messages_of(exc.value)["players.0.first_name"][0]
    assert Player.objects.filter(normalized_name="jose luis sanchez ortega").count() == 1


def test_same_name_with_two_different_documents_are_two_people():
    t = TournamentFactory()
    make_pair(t, players=[PlayerData("Juan", "García", id_document="12345678Z"), player_data(2)])
    other = make_pair(t, players=[PlayerData("Juan", "García", id_document="X1234567L"), player_data(3)])
    assert other.status == Pair.Status.CONFIRMED


def test_name_match_applies_when_only_one_of_them_gave_a_document():
    t = TournamentFactory()
    make_pair(t, players=[PlayerData("Juan", "García", id_document="12345678Z"), player_data(2)])
    with pytest.raises(ValidationError):
        make_pair(t, players=[PlayerData("Juan", "García"), player_data(3)])


def test_a_player_may_enter_another_tournament():
    make_pair(TournamentFactory(), players=[player_data(1, id_document="12345678Z"), player_data(2)])
    pair = make_pair(TournamentFactory(), players=[player_data(1, id_document="12345678Z"), player_data(5)])
    assert pair.status == Pair.Status.CONFIRMED
    # Personal data belongs to each registration: one record per tournament, never shared.
    records = Player.objects.filter(id_document="12345678Z")
    assert records.count() == 2
    for record in records:
        assert {m.tournament_id for m in record.memberships.all()} == {record.tournament_id}


def test_withdrawn_pair_releases_its_players():
    t = TournamentFactory()
    pair = make_pair(t, players=[player_data(1), player_data(2)])
    pair_withdraw(pair=pair)
    again = make_pair(t, players=[player_data(1), player_data(7)])
    assert again.status == Pair.Status.CONFIRMED
    assert PairMember.objects.filter(pair=pair, identity_key__isnull=False).count() == 0


def test_same_person_twice_in_one_pair_is_refused():
    t = TournamentFactory()
    with pytest.raises(ValidationError) as exc:
        make_pair(t, players=[player_data(1), player_data(1)])
    assert "misma persona" in messages_of(exc.value)["players.1.first_name"][0]


def test_trio_refused_when_the_tournament_does_not_admit_trios_amm_5_8_e():
    t = TournamentFactory(allow_trios=False)
    with pytest.raises(ValidationError) as exc:
        make_pair(t, players=[player_data(1), player_data(2), player_data(3)])
    assert "no admite tríos" in messages_of(exc.value)["players"][0]


def test_trio_admitted_and_all_three_are_titulares_amm_5_8_e():
    t = TournamentFactory(allow_trios=True)
    trio = make_pair(t, players=[player_data(1), player_data(2), player_data(3)])
    assert [m.position for m in trio.ordered_members()] == [1, 2, 3]
    # The third player holds a place like the other two: they cannot enter another pair.
    with pytest.raises(ValidationError):
        make_pair(t, players=[player_data(3), player_data(9)])


def test_four_players_never_make_a_pair_amm_5_8_e():
    t = TournamentFactory(allow_trios=True)
    with pytest.raises(ValidationError) as exc:
        make_pair(t, players=[player_data(i) for i in range(4)])
    assert "máximo tres" in messages_of(exc.value)["players"][0]


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("id_document", "12345678A", "letra del DNI"),
        ("id_document", "X1234567A", "letra del NIE"),
        ("id_document", "AB", "entre 5 y 20"),
        ("email", "no-es-un-correo", "correo electrónico no es válido"),
        ("phone", "llámame", "teléfono"),
        ("first_name", "   ", "falta el nombre"),
        ("last_name", "", "faltan los apellidos"),
        ("first_name", "x" * 101, "más de 100 caracteres"),
    ],
)
def test_bad_player_field_names_the_player_and_field(field, value, fragment):
    t = TournamentFactory()
    bad = player_data(2, **{field: value})
    with pytest.raises(ValidationError) as exc:
        make_pair(t, players=[player_data(1), bad])
    errors = messages_of(exc.value)
    assert f"players.1.{field}" in errors
    message = errors[f"players.1.{field}"][0]
    assert fragment in message and message.startswith("Jugador 2")
    assert not Pair.objects.filter(tournament=t).exists()


def test_every_error_is_reported_at_once():
    t = TournamentFactory()
    with pytest.raises(ValidationError) as exc:
        make_pair(t, players=[PlayerData("", "", email="x"), PlayerData("Ana", "", phone="1")])
    assert set(messages_of(exc.value)) == {
        "players.0.first_name",
        "players.0.last_name",
        "players.0.email",
        "players.1.last_name",
        "players.1.phone",
    }


def test_public_form_only_while_registration_is_open():
    t = TournamentFactory(status=Tournament.Status.REGISTRATION_CLOSED)
    with pytest.raises(TournamentError, match="no está abierta"):
        make_pair(t, source=Pair.Source.PUBLIC_FORM)
    # The mesa de control may still enter a pair.
    assert make_pair(t, source=Pair.Source.CONTROL).status == Pair.Status.CONFIRMED


def test_nobody_registers_in_a_finished_tournament():
    t = TournamentFactory(status=Tournament.Status.FINISHED)
    with pytest.raises(TournamentError, match="ha terminado"):
        make_pair(t)


def test_check_in_is_idempotent_and_can_be_undone():
    t = TournamentFactory()
    pair = make_pair(t)
    first = pair_check_in(pair=pair).checked_in_at
    assert first is not None
    assert pair_check_in(pair=pair).checked_in_at == first
    assert pair_check_in_undo(pair=pair).checked_in_at is None


def test_waitlisted_and_withdrawn_pairs_cannot_check_in():
    t = TournamentFactory(max_pairs=1)
    make_pair(t)
    waiting = make_pair(t)
    with pytest.raises(TournamentError, match="lista de espera"):
        pair_check_in(pair=waiting)
    pair_withdraw(pair=waiting)
    with pytest.raises(TournamentError, match="retirada"):
        pair_check_in(pair=waiting)


def test_withdrawing_twice_is_a_clear_error():
    pair = make_pair(TournamentFactory())
    pair_withdraw(pair=pair)
    with pytest.raises(TournamentError, match="ya estaba retirada"):
        pair_withdraw(pair=pair)


def test_update_corrects_a_typo_and_keeps_the_person():
    t = TournamentFactory()
    pair = make_pair(t, players=[PlayerData("Jaun", "Pérez"), player_data(2)])
    player_id = pair.ordered_members()[0].player_id
    updated = pair_update(
        pair=pair,
        players=[PlayerData("Jaun", "Pérez", phone="600123123"), player_data(2)],
        name="Los del Casino",
        expected_version=pair.version,
    )
    assert updated.name == "Los del Casino" and updated.version == pair.version + 1
    assert updated.ordered_members()[0].player_id == player_id
    assert Player.objects.get(pk=player_id).phone == "600123123"


def test_update_with_a_stale_version_is_a_conflict_and_changes_nothing():
    t = TournamentFactory()
    pair = make_pair(t, players=[player_data(1), player_data(2)])
    pair_update(pair=pair, players=[player_data(1), player_data(3)], name="", expected_version=1)
    with pytest.raises(Conflict):
        pair_update(pair=pair, players=[player_data(1), player_data(4)], name="", expected_version=1)
    pair.refresh_from_db()
    assert pair.members_label.endswith(player_data(3).first_name + " " + player_data(3).last_name)


def test_update_cannot_take_a_player_from_another_pair():
    t = TournamentFactory()
    make_pair(t, players=[player_data(1), player_data(2)])
    other = make_pair(t, players=[player_data(3), player_data(4)])
    with pytest.raises(ValidationError):
        pair_update(pair=other, players=[player_data(3), player_data(2)], name="")


def test_batch_is_all_or_nothing_and_names_every_bad_entry():
    t = TournamentFactory()
    entries = [
        ("", [player_data(1), player_data(2)]),
        ("", [player_data(3), PlayerData("Sin", "")]),
        ("", [player_data(2), player_data(5)]),  # player 2 already in entry 0
    ]
    with pytest.raises(RowErrors) as exc:
        pairs_register_many(tournament=t, entries=entries, source=Pair.Source.CSV)
    assert sorted(exc.value.errors) == [1, 2]
    assert not Pair.objects.filter(tournament=t).exists()


def test_a_person_already_registered_is_refused_naming_the_pair_number_and_players():
    t = TournamentFactory()
    make_pair(t)
    make_pair(t, players=[PlayerData("Ana", "Sanz", id_document="12345678Z"), PlayerData("Luis", "Gil")])
    with pytest.raises(ValidationError) as exc:
        make_pair(t, players=[player_data(3), PlayerData("Ana María", "Sanz", id_document="12345678z")])
    assert messages_of(exc.value)["players.1.first_name"] == [
        "Jugador 2: Ana María Sanz ya está inscrito en la pareja 2: Ana Sanz · Luis Gil (mismo documento)."
    ]
    # A named pair: its name too.
    make_pair(t, name="Los Txikis", players=[PlayerData("Iñaki", "Etxeberria"), PlayerData("Koldo", "Arregui")])
    with pytest.raises(ValidationError) as exc:
        make_pair(t, players=[PlayerData("Koldo", "Arregui"), player_data(4)])
    assert messages_of(exc.value)["players.0.first_name"] == [
        "Jugador 1: Koldo Arregui ya está inscrito en la pareja 3 «Los Txikis»: Iñaki Etxeberria · Koldo Arregui "
        "(mismo nombre). Si es otra persona con el mismo nombre, indica su documento."
    ]


def test_an_edit_taking_a_registered_player_names_the_pair_that_has_them():
    t = TournamentFactory()
    make_pair(t, players=[player_data(1), PlayerData("Eva", "Mora")])
    other = make_pair(t, players=[player_data(3), player_data(4)])
    with pytest.raises(ValidationError) as exc:
        pair_update(pair=other, players=[player_data(3), PlayerData("Eva", "Mora")], name="")
    message = messages_of(exc.value)["players.1.first_name"][0]
    assert message.startswith("Jugador 2: Eva Mora ya está inscrito en la pareja 1: ")
    assert message.endswith(" · Eva Mora (mismo nombre). Si es otra persona con el mismo nombre, indica su documento.")


def test_a_person_twice_in_one_batch_is_refused_naming_the_earlier_entry():
    t = TournamentFactory()
    entries = [
        ("", [PlayerData("Ana", "Sanz"), PlayerData("Luis", "Gil")]),
        ("", [player_data(3), PlayerData("ana", "SANZ")]),
    ]
    with pytest.raises(RowErrors) as exc:
        pairs_register_many(tournament=t, entries=entries, source=Pair.Source.CSV)
    assert exc.value.errors[1]["players.1.first_name"][0].startswith(
        "Jugador 2: ana SANZ ya figura en la pareja de la entrada 1: Ana Sanz · Luis Gil (mismo nombre)."
    )
    with pytest.raises(RowErrors) as exc:
        pairs_register_many(tournament=t, entries=entries, source=Pair.Source.CSV, entry_labels=["fila 2", "fila 3"])
    assert "en la pareja de la fila 2: Ana Sanz · Luis Gil" in exc.value.errors[1]["players.1.first_name"][0]


def test_a_field_too_long_says_its_limit_with_the_right_plural():
    t = TournamentFactory()
    with pytest.raises(ValidationError) as exc:
        make_pair(t, players=[player_data(1, club="x" * 121), player_data(2)])
    assert messages_of(exc.value)["players.0.club"] == ["Jugador 1: el campo tiene más de 120 caracteres."]
