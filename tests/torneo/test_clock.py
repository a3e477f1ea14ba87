"""The pure chapter VI module (torneo/clock.py): the maximum duration of a partida (AMM 6.2) and
when a round's clock starts (AMM 6.1.a, 6.1.c). No database, no Django."""

import ast
import datetime
import io
import json
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.syntax import parse_source
from torneo import clock

ROOT = Path(__file__).resolve().parents[2]
MADRID = ZoneInfo("Europe/Madrid")


def test_three_juegos_last_60_minutes_amm_6_2():
    assert clock.max_duration_minutes(3) == 60


def test_four_juegos_last_85_minutes_amm_6_2():
    assert clock.max_duration_minutes(4) == 85


def test_two_juegos_12_minutes_per_possible_juego_rounded_up_to_5_amm_6_2():
    # To 2 juegos ganados the longest partida is 2-1, 3 juegos: 36 minutes, rounded up to 40.
    assert clock.max_games(2) == 3
    assert clock.max_duration_minutes(2) == 40


def test_five_juegos_12_minutes_per_possible_juego_rounded_up_to_5_amm_6_2():
    # 5-4 is 9 juegos: 108 minutes, rounded up to 110.
    assert clock.max_games(5) == 9
    assert clock.max_duration_minutes(5) == 110


@pytest.mark.parametrize(("games", "minutes"), [(1, 15), (6, 135), (7, 160)])
def test_other_numbers_of_juegos_amm_6_2(games, minutes):
    # 1 -> 12 -> 15; 6 -> 11 juegos, 132 -> 135; 7 -> 13 juegos, 156 -> 160.
    assert clock.max_duration_minutes(games) == minutes
    assert clock.max_duration_minutes(games) % 5 == 0


def test_a_partida_needs_at_least_one_juego():
    with pytest.raises(ValueError, match="1 juego o más"):
        clock.max_duration_minutes(0)


def test_the_clock_starts_at_most_5_minutes_after_the_draw_is_published_amm_6_1_a():
    published = datetime.datetime(2026, 12, 12, 10, 0, tzinfo=MADRID)
    assert clock.clock_start(published) == datetime.datetime(2026, 12, 12, 10, 5, tzinfo=MADRID)


def test_courtesy_time_delays_the_clock_of_the_first_partida_amm_6_1_c():
    # The jornada starts at 10:00 with 15 minutes of courtesy; its first draw is out at 9:58: the
    # clock starts when the courtesy time is over (6.1.c), not 5 minutes after the draw (10:03).
    published = datetime.datetime(2026, 12, 12, 9, 58, tzinfo=MADRID)
    jornada = datetime.datetime(2026, 12, 12, 10, 0, tzinfo=MADRID)
    assert clock.clock_start(published, jornada_starts_at=jornada, courtesy_minutes=15) == datetime.datetime(
        2026, 12, 12, 10, 15, tzinfo=MADRID
    )
    # Without a known jornada, the courtesy time counts from the draw (the draw opens the jornada).
    assert clock.clock_start(published, courtesy_minutes=15) == datetime.datetime(2026, 12, 12, 10, 13, tzinfo=MADRID)
    with pytest.raises(ValueError, match="no puede ser negativo"):
        clock.clock_start(published, courtesy_minutes=-1)


def test_a_draw_published_before_the_jornada_does_not_start_the_clock_amm_6_1_a():
    # The draw was published at 03:17 for a jornada at 10:00: the clock cannot start at 03:22.
    published = datetime.datetime(2026, 12, 12, 3, 17, tzinfo=MADRID)
    jornada = datetime.datetime(2026, 12, 12, 10, 0, tzinfo=MADRID)
    assert clock.clock_start(published, jornada_starts_at=jornada) == jornada
    times = clock.round_times(published, 3, jornada_starts_at=jornada, courtesy_minutes=10)
    assert times.starts_at == datetime.datetime(2026, 12, 12, 10, 10, tzinfo=MADRID)  # 6.1.c
    assert times.ends_at == datetime.datetime(2026, 12, 12, 11, 10, tzinfo=MADRID)  # 6.2: + 60
    assert times.from_jornada and times.jornada_starts_at == jornada and times.courtesy_minutes == 10


def test_a_draw_published_late_starts_the_clock_5_minutes_after_it_amm_6_1_a():
    # Later in the jornada (or after its courtesy time): the draw sets the start, 6.1.a.
    jornada = datetime.datetime(2026, 12, 12, 10, 0, tzinfo=MADRID)
    published = datetime.datetime(2026, 12, 12, 12, 40, tzinfo=MADRID)
    times = clock.round_times(published, 3, jornada_starts_at=jornada)
    assert times.starts_at == datetime.datetime(2026, 12, 12, 12, 45, tzinfo=MADRID) and not times.from_jornada
    # A courtesy time already over when the draw is out changes nothing.
    published = datetime.datetime(2026, 12, 12, 10, 12, tzinfo=MADRID)
    assert clock.clock_start(published, jornada_starts_at=jornada, courtesy_minutes=15) == datetime.datetime(
        2026, 12, 12, 10, 17, tzinfo=MADRID
    )


