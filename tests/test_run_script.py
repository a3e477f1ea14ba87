"""scripts/run.sh stops the whole site, quickly, on Ctrl-C, on SIGTERM and when one of its services dies.

Real runs of the script (migrate, demo, Celery worker and beat, gunicorn) on a temporary VAR_DIR and a free port.
Every process a run starts inherits a marker in its environment, so the tests find all of them wherever they end
up (in another process group or session, reparented to init) by reading /proc: nothing may survive the stop.
"""

import os
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STARTUP_TIMEOUT = 150  # apt/venv checks, migrate, the demo's two tournaments, both services: a slow CI machine
STOP_DEADLINE = 15  # "within seconds": run.sh's 10 s grace period before SIGKILL, plus margin
# The script gets the machine's basics and none of the site's settings: CI exports DATABASE_URL (its test
# database), VAR_DIR and the like, and this run must stay on the embedded defaults under its own VAR_DIR.
INHERITED = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER", "LOGNAME")


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    cmdline: str


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _processes_marked(marker: str) -> list[Proc]:
    """The live (not zombie) processes whose environment carries the marker."""
    wanted = marker.encode()
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            state, ppid = _read(f"/proc/{entry.name}/stat").rsplit(b")", 1)[1].split()[:2]
            if state in (b"Z", b"X"):
                continue
            environ = _read(f"/proc/{entry.name}/environ").split(b"\0")
            cmdline = _read(f"/proc/{entry.name}/cmdline").replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:  # gone meanwhile
            continue
        if wanted in environ:
            found.append(Proc(int(entry.name), int(ppid), cmdline))
    return found


