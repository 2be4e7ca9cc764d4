"""Django settings for the AICD assistant, read once from AICD_* environment variables."""

from __future__ import annotations

import secrets
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from aicd import env

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env.get_str("AICD_VAR_DIR") or BASE_DIR / "var")

AICD_ENVIRONMENT = env.get_choice(
    "AICD_ENVIRONMENT", ("development", "production", "test"), "development"
)
PRODUCTION = AICD_ENVIRONMENT == "production"
DEBUG = env.get_bool("DJANGO_DEBUG", default=AICD_ENVIRONMENT == "development")
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DJANGO_DEBUG must be off when AICD_ENVIRONMENT=production.")


def _secret_key() -> str:
    key = env.get_str("DJANGO_SECRET_KEY")
    if key:
        return key
    if PRODUCTION:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is required when AICD_ENVIRONMENT=production."
        )
    # Development only: one random key per checkout, kept under var/ so that restarts and
    # several local workers agree on it. Never used in production.
    path = VAR_DIR / ".dev_secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        path.write_text(key)
        path.chmod(0o600)
        return key


SECRET_KEY = _secret_key()

ALLOWED_HOSTS = [
    h.strip()
    for h in env.get_str(
        "DJANGO_ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost,testserver"
    ).split(",")
    if h.strip()
]
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "DJANGO_ALLOWED_HOSTS (comma-separated host names) is required when AICD_ENVIRONMENT=production."
    )
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in env.get_str("DJANGO_CSRF_TRUSTED_ORIGINS").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "accounts",
    "assistant",
    "registry_review",
    "uploads",
    "learning",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "core.not_ready.NotReadyMiddleware",
]

ROOT_URLCONF = "aicd.urls"
WSGI_APPLICATION = "aicd.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Accounts live in the database: SQLite by default, PostgreSQL via DATABASE_URL at scale.
DATABASES = {
    "default": dj_database_url.parse(
        env.get_str("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=60,
    )
}

# Sessions hold session-only sources, so they live in the cache, never in the database.
AICD_REDIS_URL = env.get_str("AICD_REDIS_URL")
if AICD_REDIS_URL:
    CACHES = {
        "default": {
            # Django's Redis backend, reusing one redis-py client per pool (see core/cache.py).
            "BACKEND": "core.cache.RedisCache",
            "LOCATION": AICD_REDIS_URL,
            "KEY_PREFIX": "aicd",
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "aicd-default",
        }
    }
SESSION_ENGINE = "django.contrib.sessions.backends.cache"
# Uploads are held in memory only, never spooled to a temporary file (see uploads/handlers.py).
FILE_UPLOAD_HANDLERS = ["uploads.handlers.MemoryOnlyUploadHandler"]
FILE_UPLOAD_MAX_MEMORY_SIZE = 6 * 1024 * 1024
SESSION_COOKIE_AGE = env.get_int("AICD_SESSION_AGE_S", 8 * 3600, minimum=60)
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = ["accounts.backends.LockoutModelBackend"]
# Sign-in lockout per username and client address (accounts/lockout.py); state in the cache.
AICD_LOGIN_FAILURE_LIMIT = env.get_int("AICD_LOGIN_FAILURE_LIMIT", 5, minimum=1)
AICD_LOGIN_LOCKOUT_S = env.get_int("AICD_LOGIN_LOCKOUT_S", 900, minimum=1)
# Reverse proxies in front of the app that append to X-Forwarded-For (0: use REMOTE_ADDR).
AICD_TRUSTED_PROXY_COUNT = env.get_int("AICD_TRUSTED_PROXY_COUNT", 0)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "assistant:chat"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env.get_str("AICD_STATIC_ROOT") or BASE_DIR / "staticfiles")
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
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK = {
    # Token first: DRF takes the 401 challenge from the first class, so a request without
    # credentials (or with a bad token) gets 401 with `WWW-Authenticate: Token`, not 403. A
    # browser's session still authenticates (with its CSRF check) when no token is sent.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["assistant.web.parsers.SafeJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "core.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_RATES": {
        "chat": env.get_rate("AICD_CHAT_THROTTLE_RATE", "60/min"),
        "uploads": env.get_rate("AICD_UPLOAD_THROTTLE_RATE", "30/min"),
        "registry": env.get_rate("AICD_REGISTRY_THROTTLE_RATE", "30/min"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "AICD source-grounded assistant API",
    "DESCRIPTION": "Package-grounded answers, cited by source class, with deterministic refusals.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    # Swagger UI from the drf-spectacular-sidecar package's static files: no CDN, CSP holds.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Content Security Policy: no inline script or style, no connections off the app's origin.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "base-uri": [NONE],
    }
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

if PRODUCTION:
    SECURE_SSL_REDIRECT = env.get_bool("AICD_SECURE_SSL_REDIRECT", True)
    if env.get_bool("AICD_BEHIND_TLS_PROXY", True):
        # The header the TLS-terminating proxy sets (and strips from clients) to say "https".
        _proxy_header = (
            env.get_str("AICD_PROXY_SSL_HEADER", "X-Forwarded-Proto") or "X-Forwarded-Proto"
        )
        SECURE_PROXY_SSL_HEADER = ("HTTP_" + _proxy_header.upper().replace("-", "_"), "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.get_int("AICD_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env.get_bool("AICD_HSTS_PRELOAD", True)

AICD_LOG_LEVEL = env.get_str("AICD_LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(levelname)s %(name)s %(message)s"}},
    # The level is on the handler too: a library that sets its own logger to DEBUG when it is
    # imported (bm25s does) still prints nothing below AICD_LOG_LEVEL.
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "level": AICD_LOG_LEVEL,
        }
    },
    "root": {"handlers": ["console"], "level": AICD_LOG_LEVEL},
    "loggers": {
        # Django's default configuration gives "django" a console handler of its own (in DEBUG)
        # and "django.server" another; their lines also reach the root handler, so runserver
        # printed each twice. No handlers here: every line goes once, through the root.
        "django": {"handlers": [], "propagate": True},
        "django.server": {"handlers": [], "propagate": True},
        "bm25s": {"level": "WARNING"},
        "pypdf": {"level": "ERROR"},
    },
}

