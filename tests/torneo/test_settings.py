"""Settings: Spanish first, safe defaults, and a production configuration that passes check --deploy."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_spanish_first(settings):
    assert settings.LANGUAGE_CODE == "es" and settings.TIME_ZONE == "Europe/Madrid"
    assert settings.LANGUAGES[0][0] == "es"


def test_debug_is_off_unless_asked(settings):
    assert settings.DEBUG is False


def test_production_configuration_passes_check_deploy(tmp_path):
    env = {
        **os.environ,
        "DJANGO_PRODUCTION": "1",
        "SECRET_KEY": "p" * 20 + "-a-long-random-production-secret-key-" + "q" * 20,
        "ALLOWED_HOSTS": "mus.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}",
        "VAR_DIR": str(tmp_path),
    }
    env.pop("DEBUG", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = {**os.environ, "DJANGO_PRODUCTION": "1", "VAR_DIR": str(tmp_path)}
    env.pop("SECRET_KEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


def test_local_secret_key_is_generated_not_committed(tmp_path):
    env = {**os.environ, "VAR_DIR": str(tmp_path)}
    env.pop("SECRET_KEY", None)
    code = "from django.conf import settings; print(settings.SECRET_KEY)"
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import django, os; os.environ['DJANGO_SETTINGS_MODULE']='torneo.settings'; django.setup(); {code}",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert len(out) > 40 and (tmp_path / "secret_key").read_text().strip() == out


def test_var_is_private_and_the_sqlite_file_is_0600(tmp_path):
    """Security round two: var/ holds the database (personal data, tokens) and the secret key, so
    it is created 0700 and the SQLite file (and its -wal, -shm) 0600, whatever the umask; a var/
    left wider by an older version is narrowed."""
    var = tmp_path / "var"
    env = {**os.environ, "VAR_DIR": str(var)}
    for name in ("DATABASE_URL", "SECRET_KEY", "DJANGO_PRODUCTION"):
        env.pop(name, None)
    script = (
        "import django; django.setup(); from django.db import connection; "
        "c = connection.cursor(); c.execute('CREATE TABLE t (x int)'); c.execute('INSERT INTO t VALUES (1)')"
    )
    run = subprocess.run(
        [sys.executable, "-c", f"import os; os.umask(0o022); {script}"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "torneo.settings"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert oct(var.stat().st_mode & 0o777) == oct(0o700)
    database = var / "db.sqlite3"
    assert oct(database.stat().st_mode & 0o777) == oct(0o600)
    for extra in (var / "db.sqlite3-wal", var / "db.sqlite3-shm"):
        if extra.exists():
            assert oct(extra.stat().st_mode & 0o777) == oct(0o600)
    var.chmod(0o755)
    database.chmod(0o644)
    again = subprocess.run(
        [sys.executable, "-c", f"import os; os.umask(0o022); {script.replace('CREATE TABLE t (x int)', 'SELECT 1')}"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "torneo.settings"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert again.returncode == 0, again.stderr
    assert oct(var.stat().st_mode & 0o777) == oct(0o700) and oct(database.stat().st_mode & 0o777) == oct(0o600)


def test_production_prints_the_sites_own_name_in_the_actas_unless_site_url_says_otherwise(tmp_path):
    """Security round two, item 7: actas print SITE_URL, never a request's Host. A production site
    that did not set it prints https:// and its own name (the first of ALLOWED_HOSTS), not localhost."""
    code = "import django; django.setup(); from django.conf import settings; print(settings.SITE_URL)"

    def site_url(**extra: str) -> str:
        env = {
            **os.environ,
            "DJANGO_PRODUCTION": "1",
            "SECRET_KEY": "p" * 20 + "-a-long-random-production-secret-key-" + "q" * 20,
            "ALLOWED_HOSTS": "mus.example.org,www.mus.example.org",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}",
            "VAR_DIR": str(tmp_path),
            "DJANGO_SETTINGS_MODULE": "torneo.settings",
            **extra,
        }
        if "SITE_URL" not in extra:
            env.pop("SITE_URL", None)
        run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        return run.stdout.strip()

    assert site_url() == "https://mus.example.org"
    assert site_url(SITE_URL="https://torneo.example.org/") == "https://torneo.example.org"
