"""Settings, all from the environment.

With no variables set this is the embedded default: SQLite, the in-memory
channel layer, DEBUG on, localhost only.  DATABASE_URL selects PostgreSQL,
REDIS_URL a channels-redis layer, DJANGO_PRODUCTION=1 the hardened settings
that pass `manage.py check --deploy`.
"""

import logging
import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


PRODUCTION = env_bool("DJANGO_PRODUCTION")
DEBUG = env_bool("DJANGO_DEBUG", not PRODUCTION)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or (
    "dev-insecure-key-only-for-the-embedded-default-0123456789abcdefghijklmnop" if not PRODUCTION else ""
)
if PRODUCTION and len(SECRET_KEY) < 50:
    raise RuntimeError("DJANGO_SECRET_KEY (50+ characters) is required when DJANGO_PRODUCTION=1.")
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "backend.accounts.admin_site.AdminConfig",  # django.contrib.admin, its log-in rate-limited
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "channels",
    "backend.common",  # the language middleware's helpers and `makemessages` with the engines' refusal keywords
    "backend.accounts",
    "backend.lobbies",
    "backend.matches",
    "backend.chat",
    "backend.ratings",
    "backend.notifications",
]

MIDDLEWARE = [
    "backend.common.logs.access_log_middleware",  # first: it times and records everything below
    "backend.common.health.health_middleware",  # before anything that checks the Host, redirects or throttles
    "backend.common.headers.security_headers_middleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a signed-in user's saved language is one of its sources (backend/common/i18n.py).
    "backend.common.i18n.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Innermost: the app's own 404 (never Django's URL list, DEBUG or not) and 413.
    "backend.web.errors.AppErrorsMiddleware",
]

ROOT_URLCONF = "backend.urls"
FRONTEND_DIR = BASE_DIR / "frontend"
# The app's JavaScript, CSS and words go out without comments and layout whitespace (backend/web/lean.py);
# FRONTEND_LEAN=0 serves the sources as they are, for reading them in the browser's tools.
FRONTEND_LEAN = env_bool("FRONTEND_LEAN", True)
ASGI_APPLICATION = "backend.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [FRONTEND_DIR],  # index.html, the app's shell (backend/web/views.py)
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

DATABASES = {"default": dj_database_url.parse(os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if "DB_CONN_MAX_AGE" in os.environ:
    # Under ASGI every request runs in a thread of its own, so connections kept
    # per thread leaked one PostgreSQL connection per request.
    raise RuntimeError("DB_CONN_MAX_AGE is no longer read: connections come from a pool per process "
                       "(DB_POOL_MIN, DB_POOL_MAX, DB_POOL_TIMEOUT; deploy/README.md). Remove it from the environment.")
DATABASES["default"]["CONN_MAX_AGE"] = 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several writers (Daphne, bot workers) share the file; wait instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A psycopg pool per process: request, consumer and match-db threads
    # borrow a connection and give it back when Django closes it, so a
    # process never holds more than DB_POOL_MAX (plus its group-commit
    # connection), however many threads come and go.  Health checks make the
    # pool test a connection before lending it: after a PostgreSQL restart
    # dead ones are replaced instead of failing a request.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DB_POOL_MAX = int(os.environ.get("DB_POOL_MAX", "20"))
    if DB_POOL_MAX > 0:
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": min(int(os.environ.get("DB_POOL_MIN", "2")), DB_POOL_MAX),
            "max_size": DB_POOL_MAX,
            # A request waits this long for a free connection, then fails (500) rather than queue forever.
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
        }

REDIS_URL = os.environ.get("REDIS_URL", "")
CHANNEL_LAYER_PREFIX = os.environ.get("CHANNEL_LAYER_PREFIX", "games")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": os.environ.get("CHANNEL_LAYER_BACKEND", "channels_redis.pubsub.RedisPubSubChannelLayer"),
            # Redis pub/sub ignores the database number in REDIS_URL: deployments
            # sharing one Redis stay apart only by the prefix of their channels.
            "CONFIG": {"hosts": [REDIS_URL], "prefix": CHANNEL_LAYER_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

if REDIS_URL:
    # Throttle counters (login/sign-up rates) must be shared by every server process.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cache",
        }
    }

