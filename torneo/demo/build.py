"""The demo tournament: realistic, deterministic, and safe to build twice (it is looked up first)."""

import json
import random
import secrets
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.models import Group, Permission, User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from referees.models import Sanction
from referees.services.incidents import incident_report
from referees.services.sanctions import sanction_give
from referees.services.substitutes import substitute_authorise
from scoring.services.clocks import (
    clock_absence,
    clock_juego,
    clock_tantos,
    clock_warning,
    clocks_start_round,
    clocks_tick,
)
from scoring.services.results import result_confirm, result_submit
from torneo.demo.names import CLUBS, FIRST_NAMES, SURNAMES
from torneo.models import EmailSubscription, Match, Pair, Player, Round, Tournament, TournamentRole
from torneo.services.accounts import (
    InvalidCode,
    InvalidLink,
    invitation_create,
    invitation_find,
    pair_accounts,
    player_code_verify,
    player_codes_issue,
)
from torneo.services.registrations import PlayerData, pair_check_in, pair_register
from torneo.services.rounds import draw_publish, live_draw, round_prepare
from torneo.services.terminals import InvalidTerminalLink, terminal_find, terminal_issue
from torneo.services.tournaments import session_save, tournament_create, tournament_update

DEMO_SLUG = "open-mus-madrid"
RUNNING_SLUG = "campeonato-madrid-parejas"
ORGANIZERS_GROUP = "Organizadores"
MADRID = ZoneInfo("Europe/Madrid")


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    role: str


def _logins_file() -> Path:
    return Path(settings.VAR_DIR) / "demo-logins.json"


def _user(username: str, role: str, stored: dict[str, str], **extra: object) -> DemoLogin:
    password = stored.get(username) or secrets.token_urlsafe(9)
    user, created = User.objects.get_or_create(username=username, defaults=extra)
    if created or not user.check_password(password):
        user.set_password(password)
        for key, value in extra.items():
            setattr(user, key, value)
        user.save()
    return DemoLogin(username, password, role)


def demo_players(rng: random.Random, count: int) -> list[PlayerData]:
    players, seen = [], set()
    while len(players) < count:
        first = rng.choice(FIRST_NAMES)
        last = f"{rng.choice(SURNAMES)} {rng.choice(SURNAMES)}"
        if (first, last) in seen:
            continue
        seen.add((first, last))
        phone = f"6{rng.randrange(10**7, 10**8):08d}"
        email = f"{first.split()[0].lower()}.{last.split()[0].lower()}{rng.randrange(100)}@example.com"
        email = email.translate(str.maketrans("áéíóúñ", "aeioun"))
        players.append(PlayerData(first, last, phone=phone, email=email, club=rng.choice(CLUBS)))
    return players


