"""Settings: Spanish first, safe defaults, and a production configuration that passes check --deploy."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_spanish_first(settings):
    assert settings.LANGUAGE_CODE == "es" and settings.TIME_ZONE == "Europe/Madrid"
    assert [code for code, _ in settings.LANGUAGES] == ["es", "en"]


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
