"""The clock pages (AMM chapter VI), Spanish and phone first, complete without JavaScript:

- the clock wall (public, for a projector and for a phone): every table of a round with its time
  left, coloured by phase, its juegos and the rule in force in words;
- a table's page (public): its clock, the rule in force, the juegos; a player of the table, the
  mesa de control, a juez or the organizer taps each juego won, undoes a wrong tap and notes the
  tantos of the juego being played;
- the juez's dashboard (Action.CLOCKS_MANAGE): starts a round's clocks, lists the tables by urgency
  and acts on each: pause with a reason (3.15) and resume, a pair incomplete (6.1.b) and later
  complete, a delay warning (6.3), juegos, and the envite timer (3.7).

Thin: scoring.services.clocks writes (plain POSTs, a service's refusal flashed in Spanish, then
back to the page), scoring.selectors.clocks reads. static/js/clocks.js counts down in the browser
from the deadlines the page carries (json_script "clock-data") and refreshes them from the API
(clock-list, clock-detail). The words of each rule are written here once, with {name} holes, and
handed to the script (json_script "clock-strings"), which fills them the same way as `notes`."""

from __future__ import annotations

import dataclasses
import datetime
import math
import re
from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.forms.clocks import TABLE_ACTIONS, ClockActionForm
from scoring.models import JuegoClaim
from scoring.selectors.clocks import ClockInfo, match_clock, round_clocks
from scoring.selectors.results import published_rounds
from scoring.services.clocks import (
    clock_absence,
    clock_juego,
    clock_juego_undo,
    clock_pause,
    clock_resume,
    clock_start,
    clock_tantos,
    clock_warning,
    clocks_start_round,
    table_side,
)
from scoring.throttles import TAP_ACTIONS, clock_tap_refused
from scoring.views import players as player_views
from torneo.clock import AMM, PRESETS, max_duration_minutes
from torneo.forms.errors import service_errors
from torneo.models import Match, Pair, Round, Tournament
from torneo.numbers import parse_int
from torneo.permissions import Action, access_match, can, is_player_of
from torneo.selectors.registrations import members_prefetch
from torneo.views.access import LoginRequired, tournament_for

# The API's answers refresh the deadlines this often (ms); ?intervalo= shortens it (a test).
REFRESH_MS = 15000

# The words of the clocks, for the pages and for static/js/clocks.js ({name}: filled in by both).
STRINGS: dict[str, Any] = {
    "phase_pendiente": gettext_lazy("Sin empezar"),
    "phase_normal": gettext_lazy("En juego"),
    "phase_ajustes": gettext_lazy("Ajustes de terminación"),
    "phase_excedido": gettext_lazy("Tiempo excedido"),
    "phase_ultima_mano": gettext_lazy("Última mano"),
    "phase_terminada": gettext_lazy("Terminada"),
    "paused": gettext_lazy("Parado"),
    "finished_time": gettext_lazy("fin"),
    "offline": gettext_lazy("sin conexión"),
    "not_started": gettext_lazy("El reloj todavía no está en marcha."),
    "paused_note": gettext_lazy("3.15: reloj parado — {reason}"),
    "absent": gettext_lazy("6.1.b: pareja {pair} incompleta"),
    "late": gettext_lazy("6.1.b: pareja {pair} llegó tarde"),
    "lost_one": gettext_lazy("1 juego perdido"),
    "lost_many": gettext_lazy("{n} juegos perdidos"),
    "lost_partida": gettext_lazy("partida perdida"),
    "forced": gettext_lazy("6.5.b: partida terminada por tiempo"),
    "finished": gettext_lazy("Partida terminada"),
    "last_hand": gettext_lazy("6.5.a: última mano"),
    "adj_a": gettext_lazy("6.4.a: último juego"),
    "adj_b_if_normal": gettext_lazy("6.4.b: si empatan, último juego normal"),
    "adj_b_if": gettext_lazy("6.4.b: si empatan, último juego a {tantos} tantos"),
    "adj_b_normal": gettext_lazy("6.4.b: último juego, normal"),
    "adj_b": gettext_lazy("6.4.b: último juego a {tantos} tantos"),
    "adj_c": gettext_lazy("6.4.c: juegos a {tantos} tantos; tras empate, juego final"),
    "adj_c_final": gettext_lazy("6.4.c: juego final a {tantos} tantos"),
    "adj": gettext_lazy("6.4: ajustes de terminación"),
    "excedido": gettext_lazy("6.2: tiempo máximo superado"),
    "limit": gettext_lazy("6.5: a los {n} minutos de exceso se termina la partida"),
    "normal": gettext_lazy("6.2: máximo {n} minutos"),
    "tantos_or": gettext_lazy("{a} o {b}"),
    "envite": gettext_lazy("Envite: {s} s"),
    "envite_running": gettext_lazy("Envite: quedan {s} s"),
    "envite_over": gettext_lazy("Tiempo de envite agotado (3.7.b)"),
    "mus": gettext_lazy("Mus: {s} s"),
    "mus_running": gettext_lazy("Mus: quedan {s} s"),
    "mus_over": gettext_lazy("Minuto de diálogo agotado (2.3)"),
}

