#!/usr/bin/env bash
# Run the site with its demo tournament on the embedded defaults: SQLite and a file-system Celery
# broker under var/, the web server (gunicorn), a Celery worker and Celery beat.
# HOST=0.0.0.0 ALLOWED_HOSTS=... SITE_URL=http://<address>:8000 opens it to the venue's network.
#
# Stopping: Ctrl-C, SIGTERM or SIGHUP, or any one service ending, stops them all. Each service runs
# in a process group of its own: its main process gets SIGTERM (and stops its own workers in order),
# and whatever of the group is still alive STOP_TIMEOUT seconds later (default 10) gets SIGKILL.
# A second Ctrl-C skips the wait.
set -euo pipefail
set +m  # no job control: `setsid` below must never have to fork (see spawn)
source "$(dirname "$0")/lib.sh"
apt_ensure libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core
ensure_venv
cd "$ROOT"
export DJANGO_SETTINGS_MODULE=torneo.settings
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"
export SITE_URL="${SITE_URL:-http://localhost:$PORT}"  # the actas' QR codes (torneo/settings.py)
STOP_TIMEOUT="${STOP_TIMEOUT:-10}"
DATA="${VAR_DIR:-$ROOT/var}"  # the settings' VAR_DIR, where beat keeps its schedule too

# If this script is killed outright (kill -9), the kernel sends SIGTERM to what it started.
deathsig=()
[[ "$(setpriv --help 2>/dev/null)" == *--pdeathsig* ]] && deathsig=(setpriv --pdeathsig TERM --)

leaders=()  # the processes started, each the leader of its own session and process group
declare -A names=()  # their names, by pid

# spawn NAME CMD...: start CMD in the background as the leader of a new session and process group,
# so that one signal reaches all its processes (Celery's pool, gunicorn's workers) and a terminal's
# Ctrl-C reaches only this script, which then stops everything in order.
spawn() {
  local name="$1"
  shift
  setsid "${deathsig[@]}" "$@" &
  leaders+=("$!")
  names[$!]="$name"
}

# step NAME CMD...: run CMD to its end, still stoppable at once by Ctrl-C or SIGTERM.
step() {
  spawn "$@"
  local status=0
  wait "$!" || status=$?
  unset 'leaders[-1]'
  return "$status"
}

# Whether any process of our groups is still alive (zombies do not count: they are already dead,
# only not yet reaped, which an init system may take its time to do).
groups_alive() {
  local file line leader
  [ ${#leaders[@]} -gt 0 ] || return 1
  for file in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null <"$file" || continue
    set -- ${line##*) }  # state, ppid, process group, ...
    [[ $1 == [ZX] ]] && continue
    for leader in "${leaders[@]}"; do
      [ "$3" = "$leader" ] && return 0
    done
  done
  return 1
}

# signal SIG [-]: SIG to the main process of each service, or with "-" to all of its group.
signal() {
  local leader
  for leader in "${leaders[@]}"; do
    kill -s "$1" -- "${2:-}$leader" 2>/dev/null || true
  done
}

force=""
stop() {
  local status=$?
  set +e  # stop must run to its end (a closed terminal makes even `say` fail)
  trap 'force=1' INT TERM HUP  # a second Ctrl-C: no more waiting
  trap '' PIPE
  trap - EXIT
  if groups_alive; then
    say "Parando (SIGTERM; SIGKILL a lo que siga vivo a los ${STOP_TIMEOUT} s)"
    signal TERM
    local deadline=$((SECONDS + STOP_TIMEOUT))
    while [ -z "$force" ] && [ "$SECONDS" -lt "$deadline" ] && groups_alive; do
      sleep 0.2
    done
    if groups_alive; then
      say "SIGKILL a lo que sigue vivo"
      signal KILL -
    fi
  fi
  wait 2>/dev/null  # reap: everything has ended by now
  exit "$status"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

say "Base de datos"
step migrate "$PY" manage.py migrate --noinput -v0
step demo "$PY" manage.py demo

# Beat apart from the worker (not `worker --beat`): killing the worker cannot orphan it.
say "Celery: workers y beat"
# The worker that renders pages ahead (and the actas, the notices) runs below the web's priority:
# on a machine the two share, a phone's request never waits for a page nobody asked for yet.
spawn "el worker de Celery" nice -n 10 .venv/bin/celery -A torneo.celery worker --loglevel=WARNING --concurrency=2 \
  --pidfile=
# One process for beat's periodic queue alone (the clocks' tick, the heartbeat: settings.PERIODIC_QUEUE),
# so that a burst of other work never makes a chapter VI penalty wait for a free process.
spawn "el worker del reloj" .venv/bin/celery -A torneo.celery worker -Q periodic -n reloj@%h --loglevel=WARNING \
  --concurrency=1 --pidfile=
spawn "Celery beat" .venv/bin/celery -A torneo.celery beat --loglevel=WARNING --schedule "$DATA/celerybeat-schedule"

say "Servidor web en http://$HOST:$PORT/  (Ctrl-C para parar)"
# The logger class keeps the capability links' tokens (a pair's tarjeta…) out of its logs (torneo/logsafe.py).
spawn gunicorn .venv/bin/gunicorn torneo.wsgi --bind "$HOST:$PORT" --workers 2 --threads 4 --access-logfile - \
  --logger-class torneo.logsafe.RedactingGunicornLogger

# Stop everything as soon as any service ends, for whatever reason (a crash, a kill -9).
status=0
ended=""
wait -n -p ended "${leaders[@]}" || status=$?
say "Ha terminado ${ended:+${names[$ended]}} (estado $status): se para todo"
exit $((status == 0 ? 1 : status))
