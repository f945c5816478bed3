"""Django's own checks, run as a deployment runs them: ``python manage.py …``.

``check --deploy`` with the production environment reports only the warnings the
README explains (each cleared by its variable once the site is https only), and
``makemigrations --check`` finds the models and the migrations in agreement. The
panel may be mounted at any prefix; ``panel.E005`` refuses only the mounts it cannot
serve.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.checks import run_checks
from django.urls import include, path

from panel.checks import TAG
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


# A URLconf moving the panel (tests below point ROOT_URLCONF at this module).
urlpatterns: list[Any] = []


_HINT = (
    'Mount it like path("admin", include("panel.urls")) in config/urls.py '
    "(any prefix, no trailing slash)."
)


@pytest.mark.parametrize(
    ("mount", "message"),
    [
        (
            "backoffice/",
            "The panel is mounted at '/backoffice/'; its URLs have no trailing "
            "slash, so its mount needs a prefix without one.",
        ),
        (
            "",
            "The panel is mounted at '/'; its URLs have no trailing slash, so its "
            "mount needs a prefix without one.",
        ),
        (
            "<str:tenant>/admin",
            "The panel's URLs (panel.urls) are not in ROOT_URLCONF, or are mounted "
            "under a pattern with parameters.",
        ),
        (
            None,
            "The panel's URLs (panel.urls) are not in ROOT_URLCONF, or are mounted "
            "under a pattern with parameters.",
        ),
    ],
)
def test_a_mount_the_panel_cannot_serve_refuses_to_start(
    settings: Any, monkeypatch: pytest.MonkeyPatch, mount: str | None, message: str
) -> None:
    moved = [] if mount is None else [path(mount, include("panel.urls"))]
    monkeypatch.setattr(f"{__name__}.urlpatterns", moved)
    settings.ROOT_URLCONF = __name__
    found = [(m.id, m.msg, m.hint) for m in run_checks(tags=[TAG])]
    assert found == [("panel.E005", message, _HINT)]


@pytest.mark.parametrize("mount", ["backoffice", "office/panel"])
def test_any_other_prefix_is_a_mount(
    settings: Any, monkeypatch: pytest.MonkeyPatch, mount: str
) -> None:
    moved = [path(mount, include("panel.urls"))]
    monkeypatch.setattr(f"{__name__}.urlpatterns", moved)
    settings.ROOT_URLCONF = __name__
    assert [m.id for m in run_checks(tags=[TAG])] == []


def test_the_panel_is_mounted_with_include_in_config_urls() -> None:
    assert [m.id for m in run_checks(tags=[TAG])] == []
    text = (Path(settings.BASE_DIR) / "config" / "urls.py").read_text()
    assert 'path("admin", include("panel.urls"))' in text