PHASE_ORDER = {"ultima_mano": 3, "excedido": 4, "ajustes": 5, "normal": 6, "pendiente": 7, "terminada": 8}


def fill(text: object, **values: object) -> str:
    """``{name}`` holes filled in, as static/js/clocks.js fills them."""
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), "")), str(text))


def clock_time(seconds: float) -> str:
    """Time left as mm:ss (rounded up); past the maximum, the time over it as +mm:ss."""
    seconds = round(seconds, 3)
    if seconds >= 0:
        whole = math.ceil(seconds)
        return f"{whole // 60:02d}:{whole % 60:02d}"
    whole = math.floor(-seconds)
    return f"+{whole // 60:02d}:{whole % 60:02d}"


def _tantos(value: object) -> str:
    """40 → "40"; [10, 5] → "10 o 5" (the juez chooses)."""
    if isinstance(value, list | tuple):
        items = [str(v) for v in value]
        if len(items) < 2:
            return "".join(items)
        return fill(STRINGS["tantos_or"], a=", ".join(items[:-1]), b=items[-1])
    return str(value)


def rules_data(tournament: Tournament) -> dict[str, Any]:
    """The timings the words need (the tournament's preset of chapter VI)."""
    rules = PRESETS.get(tournament.clock_rules, AMM)
    return {
        "points": tournament.points_per_game,
        "max_minutes": max_duration_minutes(tournament.games_to_win),
        "tie_normal": rules.tie_break_normal_from,
        "tie_tantos": rules.tie_break_tantos,
        "short": list(rules.short_tantos),
        "overtime": rules.overtime_limit,
    }


def shown_phase(d: Mapping[str, Any]) -> str:
    """The phase a clock shows: "pendiente" before it starts, "terminada" once its acta is in."""
    if not d.get("started"):
        return "pendiente"
    if d["page"]["done"]:
        return "terminada"
    return str(d.get("phase") or "normal")


