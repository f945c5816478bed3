"""``python -m app create-user``, and the password hashes it stores."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from app.__main__ import main
from app.core.config import get_settings
from app.core.migrations import upgrade
from app.core.passwords import hash_password, needs_rehash, verify_password
from app.core.users import check_credentials, find_user


@pytest.fixture
def migrated_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """DATABASE_URL set to a freshly migrated SQLite file."""
    url = f"sqlite:///{tmp_path / 'users.db'}"
    upgrade(url)
    monkeypatch.setenv("DATABASE_URL", url)
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()


def _create(monkeypatch: pytest.MonkeyPatch, stdin: str, *args: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(["create-user", *args, "--password-stdin"])


def test_create_user_reads_the_password_from_stdin(
    migrated_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = _create(monkeypatch, "s3cret password\n", "Grace@Example.com", "--name", "G")
    assert code == 0
    assert "created user grace@example.com" in capsys.readouterr().out
    engine = create_engine(migrated_url)
    try:
        user = check_credentials(engine, "GRACE@example.com", "s3cret password")
        assert user is not None and user.name == "G"
        assert check_credentials(engine, "grace@example.com", "s3cret") is None
        stored = find_user(engine, "grace@example.com")
        assert stored is not None and stored.password_hash.startswith("$argon2id$")
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("email", "password", "message"),
    [
        ("not-an-address", "long enough", "is not an e-mail address"),
        ("ada@example.com", "short", "at least 8 characters"),
        ("ada@example.com", "x" * 4097, "at most 4096 bytes"),
    ],
)
def test_create_user_refuses_bad_input(
    migrated_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    email: str,
    password: str,
    message: str,
) -> None:
    del migrated_url
    assert _create(monkeypatch, password + "\n", email) == 1
    assert message in capsys.readouterr().err


def test_create_user_refuses_a_second_account(
    migrated_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    del migrated_url
    assert _create(monkeypatch, "long enough\n", "ada@example.com") == 0
    assert _create(monkeypatch, "long enough\n", "ADA@example.com") == 1
    assert "exists" in capsys.readouterr().err


def test_the_password_is_never_an_argument() -> None:
    with pytest.raises(SystemExit):
        main(["create-user", "ada@example.com", "--password", "x"])


@pytest.mark.usefixtures("production_hashes")
def test_hashes_are_argon2id_at_owasp_cost() -> None:
    stored = hash_password("pass phrase")
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert verify_password("pass phrase", stored)
    assert not verify_password("pass phrase", "not a hash")
    assert not verify_password("pass phrase", None)
    assert not needs_rehash(stored)
    assert needs_rehash("$argon2id$v=19$m=4096,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2g")
