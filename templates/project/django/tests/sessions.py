"""Helpers of the page, login and CSRF tests: session mode, users, logged-in clients.

These tests run in every project, JWT ones included (``use_sessions``): pages are for
people, who log in with sessions, and switching is a matter of settings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpResponse
from django.test import Client

from config.settings import SESSION_PANEL
from panel.users import create_user
from panel_core.abilities import ADMIN

EMAIL = "grace@example.com"
PASSWORD = "correct horse battery staple"
JSON = {"Accept": "application/json"}
HTML = {"Accept": "text/html"}
FORM = "application/x-www-form-urlencoded"
_META_TOKEN = re.compile(r'<meta name="csrf-token" content="([^"]*)">')
# Session mode's middleware goes where PANEL["middleware"] goes in settings.
_BEFORE_PANEL = "panel.formdata.MethodOverrideMiddleware"


def use_sessions(django_settings: Any) -> None:
    """Switch pytest-django's ``settings`` to session mode, as ``PANEL`` would."""
    django_settings.PANEL = SESSION_PANEL
    names = [n for n in settings.MIDDLEWARE if n not in SESSION_PANEL["middleware"]]
    at = names.index(_BEFORE_PANEL) + 1
    django_settings.MIDDLEWARE = [
        *names[:at],
        *SESSION_PANEL["middleware"],
        *names[at:],
    ]


def make_user(email: str = EMAIL, password: str = PASSWORD) -> AbstractBaseUser:
    """An active panel user."""
    return create_user(email=email, password=password, name="Grace", role=ADMIN)


def browser() -> Client:
    """A client that checks CSRF tokens as the server does for browsers."""
    return Client(enforce_csrf_checks=True, headers=HTML)


def page_token(client: Client, url: str = "/admin") -> str:
    """The CSRF token a page carries in its ``<meta name="csrf-token">``."""
    page = client.get(url, headers=HTML)
    found = _META_TOKEN.search(page.content.decode())
    assert found, page.content
    return found.group(1)


def post_form(client: Client, url: str, form: Mapping[str, Any]) -> HttpResponse:
    """POST ``form`` urlencoded, as a browser sends an HTML form."""
    body = urlencode({k: v for k, v in form.items() if v is not None}, doseq=True)
    response: HttpResponse = client.post(url, body, content_type=FORM)
    return response


def json_login(client: Client, username: Any, password: Any) -> HttpResponse:
    """``POST /admin/authenticate`` as a JSON client."""
    body = {"username": username, "password": password}
    response: HttpResponse = client.post(
        "/admin/authenticate", body, content_type="application/json", headers=JSON
    )
    return response


def form_login(client: Client, email: str = EMAIL, password: str = PASSWORD) -> None:
    """Log in through the login page's form, as a person does."""
    token = page_token(client, "/admin/login")
    form = {"username": email, "password": password, "_token": token}
    response = post_form(client, "/admin/authenticate", form)
    assert response.status_code == 303, response.content


def signed_in(django_settings: Any) -> Client:
    """A browser logged in through the login form, in session mode."""
    use_sessions(django_settings)
    make_user()
    client = browser()
    form_login(client)
    return client
