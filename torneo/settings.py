"""Settings for the Mus tournament site, read from the environment (12-factor).

The defaults are the zero-setup local run: SQLite and a file-system Celery broker under `var/`,
Spanish interface, Europe/Madrid. Production sets DJANGO_PRODUCTION=1 plus DATABASE_URL,
CELERY_BROKER_URL, SECRET_KEY and ALLOWED_HOSTS (see docs/production.md).
"""

import os
import secrets
from pathlib import Path

import environ
from kombu.entity import Queue

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
VAR_DIR = Path(env.str("VAR_DIR", default=str(BASE_DIR / "var")))
# var/ holds the SQLite database (personal data, API tokens), the secret key, the caches and the
# broker's messages: for this account only (0700), whatever the umask; the database file is 0600
# (torneo.apps: SQLite gives its -wal and -shm files the database's mode).
VAR_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
if VAR_DIR.stat().st_uid == os.getuid() and VAR_DIR.stat().st_mode & 0o077:
    VAR_DIR.chmod(0o700)

PRODUCTION = env.bool("DJANGO_PRODUCTION", default=False)
DEBUG = env.bool("DEBUG", default=False)


def _local_secret_key() -> str:
    """A random key kept in var/ so that a venue laptop never runs on a key published in git."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


if PRODUCTION:
    SECRET_KEY = env.str("SECRET_KEY")  # no default: production must set it
else:
    SECRET_KEY = env.str("SECRET_KEY", default="") or _local_secret_key()

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "torneo",
    "scoring",
    "referees",
    "circuits",
    "records",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "torneo.middleware.LoginRequiredMiddleware",
    "torneo.ratelimit.DeviceCookieMiddleware",  # a sign-in's device cookie (the login limits)
    "torneo.idempotency.IdempotencyMiddleware",  # Idempotency-Key on the API's writes (offline queues)
]

ROOT_URLCONF = "torneo.urls"
WSGI_APPLICATION = "torneo.wsgi.application"
ASGI_APPLICATION = "torneo.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The file is shared by gunicorn's workers and threads and the Celery worker, so:
    # - WAL: readers never wait for the writer, nor the writer for them; synchronous=NORMAL is
    #   durable under WAL except for the last commits on a power cut (init_command runs on every
    #   new connection; WAL itself stays in the file).
    # - timeout: sqlite's busy timeout, how long a writer waits for another one to commit.
    # - transaction_mode IMMEDIATE: every transaction.atomic() takes the write lock at BEGIN, waiting
    #   for it up to the timeout. The default, DEFERRED, starts as a reader and upgrades at its first
    #   write; when another connection is writing or has written since that read, SQLite answers
    #   SQLITE_BUSY ("database is locked") at once, without honouring the busy timeout (waiting could
    #   not help: the transaction's snapshot is stale). Every write service reads first (the
    #   tournament "lock", validations), so under load they failed in ~0 ms: 500s. benchmarks/contention.py
    #   and tests/torneo/test_contention.py measure it.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # A file, not memory, for the test database: the real Celery worker in the tests must see it.
    # One per process, so that test runs side by side never share it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "torneo:home"
LOGOUT_REDIRECT_URL = "torneo:home"

# Spanish first; English available through the language switch.
LANGUAGE_CODE = "es"
# Each language named in itself, as a language menu names them. Mus is as much a game of the Basque
# Country, Galicia and Catalonia as of Madrid: their catalogues are complete
# (tests/torneo/test_translations.py).
LANGUAGES = [("es", "Español"), ("eu", "Euskara"), ("gl", "Galego"), ("ca", "Català"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Madrid"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise looks here even when serving from the finders
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = VAR_DIR / "media"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Locally, serve straight from the app folders so that no collectstatic step is needed.
WHITENOISE_USE_FINDERS = not PRODUCTION
# Request bodies held in memory: 1 MiB (Django's default is 2.5 MB). The largest legitimate JSON or
# form body is a few KB (a tournament, a pair, a recorded hand). The files of a multipart upload,
# the CSV import among them, do not count: registrations_csv.MAX_BYTES bounds that file (2 MB,
# 5,000 rows). Above the bound the API answers a JSON 413 (torneo/api/errors.py), pages a 400.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON nested too deep or malformed: a Spanish 400, never a RecursionError (torneo/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "torneo.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "torneo.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 200,
    "EXCEPTION_HANDLER": "torneo.api.errors.exception_handler",
    # Rate limits (torneo/ratelimit.py; the pages use the same rules). Per client IP or username
    # tried; "N/period" with period s, min, hour or day; empty: no limit.
    "DEFAULT_THROTTLE_RATES": {
        "login_ip": env.str("RATELIMIT_LOGIN_IP", default="10/min"),  # failed logins per IP
        "login_username": env.str("RATELIMIT_LOGIN_USERNAME", default="20/hour"),  # failed logins per username
        "registration": env.str("RATELIMIT_REGISTRATION", default="10/hour"),  # public registrations per IP
        # Taps that move a table's clock (a juego, its undo, the tantos) per account and table: a
        # partida has at most five juegos, so a table never taps a dozen times a minute.
        "clock_tap": env.str("RATELIMIT_CLOCK_TAP", default="30/min"),
        # What a pair writes from its phone (reports, confirmations, calls to the juez) per account
        # and tournament; the tournament's staff are not limited (torneo/ratelimit.py).
        "table_write": env.str("RATELIMIT_TABLE_WRITE", default="20/hour"),
        # Pair links (tarjetas) that do not work: per browser, and per IP under a ceiling a venue
        # (every phone behind one address) never reaches (torneo/views/terminals.py).
        "tarjeta_browser": env.str("RATELIMIT_TARJETA_BROWSER", default="20/hour"),
        "tarjeta_ip": env.str("RATELIMIT_TARJETA_IP", default="600/hour"),
        # Player codes, invitation links and password links that fail: per browser, per IP under the
        # same ceiling, and per printed code (torneo/views/accounts.py).
        "account_claim_browser": env.str("RATELIMIT_ACCOUNT_CLAIM_BROWSER", default="20/hour"),
        "account_claim_ip": env.str("RATELIMIT_ACCOUNT_CLAIM_IP", default="600/hour"),
        "account_claim_code": env.str("RATELIMIT_ACCOUNT_CLAIM_CODE", default="5/hour"),
    },
    # Trusted proxies in front of the site: 0 = the client is REMOTE_ADDR and X-Forwarded-For is
    # ignored (it is whatever the client wrote); behind one nginx, 1.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
}

# --- Caches and rate limits ---------------------------------------------------------------------
# "default": the public pages' cache (torneo/pagecache.py): a page is rendered once per change for
# every web process that shares it. A file-system cache under var/ needs no server and is shared by
# the processes of one host; CACHE_URL (e.g. redis://host:6379/0) for several hosts.
# "ratelimit": the rate-limit windows (torneo/ratelimit.py), which every web worker must share
# (a per-process cache would multiply the limits): a file-system cache under var/ needs no server;
# RATELIMIT_CACHE_URL (or else CACHE_URL), e.g. redis://host:6379/1, for several hosts.
CACHES = {
    "default": env.cache_url("CACHE_URL", default=f"filecache://{VAR_DIR / 'pages'}"),
    "ratelimit": env.cache_url(
        "RATELIMIT_CACHE_URL", default=env.str("CACHE_URL", default="") or f"filecache://{VAR_DIR / 'ratelimit'}"
    ),
}
CACHES["ratelimit"].setdefault("KEY_PREFIX", "ratelimit")
for _alias in ("default", "ratelimit"):
    if CACHES[_alias]["BACKEND"].endswith("FileBasedCache"):
        # Django's file cache, without a directory listing at every write (torneo/filecache.py).
        CACHES[_alias]["BACKEND"] = "torneo.filecache.FileCache"
        # Past MAX_ENTRIES the file cache drops a third of its entries: keep that far from reach
        # (a 1,146-pair tournament has a page per pair).
        CACHES[_alias].setdefault("OPTIONS", {}).setdefault("MAX_ENTRIES", 20_000)
# A public page changed again while it is younger than this is served as it is (it says its
# version, so live.js asks again): during a burst of results a page is rendered at most this often.
PAGES_RENDER_EVERY_SECONDS = env.float("PAGES_RENDER_EVERY_SECONDS", default=5.0)
# While a worker renders the shared pages ahead (PAGES_PRERENDER), a web request renders one itself
# only when its body is this much older than the above: the worker is then late or gone
# (torneo.pagecache, `shared_every`).
PAGES_WORKER_GRACE_SECONDS = env.float("PAGES_WORKER_GRACE_SECONDS", default=10.0)
# A pair's page is sent to the worker again at most this often (never more often than the above):
# a pair's report and the rival's signature come a few seconds apart, and a page sent "later" is
# rendered by the pair's phones themselves if they ask first (torneo.services.live, `_prerender`).
PAGES_PAIR_RENDER_EVERY_SECONDS = env.float("PAGES_PAIR_RENDER_EVERY_SECONDS", default=1.0)
# How long a tournament's public state (its pages' stamp, live.json's versions) is kept without
# asking the database again; a draw or a result computes it again at once (torneo.pagecache). 0: never kept.
PAGES_STATE_SECONDS = env.float("PAGES_STATE_SECONDS", default=1.0)
# When a result, a clock or hands change a pair's page, a Celery worker renders it for anonymous
# visitors before their phones ask (scoring.tasks.prerender_pair_pages).
PAGES_PRERENDER = env.bool("PAGES_PRERENDER", default=True)
# Each web process keeps the whole pages it served lately, up to this many bytes, and answers a
# page whose stamp has not changed from memory (torneo.pagecache.RecentPages). 0: none kept.
PAGES_RECENT_BYTES = env.int("PAGES_RECENT_BYTES", default=32 * 1024 * 1024)
# At most this many whole pages of one tournament are kept for anonymous visitors a day (counted
# again each day, so never more than twice as many in the cache); past it a page is served without
# being kept (torneo.pagecache). A 1,146-pair tournament has ~1,200 public pages in each language.
PAGES_MAX_PER_TOURNAMENT = env.int("PAGES_MAX_PER_TOURNAMENT", default=3000)
# --- end of caches and rate limits ----------------------------------------------------------------

SPECTACULAR_SETTINGS = {
    "TITLE": "Torneo de Mus API",
    "DESCRIPTION": "API de torneos de mus (reglamento AMM v6.4): torneos, jugadores, parejas, inscripciones.\n\n"
    "Toda escritura (POST, PUT, PATCH, DELETE) admite la cabecera `Idempotency-Key` (1 a 100 caracteres "
    "visibles, p. ej. un UUID): la misma clave de la misma cuenta devuelve la primera respuesta "
    "(`Idempotent-Replayed: true`) sin escribir nada más; para otra petición, 422; mientras la primera "
    "se atiende, 409 con Retry-After. Se guardan las respuestas 2xx y 4xx (salvo 401, 403, 408 y 429) "
    "durante 24 horas.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "torneo.models.Tournament.Status",
        "PairStatusEnum": "torneo.models.Pair.Status",
        # An acta's status and source appear in two components (an acta, and the acta just entered).
        "SubmissionStatusEnum": "scoring.models.ResultSubmission.Status",
        "SubmissionSourceEnum": "scoring.models.ResultSubmission.Source",
        # A printable's kind and status (scoring.api.printables), apart from a round's kind and status.
        "PrintableKindEnum": "scoring.models.PrintJob.Kind",
        "KindEnum": "torneo.models.Round.Kind",  # the name a round's kind had before
        "PrintableStatusEnum": "scoring.models.PrintJob.Status",
    },
}

# Celery: the official Django layout (torneo/celery.py), settings under the CELERY_ namespace.
# Locally a broker with no server: kombu's file-system transport under var/.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
_broker_dir = VAR_DIR / "broker"
if CELERY_BROKER_URL.startswith("filesystem://"):
    # kombu's transport with messages written whole (torneo/broker.py: its own let a worker read
    # an empty message and stop).
    CELERY_BROKER_TRANSPORT = "torneo.broker:Transport"
    for _sub in ("queue", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
        # The folder is read again this often when the worker waits (kombu's default: 1 s). With
        # one task in flight per process, 1 s made the worker take at most two tasks a second:
        # a burst of results left the pages to render ahead queued for minutes.
        "polling_interval": 0.1,
    }
# Production: redis://host:6379/0 as the broker (docs/production.md). The tasks' results are not
# read by the site (ignored), but a result backend may be set for monitoring (e.g. redis://…/3).
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
if CELERY_BROKER_URL.startswith("redis"):
    # kombu's Redis transport, reconnecting after Redis restarts (torneo/broker.py).
    CELERY_BROKER_TRANSPORT = "torneo.broker:RedisTransport"
    # A message not acknowledged (its worker died) goes back to the queue after this long.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=600)}
# Beat's periodic tasks that chapter VI and the health check depend on (the clocks' tick, the
# heartbeat) have their own queue: no burst of other work (pages to render, a round's actas) can sit
# in front of a 6.1.b penalty. Every worker takes both queues unless told otherwise, the periodic
# first where the broker can order them (Redis); scripts/run.sh and docs/production.md also run one
# worker process on the periodic queue alone, so a tick never waits for a free process.
PERIODIC_QUEUE = "periodic"
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (Queue(PERIODIC_QUEUE), Queue(CELERY_TASK_DEFAULT_QUEUE))  # type: ignore[no-untyped-call]
CELERY_TASK_ROUTES = {name: {"queue": PERIODIC_QUEUE} for name in ("scoring.clocks_tick", "torneo.heartbeat")}
if CELERY_BROKER_URL.startswith("redis"):
    CELERY_BROKER_TRANSPORT_OPTIONS["queue_order_strategy"] = "priority"
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CLOCK_TICK_SECONDS = env.float("CLOCK_TICK_SECONDS", default=5.0)
# A periodic task not started within half a minute expires: a later one does the same work, and
# workers kept busy for a while (a round's actas) find a few ticks waiting, not a pile of them
# ahead of the pages to render. Not sooner: beat's clock sets the expiry and a worker's reads it,
# and hosts' clocks may differ by seconds.
PERIODIC_EXPIRES = max(30.0, 3 * CLOCK_TICK_SECONDS)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "heartbeat": {"task": "torneo.heartbeat", "schedule": 10.0, "options": {"expires": PERIODIC_EXPIRES}},
    # AMM chapter VI: what the match clocks made due (scoring.services.clocks.clocks_tick). No long
    # ETA tasks: a short periodic tick over the timestamps, idempotent.
    "clocks": {
        "task": "scoring.clocks_tick",
        "schedule": CLOCK_TICK_SECONDS,
        "options": {"expires": PERIODIC_EXPIRES},
    },
    # Printables whose message was lost or whose worker died (scoring.services.printing).
    "printables": {"task": "scoring.printables_sweep", "schedule": env.float("PRINT_SWEEP_SECONDS", default=15.0)},
    # The API's Idempotency-Key answers older than IDEMPOTENCY_KEEP_HOURS (torneo/idempotency.py).
    "idempotency": {"task": "torneo.idempotency_purge", "schedule": 3600.0, "options": {"expires": 600}},
    # The e-mail addresses asked for the notices of tournaments over (torneo/services/email_notices.py).
    "email_notices": {"task": "torneo.email_notices_purge", "schedule": 3600.0, "options": {"expires": 600}},
}
IDEMPOTENCY_KEEP_HOURS = env.int("IDEMPOTENCY_KEEP_HOURS", default=24)
PRINT_QUEUE_GRACE_SECONDS = env.float("PRINT_QUEUE_GRACE_SECONDS", default=20.0)
PRINT_RUNNING_TIMEOUT_SECONDS = env.float("PRINT_RUNNING_TIMEOUT_SECONDS", default=600.0)
# The site's address as players reach it, printed in the actas' QR codes: never a request's Host
# header (any port or name that reaches the server would otherwise end up on paper).
# Default: in production, https:// and the first of ALLOWED_HOSTS (the site's own name); locally
# the run command's address (scripts/run.sh sets it from its PORT).
_SITE_HOST = next((h for h in ALLOWED_HOSTS if h and not h.startswith(".") and h != "*"), "")
SITE_URL = env.str(
    "SITE_URL", default=f"https://{_SITE_HOST}" if PRODUCTION and _SITE_HOST else "http://localhost:8000"
).rstrip("/")
# Web Push (torneo/push/): the site's VAPID key pair. Empty: made on first use and kept under
# VAR_DIR/vapid/ (private key 0600). VAPID_PRIVATE_KEY takes a PEM or the raw key in base64url;
# VAPID_PUBLIC_KEY, when given, must be its public half. VAPID_SUBJECT (a mailto: or https:
# address the push services may write to about this site): empty, mailto:DEFAULT_FROM_EMAIL when
# set, else SITE_URL when https, else mailto: Django's default address.
# E-mail (issue 33: the notices to the players who asked for them; torneo/services/email_notices.py).
# By default (the demo) each e-mail is a file under VAR_DIR/correo/; in production SMTP:
# EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend, EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER,
# EMAIL_HOST_PASSWORD, EMAIL_USE_TLS or EMAIL_USE_SSL, and DEFAULT_FROM_EMAIL (the sender).
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH", default=str(VAR_DIR / "correo"))
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=20)
if env.str("DEFAULT_FROM_EMAIL", default=""):
    DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="")

SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Every handler takes the tokens of the capability links out of what it writes (torneo/logsafe.py: a
# pair's tarjeta, an account's invitation or password link, a player's code): a wrong link's «Not Found:
# <path>» reads /tarjeta/…. Django's own handlers and loggers (django.utils.log.DEFAULT_LOGGING) are
# declared again with that filter, otherwise as Django declares them.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact_links": {"()": "torneo.logsafe.RedactLinks"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        "require_debug_true": {"()": "django.utils.log.RequireDebugTrue"},
    },
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_links"]},
        "django.console": {
            "class": "logging.StreamHandler",
            "level": "INFO",
            "filters": ["require_debug_true", "redact_links"],
        },
        "django.server": {
            "class": "logging.StreamHandler",
            "level": "INFO",
            "formatter": "django.server",
            "filters": ["redact_links"],
        },
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false", "redact_links"],
        },
    },
    "loggers": {
        "django": {"handlers": ["django.console", "mail_admins"], "level": "INFO"},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
