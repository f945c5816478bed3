"""The command line: ``python -m app``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect

from app.__main__ import main
from app.core.config import get_settings


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--help"], ["serve", "--help"], ["migrate", "--help"]):
        with pytest.raises(SystemExit) as exit_info:
            main(args)
        assert exit_info.value.code == 0
    assert "--port" in capsys.readouterr().out


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([])
    assert exit_info.value.code == 2
    assert "COMMAND" in capsys.readouterr().err


@pytest.fixture
def cli_database_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """DATABASE_URL set to a fresh SQLite file, as a user would set it."""
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()


def test_migrate(cli_database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate"]) == 0
    assert "migrated" in capsys.readouterr().out
    engine = create_engine(cli_database_url)
    assert "alembic_version" in inspect(engine).get_table_names()
    engine.dispose()


def test_migrate_to_an_unknown_revision_fails_cleanly(
    cli_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate", "--revision", "no-such-revision"]) == 1
    last_line = capsys.readouterr().err.splitlines()[-1]
    expected = (
        "error: unknown revision 'no-such-revision' (not in migrations/versions/)"
    )
    assert last_line == expected
