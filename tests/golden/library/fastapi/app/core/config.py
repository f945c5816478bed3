"""Settings, read once from the environment (or a ``.env`` file in the project)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_DIR = Path(__file__).resolve().parents[2]


class Settings(BaseSettings):
    """Everything configurable; each field can be set by an environment variable."""

    model_config = SettingsConfigDict(env_file=PROJECT_DIR / ".env", extra="ignore")

    # DATABASE_URL: sqlite:///path.db or postgresql+psycopg://user:password@host/name
    database_url: str = f"sqlite:///{PROJECT_DIR / 'library_admin.db'}"
    panel_title: str = "Library admin"

    # The list API: rows per page are capped at this (and at each resource's own cap).
    max_per_page: int = 100
    # Request bodies larger than this are refused with 413.
    max_body_size: int = 1024 * 1024
    # Mass delete takes at most this many ids at once.
    max_mass_delete: int = 500

    docs_title: str = "Docs"
    docs_path: str = "resources/oag.yaml"
    docs_route: str = "oag.json"
    docs_view: str = "oag::docs"
    openapi_version: str = "3.1.0"


@cache
def get_settings() -> Settings:
    """The settings of this process, read on first use."""
    return Settings()
