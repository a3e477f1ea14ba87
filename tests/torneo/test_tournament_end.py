"""The tournament ends: when the format says it is decided (a champion in an elimination format, the
Swiss's last round or the bracket's final played, every result in) it is finished, «Preparar la
ronda N+1» is no longer offered, and its page leads to the final classification. When few pairs are
left in a tournament a N ceros, the rounds page suggests the rondas finales (AMM 5.8.d: no
suplencias there) instead of a long tail of one-to-three-table rounds."""

import math

import pytest
from django.test import Client

from scoring.services.results import result_submit
from tests.torneo.simulation import Simulation, new_tournament
from tests.torneo.test_round_views import finish_round, publish_next, staff_client, text_of, url
from tests.torneo.test_tournament_locks import form_data
from torneo.errors import TournamentError
from torneo.models import Match, Round, Tournament
from torneo.selectors.rounds import FINAL_ROUNDS_SUGGESTED_AT, tournament_progress
from torneo.services.rounds import round_prepare, tournament_finish_if_done

pytestmark = pytest.mark.django_db

SUGGESTION = "AMM 5.8.d: en las rondas finales no se admiten suplencias"


def status(sim: Simulation) -> str:
    return Tournament.objects.get(pk=sim.tournament.pk).status


def results_one_by_one(sim: Simulation, round_: Round) -> list[bool]:
    """Enter the round's results, each followed by the results service's hook (called here, in case
    the service does not call it yet): whether the tournament is finished after each."""
    finished = []
    for match in round_.matches.filter(outcome=Match.Outcome.PENDING).select_related("round__tournament"):
        sim.enter_result(match)
        tournament_finish_if_done(tournament_id=sim.tournament.pk)
        finished.append(status(sim) == Tournament.Status.FINISHED)
    return finished


def decide_without_the_hook(round_: Round) -> None:
    """Every result of the round written straight on the matches (pair A wins), as if the results
    service did not call the hook: the tournament is decided but not yet finished."""
    for match in round_.matches.filter(outcome=Match.Outcome.PENDING):
        Match.objects.filter(pk=match.pk).update(
            outcome=Match.Outcome.PLAYED, games_a=3, games_b=0, winner_id=match.pair_a_id
        )


def play_with_the_hook(sim: Simulation) -> None:
    """Every round until the hook finishes the tournament, with its last result and not before."""
    for _ in range(30):
        finished = results_one_by_one(sim, publish_next(sim))
        assert not any(finished[:-1])
        if finished and finished[-1]:
            return
    raise AssertionError("the tournament never finished")


# --- the service -------------------------------------------------------------------------------------


def test_a_knockout_finishes_with_the_last_result_of_its_final_and_not_before():
    sim = new_tournament(4, format=Tournament.Format.CEROS, max_losses=1)
    assert results_one_by_one(sim, publish_next(sim)) == [False, False]
    assert status(sim) == Tournament.Status.RUNNING
    assert results_one_by_one(sim, publish_next(sim)) == [True]
    assert not tournament_finish_if_done(tournament_id=sim.tournament.pk)  # once


def test_a_tournament_a_n_ceros_finishes_when_one_pair_is_left():
    sim = new_tournament(6, seed=5, format=Tournament.Format.CEROS, max_losses=2)
    play_with_the_hook(sim)
    progress = tournament_progress(sim.tournament)
    [champion] = progress.champions
    assert progress.done and progress.alive == 0 and champion.title == ""
    assert Match.objects.filter(round__tournament=sim.tournament, winner__number=champion.number).exists()


def test_a_swiss_finishes_when_its_last_round_has_every_result():
    sim = new_tournament(6, seed=2, format=Tournament.Format.SWISS, swiss_rounds=2)
    assert results_one_by_one(sim, publish_next(sim)) == [False] * 3
    last = publish_next(sim)
    *before_last, at_last = results_one_by_one(sim, last)
    assert not any(before_last) and at_last
    assert tournament_progress(sim.tournament).champions == ()  # the classification says who won


def test_liguillas_and_bracket_finish_with_the_final():
    sim = new_tournament(8, seed=3, format=Tournament.Format.LIGUILLAS, group_count=2, group_qualifiers=2)
    play_with_the_hook(sim)
    assert Round.objects.filter(tournament=sim.tournament).last().phase == Round.Phase.BRACKET
    assert len(tournament_progress(sim.tournament).champions) == 1


def test_a_repesca_without_reentry_finishes_when_both_groups_have_their_champion():
    sim = new_tournament(8, seed=4, format=Tournament.Format.REPESCA, repesca_until_round=1, pool_b_max_losses=2)
    play_with_the_hook(sim)
    titles = [c.title for c in tournament_progress(sim.tournament).champions]
    assert titles == ["Grupo A", "Grupo B (repesca)"]