def notes(d: Mapping[str, Any], rules: Mapping[str, Any], phase: str, remaining: float | None) -> list[str]:
    """The rule in force, in words (static/js/clocks.js `notes` says the same). ``d``: a clock's
    ClockInfo.as_dict with the page's additions; ``remaining``: minutes to the maximum."""
    if not d.get("started"):
        return [str(STRINGS["not_started"])]
    out: list[str] = []
    page = d["page"]
    if d.get("paused"):
        out.append(fill(STRINGS["paused_note"], reason=d.get("pause_reason", "")))
    numbers = {"A": d["pair_a"]["number"], "B": (d.get("pair_b") or {}).get("number", "")}
    lost_partida = False
    for side in ("A", "B"):
        missing = (d.get("missing") or {}).get(side) or {}
        absent = (page.get("absent") or {}).get(side)
        lost = ""
        if missing.get("partida"):
            lost, lost_partida = str(STRINGS["lost_partida"]), True
        elif missing.get("juegos") == 1:
            lost = str(STRINGS["lost_one"])
        elif missing.get("juegos"):
            lost = fill(STRINGS["lost_many"], n=missing["juegos"])
        if not lost and absent != "missing":
            continue
        text = fill(STRINGS["late" if absent == "arrived" else "absent"], pair=numbers[side])
        out.append(f"{text} — {lost}" if lost else text)
    if phase == "terminada":
        if d.get("forced_end") or (d.get("winner") is None and not page["done"] and not lost_partida):
            out.append(str(STRINGS["forced"]))
        elif not lost_partida:
            out.append(str(STRINGS["finished"]))
        return out
    if phase == "ultima_mano":
        out.append(str(STRINGS["last_hand"]))
        return out
    adjustments = d.get("adjustments")
    juego = d.get("juego") or {}
    tantos = juego.get("tantos")
    if adjustments == "6.4.a":
        out.append(str(STRINGS["adj_a"]))
    elif adjustments == "6.4.b":
        if juego.get("article") == "6.4.b":
            if isinstance(tantos, int) and tantos >= rules["points"]:
                out.append(str(STRINGS["adj_b_normal"]))
            else:
                out.append(fill(STRINGS["adj_b"], tantos=_tantos(tantos)))
        elif remaining is not None and remaining >= rules["tie_normal"]:
            out.append(str(STRINGS["adj_b_if_normal"]))
        else:
            tie = rules["tie_tantos"] if remaining is not None and remaining >= 0 else rules["short"]
            out.append(fill(STRINGS["adj_b_if"], tantos=_tantos(tie)))
    elif adjustments == "6.4.c":
        key = "adj_c_final" if juego.get("final") else "adj_c"
        out.append(fill(STRINGS[key], tantos=_tantos(tantos if juego.get("article") else rules["short"])))
    elif phase == "ajustes":
        out.append(str(STRINGS["adj"]))
    elif phase == "excedido":
        out.append(str(STRINGS["excedido"]))
    else:
        out.append(fill(STRINGS["normal"], n=d.get("max_minutes") or rules["max_minutes"]))
    if phase == "excedido":
        out.append(fill(STRINGS["limit"], n=_number(rules["overtime"])))
    return out


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def time_text(d: Mapping[str, Any], rules: Mapping[str, Any], phase: str) -> str:
    if not d.get("started"):
        return clock_time(rules["max_minutes"] * 60)
    if phase == "terminada":
        return str(STRINGS["finished_time"])
    return clock_time(float(d.get("remaining") or 0) * 60)


# --- what the templates show of a clock ----------------------------------------------------------


@dataclasses.dataclass
class Card:
    """One table's clock as the pages show it: the ClockInfo, its JSON (for the script) and the
    words, computed once on the server."""

    info: ClockInfo
    data: dict[str, Any]
    phase: str
    time: str
    notes: list[str]

    @property
    def match(self) -> Match:
        return self.info.match

    @property
    def pk(self) -> int:
        return self.info.match.pk

    @property
    def table(self) -> int | None:
        return self.info.match.table_number

    @property
    def pair_a(self) -> Pair:
        return self.info.match.pair_a

    @property
    def pair_b(self) -> Pair | None:
        return self.info.match.pair_b

    @property
    def started(self) -> bool:
        return self.info.started

    @property
    def paused(self) -> bool:
        return self.info.paused

    @property
    def done(self) -> bool:
        return bool(self.data["page"]["done"])

    @property
    def running(self) -> bool:
        """Started and not over: the juegos may be tapped, the clock paused."""
        return self.started and not self.done and self.phase != "terminada"

    @property
    def phase_label(self) -> str:
        return str(STRINGS["paused"] if self.paused and self.running else STRINGS[f"phase_{self.phase}"])

    @property
    def score(self) -> tuple[int, int] | None:
        result = self.data["page"].get("result")
        if result:
            return result[0], result[1]
        score = self.data.get("score")
        return (score["A"], score["B"]) if score else None

    @property
    def sides(self) -> list[tuple[str, Pair | None]]:
        return [("A", self.pair_a), ("B", self.pair_b)]

    @property
    def absent(self) -> dict[str, str | None]:
        return dict(self.data["page"]["absent"])

    @property
    def absences(self) -> list[tuple[str, Pair | None, str | None]]:
        """Each pair with its 6.1.b state: None, "missing" (still incomplete) or "arrived"."""
        return [(side, pair, self.absent.get(side)) for side, pair in self.sides]

    @property
    def unresolved_absence(self) -> bool:
        return self.running and "missing" in self.absent.values()

    @property
    def warnings(self) -> dict[str, int]:
        facts = self.info.facts
        return {str(side): n for side, n in facts.delay_warnings.items()} if facts else {}

    @property
    def warning_list(self) -> list[tuple[Pair | None, int]]:
        """AMM 6.3: the delay warnings of this partida, by pair."""
        return [(pair, self.warnings.get(side, 0)) for side, pair in self.sides if self.warnings.get(side)]

    @property
    def alerts(self) -> list[tuple[Pair | None, int]]:
        """AMM 6.6: the pairs flagged for recidivism, with their earlier delay sanctions."""
        state, facts = self.info.state, self.info.facts
        if state is None or facts is None:
            return []
        pairs = {"A": self.pair_a, "B": self.pair_b}
        return [(pairs[side], facts.earlier_delay_sanctions.get(side, 0)) for side in state.alerts]

    @property
    def forced_end(self) -> dict[str, Any] | None:
        forced = self.data.get("forced_end")
        if not forced:
            return None
        loser = forced.get("loser")
        pairs = {"A": self.pair_a, "B": self.pair_b}
        return {**forced, "loser_pair": pairs.get(loser) if loser in pairs else None}

    @property
    def awaiting_acta(self) -> bool:
        return self.match.outcome == Match.Outcome.PENDING

    @property
    def waits_cancellable(self) -> bool:
        return bool(self.data.get("waits_cancellable")) and self.running

    @property
    def juegos(self) -> list[dict[str, Any]]:
        pairs = {"A": self.pair_a, "B": self.pair_b}
        return [
            {"number": n, "pair": pairs[j["winner"]], "minute": math.floor(j["ended"])}
            for n, j in enumerate(self.data.get("juegos") or [], start=1)
        ]

    @property
    def urgency(self) -> tuple[int, float, int, int]:
        """The dashboard's order: 6.6 alerts, unresolved absences (6.1.b), ended by time (6.5.b)
        awaiting the acta, última mano, excedido, ajustes, then the rest by time left."""
        if self.alerts and not self.done:
            group = 0
        elif self.unresolved_absence:
            group = 1
        elif self.phase == "terminada" and self.data.get("forced_end") and self.awaiting_acta:
            group = 2
        else:
            group = PHASE_ORDER[self.phase]
        remaining = self.data.get("remaining")
        return (group, math.inf if remaining is None else remaining, self.table or 0, self.pk)


