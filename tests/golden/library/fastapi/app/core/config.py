"""Settings, read once from the environment (or a ``.env`` file in the project)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.core import oag_config
from panel_core.cors import parse_origins
from panel_core.routes import DEFAULT_PREFIX, prefix_from

PROJECT_DIR = Path(__file__).resolve().parents[2]


class ConfigurationError(RuntimeError):
    """The settings cannot work (say, no SECRET_KEY, or a JWT_SECRET too short)."""


class AuthConfig(BaseModel):
    """Who is logged in, and how a login happens (import paths, like MoonShine's)."""

    # The class the ``authenticated`` dependency asks who is logged in.
    middleware: str = "app.panel.auth.SessionAuthentication"
    # The steps ``POST /admin/authenticate`` runs, in order; each may answer or pass on.
    pipelines: list[str] = [
        "app.panel.throttle.LoginThrottle",
        "app.panel.login.SessionLogin",
    ]


class PanelConfig(BaseModel):
    """The panel's request stack and logins: ``SESSION_PANEL`` or ``JWT_PANEL`` below."""

    # ASGI middleware around every route, outermost first: the session, then CSRF.
    middleware: list[str] = [
        "app.panel.sessions.SessionMiddleware",
        "app.panel.csrf.CSRFMiddleware",
    ]
    auth: AuthConfig = AuthConfig()


# The two ways to log in (README "Sessions or JWT"); ``panel`` defaults to the
# manifest's choice. Sessions: a signed cookie, CSRF tokens, the login page. JWT: no
# middleware, every request carries ``Authorization: Bearer <token>`` from
# ``POST /admin/authenticate``. Failed logins are throttled in both.
SESSION_PANEL = PanelConfig()
JWT_PANEL = PanelConfig(
    middleware=[],
    auth=AuthConfig(
        middleware="app.panel.jwt_auth.JWTAuthentication",
        pipelines=["app.panel.throttle.LoginThrottle", "app.panel.jwt_auth.JWTLogin"],
    ),
)


class Settings(BaseSettings):
    """Everything configurable; each field can be set by an environment variable."""

    model_config = SettingsConfigDict(
        env_file=PROJECT_DIR / ".env",
        env_nested_delimiter="__",
        # PANEL__AUTH__MIDDLEWARE=… changes that one value of the default ``panel``.
        nested_model_default_partial_update=True,
        extra="ignore",
    )

    # DATABASE_URL: sqlite:///path.db or postgresql+psycopg://user:password@host/name
    database_url: str = f"sqlite:///{PROJECT_DIR / 'library_admin.db'}"
    panel_title: str = "Library admin"
    # PANEL_PREFIX: where the panel (pages, JSON API, login) is served; its links,
    # redirects and the OpenAPI paths follow. /docs and /static stay where they are.
    panel_prefix: str = DEFAULT_PREFIX
    # PANEL_LANGUAGE: the language of the panel's own texts (panel_core/locale/: en,
    # de) when the browser's Accept-Language asks for none that PANEL_LANGUAGES
    # offers (comma-separated codes; empty: every language with a catalog).
    panel_language: str = "en"
    panel_languages: str = ""

    # The list API: rows per page are capped at this (and at each resource's own cap).
    max_per_page: int = 100
    # Request bodies larger than this are refused with 413.
    max_body_size: int = 1024 * 1024
    # Mass delete takes at most this many ids at once.
    max_mass_delete: int = 500
    # Text sent to the API or a form is trimmed before it is checked, and a blank
    # value of a required field is refused; TRIM_STRINGS=0 keeps spaces as sent.
    trim_strings: bool = True
    # CSV imports (…/handler/import) larger than this are refused with 413.
    max_import_size: int = 10 * 1024 * 1024
    # File and image fields. MAX_UPLOAD_SIZE: a multipart create or update larger
    # than this is refused with 413 as it streams in (each field's maxBytes too).
    # STORAGE_URL: empty keeps files in the MEDIA_ROOT folder; s3://bucket/prefix
    # (?endpoint_url=… for an S3-compatible server) in a bucket. See the README.
    max_upload_size: int = 32 * 1024 * 1024
    media_root: str = str(PROJECT_DIR / "media")
    storage_url: str = ""
    # REQUIRE_IF_MATCH=1: changing or deleting a record through the API needs the
    # If-Match header holding its ETag (else 428), so that no client can overwrite a
    # change it has not seen. The edit form always sends the version it loaded.
    require_if_match: bool = False
    # CORS_ORIGINS: the front ends on other origins allowed to call the panel with
    # credentials, comma-separated exact origins (https://app.example.com); none by
    # default. See the README.
    cors_origins: str = ""
    # TRUST_PROXY_HEADERS=1: the JSON answers' links follow the proxy's
    # X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-Prefix. Only when every
    # request comes through a proxy that sets them; off by default. See the README.
    trust_proxy_headers: bool = False

    # SECRET_KEY signs the session cookies: at least 32 characters, the same for every
    # worker. Without it the panel refuses to start, unless DEBUG=1 (then each process
    # makes up its own, and logins end when it stops).
    secret_key: SecretStr | None = None
    debug: bool = False
    # How long a login lasts, in seconds (two weeks).
    session_lifetime: int = 14 * 24 * 60 * 60
    # The panel's middleware and authentication (PANEL__AUTH__MIDDLEWARE=…, or PANEL as
    # JSON); see the README.
    panel: PanelConfig = SESSION_PANEL

    # JWT mode. JWT_SECRET signs the tokens: base64 of at least 32 random bytes (make
    # one with ``python -m app jwt:secret``), the same for every worker; without it the
    # panel refuses to start. JWT_SECRET_PREVIOUS, while set, still verifies the tokens
    # the previous secret signed (rotation); it signs nothing.
    jwt_secret: SecretStr | None = None
    jwt_secret_previous: SecretStr | None = None
    # Lifetime of a token in seconds, and the clock difference tolerated when checking
    # one (at most a minute).
    jwt_ttl: int = Field(3600, ge=60, le=86400)
    jwt_leeway: int = Field(30, ge=0, le=60)
    # The tokens' issuer and audience: tokens of another panel are refused.
    jwt_issuer: str = "library_admin"
    # Login throttle: after this many failed logins for one username from one address
    # within LOGIN_LOCKOUT seconds, further attempts get 429 until the window ends.
    login_max_attempts: int = Field(5, ge=1)
    login_lockout: int = Field(15 * 60, ge=1)

    # The OpenAPI docs (MoonShine's oag config), preset from the manifest's docs block.
    # OAG_TITLE: title of the /docs page. OAG_PATH: the YAML spec oag:generate writes
    # (the JSON one beside it), relative to the project. OAG_ROUTE: the route serving
    # the JSON spec (the YAML one is served beside it). OAG_VIEW: the /docs template,
    # "oag::docs" or a Jinja template path relative to the project.
    oag_title: str = oag_config.DOCS_TITLE
    oag_path: str = oag_config.DOCS_PATH
    oag_route: str = oag_config.DOCS_ROUTE
    oag_view: str = oag_config.DOCS_VIEW
    oag_openapi_version: Literal["3.1.0", "3.0.3"] = oag_config.OPENAPI_VERSION
    # DOCS_ACCESS: who may read /docs and the spec: public, authenticated or off (404).
    docs_access: Literal["public", "authenticated", "off"] = "public"

    @field_validator("panel_prefix")
    @classmethod
    def _path_prefix(cls, value: str) -> str:
        try:
            return prefix_from(value)
        except ValueError as exc:
            raise ValueError(f"PANEL_PREFIX: {exc}") from None

    @field_validator("cors_origins")
    @classmethod
    def _exact_origins(cls, value: str) -> str:
        parse_origins(value)  # ValueError: names the origin that is not one
        return value


@cache
def get_settings() -> Settings:
    """The settings of this process, read on first use."""
    return Settings()
