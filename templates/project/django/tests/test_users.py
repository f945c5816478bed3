"""``manage.py create_user``, the password hashes it stores, and credential checks."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management import CommandError, call_command

from panel.passwords import verify_password
from panel.users import check_credentials, create_user, find_user
from panel_core.abilities import ADMIN

pytestmark = pytest.mark.django_db

OWASP_ARGON2 = "argon2$argon2id$v=19$m=19456,t=2,p=1$"


def _create(monkeypatch: pytest.MonkeyPatch, stdin: str, *args: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    call_command("create_user", *args, "--password-stdin")


def test_create_user_reads_the_password_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _create(monkeypatch, "s3cret password\n", "Grace@Example.com", "--name", "G")
    assert "created user grace@example.com" in capsys.readouterr().out
    user = check_credentials("GRACE@example.com", "s3cret password")
    assert user is not None and user.first_name == "G"
    assert user.email == user.get_username() == "grace@example.com"
    assert check_credentials("grace@example.com", "s3cret") is None
    stored = find_user("grace@example.com")
    assert stored is not None and stored.password.startswith(OWASP_ARGON2)


def test_create_user_asks_twice_without_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["long enough", "long enough", "long enough", "other one"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    call_command("create_user", "ada@example.com")
    assert check_credentials("ada@example.com", "long enough") is not None
    with pytest.raises(CommandError, match="^the passwords differ$"):
        call_command("create_user", "grace@example.com", "--role", ADMIN)


@pytest.mark.parametrize(
    ("email", "password", "message"),
    [
        ("not-an-address", "long enough", "'not-an-address' is not an e-mail address"),
        ("ada@example.com", "short", "the password must be at least 8 characters"),
        ("ada@example.com", "x" * 4097, "the password must be at most 4096 bytes"),
    ],
)
def test_create_user_refuses_bad_input(
    monkeypatch: pytest.MonkeyPatch, email: str, password: str, message: str
) -> None:
    with pytest.raises(CommandError) as refused:
        _create(monkeypatch, password + "\n", email)
    assert str(refused.value) == message
    assert not get_user_model()._default_manager.exists()


def test_create_user_refuses_a_second_account(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _create(monkeypatch, "long enough\n", "ada@example.com")
    with pytest.raises(CommandError, match="exists"):
        _create(monkeypatch, "long enough\n", "ADA@example.com", "--role", ADMIN)


def test_the_password_is_never_an_argument() -> None:
    with pytest.raises(CommandError, match="unrecognized arguments"):
        call_command("create_user", "ada@example.com", "--password", "x")


def test_hashes_are_argon2id_at_owasp_cost() -> None:
    stored = make_password("pass phrase")
    assert stored.startswith(OWASP_ARGON2)
    assert verify_password("pass phrase", stored)
    assert not verify_password("pass phrase", "not a hash")
    assert not verify_password("pass phrase", None)
    assert not verify_password("x" * 4097, stored)


def test_a_weaker_hash_is_replaced_at_login(settings: Any) -> None:
    user = create_user(email="ada@example.com", password="long enough", role=ADMIN)
    weaker = "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    user.password = make_password("long enough", hasher="pbkdf2_sha256")
    user.save()
    assert weaker in settings.PASSWORD_HASHERS
    assert check_credentials("ada@example.com", "long enough") is not None
    user.refresh_from_db()
    assert user.password.startswith(OWASP_ARGON2)


def test_inactive_users_cannot_log_in() -> None:
    user = create_user(email="ada@example.com", password="long enough", role=ADMIN)
    user.is_active = False
    user.save()
    assert check_credentials("ada@example.com", "long enough") is None
