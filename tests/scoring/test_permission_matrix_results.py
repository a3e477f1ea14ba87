"""The permission matrix of results, for every role (anonymous, a user with no role, a player,
juez, mesa de control, organizer, another tournament's organizer, superuser): entering results is
for the mesa and the organizer (never the juez), adding a note to a locked result (AMM 3.18: it never changes) only for
the organizer, and confirming for the staff or a player of the losing pair (AMM 3.16) — not of the
winning one. Two actas that disagree (double check) are confirmed by nobody and decided by the
organizer or a juez (Action.RESULTS_RESOLVE), who also see the queue. A pair reports its own table's
result from its phone (issue 32) — its players, never the staff — and the other pair confirms that
report, whichever won. A pair's terminal (its private link) is one more role: the terminal of the
player's pair may do exactly what the player may; another pair's terminal, what anyone may. Enforced
on the server, pages and API alike."""

from collections.abc import Callable
from typing import Any

import pytest

from scoring.models import ResultSubmission
from scoring.services.results import result_report, result_submit
from tests.factories import UserFactory, grant
from tests.scoring import publish_next_round, world_match
from tests.torneo.matrix import Case, check_case
from tests.torneo.simulation import Simulation
from tests.world import EVERYONE, ORGANIZER, ROLES, VIEWERS_PRIVATE, World
from torneo.models import Match
from torneo.services.terminals import terminal_issue

pytestmark = pytest.mark.django_db

RESULTS = {"control", "organizer", "superuser"}  # Action.RESULTS_ENTER (the juez is not there)

# The pairs' private links as two more roles (tests/conftest.py, ``terminal_role``).
MATRIX_ROLES = [*ROLES, "terminal", "other_terminal"]
EVERYONE = EVERYONE | {"terminal", "other_terminal"}
OWN_PAIR = {"player", "terminal"}  # the player's pair: its players and its terminal


def match(w: World) -> Match:
    if not hasattr(w, "_match"):
        w._match = world_match(w)  # type: ignore[attr-defined]
    return w._match  # type: ignore[attr-defined]


def proposal(w: World, *, own_pair_loses: bool = True) -> ResultSubmission:
    """A result awaiting confirmation, entered by a mesa user outside the roles under test."""
    if not hasattr(w, "_proposal"):
        w.tournament.results_double_check = True
        w.tournament.save()
        m = match(w)
        own_is_a = m.pair_a_id == w.own_pair.pk
        a_wins = own_is_a != own_pair_loses
        mesa = grant(UserFactory(username="otra-mesa"), w.tournament, "control")
        w._proposal = result_submit(match=m, by=mesa, games_a=3 if a_wins else 1, games_b=1 if a_wins else 3)  # type: ignore[attr-defined]
    return w._proposal  # type: ignore[attr-defined]


def rivals_report(w: World, *, own_pair_wins: bool) -> ResultSubmission:
    """The result the other pair of the table reported from its own terminal (issue 32), awaiting
    the player's pair's confirmation."""
    key = f"_rivals_report_{own_pair_wins}"
    if not hasattr(w, key):
        m = match(w)
        a_wins = (m.pair_a_id == w.own_pair.pk) == own_pair_wins
        rivals = terminal_issue(pair=w.other_pair, by=w.users["organizer"]).terminal.user
        setattr(w, key, result_report(match=m, by=rivals, games_a=3 if a_wins else 1, games_b=1 if a_wins else 3))
    return getattr(w, key)  # type: ignore[no-any-return]


def disputed(w: World) -> ResultSubmission:
    """Two actas that disagree (double check, AMM 3.16), entered by two mesa users outside the
    roles under test: the first of them."""
    if not hasattr(w, "_disputed"):
        w.tournament.results_double_check = True
        w.tournament.save()
        m = match(w)
        first = result_submit(
            match=m, by=grant(UserFactory(username="mesa-a"), w.tournament, "control"), games_a=3, games_b=1
        )
        result_submit(
            match=m,
            by=grant(UserFactory(username="mesa-b"), w.tournament, "control"),
            games_a=1,
            games_b=3,
            expected_version=1,
        )
        w._disputed = first  # type: ignore[attr-defined]
    return w._disputed  # type: ignore[attr-defined]