@dataclass
class Run:
    """One run of scripts/run.sh, in its own session (so a test can send it a terminal's Ctrl-C)."""

    script: subprocess.Popen[bytes]
    env: dict[str, str]
    marker: str
    port: int
    var_dir: Path
    log: Path

    def processes(self) -> list[Proc]:
        return _processes_marked(self.marker)

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def celery_worker(self) -> Proc:
        """The Celery worker's main process: the script's child (its pool processes are the worker's)."""
        workers = [p for p in self.processes() if p.ppid == self.script.pid and "celery" in p.cmdline]
        workers = [p for p in workers if " worker" in p.cmdline and " -Q periodic" not in p.cmdline]
        assert len(workers) == 1, f"se esperaba un worker de Celery hijo de run.sh: {workers}\n{self.log_tail()}"
        return workers[0]

    def wait_until_all_gone(self, timeout: float) -> tuple[float, list[Proc]]:
        """Seconds until the script and every process it started had ended, and what was left if they had not."""
        start = time.monotonic()
        while True:
            elapsed = time.monotonic() - start
            left = self.processes()
            if self.script.poll() is not None and not left:
                return elapsed, []
            if elapsed > timeout:
                return elapsed, left
            time.sleep(0.2)

    @contextmanager
    def celery_task_stuck(self, timeout: float = 60) -> Iterator[None]:
        """A Celery task running and stuck for as long as this lasts, as any long task would be.

        The test holds SQLite's write lock, sends the heartbeat task (what beat sends every 10 s) and waits until
        the worker has taken it off the broker's queue; the task then waits for the lock (up to the database's busy
        timeout, 20 s). Celery's warm shutdown, what SIGTERM asks of a worker, waits for the tasks it is running.
        """
        db = sqlite3.connect(self.var_dir / "db.sqlite3", isolation_level=None, timeout=10)
        try:
            db.execute("BEGIN IMMEDIATE")
            celery = [str(ROOT / ".venv" / "bin" / "celery"), "-A", "torneo.celery"]
            subprocess.run([*celery, "call", "torneo.heartbeat"], cwd=ROOT, env=self.env, check=True, timeout=60)
            queue = self.var_dir / "broker" / "queue"
            seen: set[str] = set()
            deadline = time.monotonic() + timeout
            while not seen or {p.name for p in queue.glob("*.msg")} >= seen:
                seen |= {p.name for p in queue.glob("*.msg")}
                assert self.script.poll() is None, f"run.sh ha terminado antes de tiempo\n{self.log_tail()}"
                assert time.monotonic() < deadline, f"ninguna tarea llega al worker en {timeout} s\n{self.log_tail()}"
                time.sleep(0.05)
            time.sleep(0.5)  # from the worker's consumer to one of its pool processes, which then waits
            yield
        finally:
            db.close()

    def wait_for_heartbeat(self, timeout: float = 60) -> None:
        """Until the beat has sent its heartbeat task and the worker has run it: both are really working."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with sqlite3.connect(self.var_dir / "db.sqlite3", timeout=5) as db:
                    if db.execute("SELECT count(*) FROM torneo_workerheartbeat WHERE name = 'beat'").fetchone()[0]:
                        return
            except sqlite3.OperationalError:  # no table yet
                pass
            assert self.script.poll() is None, f"run.sh ha terminado antes de tiempo\n{self.log_tail()}"
            time.sleep(0.5)
        pytest.fail(f"ni rastro del latido de Celery beat en {timeout} s\n{self.log_tail()}")


def _serving(port: int) -> bool:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
    except urllib.error.HTTPError:
        return True  # an answer all the same
    except OSError:
        return False
    return True


def _as_from_a_terminal() -> None:
    """The signals a terminal's shell hands its commands: Ctrl-C, Ctrl-\\ and a hangup not ignored.
    This test process may have inherited them ignored (a test command started in the background by
    a non-interactive shell, or under nohup, as CI may do), and a shell started with a signal
    ignored can never trap it: run.sh would never hear the Ctrl-C this file sends it."""
    for number in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Run]:
    """scripts/run.sh, started as `bash scripts/run.sh` and left once the site answers HTTP on its port."""
    token = uuid.uuid4().hex
    port = _free_port()
    env = {name: os.environ[name] for name in INHERITED if name in os.environ}
    env.update(VAR_DIR=str(tmp_path / "var"), HOST="127.0.0.1", PORT=str(port), RUN_SH_TEST_MARKER=token)
    marker = f"RUN_SH_TEST_MARKER={token}"
    log = tmp_path / "run.log"
    with log.open("wb") as out:
        script = subprocess.Popen(
            ["bash", "scripts/run.sh"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_as_from_a_terminal,
        )
    started = Run(script, env, marker, port, tmp_path / "var", log)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not _serving(port):
            assert script.poll() is None, f"run.sh ha terminado sin servir la web\n{started.log_tail()}"
            assert time.monotonic() < deadline, f"la web no responde tras {STARTUP_TIMEOUT} s\n{started.log_tail()}"
            time.sleep(0.5)
        yield started
    finally:
        # Whatever the outcome, nothing of this run may outlive the test.
        for proc in started.processes():
            with suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
        if script.poll() is None:
            script.kill()
        script.wait(timeout=10)


def _describe(left: list[Proc]) -> str:
    return "\n".join(f"  {p.pid} (padre {p.ppid}): {p.cmdline}" for p in left)


def test_sigterm_to_run_sh_stops_every_process_within_15_seconds_even_with_a_celery_task_stuck(run: Run) -> None:
    with run.celery_task_stuck():
        run.script.send_signal(signal.SIGTERM)
        elapsed, left = run.wait_until_all_gone(STOP_DEADLINE)

    assert not left, f"tras SIGTERM y {elapsed:.0f} s siguen vivos:\n{_describe(left)}\n{run.log_tail()}"


def test_ctrl_c_stops_every_process_of_run_sh_within_15_seconds_even_with_a_celery_task_stuck(run: Run) -> None:
    with run.celery_task_stuck():
        # A terminal's Ctrl-C: SIGINT to the whole foreground process group, which the script leads.
        os.killpg(run.script.pid, signal.SIGINT)
        elapsed, left = run.wait_until_all_gone(STOP_DEADLINE)

    assert not left, f"tras Ctrl-C y {elapsed:.0f} s siguen vivos:\n{_describe(left)}\n{run.log_tail()}"


def test_kill_9_of_the_celery_worker_stops_beat_gunicorn_and_run_sh_within_15_seconds(run: Run) -> None:
    run.wait_for_heartbeat()
    worker = run.celery_worker()
    # The pages rendered ahead below the web's priority; the clocks' worker (chapter VI) at the web's.
    clock = [p for p in run.processes() if p.ppid == run.script.pid and " -Q periodic" in p.cmdline]
    assert os.getpriority(os.PRIO_PROCESS, worker.pid) == min(os.getpriority(os.PRIO_PROCESS, 0) + 10, 19)
    assert len(clock) == 1 and os.getpriority(os.PRIO_PROCESS, clock[0].pid) == os.getpriority(os.PRIO_PROCESS, 0)

    os.kill(worker.pid, signal.SIGKILL)
    elapsed, left = run.wait_until_all_gone(STOP_DEADLINE)

    assert not left, f"tras kill -9 del worker y {elapsed:.0f} s siguen vivos:\n{_describe(left)}\n{run.log_tail()}"
    assert run.script.returncode != 0, "run.sh debe acabar con error si uno de sus servicios muere"
