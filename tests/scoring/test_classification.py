"""The final classification for prizes, for every format, with ties resolved as the tournament's
rules say; and a 128-pair tournament played from the first draw to the final classification with
its results entered through the mesa's page and the API."""

import itertools
import random

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.selectors import standings as selectors
from scoring.services.results import result_submit
from tests.factories import UserFactory, grant
from tests.scoring import desk_body, expel, playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo import snapshot
from torneo.errors import TournamentError
from torneo.models import Match, Pair, Round, Tournament
from torneo.services.registrations import pair_withdraw
from torneo.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db


def places(t: Tournament) -> dict[int, tuple[int, int, str]]:
    """pair id -> (position, position_to, stage) of the first section."""
    result = selectors.classification(Tournament.objects.get(pk=t.pk))
    return {r.pair.id: (r.position, r.position_to, r.status) for r in result.sections[0].rows}


def knockout_of_four(tiebreaks: str):
    sim = new_tournament(4, seed=3, format=Tournament.Format.CEROS, max_losses=1, tiebreaks=tiebreaks)
    semis = playing(publish_next_round(sim))
    for m in semis:
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=0)
    (final,) = playing(publish_next_round(sim))
    result_submit(match=final, by=sim.organizer, games_a=3, games_b=2)
    return sim, semis, final


def test_knockout_semifinal_losers_share_third_place_when_the_tiebreaks_do_not_separate_them():
    sim, semis, final = knockout_of_four("wins")
    got = places(sim.tournament)
    assert got[final.pair_a_id] == (1, 1, "champion")
    assert got[final.pair_b_id] == (2, 2, "out")
    assert got[semis[0].pair_b_id] == got[semis[1].pair_b_id] == (3, 4, "out")
    assert selectors.classification(Tournament.objects.get(pk=sim.tournament.pk)).final


def test_knockout_third_place_by_buchholz_with_the_default_order():
    sim, semis, final = knockout_of_four("juegos,tantos,buchholz,head_to_head")
    got = places(sim.tournament)
    beaten_by_champion = next(m.pair_b_id for m in semis if m.pair_a_id == final.pair_a_id)
    beaten_by_finalist = next(m.pair_b_id for m in semis if m.pair_a_id == final.pair_b_id)
    assert got[beaten_by_champion][:2] == (3, 3) and got[beaten_by_finalist][:2] == (4, 4)


def test_a_tres_ceros_classification_follows_the_round_of_elimination():
    sim = new_tournament(12, seed=8, format=Tournament.Format.CEROS, max_losses=3)
    sim.play_all()
    t = Tournament.objects.get(pk=sim.tournament.pk)
    states = selectors.survivals(snapshot.load(t))
    rows = selectors.classification(t).sections[0].rows
    assert rows[0].status == "champion" and states[rows[0].pair.number].champion
    out_rounds = [states[r.pair.number].out_round for r in rows[1:]]
    assert out_rounds == sorted(out_rounds, reverse=True)  # later elimination, better place
    assert all(r.position <= s.position for r, s in itertools.pairwise(rows))


def test_swiss_classification_is_the_standings_order():
    sim = new_tournament(10, seed=9, format=Tournament.Format.SWISS, swiss_rounds=4)
    sim.play_all()
    t = Tournament.objects.get(pk=sim.tournament.pk)
    table = selectors.standings(t).tables[0].rows
    rows = selectors.classification(t).sections[0].rows
    assert [(r.pair.id, r.position, r.position_to) for r in rows] == [
        (r.pair.id, r.position, r.position_to) for r in table
    ]


def test_groups_classification_puts_the_bracket_first_then_the_liguilla_positions():
    sim = new_tournament(12, seed=10, format=Tournament.Format.LIGUILLAS, group_count=3, group_qualifiers=2)
    sim.play_all()
    t = Tournament.objects.get(pk=sim.tournament.pk)
    rows = selectors.classification(t).sections[0].rows
    bracket_pairs = {
        p
        for m in Match.objects.filter(round__tournament=t, round__phase=Round.Phase.BRACKET)
        for p in (m.pair_a_id, m.pair_b_id)
        if p
    }
    assert len(bracket_pairs) == 6
    assert {r.pair.id for r in rows[:6]} == bracket_pairs and rows[0].status == "champion"
    assert [r.status for r in rows[6:]] == ["group"] * 6
    assert [r.status_label for r in rows[6:9]] == ["3.ª de su liguilla"] * 3


def test_repesca_without_reentry_classifies_grupo_b_on_its_own():
    sim = new_tournament(
        16, seed=11, format=Tournament.Format.REPESCA, repesca_until_round=1, max_losses=1, pool_b_max_losses=2
    )
    sim.play_all()
    result = selectors.classification(Tournament.objects.get(pk=sim.tournament.pk))
    assert [s.title for s in result.sections] == ["Grupo A", "Grupo B (repesca)"]
    assert [r.status for r in result.sections[0].rows].count("champion") == 1
    assert [r.status for r in result.sections[1].rows].count("champion") == 1
    assert sum(len(s.rows) for s in result.sections) == 16


def test_repesca_with_reentry_has_a_single_classification():
    sim = new_tournament(
        16,
        seed=12,
        format=Tournament.Format.REPESCA,
        repesca_until_round=1,
        max_losses=1,
        pool_b_max_losses=2,
        repesca_reentry_round=3,
    )
    sim.play_all()
    result = selectors.classification(Tournament.objects.get(pk=sim.tournament.pk))
    assert len(result.sections) == 1 and len(result.sections[0].rows) == 16


