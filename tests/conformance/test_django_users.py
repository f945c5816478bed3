"""Django's own user commands make users who log into the served panel (issue 14).

``createsuperuser --noinput`` (``DJANGO_SUPERUSER_USERNAME``/``EMAIL``/``PASSWORD``)
makes a user with a username and an address: the panel takes either, in any case, in
session and in JWT mode, and the same refusal for a wrong password. The FastAPI
projects have no usernames: their users log in with the address ``create-user`` was
given, in any case (``test_session_auth``, ``test_jwt_auth``), as ``create_user``'s do
here.
"""

from __future__ import annotations

import subprocess
import uuid

import pytest

from .conftest import JWT_EXAMPLES, SESSION_EXAMPLES, _params, own_server_params
from .support import FAILED_LOGIN, PASSWORD, Deployment, crud

pytestmark = pytest.mark.e2e

DJANGO = (
    [
        param
        for param in _params(SESSION_EXAMPLES) + _params(JWT_EXAMPLES)
        if param.values[0][0] == "django"
    ]
    + own_server_params(SESSION_EXAMPLES)
    + own_server_params(JWT_EXAMPLES)
)


@pytest.fixture(params=DJANGO)
def django_deployment(request: pytest.FixtureRequest, fleet) -> Deployment:
    """Each Django deployment, once per login mode's examples and database."""
    return fleet.get(*request.param)


def _createsuperuser(deployment: Deployment, username: str, email: str) -> None:
    server = deployment.server
    env = {
        **server.env,
        "DJANGO_SUPERUSER_USERNAME": username,
        "DJANGO_SUPERUSER_EMAIL": email,
        "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
    }
    result = subprocess.run(
        server.command("createsuperuser", "--noinput"),
        cwd=server.project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Superuser created successfully." in result.stdout


def test_createsuperuser_logs_in_with_the_username_or_the_address(
    django_deployment: Deployment,
) -> None:
    tag = uuid.uuid4().hex[:8]
    username = f"Root{tag}"
    email = f"Root.{tag}@Example.com"
    _createsuperuser(django_deployment, username, email)
    resource = django_deployment.project.resources[0]
    for login in [username, username.lower(), email, email.upper()]:
        with django_deployment.api(log_in=False) as api:
            body = api.log_in(login, PASSWORD)  # asserts 200
            assert ("token" if django_deployment.jwt else "csrf_token") in body
            assert api.get(crud(resource)).status_code == 200, login
    with django_deployment.api(log_in=False) as api:
        wrong = {"username": email, "password": PASSWORD + "!"}
        refused = api.post("/admin/authenticate", json=wrong)
        assert refused.status_code == 422
        assert refused.json()["errors"] == {"username": [FAILED_LOGIN]}
