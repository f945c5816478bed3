"""Django's own checks, run as a deployment runs them: ``python manage.py …``.

``check --deploy`` with the production environment reports only the warnings the
README explains (each cleared by its variable once the site is https only), and
``makemigrations --check`` finds the models and the migrations in agreement.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from tests.conftest import jwt_mode

MANAGE = Path(settings.BASE_DIR) / "manage.py"
# SECRET_KEY, ALLOWED_HOSTS, JWT_SECRET (used in JWT mode only), DEBUG off.
PRODUCTION = {
    "SECRET_KEY": secrets.token_urlsafe(48),
    "ALLOWED_HOSTS": "panel.example.com",
    "JWT_SECRET": "cHJvZHVjdGlvbi1saWtlIHRlc3Qgand0IHNlY3JldCEh",
    "DEBUG": "0",
}
# The variables of a site served over https only.
HTTPS_ONLY = {
    "SECURE_SSL_REDIRECT": "1",
    "SESSION_COOKIE_SECURE": "1",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
}
# The README's table ("Tests and checks"); without the session middleware (JWT mode)
# Django names the session cookie's warning W010.
EXPLAINED = {"security.W005", "security.W008", "security.W021"}
_CHECK_ID = re.compile(r"\(([a-z_]+\.[A-Z]\d{3})\)")


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(MANAGE), *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_check_deploy_reports_only_what_the_readme_explains() -> None:
    checked = _manage("check", "--deploy", **PRODUCTION)
    output = checked.stdout + checked.stderr
    assert checked.returncode == 0, output
    cookie = "security.W010" if jwt_mode() else "security.W012"
    assert set(_CHECK_ID.findall(output)) == {*EXPLAINED, cookie}, output


def test_check_deploy_is_silent_for_a_site_served_over_https_only() -> None:
    checked = _manage(
        "check", "--deploy", "--fail-level", "WARNING", **PRODUCTION, **HTTPS_ONLY
    )
    output = checked.stdout + checked.stderr
    assert checked.returncode == 0, output
    assert "System check identified no issues (1 silenced)." in output


def test_makemigrations_finds_nothing_missing() -> None:
    checked = _manage("makemigrations", "--check", "--dry-run", **PRODUCTION)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip() == "No changes detected"