def test_withdrawn_pairs_keep_their_place_expelled_pairs_get_none_amm_3_16_b():
    sim = new_tournament(8, seed=13, format=Tournament.Format.CEROS, max_losses=2)
    sim.play_round()
    pairs = list(Pair.objects.filter(tournament=sim.tournament).order_by("number"))
    pair_withdraw(pair=pairs[0], reason="Se marchan")
    expel(pairs[1])
    sim.play_all()
    result = selectors.classification(Tournament.objects.get(pk=sim.tournament.pk))
    classified = {r.pair.id: r for r in result.sections[0].rows}
    assert pairs[1].pk not in classified and [p.id for p in result.excluded] == [pairs[1].pk]
    assert classified[pairs[0].pk].status in ("withdrawn", "out")
    html = Client().get(f"/torneos/{sim.tournament.slug}/clasificacion/final/").content.decode()
    assert "Expulsada (AMM 3.16.b)" in html


def test_the_classification_is_provisional_until_the_tournament_is_decided():
    sim = new_tournament(8, seed=14, format=Tournament.Format.CEROS, max_losses=1)
    sim.play_round()
    t = Tournament.objects.get(pk=sim.tournament.pk)
    assert not selectors.classification(t).final
    html = Client().get(f"/torneos/{t.slug}/clasificacion/final/").content.decode()
    assert "Provisional: el torneo sigue en juego." in html
    tournament_update(tournament=t, data={"status": Tournament.Status.FINISHED})
    assert selectors.classification(Tournament.objects.get(pk=t.pk)).final


def next_round_or_none(sim):
    try:
        return publish_next_round(sim)
    except TournamentError as exc:
        if exc.code == "decided":
            return None
        raise


@pytest.mark.slow
def test_128_pairs_from_the_first_draw_to_the_final_classification_through_the_pages_and_the_api():
    """The mesa enters the actas of even tables on its page (as its script does: the API with the
    browser's session, the winner by side, source "control") and a second desk the odd ones through
    the API with a token's client; one double loss (AMM 6.5.b) and one walkover (6.1.b) on the way;
    the rondas finales from round 5 follow a fixed bracket (5.8.d)."""
    sim = new_tournament(128, seed=128, format=Tournament.Format.CEROS, max_losses=1, final_phase_from_round=5)
    t = sim.tournament
    page = APIClient()  # the entry page's script, with the browser's session
    page.force_login(grant(UserFactory(username="mesa-pagina"), t, "control"))
    api = APIClient()
    api.force_authenticate(grant(UserFactory(username="mesa-api"), t, "control"))
    rng = random.Random(128)
    results = f"/api/v1/tournaments/{t.slug}/results/"
    for number in range(1, 20):
        round_ = next_round_or_none(sim)
        if round_ is None:  # the format says the tournament is decided
            break
        state = page.get(f"{results}pending/", {"round": round_.number}).json()
        for i, missing in enumerate(state["missing"]):
            loser = rng.randint(0, 2)
            a_wins = rng.random() < 0.5
            body = {"round": round_.number, "table": missing["table"], "version": 0}
            if number == 2 and i == 0:
                body |= {"outcome": "double_loss", "games_a": 2, "games_b": 2}
            elif number == 3 and i == 0:
                body |= {"outcome": "walkover", "winner": "b"}
            else:
                body |= {"games_a": 3 if a_wins else loser, "games_b": loser if a_wins else 3}
            if missing["table"] % 2 == 0:
                sent, _errors = desk_body(round_, body)
                response = page.post(results, sent, format="json")
                assert response.status_code == 201, response.content
                assert response.json()["source"] == "control"
            else:
                if body.get("winner") == "b":
                    m = Match.objects.get(round=round_, table_number=missing["table"])
                    body["winner"] = m.pair_b.number
                response = api.post(results, body, format="json")
                assert response.status_code == 201, response.content
        assert page.get(f"{results}pending/", {"round": round_.number}).json()["missing"] == []
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    assert [r.is_final for r in rounds][-3:] == [True, True, True] and rounds[-1].kind == Round.Kind.BRACKET
    final = rounds[-1].matches.get()
    classification = api.get(f"/api/v1/tournaments/{t.slug}/classification/").json()
    rows = classification["sections"][0]["rows"]
    assert classification["final"] and len(rows) == 128
    champion = final.winner.number
    runner_up = (final.pair_a if final.winner_id == final.pair_b_id else final.pair_b).number
    assert (rows[0]["pair"]["number"], rows[0]["status"]) == (champion, "champion")
    assert rows[1]["pair"]["number"] == runner_up
    assert [r["position"] for r in rows] == sorted(r["position"] for r in rows)
    html = Client().get(f"/torneos/{t.slug}/clasificacion/final/").content.decode()
    assert "Clasificación definitiva para los premios." in html and html.count('class="sc-pos"') == 128
    bracket = Client().get(f"/torneos/{t.slug}/cuadro/").content.decode()
    assert "Campeona:" in bracket
    standings = api.get(f"/api/v1/tournaments/{t.slug}/standings/").json()
    assert standings["tables"][0]["champion"]["number"] == champion
    double_loss = Match.objects.get(round__tournament=t, outcome=Match.Outcome.DOUBLE_LOSS)
    assert (
        double_loss.round.number == 2
        and not Match.objects.filter(
            round__tournament=t, round__number=3, pair_a__in=[double_loss.pair_a, double_loss.pair_b]
        ).exists()
    )