def _absent(info: ClockInfo, side: str) -> str | None:
    clock = info.clock
    if clock is None or not getattr(clock, f"absent_{side}"):
        return None
    return "missing" if getattr(clock, f"arrived_{side}_at") is None else "arrived"


def card_for(info: ClockInfo, now: datetime.datetime, rules: Mapping[str, Any]) -> Card:
    match = info.match
    data = info.as_dict(now)
    decided = match.outcome not in (Match.Outcome.PENDING, Match.Outcome.BYE)
    result = [match.games_a, match.games_b] if decided and match.games_a is not None else None
    data["page"] = {
        "absent": {"A": _absent(info, "a"), "B": _absent(info, "b")},
        "done": decided or bool(info.clock and info.clock.finished_at),
        "result": result,
    }
    phase = shown_phase(data)
    remaining = data.get("remaining")
    return Card(info, data, phase, time_text(data, rules, phase), notes(data, rules, phase, remaining))


def cards_for(infos: list[ClockInfo], now: datetime.datetime, tournament: Tournament) -> list[Card]:
    rules = rules_data(tournament)
    return [card_for(info, now, rules) for info in infos]


def clock_context(
    request: HttpRequest, tournament: Tournament, cards: list[Card], now: datetime.datetime, api: str
) -> dict[str, Any]:
    """What every clock page hands to static/js/clocks.js."""
    return {
        "clock_data": {
            "server_now": now.isoformat(),
            "rules": rules_data(tournament),
            "clocks": [card.data for card in cards],
        },
        "clock_strings": STRINGS,
        "clock_api": api,
        "clock_refresh": player_views.live_interval(request) or REFRESH_MS,
    }