@transaction.atomic
def build_demo(*, pairs: int = 56, waitlisted: int = 3, checked_in: int = 52) -> tuple[Tournament, list[DemoLogin]]:
    stored: dict[str, str] = {}
    if _logins_file().exists():
        stored = json.loads(_logins_file().read_text())
    organizers, _ = Group.objects.get_or_create(name=ORGANIZERS_GROUP)
    organizers.permissions.add(Permission.objects.get(codename="add_tournament"))
    logins = [
        _user("admin", "superusuario (todo, y /admin/)", stored, is_staff=True, is_superuser=True),
        _user("organizador", "organización del torneo de demostración", stored),
        _user("mesa", "mesa de control", stored),
        _user("juez", "juez", stored),
        _user("jugador", "jugador (pareja 1)", stored),
    ]
    _logins_file().write_text(json.dumps({login.username: login.password for login in logins}, indent=1))
    _logins_file().chmod(0o600)
    users = {login.username: User.objects.get(username=login.username) for login in logins}
    users["organizador"].groups.add(organizers)

    tournament = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if tournament is None:
        start = date.today() + timedelta(days=14)
        tournament = tournament_create(
            by=users["organizador"],
            data={
                "name": "Open de Mus Villa de Madrid",
                "slug": DEMO_SLUG,
                "venue": "Casino de Madrid, calle de Alcalá 15",
                "description": "Torneo abierto por parejas. Partidas a 3 juegos ganados, juegos a 40 tantos. "
                "Reglamento de la Asociación Madrileña de Mus.",
                "start_date": start,
                "end_date": start + timedelta(days=1),
                "status": Tournament.Status.REGISTRATION_OPEN,
                "max_pairs": pairs,
                "entry_fee": 40,
                "allow_trios": False,
            },
        )
        for name, day, at, courtesy in (
            ("Jornada 1 (sábado)", 0, time(10, 0), 15),
            ("Jornada 2 (domingo)", 1, time(10, 0), 10),
        ):
            session_save(
                tournament=tournament,
                name=name,
                courtesy_minutes=courtesy,
                starts_at=datetime.combine(start + timedelta(days=day), at, tzinfo=MADRID),
            )
        TournamentRole.objects.get_or_create(
            tournament=tournament, user=users["mesa"], role=TournamentRole.Role.CONTROL
        )
        TournamentRole.objects.get_or_create(tournament=tournament, user=users["juez"], role=TournamentRole.Role.JUEZ)
        rng = random.Random(2026)
        people = demo_players(rng, 2 * (pairs + waitlisted))
        for i in range(pairs + waitlisted):
            pair_register(tournament=tournament, players=people[2 * i : 2 * i + 2], source=Pair.Source.CONTROL)
        for pair in Pair.objects.filter(tournament=tournament, status=Pair.Status.CONFIRMED).order_by("number")[
            :checked_in
        ]:
            pair_check_in(pair=pair)
        first_player = Player.objects.filter(
            memberships__pair__tournament=tournament, memberships__pair__number=1
        ).first()
        if first_player:
            first_player.user = users["jugador"]
            first_player.save(update_fields=["user"])
        tournament = tournament_update(tournament=tournament, data={"status": Tournament.Status.REGISTRATION_CLOSED})
    if not Tournament.objects.filter(slug=RUNNING_SLUG).exists():
        build_running(users=users)
    return tournament, logins + demo_accounts(tournament, users) + demo_tarjetas(users)


def _tarjetas_file() -> Path:
    return Path(settings.VAR_DIR) / "demo-tarjetas.json"


def demo_tarjetas(users: dict[str, User]) -> list[DemoLogin]:
    """The tarjetas of the two pairs of a table still playing in the running tournament (issue 33):
    open one on a phone or a browser, tap «Recibir avisos en este dispositivo», and its notices come
    as the round goes on — the clock's five minutes to the maximum a few minutes after the demo was
    loaded (its clocks started 52 minutes before), the rival's report from the other tarjeta, the
    juez's «voy» to a call. The first pair also has a confirmed e-mail address (the demo's own:
    ``pareja<N>@demo.invalid``), so its notices are written as e-mails under var/correo/. Kept
    between runs while the links still work (var/demo-tarjetas.json), else issued anew."""
    running = Tournament.objects.filter(slug=RUNNING_SLUG).first()
    if running is None:
        return []
    match = (
        Match.objects.filter(round__tournament=running, outcome=Match.Outcome.PENDING, pair_b__isnull=False)
        .select_related("pair_a", "pair_b")
        .order_by("-round__number", "table_number")
        .first()
    )
    if match is None or match.pair_b is None:
        return []
    stored: dict[str, str] = {}
    if _tarjetas_file().exists():
        stored = json.loads(_tarjetas_file().read_text())
    rows = []
    for pair in (match.pair_a, match.pair_b):
        token = stored.get(str(pair.number), "")
        try:
            terminal_find(tournament=running, token=token)
        except InvalidTerminalLink:
            token = terminal_issue(pair=pair, by=users["mesa"]).token
        stored[str(pair.number)] = token
        path = reverse("torneo:pair_terminal", args=[running.slug, token])
        rows.append(DemoLogin("tarjeta", "(enlace)", f"pareja {pair.number}, mesa {match.table_number}: {path}"))
    EmailSubscription.objects.get_or_create(
        pair=match.pair_a,
        email=f"pareja{match.pair_a.number}@demo.invalid",
        defaults={"consented_at": timezone.now()},
    )
    _tarjetas_file().write_text(json.dumps(stored, indent=1))
    _tarjetas_file().chmod(0o600)
    return rows


def _accounts_file() -> Path:
    return Path(settings.VAR_DIR) / "demo-accounts.json"