def test_the_jornada_and_the_draw_times_must_both_be_aware_or_both_naive():
    with pytest.raises(ValueError, match="zona horaria"):
        clock.clock_start(
            datetime.datetime(2026, 12, 12, 10, 0), jornada_starts_at=datetime.datetime(2026, 12, 12, 10, tzinfo=MADRID)
        )


def at(day: int, hour: int, minute: int = 0) -> datetime.datetime:
    return datetime.datetime(2026, 12, day, hour, minute, tzinfo=MADRID)


@pytest.mark.parametrize(
    ("published", "expected"),
    [
        (at(12, 3, 17), 0),  # at dawn, before the first jornada: for it
        (at(11, 22, 0), 0),  # the evening before the tournament: the first jornada
        (at(12, 12, 30), 0),  # during the Saturday morning: the morning's
        (at(12, 16, 5), 1),  # during the Saturday afternoon tanda: the afternoon's
        (at(12, 23, 0), 1),  # Saturday night, after the afternoon tanda started: still it
        (at(13, 9, 58), 2),  # Sunday before 10:00: Sunday's, not Saturday's
        (at(14, 9, 0), 2),  # after every jornada: the last one
    ],
)
def test_a_round_that_names_no_jornada_belongs_to_the_one_of_its_draw(published, expected):
    starts = [at(12, 10), at(13, 10), at(12, 16)]  # in any order: Saturday morning, Sunday, Saturday afternoon
    expected_start = [at(12, 10), at(12, 16), at(13, 10)][expected]
    assert starts[clock.jornada_of(published, starts)] == expected_start
    assert clock.jornada_of(published, []) is None


def test_round_times_start_end_and_forced_end_amm_6_1_a_6_2_6_5():
    published = datetime.datetime(2026, 12, 12, 18, 32, tzinfo=MADRID)
    times = clock.round_times(published, 4)
    assert times.starts_at == datetime.datetime(2026, 12, 12, 18, 37, tzinfo=MADRID)
    assert times.ends_at == datetime.datetime(2026, 12, 12, 20, 2, tzinfo=MADRID)  # + 85 minutes
    assert times.limit_at == datetime.datetime(2026, 12, 12, 20, 12, tzinfo=MADRID)  # AMM 6.5: + 10
    assert times.minutes == 85 and times.courtesy_minutes == 0


def test_the_command_line_answers_each_line_and_goes_on_after_a_bad_one():
    out = io.StringIO()
    lines = [
        json.dumps({"games_to_win": 3, "published_at": "2026-12-12T10:00:00+01:00"}),
        "",
        "no es json",
        json.dumps({"games_to_win": 5}),
    ]
    assert clock.main(lines, out) == 1
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {
        "games_to_win": 3,
        "max_minutes": 60,
        "starts_at": "2026-12-12T10:05:00+01:00",
        "ends_at": "2026-12-12T11:05:00+01:00",
        "limit_at": "2026-12-12T11:15:00+01:00",
    }
    assert answers[1]["error"].startswith("línea 3: ")
    assert answers[2] == {"games_to_win": 5, "max_minutes": 110}


def test_the_command_line_takes_the_jornadas_start_and_courtesy_amm_6_1_c():
    out = io.StringIO()
    line = {
        "published_at": "2026-12-12T03:17:00+01:00",
        "jornada_starts_at": "2026-12-12T10:00:00+01:00",
        "courtesy_minutes": 10,
    }
    bad = {"published_at": "2026-12-12T03:17:00", "jornada_starts_at": "2026-12-12T10:00:00+01:00"}
    assert clock.main([json.dumps(line), json.dumps(bad), json.dumps({**line, "jornada_starts_at": 10})], out) == 1
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert answers[0]["starts_at"] == "2026-12-12T10:10:00+01:00"
    assert answers[0]["ends_at"] == "2026-12-12T11:10:00+01:00"
    assert "zona horaria" in answers[1]["error"]
    assert answers[2] == {"error": "línea 3: jornada_starts_at: se esperaba una fecha ISO 8601"}


def test_python_m_torneo_clock_runs_without_django():
    proc = subprocess.run(
        [sys.executable, "-m", "torneo.clock"],
        input='{"games_to_win": 4}\n',
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"games_to_win": 4, "max_minutes": 85}


def test_the_module_is_pure():
    tree = parse_source("\n".join(p.read_text() for p in (ROOT / "torneo" / "clock").glob("*.py")))
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    # Its own modules only (torneo.clock.*): nothing of Django, nor of the rest of the site.
    own = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module} - {"__future__"}
    assert "django" not in imported
    assert all(not m.startswith("torneo") or m.startswith("torneo.clock") for m in own)