# ---------------------------------------------------------------- the assistant's own settings
AICD_PACKAGE_DIR = Path(env.get_str("AICD_PACKAGE_DIR") or BASE_DIR / "sample_package")
AICD_CONTEXT_PACK_DIR = Path(env.get_str("AICD_CONTEXT_PACK_DIR") or VAR_DIR / "context_pack")
# The learnt models the worker loads (never trains): models/MANIFEST.json names each one and
# what built it; the learning side's build_* commands write them (docs/operations.md).
AICD_MODEL_DIR = Path(env.get_str("AICD_MODEL_DIR") or BASE_DIR / "models")
# The provider and adapter names are checked against their registries (PROVIDERS in
# assistant/providers/base.py, ADAPTERS in assistant/current/base.py) by the system checks
# provider.E001 and current.E001, so the set of names is written in one place each.
AICD_PROVIDER = env.get_str("AICD_PROVIDER", "deterministic") or "deterministic"
AICD_PROVIDER_BASE_URL = env.get_str("AICD_PROVIDER_BASE_URL")
AICD_PROVIDER_MODEL = env.get_str("AICD_PROVIDER_MODEL")
AICD_PROVIDER_API_KEY = env.get_str("AICD_PROVIDER_API_KEY")
AICD_PROVIDER_TIMEOUT_S = env.get_float("AICD_PROVIDER_TIMEOUT_S", 30.0) or 30.0
# Optional Chat Completions parameters for the openai_compatible provider (0 tokens: not sent).
AICD_PROVIDER_TEMPERATURE = env.get_float("AICD_PROVIDER_TEMPERATURE", 0.0)
AICD_PROVIDER_MAX_TOKENS = env.get_int("AICD_PROVIDER_MAX_TOKENS", 0)
AICD_PROVIDER_CA_BUNDLE = env.get_str("AICD_PROVIDER_CA_BUNDLE")  # PEM file for a private CA
AICD_CURRENT_CONTEXT_ADAPTER = env.get_str("AICD_CURRENT_CONTEXT_ADAPTER", "disabled") or "disabled"
AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = env.get_str("AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON")
# Ports other than 443 that registry URLs may use; an operator decision, never a registry one.
AICD_CURRENT_CONTEXT_ALLOWED_PORTS = env.get_int_list("AICD_CURRENT_CONTEXT_ALLOWED_PORTS")
AICD_PRICE_INPUT_PER_1K = env.get_float("AICD_PRICE_INPUT_PER_1K")
AICD_PRICE_OUTPUT_PER_1K = env.get_float("AICD_PRICE_OUTPUT_PER_1K")
AICD_MAX_QUESTION_CHARS = env.get_int("AICD_MAX_QUESTION_CHARS", 2000, minimum=50)
# Claim-level support of provider answers (assistant/verify/claim_support.py, docs/source-boundaries.md):
# the score each claim must reach, and what happens to an answer with a claim below it.
AICD_CLAIM_SUPPORT_THRESHOLD = env.get_fraction("AICD_CLAIM_SUPPORT_THRESHOLD", 0.85)
AICD_UNSUPPORTED_CLAIMS = env.get_choice(
    "AICD_UNSUPPORTED_CLAIMS", ("strict", "annotate"), "strict"
)

# ---------------------------------------------------------------- scale-out (gunicorn, Redis)
# Test-only: name the serving worker in a response header so multi-worker tests can tell
# workers apart. Never in production.
AICD_EXPOSE_WORKER_PID = env.get_bool("AICD_EXPOSE_WORKER_PID", False)
if AICD_EXPOSE_WORKER_PID:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "AICD_EXPOSE_WORKER_PID is for tests only; unset it in production."
        )
    MIDDLEWARE.append("aicd.worker_pid.WorkerPidHeaderMiddleware")
