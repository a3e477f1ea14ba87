"""The demo circuit (issue 35): three finished tournaments of one season — a knockout, a 2 ceros and
a Swiss — with ten pairs who played all three, their players' registrations linked to their
accounts (as they would link them themselves), so that the ranking shows people across
tournaments; the other pairs played one. Deterministic and safe to build twice (looked up first).

Called by the demo command (torneo/management/commands/demo.py) through CircuitsConfig.demo_hooks,
so that torneo imports nothing of this app."""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction

from circuits.models import Circuit
from circuits.ratings import ratings_recompute
from circuits.services import circuit_create, circuit_tournament_add
from scoring.services.results import result_submit
from torneo.demo.build import demo_players
from torneo.errors import TournamentError
from torneo.models import Match, Player, Round, Tournament, TournamentRole
from torneo.services.registrations import pair_check_in, pair_register
from torneo.services.rounds import draw_publish, live_draw, round_prepare, round_publish, tournament_finish_if_done
from torneo.services.tournaments import session_save, tournament_create

CIRCUIT_SLUG = "circuito-de-mus-de-madrid-2026"
MADRID = ZoneInfo("Europe/Madrid")
REGULARS = 10  # pairs who play every tournament of the season

TOURNAMENTS: tuple[tuple[str, str, int, dict[str, object]], ...] = (
    (
        "Torneo de Otoño de Chamberí",
        "otono-chamberi-2026",
        16,
        {"format": Tournament.Format.CEROS, "max_losses": 1},
    ),
    (
        "Open de Alcalá de Henares",
        "open-alcala-2026",
        16,
        {"format": Tournament.Format.CEROS, "max_losses": 2, "same_losses": True},
    ),
    (
        "Torneo de Navidad de Getafe",
        "navidad-getafe-2026",
        14,
        {"format": Tournament.Format.SWISS, "swiss_rounds": 4},
    ),
)


def build_circuit_demo(users: dict[str, User]) -> Circuit:
    """The season's circuit with its three tournaments played to their champion."""
    circuit = Circuit.objects.filter(slug=CIRCUIT_SLUG).first()
    if circuit is not None:
        return circuit
    organizer, juez = users["organizador"], users["juez"]
    rng = random.Random(35)
    regulars = demo_players(random.Random(350), 2 * REGULARS)
    accounts = [_account(f"circuito-{n:02d}") for n in range(1, 2 * REGULARS + 1)]
    with transaction.atomic():
        circuit = circuit_create(
            by=organizer,
            name="Circuito de Mus de Madrid",
            season="2026",
            points_table="100, 80, 65, 55, 50, 45, 40, 36, 32, 29, 26, 24, 22, 20, 18, 16",
            best_of=2,
            final_spots=8,
            description="Tres torneos abiertos; cuentan los dos mejores resultados de cada pareja. "
            "Las ocho primeras parejas juegan el Máster.",
        )
        circuit.slug = CIRCUIT_SLUG
        circuit.save(update_fields=["slug"])
    for index, (name, slug, pairs, fields) in enumerate(TOURNAMENTS):
        tournament = _tournament(name, slug, date.today() - timedelta(days=70 - 28 * index), fields, users)
        others = demo_players(random.Random(3500 + index), 2 * (pairs - REGULARS))
        order = list(range(REGULARS))
        rng.shuffle(order)
        for k in order:
            pair = pair_register(tournament=tournament, players=regulars[2 * k : 2 * k + 2])
            for member, account in zip(pair.ordered_members(), accounts[2 * k : 2 * k + 2], strict=True):
                Player.objects.filter(pk=member.player_id).update(user=account)
            pair_check_in(pair=pair)
        for i in range(pairs - REGULARS):
            pair_check_in(pair=pair_register(tournament=tournament, players=others[2 * i : 2 * i + 2]))
        _play(tournament, organizer=organizer, juez=juez, rng=rng)
        circuit_tournament_add(circuit=circuit, tournament=tournament, by=organizer)
    ratings_recompute()  # now, not when a worker gets to it: the demo shows them at once
    return circuit


def _account(username: str) -> User:
    """A player's account, only as the identity their registrations are linked to (no password:
    nobody signs in with it in the demo)."""
    user, created = User.objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def _tournament(name: str, slug: str, day: date, fields: dict[str, object], users: dict[str, User]) -> Tournament:
    tournament = tournament_create(
        by=users["organizador"],
        data={
            "name": name,
            "slug": slug,
            "venue": "Madrid",
            "start_date": day,
            "end_date": day,
            "status": Tournament.Status.REGISTRATION_CLOSED,
            **fields,
        },
    )
    session_save(
        tournament=tournament,
        name="Jornada única",
        courtesy_minutes=10,
        starts_at=datetime.combine(day, time(10, 0), tzinfo=MADRID),
    )
    TournamentRole.objects.get_or_create(tournament=tournament, user=users["juez"], role=TournamentRole.Role.JUEZ)
    return tournament


def _play(tournament: Tournament, *, organizer: User, juez: User, rng: random.Random) -> None:
    for _ in range(20):
        try:
            round_ = round_prepare(tournament=tournament, by=organizer)
        except TournamentError as exc:
            if exc.code == "decided":
                break
            raise
        if round_.kind == Round.Kind.DRAW:
            value = f"{rng.randint(1, 6)}{rng.randint(1, 6)}{rng.randint(1, 6)}"
            draw_publish(draw=live_draw(round_), public_value=value, witness=juez, by=organizer)
        else:
            round_publish(round=round_, by=organizer)
        for match in round_.matches.filter(outcome=Match.Outcome.PENDING).select_related("round__tournament"):
            loser = rng.choice((0, 1, 1, 2, 2))
            games = (3, loser) if rng.random() < 0.5 else (loser, 3)
            result_submit(match=match, by=organizer, games_a=games[0], games_b=games[1])
    tournament_finish_if_done(tournament_id=tournament.pk)
