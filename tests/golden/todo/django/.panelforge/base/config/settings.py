"""Django settings, read from the environment (see the README for every variable)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.utils import get_random_secret_key

from app import oag_config
from config.database import database_from_url
from config.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_origins,
    env_str,
    panel_from_env,
)
from panel_core import assets
from panel_core.accounts import MIN_PASSWORD_LENGTH

BASE_DIR = Path(__file__).resolve().parent.parent

# DEBUG=1 shows tracebacks in the browser: never in production.
DEBUG = env_bool("DEBUG")
# SECRET_KEY signs the sessions and the CSRF tokens: at least 32 characters, the same
# for every worker. Without it the panel refuses to start (panel/checks.py), unless
# DEBUG=1: then each process makes up its own, and logins end when it stops.
SECRET_KEY = env_str("SECRET_KEY") or (get_random_secret_key() if DEBUG else "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
# CORS_ORIGINS: the front ends on other origins allowed to call the panel with
# credentials, comma-separated exact origins (https://app.example.com); none by
# default. Their requests pass Django's CSRF origin check too (the token is still
# needed). See the README.
CORS_ORIGINS = env_origins("CORS_ORIGINS")
CSRF_TRUSTED_ORIGINS = [*env_list("CSRF_TRUSTED_ORIGINS", []), *CORS_ORIGINS]
# TRUST_PROXY_HEADERS=1: requests come through a proxy that sets X-Forwarded-Proto,
# X-Forwarded-Host (checked against ALLOWED_HOSTS) and X-Forwarded-Prefix, and the
# JSON answers' links follow them; off by default. See the README.
TRUST_PROXY_HEADERS = env_bool("TRUST_PROXY_HEADERS")
USE_X_FORWARDED_HOST = TRUST_PROXY_HEADERS
if TRUST_PROXY_HEADERS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# DATABASE_URL: sqlite:///file.db (relative to the project) or
# postgresql://user:password@host:5432/name
DATABASE_URL = env_str("DATABASE_URL", "sqlite:///todo_admin.db")
DATABASES = {"default": database_from_url(DATABASE_URL, BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The panel's middleware and authentication, as MoonShine's config names them:
# ``middleware`` (Django middleware the panel needs: sessions and CSRF in session
# mode, none with JWT), ``auth.middleware`` (the class that says who is logged in) and
# ``auth.pipelines`` (the steps of POST /admin/authenticate). PANEL (JSON) replaces
# it; PANEL__MIDDLEWARE, PANEL__AUTH__MIDDLEWARE, PANEL__AUTH__PIPELINES one key.
SESSION_PANEL = {
    "middleware": [
        "django.contrib.sessions.middleware.SessionMiddleware",
        "panel.csrf.PanelCsrfMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
    ],
    "auth": {
        "middleware": "panel.auth.SessionAuthentication",
        "pipelines": ["panel.throttle.LoginThrottle", "panel.login.SessionLogin"],
    },
}
JWT_PANEL = {
    "middleware": [],
    "auth": {
        "middleware": "panel.jwt_auth.JWTAuthentication",
        "pipelines": ["panel.throttle.LoginThrottle", "panel.jwt_auth.JWTLogin"],
    },
}
PANEL = panel_from_env(JWT_PANEL)

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "panel",
    "oag",
    "app",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "panel.headers.NoStoreMiddleware",
    # Before the session's: it sees the session cookie (Secure over https).
    "panel.headers.SecureCookiesMiddleware",
    "panel.formdata.MethodOverrideMiddleware",
    "panel.language.PanelLanguageMiddleware",
    *PANEL["middleware"],
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Inside the security headers' middleware, so that preflights get them too.
    "panel.cors.CorsMiddleware",
    # HEAD as GET without the body; OPTIONS answered with Allow (after CORS preflights).
    "panel.http_methods.HttpMethodsMiddleware",
    "panel.middleware.PanelAuthenticationMiddleware",
    "panel.errors.PanelErrorMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
# The panel's URLs have no trailing slash (/admin/resource/<uri>/crud); with one,
# GET and HEAD are redirected (308) to the URL without, other methods get 404
# (panel/http_methods.py, as the FastAPI panels do).
APPEND_SLASH = False

TEMPLATES = [
    {
        # The panel's pages are Jinja templates, autoescaped: the project's own
        # (templates/) first, then the kernel's (panel_core/templates/).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates", assets.TEMPLATES_DIR],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "panel.templating.environment"},
    },
]

# Passwords: Argon2id at OWASP's cost first (argon2-cffi); older hashes still verify
# and are upgraded at the next login.
PASSWORD_HASHERS = [
    "panel.passwords.PanelArgon2PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
# Django's own password commands (createsuperuser, changepassword) refuse passwords
# create_user refuses: shorter than MIN_PASSWORD_LENGTH (8).
AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": MIN_PASSWORD_LENGTH},
    },
]

# Sessions and CSRF speak the same protocol as the FastAPI panels: the CSRF token
# lives in the session, is sent as the ``_token`` form field or the X-CSRF-Token
# header, and is printed in <meta name="csrf-token">.
# Django's database sessions (logging out ends a session at once). The default,
# panel.session_store, is Django's database engine reading the session's row with SQL
# compiled once (speed tuning, see PANEL_PREPARED_QUERIES); SESSION_ENGINE=
# django.contrib.sessions.backends.db is Django's own, with the same sessions.
SESSION_ENGINE = env_choice(
    "SESSION_ENGINE",
    "panel.session_store",
    ("panel.session_store", "django.contrib.sessions.backends.db"),
)
# Sessions' users are read by PanelBackend (SQL compiled once, or with the ORM when
# PANEL_PREPARED_QUERIES is off); ModelBackend still serves the sessions it started.
AUTHENTICATION_BACKENDS = [
    "panel.users.PanelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# The cookie's name is the FastAPI panels' too: the spec documents it (sessionCookie).
SESSION_COOKIE_NAME = "panel_session"
SESSION_COOKIE_AGE = env_int("SESSION_LIFETIME", 14 * 24 * 60 * 60, low=60)
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
# Over https the cookie is Secure anyway (panel.headers.SecureCookiesMiddleware);
# SESSION_COOKIE_SECURE=1 makes it Secure over plain http too.
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE")
CSRF_USE_SESSIONS = True
CSRF_HEADER_NAME = "HTTP_X_CSRF_TOKEN"
CSRF_FAILURE_VIEW = "panel.views.errors.csrf_failure"

# Security headers on every response.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Over https, browsers are told to stay on https (a year); for the subdomains too, and
# in the browsers' preload list, only when the domain's owner says so.
SECURE_HSTS_SECONDS = 365 * 24 * 60 * 60
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")
# SECURE_SSL_REDIRECT=1: plain http requests are redirected to https (when no proxy
# in front does it).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT")
# security.W003 looks for CsrfViewMiddleware by name: sessions are checked by its
# subclass panel.csrf.PanelCsrfMiddleware, and JWT clients send no cookies.
SILENCED_SYSTEM_CHECKS = ["security.W003"]

# The language of the panel's own texts (panel_core/locale/): the first of the
# browser's Accept-Language that LANGUAGES offers, else LANGUAGE_CODE (PANEL_LANGUAGE).
# The panel reads its .po catalogs itself (panel.language), not Django's .mo files.
LANGUAGE_CODE = env_str("PANEL_LANGUAGE", "en")
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

# Static files (the panel's CSS and JS, Swagger UI) served by WhiteNoise, straight
# from the kernel's folders: no collectstatic needed. STATIC_ROOT: where
# ``manage.py collectstatic`` copies them, if another server is to serve them.
STATIC_URL = "/static/"
STATICFILES_DIRS = [assets.STATIC_DIR, ("oag", assets.DOCS_STATIC_DIR)]
STATIC_ROOT = env_str("STATIC_ROOT") or None
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# The panel.
PANEL_TITLE = env_str("PANEL_TITLE", "Todo admin")
# The list API: rows per page are capped at this (and at each resource's own cap).
PANEL_MAX_PER_PAGE = env_int("MAX_PER_PAGE", 100, low=1)
# Request bodies larger than this are refused with 413.
PANEL_MAX_BODY_SIZE = env_int("MAX_BODY_SIZE", 1024 * 1024, low=1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = PANEL_MAX_BODY_SIZE
# Mass delete takes at most this many ids at once.
PANEL_MAX_MASS_DELETE = env_int("MAX_MASS_DELETE", 500, low=1)
DATA_UPLOAD_MAX_NUMBER_FIELDS = max(1000, PANEL_MAX_MASS_DELETE + 100)
# Text sent to the API or a form is trimmed before it is checked, and a blank value
# of a required field is refused; TRIM_STRINGS=0 keeps spaces as sent.
PANEL_TRIM_STRINGS = env_bool("TRIM_STRINGS", True)
# CSV imports (…/handler/import) larger than this are refused with 413.
PANEL_MAX_IMPORT_SIZE = env_int("MAX_IMPORT_SIZE", 10 * 1024 * 1024, low=1024)
# File and image fields. MAX_UPLOAD_SIZE: a multipart create or update larger than
# this is refused with 413 as it streams in (each field's maxBytes too). STORAGE_URL:
# empty keeps files in the MEDIA_ROOT folder; s3://bucket/prefix (?endpoint_url=…
# for an S3-compatible server) in a bucket. See the README.
PANEL_MAX_UPLOAD_SIZE = env_int("MAX_UPLOAD_SIZE", 32 * 1024 * 1024, low=1024)
PANEL_MEDIA_ROOT = env_str("MEDIA_ROOT") or str(BASE_DIR / "media")
PANEL_STORAGE_URL = env_str("STORAGE_URL")
# Speed tuning (panel/prepared.py, generated): the hot reads (a record by key, a list
# nobody narrowed and its count, a session, the user of a session or token) run SQL
# Django compiled once, with each request's values. PREPARED_QUERIES=0 has Django's
# ORM build and compile them on every request instead: the same answers, slower.
PANEL_PREPARED_QUERIES = env_bool("PREPARED_QUERIES", True)
# REQUIRE_IF_MATCH=1: changing or deleting a record through the API needs the
# If-Match header holding its ETag (else 428), so that no client can overwrite a
# change it has not seen. The edit form always sends the version it loaded.
PANEL_REQUIRE_IF_MATCH = env_bool("REQUIRE_IF_MATCH")

# JWT mode. JWT_SECRET signs the tokens: base64 of at least 32 random bytes (make one
# with ``python manage.py jwt_secret``), the same for every worker; without it the
# panel refuses to start. JWT_SECRET_PREVIOUS, while set, still verifies the tokens
# the previous secret signed (rotation); it signs nothing.
JWT_SECRET = env_str("JWT_SECRET")
JWT_SECRET_PREVIOUS = env_str("JWT_SECRET_PREVIOUS")
# Lifetime of a token in seconds, and the clock difference tolerated (at most 60 s).
JWT_TTL = env_int("JWT_TTL", 1800, low=60, high=86400)
JWT_LEEWAY = env_int("JWT_LEEWAY", 30, low=0, high=60)
# The tokens' issuer and audience: tokens of another panel are refused.
JWT_ISSUER = env_str("JWT_ISSUER", "todo_admin")
# Login throttle: after this many failed logins for one username from one address
# within LOGIN_LOCKOUT seconds, further attempts get 429 until the window ends.
LOGIN_MAX_ATTEMPTS = env_int("LOGIN_MAX_ATTEMPTS", 5, low=1)
LOGIN_LOCKOUT = env_int("LOGIN_LOCKOUT", 15 * 60, low=1)

# The OpenAPI docs (MoonShine's oag config), preset from the manifest's docs block.
# OAG_TITLE: title of the /docs page. OAG_PATH: the YAML spec ``manage.py
# oag_generate`` writes (the JSON one beside it), relative to the project. OAG_ROUTE:
# the route serving the JSON spec (the YAML one is served beside it). OAG_VIEW: the
# /docs template, "oag::docs" or a Jinja template path relative to the project.
OAG_TITLE = env_str("OAG_TITLE", oag_config.DOCS_TITLE)
OAG_PATH = env_str("OAG_PATH", oag_config.DOCS_PATH)
OAG_ROUTE = env_str("OAG_ROUTE", oag_config.DOCS_ROUTE)
OAG_VIEW = env_str("OAG_VIEW", oag_config.DOCS_VIEW)
OAG_OPENAPI_VERSION = env_choice(
    "OAG_OPENAPI_VERSION", oag_config.OPENAPI_VERSION, ("3.1.0", "3.0.3")
)
# DOCS_ACCESS: who may read /docs and the spec: public, authenticated or off (404).
DOCS_ACCESS = env_choice("DOCS_ACCESS", "public", ("public", "authenticated", "off"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
