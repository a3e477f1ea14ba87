"""The format cannot change under the players' feet: once round 1 is prepared, the format, the
ceros, the juegos and tantos of a partida, the reglamento and the number of liguillas are fixed (the
service refuses naming the field, the form shows them disabled with the reason, the API answers 400
on the field); a change that alters the standings or the pairings is saved only once confirmed, after
seeing what it changes (the form's second step, the API's ``confirm: true``)."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from tests.torneo.simulation import Simulation, new_tournament
from tests.torneo.test_round_views import finish_round, publish_next, text_of
from torneo.forms.tournaments import TournamentForm
from torneo.models import Round, Tournament
from torneo.selectors.rounds import tournament_progress
from torneo.services.rounds import round_cancel, round_prepare, tournament_finish_if_done
from torneo.services.tournaments import (
    CONFIRM_AFTER_DRAW,
    LOCKED_AFTER_DRAW,
    ConfirmationNeeded,
    draw_lock,
    tournament_update,
)

pytestmark = pytest.mark.django_db

CHANGES = {
    "format": Tournament.Format.SWISS,
    "max_losses": 3,
    "games_to_win": 4,
    "points_per_game": 30,
    "rule_set": "navarra",
    "group_count": 4,
}


def played(pairs: int = 8, rounds: int = 1, **fields: object) -> Simulation:
    sim = new_tournament(pairs, seed=pairs, **fields)
    for _ in range(rounds):
        finish_round(sim, publish_next(sim))
    sim.tournament.refresh_from_db()
    return sim


def fresh(sim: Simulation) -> Tournament:
    return Tournament.objects.get(pk=sim.tournament.pk)


def form_data(t: Tournament, **changes: object) -> dict[str, object]:
    """Every field of the edit form as it stands, with `changes`."""
    data: dict[str, object] = {}
    for name in TournamentForm.Meta.fields:
        value = getattr(t, name)
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value.isoformat() if hasattr(value, "isoformat") else value
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


# --- the service ------------------------------------------------------------------------------------


def test_before_the_draw_the_format_and_its_numbers_change_freely_and_nothing_asks_for_confirmation():
    sim = new_tournament(8)
    t = tournament_update(
        tournament=sim.tournament,
        data={"format": "ceros", "max_losses": 2, "games_to_win": 4, "points_per_game": 30, "tiebreaks": "wins"},
    )
    assert (t.format, t.max_losses, t.games_to_win, t.points_per_game, t.tiebreaks) == ("ceros", 2, 4, 30, "wins")
    assert draw_lock(t) is None


@pytest.mark.parametrize("field", LOCKED_AFTER_DRAW)
def test_after_the_draw_a_locked_field_is_refused_on_that_field_in_spanish_and_nothing_is_saved(field):
    sim = played()
    before = fresh(sim)
    with pytest.raises(ValidationError) as exc:
        tournament_update(tournament=sim.tournament, data={field: CHANGES[field], "name": "Otro nombre"})
    assert list(exc.value.message_dict) == [field]
    message = exc.value.message_dict[field][0]
    label = str(Tournament._meta.get_field(field).verbose_name)
    assert f"No se puede cambiar «{label[0].upper()}{label[1:]}»" in message
    assert "la primera ronda ya está sorteada" in message
    after = fresh(sim)
    assert getattr(after, field) == getattr(before, field) and after.name == before.name


def test_the_ceros_of_a_finished_tournament_cannot_undo_its_champion_even_confirmed():
    """The issue's case: a tournament a 2 ceros played to its champion; 2 → 3 ceros would give the
    runner-up its life back. Refused, confirmed or not: the champion and the status stay."""
    sim = new_tournament(5, seed=9, format=Tournament.Format.CEROS, max_losses=2)
    sim.play_all()
    champion = tournament_progress(fresh(sim)).champions
    assert fresh(sim).status == Tournament.Status.FINISHED and len(champion) == 1
    for confirm in (False, True):
        with pytest.raises(ValidationError) as exc:
            tournament_update(tournament=sim.tournament, data={"max_losses": 3}, confirm=confirm)
        assert list(exc.value.message_dict) == ["max_losses"]
    t = fresh(sim)
    assert (t.max_losses, t.status) == (2, Tournament.Status.FINISHED)
    assert tournament_progress(t).champions == champion


def test_a_prepared_round_1_already_locks_and_cancelling_it_unlocks():
    sim = new_tournament(8)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    with pytest.raises(ValidationError) as exc:
        tournament_update(tournament=sim.tournament, data={"format": Tournament.Format.SWISS, "swiss_rounds": 3})
    message = exc.value.message_dict["format"][0]
    assert "la ronda 1 ya está preparada" in message and "Anula la ronda preparada" in message
    round_cancel(round=round_)
    t = tournament_update(tournament=sim.tournament, data={"format": Tournament.Format.SWISS, "swiss_rounds": 3})
    assert t.format == Tournament.Format.SWISS


def test_the_same_values_sent_again_are_no_change():
    sim = played()
    t = fresh(sim)
    data = {name: getattr(t, name) for name in (*LOCKED_AFTER_DRAW, *CONFIRM_AFTER_DRAW)}
    data["games_to_win"] = str(t.games_to_win)  # as a form or a script may send it
    updated = tournament_update(tournament=t, data={**data, "name": "Open de primavera"})
    assert updated.name == "Open de primavera"


def test_after_the_draw_a_change_of_the_standings_asks_for_confirmation_and_saves_once_confirmed():
    sim = played()
    with pytest.raises(ConfirmationNeeded) as exc:
        tournament_update(tournament=sim.tournament, data={"tiebreaks": "wins,juegos", "name": "Nuevo"})
    assert list(exc.value.message_dict) == ["confirm"]
    [change] = exc.value.changes
    assert (change.field, change.label) == ("tiebreaks", "Orden de desempate")
    assert (change.before, change.after) == ("juegos, tantos, buchholz, head_to_head", "wins, juegos")
    assert "orden de la clasificación" in change.effect
    assert "Confírmalo para guardarlo" in exc.value.message_dict["confirm"][0]
    assert fresh(sim).name != "Nuevo"
    t = tournament_update(tournament=sim.tournament, data={"tiebreaks": "wins,juegos", "name": "Nuevo"}, confirm=True)
    assert (t.tiebreaks, t.name) == ("wins,juegos", "Nuevo")


def test_harmless_changes_and_settings_of_other_formats_need_no_confirmation():
    sim = played(format=Tournament.Format.CEROS, max_losses=2)
    t = tournament_update(
        tournament=sim.tournament,
        data={
            "name": "Otro",
            "first_table_number": 10,
            "results_double_check": True,
            "swiss_rounds": 4,  # a Swiss setting: nothing in a tournament a N ceros
            "group_qualifiers": 4,
            "tiebreaks": "juegos, tantos,buchholz,head_to_head",  # the same order, spelt otherwise
        },
    )
    assert (t.first_table_number, t.swiss_rounds) == (10, 4)


@pytest.mark.parametrize(
    ("fields", "change"),
    [
        ({"format": Tournament.Format.CEROS, "max_losses": 2}, {"same_losses": True}),
        ({"format": Tournament.Format.CEROS, "max_losses": 2}, {"points_per_win": 2}),
        ({"format": Tournament.Format.CEROS, "max_losses": 2}, {"final_phase_from_round": 4}),
        ({"format": Tournament.Format.REPESCA, "repesca_until_round": 2}, {"pool_b_max_losses": 3}),
        ({"format": Tournament.Format.REPESCA, "repesca_until_round": 2}, {"repesca_until_round": 1}),
        ({"format": Tournament.Format.REPESCA, "repesca_until_round": 1}, {"repesca_reentry_round": 4}),
        ({"format": Tournament.Format.SWISS, "swiss_rounds": 5}, {"swiss_rounds": 6}),
        ({"format": Tournament.Format.LIGUILLAS, "group_count": 2}, {"group_qualifiers": 1}),
    ],
)
def test_each_change_that_alters_standings_or_pairings_asks_for_confirmation(fields, change):
    sim = played(**fields)
    with pytest.raises(ConfirmationNeeded) as exc:
        tournament_update(tournament=sim.tournament, data=change)
    assert [c.field for c in exc.value.changes] == list(change)
    t = tournament_update(tournament=sim.tournament, data=change, confirm=True)
    assert all(getattr(t, k) == v for k, v in change.items())


def test_the_confirmation_says_what_the_change_does_to_a_decided_tournament():
    """A finished tournament: the change says it undoes the decision, and once confirmed the
    tournament is back in play (its next round can be prepared)."""
    sim = played(3, rounds=1, format=Tournament.Format.SWISS, swiss_rounds=1)
    tournament_finish_if_done(tournament_id=sim.tournament.pk)  # as the last result does
    t = fresh(sim)
    assert t.status == Tournament.Status.FINISHED
    with pytest.raises(ConfirmationNeeded) as exc:
        tournament_update(tournament=t, data={"swiss_rounds": 2})
    said = " ".join(exc.value.consequences)
    assert "su clasificación final, ya publicada, puede cambiar" in said
    assert "dejaría de estarlo: habría una ronda 2 y el torneo volvería a estar en juego" in said
    t = tournament_update(tournament=t, data={"swiss_rounds": 2}, confirm=True)
    assert t.status == Tournament.Status.RUNNING
    assert round_prepare(tournament=t, by=sim.organizer).number == 2


def test_the_confirmation_names_the_champions_a_change_would_undo():
    sim = new_tournament(8, seed=4, format=Tournament.Format.REPESCA, repesca_until_round=1, pool_b_max_losses=2)
    sim.play_all()
    champions = tournament_progress(fresh(sim)).champions
    with pytest.raises(ConfirmationNeeded) as exc:
        tournament_update(tournament=sim.tournament, data={"pool_b_max_losses": 3})
    said = " ".join(exc.value.consequences)
    a, b = champions
    assert f"Ahora el torneo está decidido (campeona del Grupo A: {a.number} · {a.name}; " in said
    assert f"campeona del Grupo B (repesca): {b.number} · {b.name}); con el cambio dejaría de estarlo" in said
    assert fresh(sim).pool_b_max_losses == 2


def test_a_confirmed_change_that_decides_the_tournament_finishes_it():
    sim = played(6, rounds=2, format=Tournament.Format.SWISS, swiss_rounds=4)
    with pytest.raises(ConfirmationNeeded) as exc:
        tournament_update(tournament=sim.tournament, data={"swiss_rounds": 2})
    assert "Con el cambio el torneo quedaría decidido" in " ".join(exc.value.consequences)
    t = tournament_update(tournament=sim.tournament, data={"swiss_rounds": 2}, confirm=True)
    assert t.status == Tournament.Status.FINISHED


def test_a_change_of_the_pairs_in_play_is_counted():
    sim = played(8, rounds=2, format=Tournament.Format.REPESCA, repesca_until_round=2, pool_b_max_losses=2)
    with pytest.raises(ConfirmationNeeded) as exc:
        tournament_update(tournament=sim.tournament, data={"pool_b_max_losses": 1})
    assert re.search(r"En la ronda 3 entrarían \d+ parejas en lugar de \d+\.", " ".join(exc.value.consequences))


def test_rounds_already_drawn_are_never_rewritten_even_confirmed():
    sim = played(8, rounds=2, format=Tournament.Format.CEROS, max_losses=3)
    for value in (1, 2):
        with pytest.raises(ValidationError) as exc:
            tournament_update(tournament=sim.tournament, data={"final_phase_from_round": value}, confirm=True)
        assert "la 3 o una posterior" in exc.value.message_dict["final_phase_from_round"][0]
    t = tournament_update(tournament=sim.tournament, data={"final_phase_from_round": 3}, confirm=True)
    finish_round(sim, publish_next(sim))
    with pytest.raises(ValidationError) as exc:
        tournament_update(tournament=t, data={"final_phase_from_round": None}, confirm=True)
    assert "ya empezaron en la ronda 3" in exc.value.message_dict["final_phase_from_round"][0]
    swiss = played(6, rounds=3, format=Tournament.Format.SWISS, swiss_rounds=5)
    with pytest.raises(ValidationError) as exc:
        tournament_update(tournament=swiss.tournament, data={"swiss_rounds": 2}, confirm=True)
    assert "Ya hay 3 rondas" in exc.value.message_dict["swiss_rounds"][0]


# --- the edit form ----------------------------------------------------------------------------------


def staff(sim: Simulation) -> Client:
    client = Client()
    client.force_login(sim.organizer)
    return client


def edit_url(sim: Simulation) -> str:
    return f"/torneos/{sim.tournament.slug}/gestion/editar/"


def test_the_form_shows_the_locked_fields_disabled_with_the_reason():
    sim = played()
    html = staff(sim).get(edit_url(sim)).content.decode()
    for name in LOCKED_AFTER_DRAW:
        tag = re.search(rf'<(?:input|select)[^>]*name="{name}"[^>]*>', html)
        assert tag and "disabled" in tag.group(0), name
    for name in ("name", "tiebreaks", "final_phase_from_round", "status"):
        tag = re.search(rf'<(?:input|select|textarea)[^>]*name="{name}"[^>]*>', html)
        assert tag and "disabled" not in tag.group(0), name
    assert html.count("Fijado: la primera ronda ya está sorteada.") == len(LOCKED_AFTER_DRAW)
    assert "La primera ronda ya está sorteada: el formato, los ceros" in html
    assert 'name="confirm"' not in html  # only in the confirmation step


def test_the_form_of_a_tournament_not_drawn_has_nothing_locked():
    sim = new_tournament(4)
    html = staff(sim).get(edit_url(sim)).content.decode()
    assert "disabled" not in html and "Fijado" not in html


def test_a_tampered_locked_field_is_ignored_by_the_form():
    sim = played()
    t = fresh(sim)
    response = staff(sim).post(edit_url(sim), form_data(t, format="swiss", swiss_rounds=3, max_losses=5))
    assert response.status_code == 302
    t = fresh(sim)
    assert (t.format, t.max_losses) == (Tournament.Format.CEROS, 1)


def test_the_form_asks_to_confirm_a_change_of_the_standings_showing_what_it_changes():
    sim = played()
    client = staff(sim)
    data = form_data(fresh(sim), tiebreaks="wins,juegos", points_per_win=2)
    response = client.post(edit_url(sim), data)
    assert response.status_code == 200
    text = text_of(response)
    assert "Confirma el cambio" in text
    assert "Orden de desempate: juegos, tantos, buchholz, head_to_head → wins, juegos" in text
    assert "Puntos por partida ganada: 1 → 2 (cambia los puntos de la clasificación)" in text
    assert 'name="confirm"' in response.content.decode()
    assert (fresh(sim).tiebreaks, fresh(sim).points_per_win) == ("juegos,tantos,buchholz,head_to_head", 1)
    response = client.post(edit_url(sim), {**data, "confirm": "on"})
    assert response.status_code == 302
    assert (fresh(sim).tiebreaks, fresh(sim).points_per_win) == ("wins,juegos", 2)


def test_the_form_saves_harmless_changes_at_once():
    sim = played()
    response = staff(sim).post(edit_url(sim), form_data(fresh(sim), venue="Casino de Madrid"))
    assert response.status_code == 302 and fresh(sim).venue == "Casino de Madrid"


# --- the API ----------------------------------------------------------------------------------------


def api_url(sim: Simulation) -> str:
    return f"/api/v1/tournaments/{sim.tournament.slug}/"


def organizer_api(sim: Simulation) -> APIClient:
    client = APIClient()
    client.force_authenticate(sim.organizer)
    return client


def test_the_api_refuses_a_locked_field_on_that_field():
    sim = played()
    response = organizer_api(sim).patch(api_url(sim), {"max_losses": 2, "confirm": True}, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["max_losses"]
    assert "No se puede cambiar «Ceros para quedar eliminado»" in response.json()["max_losses"][0]
    assert fresh(sim).max_losses == 1


def test_the_api_needs_confirm_true_for_a_change_of_the_standings():
    sim = played()
    client = organizer_api(sim)
    response = client.patch(api_url(sim), {"tiebreaks": "wins"}, format="json")
    assert response.status_code == 400
    assert "Orden de desempate: juegos, tantos, buchholz, head_to_head → wins" in response.json()["confirm"][0]
    response = client.patch(api_url(sim), {"tiebreaks": "wins", "confirm": False}, format="json")
    assert response.status_code == 400 and "confirm" in response.json()
    response = client.patch(api_url(sim), {"tiebreaks": "wins", "confirm": True}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["tiebreaks"] == "wins" and "confirm" not in response.json()
    assert client.patch(api_url(sim), {"venue": "Peña Mus"}, format="json").status_code == 200


def test_the_api_before_the_draw_changes_the_format_without_confirm():
    sim = new_tournament(4)
    response = organizer_api(sim).patch(api_url(sim), {"format": "swiss", "swiss_rounds": 3}, format="json")
    assert response.status_code == 200, response.json()
    assert Round.objects.count() == 0 and fresh(sim).format == "swiss"
