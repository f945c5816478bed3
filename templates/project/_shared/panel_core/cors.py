"""Cross-origin requests (CORS) from the front ends ``CORS_ORIGINS`` lists.

Off by default: with no origins listed, browsers keep other sites' scripts out. Each
listed origin (``https://app.example.com``: scheme, host and port, nothing else) may
call the panel with credentials (the session cookie, or an ``Authorization`` header),
so ``*`` is refused. A preflight (``OPTIONS`` with ``Origin`` and
``Access-Control-Request-Method``) from a listed origin is answered here, 204; other
answers to a listed origin carry ``Access-Control-Allow-Origin`` (the origin echoed)
and the headers scripts may read. Unlisted origins get no CORS header at all.

A cross-origin session still sends the CSRF token (``X-CSRF-Token``) with every
change, as a same-origin script does. Each framework wires this in its own middleware;
the rules and the headers come from here, so both answer alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

ALLOWED_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
ALLOWED_HEADERS = (
    "Accept",
    "Authorization",
    "Content-Type",
    "If-Match",
    "X-CSRF-Token",
)
# What a script may read of an answer beyond the CORS-safelisted headers.
EXPOSED_HEADERS = ("ETag", "Location", "Retry-After")
# How long (seconds) a browser may reuse a preflight's answer.
MAX_AGE = 600

Headers = list[tuple[str, str]]


def parse_origins(value: str) -> tuple[str, ...]:
    """The origins of a comma-separated ``CORS_ORIGINS``; ``ValueError`` names a bad one."""
    origins = [item.strip() for item in value.split(",") if item.strip()]
    for origin in origins:
        _check_origin(origin)
    return tuple(dict.fromkeys(origin.lower() for origin in origins))


def _check_origin(origin: str) -> None:
    if origin == "*":
        raise ValueError(
            "CORS_ORIGINS must list exact origins (https://app.example.com), not '*': "
            "the panel's requests carry credentials"
        )
    parts = urlsplit(origin)
    exact = parts.scheme in ("http", "https") and parts.netloc
    if not exact or parts.path or parts.query or parts.fragment:
        raise ValueError(
            f"CORS_ORIGINS: {origin!r} is not an origin "
            "(scheme://host[:port], without a path or a trailing slash)"
        )


@dataclass(frozen=True)
class Cors:
    """The CORS answers for ``origins`` (none: CORS off)."""

    origins: tuple[str, ...] = ()

    @property
    def enabled(self) -> bool:
        """Whether any origin is listed."""
        return bool(self.origins)

    def allows(self, origin: str | None) -> bool:
        """Whether ``origin`` (the request's ``Origin`` header) is listed."""
        return origin is not None and origin.lower() in self.origins

    def is_preflight(
        self, method: str, origin: str | None, requested: str | None
    ) -> bool:
        """Whether a request is a preflight this panel answers (a listed origin)."""
        return method == "OPTIONS" and requested is not None and self.allows(origin)

    def preflight_headers(self, origin: str) -> Headers:
        """The headers of the 204 answering a preflight from ``origin``."""
        return [
            *self._common(origin),
            ("Access-Control-Allow-Methods", ", ".join(ALLOWED_METHODS)),
            ("Access-Control-Allow-Headers", ", ".join(ALLOWED_HEADERS)),
            ("Access-Control-Max-Age", str(MAX_AGE)),
        ]

    def response_headers(self, origin: str | None) -> Headers:
        """The headers added to an answer (to ``origin``, if listed)."""
        if not self.allows(origin):
            return []
        assert origin is not None
        return [
            *self._common(origin),
            ("Access-Control-Expose-Headers", ", ".join(EXPOSED_HEADERS)),
        ]

    @staticmethod
    def _common(origin: str) -> Headers:
        return [
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Allow-Credentials", "true"),
        ]


def add_vary(current: str | None, name: str = "Origin") -> str:
    """A ``Vary`` value naming ``name`` too (answers differ by origin)."""
    names = [item.strip() for item in (current or "").split(",") if item.strip()]
    if name.lower() not in (item.lower() for item in names):
        names.append(name)
    return ", ".join(names)