def _api(name: str, *args: object) -> str:
    """The API's address for the script; empty while the API does not have the route."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return ""


def clock_api(tournament: Tournament, match: Match) -> str:
    """The API's address of one table's clock (clock-detail)."""
    return _api("clock-detail", tournament.slug, match.pk)


def round_api(tournament: Tournament, round_: Round | None) -> str:
    """The API's address of a round's clocks (clock-list)."""
    url = _api("clock-list", tournament.slug) if round_ is not None else ""
    return f"{url}?round={round_.number}" if url and round_ is not None else ""


def _round(rounds: list[Round], number: str) -> Round | None:
    """The published round ``?ronda=`` names (404 if none), or the latest."""
    if not number:
        return rounds[-1] if rounds else None
    value = parse_int(number)
    found = next((r for r in rounds if r.number == value), None) if value is not None else None
    if found is None:
        raise Http404
    return found


# --- the wall -------------------------------------------------------------------------------------


def clock_wall(request: HttpRequest, slug: str) -> HttpResponse:
    """Every table of a round with its clock: for a phone, and with ?proyector=1 for the hall's
    screen (no site chrome, large type, scrolled by static/js/projector.js when the tables do not
    fit; torneo/views/projector.py shows it in its turn)."""
    tournament = tournament_for(request, slug)
    projector = request.GET.get("proyector") == "1"
    rounds = published_rounds(tournament)
    round_ = _round(rounds, request.GET.get("ronda", ""))
    now = timezone.now()
    cards = cards_for(round_clocks(round_, now), now, tournament) if round_ else []
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "round": round_,
        "cards": cards,
        "started": sum(1 for c in cards if c.started),
        # Issue 34: «8 de 8 mesas en marcha» counted the tables already over; those are said apart.
        "running": sum(1 for c in cards if c.running),
        "finished": sum(1 for c in cards if c.started and not c.running),
        "live_interval": player_views.live_interval(request),
        "projector": projector,
        **clock_context(request, tournament, cards, now, round_api(tournament, round_)),
    }
    template = "scoring/clocks/wall_projector.html" if projector else "scoring/clocks/wall.html"
    return render(request, template, context)


# --- a table's page -------------------------------------------------------------------------------


def _pair_number(match: Match, side: object) -> object:
    pair = match.pair_a if side == "A" else match.pair_b
    return pair.number if pair is not None else side


def _act(request: HttpRequest, form: ClockActionForm, match: Match) -> None:
    """Call the service the form asks for on ``match``; the outcome is flashed (a refusal in
    Spanish, a NotAllowed as 403)."""
    if not form.is_valid():
        messages.error(request, " ".join(form.messages()))
        return
    data = form.cleaned_data
    action, user, table = data["action"], request.user, match.table_number or "—"
    pair = data.get("pair") or ""
    with service_errors(form) as call:
        if action == "juego":
            tapped = clock_juego(match=match, by=user, winner=data.get("winner") or "", number=data.get("number"))
            numbers = {"t": table, "p": _pair_number(match, data["winner"])}
            if isinstance(tapped, JuegoClaim):
                done = (
                    _("Mesa %(t)s: juego para la pareja %(p)s anotado; cuenta cuando lo confirme la otra pareja.")
                    % numbers
                )
            else:
                done = _("Mesa %(t)s: juego para la pareja %(p)s.") % numbers
        elif action == "undo":
            if clock_juego_undo(match=match, by=user) is not None:
                done = _("Mesa %(t)s: juego pendiente retirado.") % {"t": table}
            else:
                done = _("Mesa %(t)s: último juego deshecho.") % {"t": table}
        elif action == "tantos":
            clock_tantos(match=match, by=user, a=data.get("a"), b=data.get("b"))  # type: ignore[arg-type]
            done = _("Mesa %(t)s: tantos anotados.") % {"t": table}
        elif action == "start":
            clock_start(match=match, by=user)
            done = _("Mesa %(t)s: reloj en marcha.") % {"t": table}
        elif action == "pause":
            clock_pause(match=match, by=user, reason=data.get("reason") or "")
            done = _("Mesa %(t)s: reloj parado (AMM 3.15).") % {"t": table}
        elif action == "resume":
            clock_resume(match=match, by=user)
            done = _("Mesa %(t)s: el reloj vuelve a correr.") % {"t": table}
        elif action == "absent":
            clock_absence(match=match, by=user, pair=pair)
            done = _("Mesa %(t)s: pareja %(p)s incompleta (AMM 6.1.b).") % {"t": table, "p": _pair_number(match, pair)}
        elif action == "arrived":
            clock_absence(match=match, by=user, pair=pair, arrived=True)
            done = _("Mesa %(t)s: pareja %(p)s completa.") % {"t": table, "p": _pair_number(match, pair)}
        elif action == "warning":
            clock_warning(match=match, by=user, pair=pair, note=data.get("note") or "")
            done = _("Mesa %(t)s: apercibimiento por retraso a la pareja %(p)s (AMM 6.3).") % {
                "t": table,
                "p": _pair_number(match, pair),
            }
        else:  # pragma: no cover - the form's choices
            raise Http404
    if call.ok:
        messages.success(request, done)
    else:
        messages.error(request, " ".join(form.messages()))


def may_tap(request: HttpRequest, tournament: Tournament, match: Match) -> bool:
    """Who may tap a table's juegos (scoring.services.clocks says the same): the juez, the
    organizer, the mesa de control and a player of the table."""
    user = request.user
    return (
        can(user, tournament, Action.CLOCKS_MANAGE)
        or can(user, tournament, Action.RESULTS_ENTER)
        or is_player_of(user, match)
    )


def _claim(info: ClockInfo) -> dict[str, Any] | None:
    """The juego a pair tapped for itself and the rivals have not confirmed yet (issue 32)."""
    claim = info.claim
    if claim is None:
        return None
    mine, theirs = (
        (info.match.pair_a, info.match.pair_b) if claim.winner == "A" else (info.match.pair_b, info.match.pair_a)
    )
    return {"winner": claim.winner, "pair": mine, "other": theirs, "at": claim.claimed_at}


def clock_table(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A table's clock, big, with its juegos; the table taps each juego won (plain forms)."""
    tournament = tournament_for(request, slug)
    queryset = Match.objects.select_related("round__tournament", "pair_a", "pair_b").prefetch_related(
        members_prefetch("pair_a__members"), members_prefetch("pair_b__members")
    )
    match = access_match(request.user, tournament, match_id, playable=True, queryset=queryset)
    url = reverse("scoring:clock_table", kwargs={"slug": slug, "match_id": match.pk})
    if request.method == "POST":
        if not request.user.is_authenticated:
            raise LoginRequired
        if request.POST.get("action") in TAP_ACTIONS and (refused := clock_tap_refused(request, match)):
            return refused
        _act(request, ClockActionForm(request.POST, actions=TABLE_ACTIONS), match)
        return redirect(url)
    now = timezone.now()
    card = cards_for([match_clock(match, now)], now, tournament)[0]
    context = {
        "tournament": tournament,
        "match": match,
        "card": card,
        "tantos": {"a": card.info.clock.tantos_a, "b": card.info.clock.tantos_b} if card.info.clock else {},
        "may_tap": may_tap(request, tournament, match),
        "my_side": table_side(request.user, match),
        "claim": _claim(card.info),
        "manage": can(request.user, tournament, Action.CLOCKS_MANAGE),
        "live_interval": player_views.live_interval(request),
        **clock_context(request, tournament, [card], now, clock_api(tournament, match)),
    }
    return render(request, "scoring/clocks/table.html", context)