def test_nothing_finishes_a_draft_or_a_tournament_without_rounds_or_with_a_prepared_round():
    sim = new_tournament(4)
    assert not tournament_finish_if_done(tournament_id=sim.tournament.pk)
    round_prepare(tournament=sim.tournament, by=sim.organizer)
    assert not tournament_finish_if_done(tournament_id=sim.tournament.pk)
    assert status(sim) == Tournament.Status.RUNNING


def test_preparing_a_round_after_the_last_one_finishes_the_tournament_and_says_it_is_decided():
    sim = new_tournament(2)
    decide_without_the_hook(publish_next(sim))
    assert status(sim) == Tournament.Status.RUNNING
    for _ in range(2):
        with pytest.raises(TournamentError, match="ya está decidido") as exc:
            round_prepare(tournament=sim.tournament, by=sim.organizer)
        assert exc.value.code == "decided"
        assert status(sim) == Tournament.Status.FINISHED


def test_a_tournament_finished_by_hand_before_its_end_says_so():
    sim = new_tournament(4, format=Tournament.Format.CEROS, max_losses=2)
    finish_round(sim, publish_next(sim))
    Tournament.objects.filter(pk=sim.tournament.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(TournamentError, match="ha terminado") as exc:
        round_prepare(tournament=sim.tournament, by=sim.organizer)
    assert exc.value.code == "finished"


def test_the_hook_inside_the_results_transaction_finishes_with_it():
    """As the results service will call it: inside its transaction, after the result is written."""
    from django.db import transaction

    sim = new_tournament(2)
    (match,) = publish_next(sim).matches.all()
    with transaction.atomic():
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
        tournament_finish_if_done(tournament_id=sim.tournament.pk)
        assert status(sim) == Tournament.Status.FINISHED
    assert status(sim) == Tournament.Status.FINISHED


# --- the pages ---------------------------------------------------------------------------------------


def test_once_decided_the_rounds_page_finishes_it_and_offers_no_next_round_but_the_classification():
    sim = new_tournament(4, format=Tournament.Format.CEROS, max_losses=1)
    finish_round(sim, publish_next(sim))
    page = staff_client(sim).get(url(sim, "gestion/rondas/"))
    assert "Preparar la ronda 2" in text_of(page)
    final = publish_next(sim)
    decide_without_the_hook(final)
    page = staff_client(sim).get(url(sim, "gestion/rondas/"))
    text = text_of(page)
    assert status(sim) == Tournament.Status.FINISHED
    assert "El torneo ha terminado" in text and "Preparar la ronda" not in text
    champion = final.matches.get().winner
    assert f"Campeona: {champion.number} · {champion.display_name}" in text
    assert f'href="/torneos/{sim.tournament.slug}/clasificacion/final/"' in page.content.decode()


def test_preparing_after_the_end_through_the_page_says_it_is_decided():
    sim = new_tournament(2)
    decide_without_the_hook(publish_next(sim))
    response = staff_client(sim).post(url(sim, "gestion/rondas/preparar/"))
    assert response.status_code == 400
    text = text_of(response)
    assert "El torneo ya está decidido: no hay más rondas." in text and "Preparar la ronda" not in text


def test_a_finished_tournaments_page_leads_with_its_final_classification():
    sim = new_tournament(4, format=Tournament.Format.CEROS, max_losses=1)
    page = Client().get(url(sim, ""))
    assert "Clasificación final" not in text_of(page)
    finish_round(sim, publish_next(sim))
    final = publish_next(sim)
    finish_round(sim, final)
    tournament_finish_if_done(tournament_id=sim.tournament.pk)
    page = Client().get(url(sim, ""))
    html, text = page.content.decode(), text_of(page)
    assert html.index("Clasificación final") < html.index("Reglamento")  # before the tournament's facts
    champion = final.matches.get().winner
    assert f"Campeona: {champion.number} · {champion.display_name}" in text
    assert f'href="/torneos/{sim.tournament.slug}/clasificacion/final/"' in html
    assert Client().get(f"/torneos/{sim.tournament.slug}/clasificacion/final/").status_code == 200
    home = Client().get("/").content.decode()
    assert f'href="/torneos/{sim.tournament.slug}/clasificacion/final/"' in home


def test_the_public_page_shows_the_champion_as_soon_as_the_final_counts_before_any_staff_page():
    """Issue 34: «Terminado» and the champion appeared only after a staff member opened Gestión
    (which finishes the tournament). The public page says it once the deciding result counts."""
    sim = new_tournament(4, format=Tournament.Format.CEROS, max_losses=1)
    finish_round(sim, publish_next(sim))
    final = publish_next(sim)
    text = text_of(Client().get(url(sim, "")))
    assert "En juego" in text and "Terminado" not in text and "Campeona" not in text
    for match in final.matches.filter(outcome=Match.Outcome.PENDING):
        sim.enter_result(match)  # the results service, as the mesa or the pairs' phones
    assert status(sim) == Tournament.Status.RUNNING  # nobody of the staff has opened a page
    text = text_of(Client().get(url(sim, "")))
    champion = final.matches.get().winner
    assert "Terminado" in text and "En juego" not in text
    assert f"Campeona: {champion.number} · {champion.display_name}" in text


def test_the_dashboard_finishes_a_decided_tournament_and_links_its_classification():
    sim = new_tournament(2)
    decide_without_the_hook(publish_next(sim))
    assert status(sim) == Tournament.Status.RUNNING
    text = text_of(staff_client(sim).get(url(sim, "gestion/")))
    assert "El torneo ha terminado: su clasificación es la final." in text
    assert status(sim) == Tournament.Status.FINISHED


# --- the rondas finales (AMM 5.8.d) ------------------------------------------------------------------


def test_few_pairs_left_suggest_the_rondas_finales_which_end_the_long_tail_amm_5_8_d():
    """The issue's case: 23 pairs a 2 ceros. Once at most 8 pairs are left, the rounds page suggests
    the rondas finales from the next round, saying that no suplencias are admitted there; following
    it (the form's confirmation included), the tournament ends in a fixed bracket."""
    sim = new_tournament(23, seed=23, format=Tournament.Format.CEROS, max_losses=2)
    client = staff_client(sim)
    while True:
        page = text_of(client.get(url(sim, "gestion/rondas/")))
        alive = tournament_progress(sim.tournament).alive
        if SUGGESTION in page:
            break
        assert sim.rounds == [] or alive > FINAL_ROUNDS_SUGGESTED_AT
        sim.play_round()
    number = len(sim.rounds) + 1
    assert 2 <= alive <= FINAL_ROUNDS_SUGGESTED_AT
    assert f"Quedan {alive} parejas en juego" in page
    assert f"Declarar las rondas finales desde la ronda {number}" in page
    form = client.get(url(sim, f"gestion/editar/?rondas_finales={number}"))
    assert f'name="final_phase_from_round" value="{number}"' in form.content.decode()
    data = form_data(Tournament.objects.get(pk=sim.tournament.pk), final_phase_from_round=number)
    asked = client.post(url(sim, "gestion/editar/"), data)
    assert "Confirma el cambio" in text_of(asked) and "sin suplentes (AMM 5.8.d)" in text_of(asked)
    assert client.post(url(sim, "gestion/editar/"), {**data, "confirm": "on"}).status_code == 302
    assert SUGGESTION not in text_of(client.get(url(sim, "gestion/rondas/")))
    sim.tournament.refresh_from_db()
    sim.play_all()
    finals = Round.objects.filter(tournament=sim.tournament, number__gte=number).order_by("number")
    assert len(finals) == math.ceil(math.log2(alive))  # the bracket: halves every round
    assert all(r.is_final for r in finals)
    assert not Round.objects.filter(tournament=sim.tournament, number__lt=number, is_final=True).exists()


def test_no_suggestion_with_many_pairs_left_in_other_formats_or_with_results_missing_amm_5_8_d():
    many = new_tournament(2 * FINAL_ROUNDS_SUGGESTED_AT + 2, format=Tournament.Format.CEROS, max_losses=2)
    finish_round(many, publish_next(many))
    assert SUGGESTION not in text_of(staff_client(many).get(url(many, "gestion/rondas/")))
    swiss = new_tournament(6, format=Tournament.Format.SWISS, swiss_rounds=3)
    finish_round(swiss, publish_next(swiss))
    assert SUGGESTION not in text_of(staff_client(swiss).get(url(swiss, "gestion/rondas/")))
    few = new_tournament(6, format=Tournament.Format.CEROS, max_losses=3)
    round_ = publish_next(few)
    assert SUGGESTION not in text_of(staff_client(few).get(url(few, "gestion/rondas/")))  # results missing
    finish_round(few, round_)
    assert SUGGESTION in text_of(staff_client(few).get(url(few, "gestion/rondas/")))


def test_the_mesa_de_control_sees_the_suggestion_without_the_link_amm_5_8_d():
    from tests.factories import UserFactory, grant

    sim = new_tournament(6, format=Tournament.Format.CEROS, max_losses=2)
    finish_round(sim, publish_next(sim))
    control = Client()
    control.force_login(grant(UserFactory(), sim.tournament, "control"))
    text = text_of(control.get(url(sim, "gestion/rondas/")))
    assert SUGGESTION in text and "Solo la organización puede declararlas" in text
    assert "Declarar las rondas finales" not in text