# Custom user so usernames are unique case-insensitively at the database level.
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    # The Hungarian passwords Django's English list misses ("jelszo123"): backend/accounts/passwords/SOURCE.md.
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator",
     "OPTIONS": {"password_list_path": BASE_DIR / "backend" / "accounts" / "passwords" / "hu-common-passwords.txt.gz"}},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Two languages (docs/api.md, Languages). The choice: the django_language cookie, else the
# signed-in user's saved language, else Accept-Language, else English (backend/common/i18n.py).
LANGUAGE_CODE = "en"
LANGUAGES = [("hu", "Magyar"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "backend" / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = PRODUCTION
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Other sites learn only that a visitor came from this origin, not which page (a lobby link carries its code).
SECURE_REFERRER_POLICY = "same-origin"

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# collectstatic also copies the web app, lean, to STATIC_ROOT/app/, where nginx serves it (deploy/nginx/games.conf).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "backend.web.collect.FrontendFinder",
]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "backend.common.errors.api_exception_handler",
    # DRF's defaults, with a JSON parser that refuses absurdly nested bodies as 400.
    "DEFAULT_PARSER_CLASSES": [
        "backend.common.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}

# Attempt limits per client address (backend.common.ratelimit), in DRF's
# notation. Only real attempts count: a credential check or an account created.
THROTTLE_RATES = {
    "login": os.environ.get("THROTTLE_LOGIN", "10/min"),  # API log-in, API token, admin log-in
    "signup": os.environ.get("THROTTLE_SIGNUP", "5/min"),
    "password": os.environ.get("THROTTLE_PASSWORD", "10/hour"),  # password and e-mail changes, reset links used
    "reset": os.environ.get("THROTTLE_RESET", "5/hour"),  # reset mails asked for, per address and per e-mail
    "lobby": os.environ.get("THROTTLE_LOBBY", "20/hour"),  # lobbies opened, per account (rematches aside)
}

# Proxies in front of Daphne that append the client's address to
# X-Forwarded-For (nginx as deploy/README.md sets it up: 1). 0 trusts no
# header and takes the connection's address.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
if TRUSTED_PROXY_COUNT < 0:
    raise RuntimeError("TRUSTED_PROXY_COUNT must be 0 (no proxy) or the number of proxies in front of the server.")

# Outgoing mail (password resets): the console by default, SMTP when configured.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
# The folder django.core.mail.backends.filebased.EmailBackend writes each mail to (the browser tests read it there).
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH") or None
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL")
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise RuntimeError("Set at most one of EMAIL_USE_TLS (STARTTLS) and EMAIL_USE_SSL (TLS from the start).")
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "20"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

SPECTACULAR_SETTINGS = {
    "TITLE": "Condottiere & God's Playground API",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
}

# Notifications (docs/notifications.md): the worker (manage.py notify_worker) drains the outbox.
# The site's address as links in e-mail give it (the worker has no request to take it from).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")
# Web Push's VAPID key pair (manage.py vapid_keys makes one) and the contact push services may write to.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:" + os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost"))
# The hosts (and their subdomains) the worker posts pushes to: the browsers' push services, nothing else.
NOTIFY_PUSH_HOSTS = [h.strip().lower() for h in os.environ.get(
    "NOTIFY_PUSH_HOSTS", "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com").split(",")
    if h.strip()]
NOTIFY_PUSH_ALLOW_HTTP = env_bool("NOTIFY_PUSH_ALLOW_HTTP")  # tests only: a local stand-in for a push service
NOTIFY_POLL_S = float(os.environ.get("NOTIFY_POLL_S", "1"))
NOTIFY_BATCH = int(os.environ.get("NOTIFY_BATCH", "50"))
NOTIFY_LEASE_S = float(os.environ.get("NOTIFY_LEASE_S", "60"))
NOTIFY_PUSH_TIMEOUT_S = float(os.environ.get("NOTIFY_PUSH_TIMEOUT_S", "10"))
NOTIFY_PUSH_TTL_S = int(os.environ.get("NOTIFY_PUSH_TTL_S", str(24 * 3600)))
# A failed push is tried again after NOTIFY_RETRY_BASE_S, doubling up to NOTIFY_RETRY_MAX_S, NOTIFY_MAX_ATTEMPTS times.
NOTIFY_RETRY_BASE_S = float(os.environ.get("NOTIFY_RETRY_BASE_S", "5"))
NOTIFY_RETRY_MAX_S = float(os.environ.get("NOTIFY_RETRY_MAX_S", "3600"))
NOTIFY_MAX_ATTEMPTS = int(os.environ.get("NOTIFY_MAX_ATTEMPTS", "12"))
# At most one e-mail digest per user in this many seconds.
NOTIFY_DIGEST_S = float(os.environ.get("NOTIFY_DIGEST_S", str(24 * 3600)))

# Seconds a bot waits before acting, so humans can follow; 0 in tests.
BOT_DELAY = float(os.environ.get("BOT_DELAY", "0.8"))
# Processes a server keeps for bots that search (the master level), so their thinking never
# holds up the event loop; one process thinks about one move at a time.
BOT_PROCESSES = int(os.environ.get("BOT_PROCESSES", "2"))
# Seconds a searching bot thinks about a move (never more than BOT_CLOCK_SHARE of its clock).
BOT_BUDGET_S = float(os.environ.get("BOT_BUDGET_S", "1.0"))

# Match WebSocket: per-connection token bucket (messages a second, burst).
MATCH_WS_RATE = float(os.environ.get("MATCH_WS_RATE", "20"))
MATCH_WS_BURST = float(os.environ.get("MATCH_WS_BURST", "40"))

# Chat (docs/api.md, Chat): characters per message; messages one user may send per
# CHAT_RATE_WINDOW_S seconds, over every channel; lines of history a (re)connecting client gets.
CHAT_MAX_CHARS = int(os.environ.get("CHAT_MAX_CHARS", "300"))
CHAT_RATE = int(os.environ.get("CHAT_RATE", "5"))
CHAT_RATE_WINDOW_S = int(os.environ.get("CHAT_RATE_WINDOW_S", "10"))
CHAT_HISTORY = int(os.environ.get("CHAT_HISTORY", "50"))

# Match sockets one user, or one client address, may hold open in one server process.
MATCH_SOCKETS_PER_USER = int(os.environ.get("MATCH_SOCKETS_PER_USER", "24"))
MATCH_SOCKETS_PER_ADDRESS = int(os.environ.get("MATCH_SOCKETS_PER_ADDRESS", "64"))
# Threads for the match runtime's database reads and one-by-one writes (PostgreSQL).
MATCH_DB_THREADS = int(os.environ.get("MATCH_DB_THREADS", "4"))
# State frames written straight to Daphne's sockets (backend/matches/ws/wire.py); 0 turns it off.
MATCH_WS_FAST_PATH = env_bool("MATCH_WS_FAST_PATH", True)

# Seconds a step where silence answers (Condottiere's keep-or-discard) waits before
# the rules answer for the seats that said nothing.
MATCH_DEFAULT_WINDOW_S = float(os.environ.get("MATCH_DEFAULT_WINDOW_S", "6"))
# A player still asked in such a step may hold it (the web app does while their keyboard focus
# is on its controls): the window then ends no sooner than MATCH_HOLD_S after the hold, and
# never later than MATCH_HOLD_MAX_S after the step began, however often they hold (docs/api.md).
MATCH_HOLD_S = float(os.environ.get("MATCH_HOLD_S", "20"))
MATCH_HOLD_MAX_S = float(os.environ.get("MATCH_HOLD_MAX_S", "60"))
# A God's Playground board file (the shape of backend/engines/gods_playground/board.toml)
# with the printed board's values; new matches use it. Empty: the default board. Read
# and checked once at start (backend/games/boards.py): a bad file stops the server.
GP_BOARD_FILE = os.environ.get("GP_BOARD_FILE", "")
# The games the site offers: one manifest file each, listed in this order (backend/games/registry.py;
# docs/new-game.md says how to add one). Every manifest in backend/games/manifests/, by file name.
GAMES = sorted((BASE_DIR / "backend" / "games" / "manifests").glob("*.toml"))
# Seconds a worker told to stop (SIGTERM) may spend committing moves under way and
# closing its match sockets (4503: reconnect elsewhere) before it stops anyway.
MATCH_DRAIN_S = float(os.environ.get("MATCH_DRAIN_S", "10"))
# Seconds between each process's checks that the matches it follows are at the database's
# version (what the channel layer lost, while it was away, is caught up this way).
MATCH_RECONCILE_S = float(os.environ.get("MATCH_RECONCILE_S", "2"))
# A move writes its action, events and version; the whole game state only every this many versions
# (and at the end): reading a match steps the stored state through at most this many - 1 log rows.
MATCH_STATE_EVERY = int(os.environ.get("MATCH_STATE_EVERY", "16"))
# Seconds between each process's looks for timed matches whose deadline passed unwatched.
MATCH_DEADLINE_SWEEP_S = float(os.environ.get("MATCH_DEADLINE_SWEEP_S", "5"))
# Seconds a process gathers the finishes it learns of before the ratings record them
# together (one transaction and a few statements for all).
MATCH_FINISH_GATHER_S = float(os.environ.get("MATCH_FINISH_GATHER_S", "0.5"))

# Joins and leaves within this many seconds make one presence update; a change
# in the number of spectators alone waits up to MATCH_SPECTATORS_EVERY seconds.
MATCH_PRESENCE_COALESCE = float(os.environ.get("MATCH_PRESENCE_COALESCE", "0.1"))
MATCH_SPECTATORS_EVERY = float(os.environ.get("MATCH_SPECTATORS_EVERY", "3"))
# Seconds between a process's presence heartbeats; a connection not heard of
# for three of them (its process died without saying goodbye) is dropped.
MATCH_PRESENCE_INTERVAL = float(os.environ.get("MATCH_PRESENCE_INTERVAL", "15"))
if not MATCH_PRESENCE_INTERVAL > 0:
    raise RuntimeError("MATCH_PRESENCE_INTERVAL must be a positive number of seconds.")

# Seconds a seated player of an untimed match may be away (no open connection)
# while it is their turn before another player may hand their seat to the bot.
ABSENT_GRACE_S = int(os.environ.get("ABSENT_GRACE_S", "90"))
if ABSENT_GRACE_S < 0:
    raise RuntimeError("ABSENT_GRACE_S must be a whole number of seconds, 0 or more.")

# What a rated match must show to move ratings (docs/ratings.md): every player's own moves (not the
# bot's for them) at least RATING_MIN_MOVES; and the rated results of one pair of accounts in a game
# count fully RATING_REPEAT_FULL times within RATING_REPEAT_WINDOW_H hours, each later one half the one before.
RATING_MIN_MOVES = int(os.environ.get("RATING_MIN_MOVES", "2"))
RATING_REPEAT_FULL = int(os.environ.get("RATING_REPEAT_FULL", "3"))
RATING_REPEAT_WINDOW_H = float(os.environ.get("RATING_REPEAT_WINDOW_H", "24"))
if RATING_MIN_MOVES < 0 or RATING_REPEAT_FULL < 1 or RATING_REPEAT_WINDOW_H < 0:
    raise RuntimeError("RATING_MIN_MOVES must be 0 or more, RATING_REPEAT_FULL 1 or more and "
                       "RATING_REPEAT_WINDOW_H 0 (no window) or more hours.")

# Open lobbies one account may host, and sit in (hosted ones included).
LOBBY_MAX_HOSTED = int(os.environ.get("LOBBY_MAX_HOSTED", "3"))
LOBBY_MAX_SEATED = int(os.environ.get("LOBBY_MAX_SEATED", "8"))

# An open lobby with no join, leave, kick or bot change for this long expires; 0 keeps lobbies forever.
LOBBY_IDLE_MINUTES = int(os.environ.get("LOBBY_IDLE_MINUTES", "60"))
if LOBBY_IDLE_MINUTES < 0:
    raise RuntimeError("LOBBY_IDLE_MINUTES must be 0 (never expire) or a positive number of minutes.")

# LOG_FORMAT=json: one JSON object per line, and an access record per HTTP
# request and WebSocket connect/disconnect (logger games.access, at INFO
# whatever LOG_LEVEL says).  Plain text otherwise, without access records.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")
if LOG_FORMAT not in {"text", "json"}:
    raise RuntimeError("LOG_FORMAT must be text or json.")
if LOG_FORMAT == "json":
    logging.captureWarnings(True)  # warnings too become JSON lines (logger py.warnings)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "backend.common.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.channels.server": {"level": "WARNING"},
        "games.access": {"level": "INFO" if LOG_FORMAT == "json" else "WARNING"},
    },
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