def demo_accounts(tournament: Tournament, users: dict[str, User]) -> list[DemoLogin]:
    """A pending player code (the first player of a pair without account, from pair 2 on) and a
    pending juez invitation, so that both flows can be tried: kept between runs while they still
    work (their secrets, shown once by the site, in var/demo-accounts.json), else made anew."""
    stored: dict[str, str] = {}
    if _accounts_file().exists():
        stored = json.loads(_accounts_file().read_text())
    code = stored.get("player_code", "")
    try:
        player_code_verify(tournament=tournament, code=code)
    except InvalidCode:
        code = ""
        for pair in Pair.objects.filter(tournament=tournament, number__gte=2, status=Pair.Status.CONFIRMED):
            waiting = [entry for entry in pair_accounts(pair) if entry.needs_code]
            if waiting:
                issued = player_codes_issue(pair=pair, by=users["mesa"], positions=[waiting[0].position])
                code = issued[0][1].code
                break
    invitation = stored.get("invitation", "")
    try:
        invitation_find(tournament=tournament, token=invitation)
    except InvalidLink:
        invitation = invitation_create(
            tournament=tournament, by=users["organizador"], role=TournamentRole.Role.JUEZ, label="Juez auxiliar"
        ).secret
    _accounts_file().write_text(json.dumps({"player_code": code, "invitation": invitation}, indent=1))
    _accounts_file().chmod(0o600)
    base = f"/torneos/{tournament.slug}/cuenta"
    rows = [DemoLogin("invitación", "(enlace)", f"para un juez: {base}/invitacion/{invitation}/")]
    if code:
        rows.insert(0, DemoLogin("código", code, f"cuenta de un jugador: {base}/?codigo={code}"))
    return rows