# --- the juez's dashboard -------------------------------------------------------------------------


def clocks_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The juez's clocks: start a round's, then every table by urgency with its actions."""
    tournament = tournament_for(request, slug, Action.CLOCKS_MANAGE)
    rounds = published_rounds(tournament)
    base = reverse("scoring:clocks_manage", kwargs={"slug": slug})
    if request.method == "POST":
        return _manage_post(request, tournament, rounds, base)
    round_ = _round(rounds, request.GET.get("ronda", ""))
    now = timezone.now()
    cards = cards_for(round_clocks(round_, now), now, tournament) if round_ else []
    cards.sort(key=lambda c: c.urgency)
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "round": round_,
        "cards": cards,
        "not_started": sum(1 for c in cards if not c.started),
        "live_interval": player_views.live_interval(request),
        **clock_context(request, tournament, cards, now, round_api(tournament, round_)),
    }
    return render(request, "scoring/clocks/manage.html", context)


def _manage_post(request: HttpRequest, tournament: Tournament, rounds: list[Round], base: str) -> HttpResponse:
    form = ClockActionForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.messages()))
        return redirect(base)
    data = form.cleaned_data
    if data["action"] == "start_round":
        round_ = next((r for r in rounds if r.number == data.get("round")), None)
        if round_ is None:
            raise Http404
        with service_errors(form) as call:
            started = clocks_start_round(round=round_, by=request.user)
        if call.ok:
            messages.success(
                request,
                ngettext(
                    "Ronda %(r)d: %(n)d reloj en marcha.",
                    "Ronda %(r)d: %(n)d relojes en marcha.",
                    started,
                )
                % {"r": round_.number, "n": started},
            )
        else:
            messages.error(request, " ".join(form.messages()))
        return redirect(f"{base}?ronda={round_.number}")
    match = access_match(request.user, tournament, data.get("match"), playable=True)
    if data["action"] in TAP_ACTIONS and (refused := clock_tap_refused(request, match)):
        return refused
    _act(request, form, match)
    return redirect(f"{base}?ronda={match.round.number}#mesa-{match.table_number or ''}")
