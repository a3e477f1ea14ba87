"""Tests of results, standings, bracket and classification. Shared helpers live here."""

from typing import Any

from tests.torneo.simulation import Simulation, new_tournament
from torneo.models import Match, Round
from torneo.services.registrations import pair_check_in
from torneo.services.rounds import draw_publish, live_draw, round_prepare, round_publish


def publish_next_round(sim: Simulation) -> Round:
    """Prepare and publish the next round (before the juez for a drawn one), without results."""
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    if round_.kind == Round.Kind.DRAW:
        draw_publish(draw=live_draw(round_), public_value=str(round_.number * 7), witness=sim.juez, by=sim.organizer)
    else:
        round_publish(round=round_, by=sim.organizer)
    round_.refresh_from_db()
    sim.rounds.append(round_)
    return round_


def world_match(world: Any) -> Match:
    """The world fixture's two pairs drawn against each other at table 1 of round 1 (own pair has
    the player user)."""
    from tests.factories import UserFactory, grant

    for pair in (world.own_pair, world.other_pair):
        pair_check_in(pair=pair)
    organizer = world.users["organizer"]
    round_ = round_prepare(tournament=world.tournament, by=organizer)
    witness = grant(UserFactory(), world.tournament, "juez")
    draw_publish(draw=live_draw(round_), public_value="7", witness=witness, by=organizer)
    return Match.objects.select_related("round__tournament", "pair_a", "pair_b").get(round=round_)


def expel(pair: Any) -> None:
    """Expel a pair (AMM 3.16.b, 5.4, 5.10: a juez's decision; referees' sanction_give calls the same
    service and also settles its partidas)."""
    from torneo.services.registrations import pair_expel

    pair_expel(pair=pair, reason="Expulsada por el juez")


def playing(round_: Round) -> list[Match]:
    """A round's matches with two pairs, by table."""
    return list(
        round_.matches.exclude(pair_b=None)
        .select_related("round__tournament", "pair_a", "pair_b")
        .order_by("table_number", "slot")
    )


def desk_body(round_: Round, typed: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, list[str]]]:
    """What the mesa's fast entry script (static/js/results-entry.js, body()) does with what was typed
    in the entry form: the JSON it POSTs to the API's results/, or, when it refuses to send it, the
    errors it shows by field (the form's own messages). The winner goes as the pair's number of the
    table looked up, the tantos parsed as the form parses them, source "control"."""
    import re

    from django.core.exceptions import ValidationError

    from scoring.forms.results import parse_tantos
    from scoring.views.results import SCRIPT_STRINGS

    def integer(value: Any) -> Any:
        value = str("" if value is None else value).strip()
        if not value:
            return None
        return int(value) if re.fullmatch(r"-?\d+", value) else value

    errors: dict[str, list[str]] = {}
    table = integer(typed.get("table"))
    if table is None:
        errors["table"] = [str(SCRIPT_STRINGS["table_required"])]
    try:
        tantos = parse_tantos(typed.get("tantos", ""))
    except ValidationError:
        errors["tantos"] = [str(SCRIPT_STRINGS["tantos"])]
    if errors:
        return None, errors
    match = round_.matches.filter(table_number=table).first() if isinstance(table, int) else None
    pair = {"a": match.pair_a, "b": match.pair_b}.get(typed.get("winner", "")) if match else None
    version = integer(typed.get("version"))
    return {
        "round": integer(typed.get("round")) or round_.number,
        "table": table,
        "version": 0 if version is None else version,
        "outcome": typed.get("outcome") or "played",
        "games_a": integer(typed.get("games_a")),
        "games_b": integer(typed.get("games_b")),
        "winner": pair.number if pair else None,
        "tantos": tantos,
        "reason": typed.get("reason", ""),
        "source": "control",
    }, {}


__all__ = ["desk_body", "expel", "new_tournament", "playing", "publish_next_round", "world_match"]
