# Shared steps of scripts/run.sh and scripts/test.sh. Sourced, not run.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="$ROOT/.venv/bin/python"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf '\033[31mERROR: %s\033[0m\n' "$*" >&2; exit 1; }

# Install Debian packages that are missing (CI machines start bare). Needs root or sudo.
apt_ensure() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "Instalando paquetes de Debian: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "faltan ${missing[*]} y no hay permisos para instalarlos (ni root ni sudo)"
    sudo="sudo"
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 || {
    $sudo apt-get update -q >/dev/null 2>&1
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  } || die "no se han podido instalar ${missing[*]}"
}

# The virtual environment at .venv, with the locked dependencies (reinstalled when the lock changes).
ensure_venv() {
  cd "$ROOT"
  if [ ! -x "$PY" ]; then
    say "Creando el entorno virtual .venv"
    python3 -m venv .venv || die "python3 -m venv ha fallado (¿falta python3-venv?)"
  fi
  local stamp=".venv/.requirements.lock.sha256"
  local want
  want="$(sha256sum requirements.lock pyproject.toml | sha256sum | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    say "Instalando dependencias (requirements.lock)"
    "$PY" -m pip install -q --disable-pip-version-check -r requirements.lock
    "$PY" -m pip install -q --disable-pip-version-check --no-deps -e .
    echo "$want" > "$stamp"
  fi
}