def locked(w: World) -> Match:
    """Round 1's match once round 2's draw is published (AMM 3.18): a 3 ceros, so they meet again."""
    if not hasattr(w, "_locked"):
        w.tournament.max_losses = 3
        w.tournament.save()
        m = match(w)
        result_submit(match=m, by=w.users["organizer"], games_a=3, games_b=1)
        juez = w.users["juez"]
        sim = Simulation(w.tournament, w.users["organizer"], juez, None)  # type: ignore[arg-type]
        publish_next_round(sim)
        w._locked = m  # type: ignore[attr-defined]
    return w._locked  # type: ignore[attr-defined]


def s(w: World) -> str:
    return f"/torneos/{w.tournament.slug}"


def api(w: World) -> str:
    return f"/api/v1/tournaments/{w.tournament.slug}"


def entry(w: World) -> dict[str, Any]:
    return {"round": 1, "table": match(w).table_number, "games_a": 3, "games_b": 1, "version": 0}


def note(w: World) -> dict[str, Any]:
    return {"action": "note", "note": "Reclamación tras el sorteo: el resultado no cambia"}


CASES = [
    # --- pages of the mesa de control ---
    Case("entry page", "get", lambda w: f"{s(w)}/gestion/resultados/?ronda={match(w).round.number}", RESULTS),
    Case("enter a result", "post", lambda w: f"{s(w)}/gestion/resultados/", RESULTS, entry),
    # The queue: the mesa confirms there, the organizer and the juez decide disagreements there.
    Case("confirmation queue", "get", lambda w: f"{s(w)}/gestion/resultados/confirmar/", RESULTS | {"juez"}),
    Case("history", "get", lambda w: f"{s(w)}/gestion/resultados/partida/{match(w).pk}/", VIEWERS_PRIVATE),
    Case(
        "correct from the history",
        "post",
        lambda w: f"{s(w)}/gestion/resultados/partida/{match(w).pk}/",
        RESULTS,
        lambda w: {"outcome": "played", "games_a": 3, "games_b": 0, "version": 0},
    ),
    Case(
        "note on a locked result (AMM 3.18)",
        "post",
        lambda w: f"{s(w)}/gestion/resultados/partida/{locked(w).pk}/",
        ORGANIZER,
        note,
    ),
    Case(
        "confirmation page",
        "get",
        lambda w: f"{s(w)}/resultados/acta/{proposal(w).pk}/confirmar/",
        VIEWERS_PRIVATE | OWN_PAIR,
    ),
    Case(
        "confirm as the losing pair (AMM 3.16)",
        "post",
        lambda w: f"{s(w)}/resultados/acta/{proposal(w).pk}/confirmar/",
        RESULTS | OWN_PAIR,
    ),
    Case(
        "confirm when one's own pair won (AMM 3.16)",
        "post",
        lambda w: f"{s(w)}/resultados/acta/{proposal(w, own_pair_loses=False).pk}/confirmar/",
        RESULTS,
    ),
    Case(
        "resolve a disagreement between two actas (AMM 3.16)",
        "post",
        lambda w: f"{s(w)}/gestion/resultados/partida/{disputed(w).match_id}/",
        ORGANIZER | {"juez"},
        lambda w: {"action": "resolve", "choice": disputed(w).pk, "reason": "Visto el acta firmada"},
    ),
    Case(
        "confirm one of two actas that disagree (AMM 3.16)",
        "post",
        lambda w: f"{s(w)}/resultados/acta/{disputed(w).pk}/confirmar/",
        set(),
    ),
    Case(
        "reject as the losing pair",
        "post",
        lambda w: f"{s(w)}/resultados/acta/{proposal(w).pk}/rechazar/",
        RESULTS | OWN_PAIR,
        lambda w: {"reason": "No es lo que dice el acta"},
    ),
    # --- a pair's report from its phone (issue 32) ---
    Case("report my table's result", "post", lambda w: f"{s(w)}/partidas/{match(w).pk}/anotar/", OWN_PAIR, entry),
    Case(
        "confirm the rivals' report when one's own pair lost",
        "post",
        lambda w: f"{s(w)}/resultados/acta/{rivals_report(w, own_pair_wins=False).pk}/confirmar/",
        RESULTS | OWN_PAIR,
    ),
    Case(
        "confirm the rivals' report when one's own pair won",
        "post",
        lambda w: f"{s(w)}/resultados/acta/{rivals_report(w, own_pair_wins=True).pk}/confirmar/",
        RESULTS | OWN_PAIR,
    ),
    # --- public pages ---
    Case("results", "get", lambda w: f"{s(w)}/resultados/?ronda={match(w).round.number}", EVERYONE),
    Case("standings", "get", lambda w: f"{s(w)}/clasificacion/", EVERYONE),
    Case("classification", "get", lambda w: f"{s(w)}/clasificacion/final/", EVERYONE),
    Case("bracket", "get", lambda w: f"{s(w)}/cuadro/", EVERYONE),
    Case("results csv", "get", lambda w: f"{s(w)}/resultados/ronda-{match(w).round.number}.csv", EVERYONE),
    Case("standings csv", "get", lambda w: f"{s(w)}/clasificacion/clasificacion.csv", EVERYONE),
    # --- API ---
    Case(
        "api enter a result",
        "post",
        lambda w: f"{api(w)}/results/",
        RESULTS,
        entry,
        api=True,
    ),
    Case(
        "api table lookup (the entry page's script)",
        "get",
        lambda w: f"{api(w)}/results/lookup/?round=1&table={match(w).table_number}",
        RESULTS,
        api=True,
    ),
    Case(
        "api enter a result declared from the mesa de control",
        "post",
        lambda w: f"{api(w)}/results/",
        RESULTS,
        lambda w: {**entry(w), "source": "control"},
        api=True,
    ),
    Case(
        "api tables missing an acta",
        "get",
        lambda w: f"{api(w)}/results/pending/?round={match(w).round.number}",
        RESULTS,
        api=True,
    ),
    Case("api history", "get", lambda w: f"{api(w)}/results/{match(w).pk}/history/", VIEWERS_PRIVATE, api=True),
    Case(
        "api note on a locked result (AMM 3.18)",
        "post",
        lambda w: f"{api(w)}/results/{locked(w).pk}/note/",
        ORGANIZER,
        note,
        api=True,
    ),
    Case(
        "api confirm as the losing pair (AMM 3.16)",
        "post",
        lambda w: f"{api(w)}/submissions/{proposal(w).pk}/confirm/",
        RESULTS | OWN_PAIR,
        api=True,
    ),
    Case(
        "api confirm when one's own pair won",
        "post",
        lambda w: f"{api(w)}/submissions/{proposal(w, own_pair_loses=False).pk}/confirm/",
        RESULTS,
        api=True,
    ),
    Case(
        "api reject as the losing pair",
        "post",
        lambda w: f"{api(w)}/submissions/{proposal(w).pk}/reject/",
        RESULTS | OWN_PAIR,
        lambda w: {"reason": "No"},
        api=True,
    ),
    Case(
        "api report my table's result",
        "post",
        lambda w: f"{api(w)}/submissions/report/",
        OWN_PAIR,
        lambda w: {"match": match(w).pk, "games_a": 3, "games_b": 1},
        api=True,
    ),
    Case(
        "api confirm the rivals' report",
        "post",
        lambda w: f"{api(w)}/submissions/{rivals_report(w, own_pair_wins=True).pk}/confirm/",
        RESULTS | OWN_PAIR,
        api=True,
    ),
    Case("api results", "get", lambda w: f"{api(w)}/results/?round={match(w).round.number}", EVERYONE, api=True),
    Case("api standings", "get", lambda w: f"{api(w)}/standings/", EVERYONE, api=True),
]


@pytest.mark.parametrize("role", MATRIX_ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_permission_matrix_of_results(
    world: World, terminal_role: Callable[[str], None], case: Case, role: str
) -> None:
    terminal_role(role)
    check_case(world, case, role)


def test_the_juez_cannot_enter_results_but_sees_the_history(world: World) -> None:
    from django.test import Client

    client = Client()
    client.force_login(world.users["juez"])
    assert client.post(f"{s(world)}/gestion/resultados/", entry(world)).status_code == 403
    assert client.get(f"{s(world)}/gestion/resultados/partida/{match(world).pk}/").status_code == 200
    assert not ResultSubmission.objects.exists()


def test_refused_writes_write_nothing(world: World) -> None:
    """After every refused role, the match is as it was."""
    for role in ROLES:
        if role in RESULTS:
            continue
        check_case(world, CASES[1], role)
    assert not ResultSubmission.objects.exists() and match(world).outcome == Match.Outcome.PENDING
