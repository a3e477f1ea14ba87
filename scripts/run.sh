#!/usr/bin/env bash
# Run the site with its demo tournament on the embedded defaults: SQLite and a file-system Celery
# broker under var/, the web server (gunicorn) and a Celery worker with beat. Ctrl-C stops all.
# HOST=0.0.0.0 ALLOWED_HOSTS=... opens it to the venue's network.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
apt_ensure libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core
ensure_venv
cd "$ROOT"
export DJANGO_SETTINGS_MODULE=torneo.settings
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"

say "Base de datos (var/db.sqlite3)"
"$PY" manage.py migrate --noinput -v0
"$PY" manage.py demo

pids=()
stop() {
  trap - INT TERM EXIT
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

say "Celery: worker y beat"
.venv/bin/celery -A torneo.celery worker --beat --loglevel=WARNING --concurrency=2 \
  --schedule var/celerybeat-schedule --pidfile= &
pids+=($!)

say "Servidor web en http://$HOST:$PORT/  (Ctrl-C para parar)"
.venv/bin/gunicorn torneo.wsgi --bind "$HOST:$PORT" --workers 2 --threads 4 --access-logfile - &
pids+=($!)

# Stop everything as soon as either process ends.
wait -n "${pids[@]}"
