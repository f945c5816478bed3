"""Minimal settings: Security and Common middleware, no auth, no sessions."""

from __future__ import annotations

import os

from bench_env import DB_PATH, PER_PAGE, PRAGMAS

SECRET_KEY = "benchmark-only-not-a-secret-0123456789abcdef"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["rest_framework", "django_site"]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
]
ROOT_URLCONF = (
    "django_site.urls_drf"
    if os.environ.get("BENCH_DJANGO_VIEW", "drf") == "drf"
    else "django_site.urls_values"
)
WSGI_APPLICATION = "django_site.wsgi.application"
USE_TZ = False
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": DB_PATH,
        # gunicorn's sync worker keeps its connection (Django's advice for WSGI).
        "CONN_MAX_AGE": 600,
        # The emitted app's PRAGMAs, run on every new connection (Django ≥ 5.1).
        "OPTIONS": {"init_command": ";".join(PRAGMAS)} if PRAGMAS else {},
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": PER_PAGE,
}