def build_running(*, users: dict[str, User], pairs: int = 72, rounds_played: int = 2) -> Tournament:
    """A tournament in play: a 2 ceros with 72 pairs, two rounds drawn before the juez and
    played, the third drawn, half of its actas in and its clocks running (`demo_clocks`)."""
    today = date.today()
    tournament = tournament_create(
        by=users["organizador"],
        data={
            "name": "Campeonato de Madrid por parejas",
            "slug": RUNNING_SLUG,
            "venue": "Círculo de Bellas Artes",
            "description": "A 2 ceros, emparejando por número de derrotas. Partidas a 3 juegos ganados.",
            "start_date": today,
            "end_date": today,
            "status": Tournament.Status.REGISTRATION_CLOSED,
            "format": Tournament.Format.CEROS,
            "max_losses": 2,
            "same_losses": True,
            "results_double_check": True,
        },
    )
    session_save(
        tournament=tournament,
        name="Jornada única",
        courtesy_minutes=10,
        starts_at=datetime.combine(today, time(10, 0), tzinfo=MADRID),
    )
    for username, role in (("mesa", TournamentRole.Role.CONTROL), ("juez", TournamentRole.Role.JUEZ)):
        TournamentRole.objects.get_or_create(tournament=tournament, user=users[username], role=role)
    rng = random.Random(72)
    people = demo_players(rng, 2 * pairs)
    for i in range(pairs):
        pair = pair_register(tournament=tournament, players=people[2 * i : 2 * i + 2], source=Pair.Source.CONTROL)
        pair_check_in(pair=pair)
    for number in range(1, rounds_played + 2):
        round_ = round_prepare(tournament=tournament, by=users["mesa"])
        draw_publish(
            draw=live_draw(round_),
            public_value=f"{rng.randint(1, 6)}{rng.randint(1, 6)}{rng.randint(1, 6)}",
            witness=users["juez"],
            by=users["mesa"],
        )
        pending = list(round_.matches.filter(outcome=Match.Outcome.PENDING).order_by("table_number"))
        if number > rounds_played:
            pending = pending[: len(pending) // 2]
        for match in pending:
            loser_games = rng.choice((0, 1, 1, 2, 2))
            games = (3, loser_games) if rng.random() < 0.5 else (loser_games, 3)
            tantos = _demo_tantos(rng, *games)
            result_submit(match=match, by=users["mesa"], games_a=games[0], games_b=games[1], tantos=tantos)
            submission = match.submissions.first()
            result_confirm(submission=submission, by=users["organizador"])
    demo_clocks(round_, users=users)
    return tournament


CLOCK_MINUTES = 52  # the round's clocks were started this long ago: past 50, the adjustments (AMM 6.4)


def demo_clocks(round_: Round, *, users: dict[str, User]) -> None:
    """The current round's clocks, started by the mesa 52 minutes ago (AMM 6.1.a), so the tables
    still playing are in the adjustments (6.4): a pair that arrived at minute 12 (6.1.b: a juego
    lost), juegos tapped at 2-1, 1-1 and 2-2, a delay warning (6.3); then one tick of the beat task
    applies what is due, and the tables whose acta is in are over."""
    start = timezone.now() - timedelta(minutes=CLOCK_MINUTES)

    def at(minutes: float) -> datetime:
        return start + timedelta(minutes=minutes)

    mesa, juez = users["mesa"], users["juez"]
    clocks_start_round(round=round_, by=mesa, at=start)
    playing = list(
        round_.matches.filter(outcome=Match.Outcome.PENDING, pair_b__isnull=False)
        .select_related("round__tournament", "pair_a", "pair_b")
        .order_by("table_number")
    )
    late, two_one, one_one, two_two, warned = playing[:5]
    clock_absence(match=late, by=juez, pair="B", at=at(1))
    clock_absence(match=late, by=juez, pair="B", arrived=True, at=at(12))
    clock_juego(match=late, by=mesa, winner="B", at=at(31))  # 1-1 with the juego of 6.1.b
    for match, juegos in (
        (two_one, ((14, "A"), (27, "B"), (41, "A"))),
        (one_one, ((18, "A"), (35, "B"))),
        (two_two, ((11, "A"), (22, "B"), (33, "B"), (47, "A"))),
        (warned, ((16, "B"),)),
    ):
        for minute, winner in juegos:
            clock_juego(match=match, by=mesa, winner=winner, at=at(minute))
    clock_tantos(match=two_two, by=mesa, a=25, b=31)
    clock_warning(match=warned, by=juez, pair="A", note="Tarda en repartir", at=at(38))
    demo_referees(playing[5], playing[6], juez=juez)
    clocks_tick()


def demo_referees(sanctioned: Match, watched: Match, *, juez: User) -> None:
    """The juez's record (AMM 5.3.a, 5.4, 5.8): at one table an apercibimiento for putting the cards
    back in the deck (3.20.c), then a juego lost for doing it again; at another, an open incident
    and a suplente."""
    tournament = sanctioned.round.tournament
    pair = sanctioned.pair_a
    assert pair is not None and watched.pair_a is not None and watched.pair_b is not None
    for step, description in (
        (Sanction.Step.APERCIBIMIENTO, "Mete las cartas en el mazo al terminar la mano."),
        (Sanction.Step.JUEGO, "Vuelve a meterse en baraja sin enseñar las cartas."),
    ):
        incident = incident_report(
            tournament=tournament, by=juez, match=sanctioned, pair=pair, article="3.20.c", description=description
        )
        sanction_give(by=juez, pair=pair, incident=incident, article="3.20.c", step=step)
    incident_report(
        tournament=tournament,
        by=juez,
        match=watched,
        pair=watched.pair_b,
        article="7.5",
        description="Posibles señas no permitidas entre los dos jugadores: vigilar la mesa.",
    )
    # AMM 5.8: a suplente for a player who had to leave (never for a trío: its three are titulares, 5.8.e).
    replaced_pair = next(p for p in (watched.pair_a, watched.pair_b) if p.members.count() == 2)
    substitute_authorise(
        by=juez,
        match=watched,
        pair=replaced_pair,
        replaced=replaced_pair.ordered_members()[1].player,
        first_name="Koldo",
        last_name="Etxeberria Lasa",
        reason="El titular ha tenido que irse por una urgencia familiar.",
    )


def _demo_tantos(rng: random.Random, games_a: int, games_b: int) -> list[list[int]]:
    """Plausible tantos per juego: the winner of each juego reaches 40, the other stays below."""
    order = ["a"] * games_a + ["b"] * games_b
    rng.shuffle(order)
    if order[-1] != ("a" if games_a > games_b else "b"):  # the match winner takes the last juego
        winner = "a" if games_a > games_b else "b"
        order.remove(winner)
        order.append(winner)
    return [
        [40 + rng.randint(0, 4), rng.randint(5, 38)] if w == "a" else [rng.randint(5, 38), 40 + rng.randint(0, 4)]
        for w in order
    ]
