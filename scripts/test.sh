#!/usr/bin/env bash
# Every test, on a fresh machine: installs what is missing (Debian's PostgreSQL and redis-server, Chromium and
# ChromeDriver, WeasyPrint's Pango), lints and type-checks, starts its own PostgreSQL cluster in a
# temporary directory on a free local port, runs the whole suite against it with the real browser
# tests, then the database-backed suite again against SQLite. Extra arguments go to pytest.
# PostgreSQL and Chromium are required: if either cannot be used, this fails (never skips).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

apt_ensure postgresql redis-server chromium chromium-driver libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 \
  fonts-dejavu-core gettext
ensure_venv
cd "$ROOT"

say "ruff"
.venv/bin/ruff check .
say "mypy (núcleos puros --strict; servicios y selectores con los stubs de Django y DRF)"
.venv/bin/mypy

# --- PostgreSQL: our own throwaway cluster -------------------------------------------------
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -x "$PG_BIN/initdb" ] || die "no se encuentra initdb de PostgreSQL (paquete postgresql)"
PG_DIR="$(mktemp -d /tmp/torneo-pg.XXXXXX)"
PG_PORT="$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  # initdb refuses to run as root: the cluster belongs to the postgres system user.
  chown postgres: "$PG_DIR"
  as_pg=(runuser -u postgres --)
fi
cleanup() {
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}
trap cleanup EXIT
"${as_pg[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null \
  || die "initdb ha fallado"
"${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -o \
  "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100" \
  start >/dev/null || { cat "$PG_DIR/log" >&2; die "PostgreSQL no ha arrancado"; }
PG_VERSION="$("$PG_BIN/postgres" --version)"
say "PostgreSQL en uso: $PG_VERSION en 127.0.0.1:$PG_PORT ($PG_DIR)"

CHROME_VERSION="$(/usr/bin/chromium --version 2>/dev/null)" || die "Chromium no funciona (/usr/bin/chromium)"
DRIVER_VERSION="$(/usr/bin/chromedriver --version 2>/dev/null)" || die "ChromeDriver no funciona (/usr/bin/chromedriver)"
say "Navegador en uso: $CHROME_VERSION · $DRIVER_VERSION"

run_pytest() {
  local label="$1"; shift
  set +e
  .venv/bin/python -m pytest "$@"
  local rc=$?
  set -e
  case $rc in
    0) say "$label: correcto" ;;
    5) die "$label: pytest no ha recogido ningún test (código 5)" ;;
    *) die "$label: fallos (código $rc)" ;;
  esac
}

# One pytest worker per core (pytest-xdist; TEST_WORKERS=1 for a single process): each worker
# has its own test database (PostgreSQL: test_torneo_gw0, test_torneo_gw1…; SQLite: a file per
# process), its own page cache and its own live server and browser for the e2e tests.
# --dist loadgroup: the tests marked xdist_group("pantalla-y-pila") run one after another in one
# worker — the whole production stack restarting Redis (tests/test_production_stack.py) and the
# full-HD projector scrolling for minutes (tests/e2e/test_projector_browser.py): side by side on a
# 2-core machine, the stack's Celery workers starved while Redis came back (3 CI runs, stop 41).
WORKERS="${TEST_WORKERS:-auto}"
export VAR_DIR="$PG_DIR/var"
say "Tests completos sobre PostgreSQL, con Chromium ($WORKERS procesos)"
DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/torneo" REQUIRE_POSTGRES=1 REQUIRE_CHROMIUM=1 \
  run_pytest "PostgreSQL" -p no:cacheprovider -n "$WORKERS" --dist loadgroup "$@"

# The pure cores (the mus engine, the draw generator) touch no database, and the 100-pair
# simulations (marker slow) exercise the same code on either database: once, above, is enough.
say "Tests con base de datos sobre SQLite"
DATABASE_URL="sqlite:///$PG_DIR/test.sqlite3" REQUIRE_CHROMIUM=1 \
  run_pytest "SQLite" -p no:cacheprovider -n "$WORKERS" --dist loadgroup -m "not postgres and not slow" \
  --ignore=tests/mus --ignore=tests/draws --ignore=docs "$@"

say "Todo correcto: PostgreSQL ($PG_VERSION) y Chromium ($CHROME_VERSION) usados."
