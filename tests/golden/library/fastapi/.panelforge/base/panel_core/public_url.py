"""Where clients reach the panel: the origin and prefix absolute URLs start with.

The JSON answers' links (the paginators' ``path``, ``first_page_url``, ``links``…) are
absolute, as Laravel's paginators answer them: ``scheme://host[:port]/prefix/admin/…``,
built from the request as the server sees it — the scheme the server gives (uvicorn
and gunicorn take ``X-Forwarded-Proto`` from their ``FORWARDED_ALLOW_IPS``), the
``Host`` header, and the framework's own prefix (FastAPI's ``root_path``, Django's
``SCRIPT_NAME``/``FORCE_SCRIPT_NAME``).

A reverse proxy says where clients really are in ``X-Forwarded-Proto``,
``X-Forwarded-Host`` and ``X-Forwarded-Prefix``. Anybody can send those headers, so
they are read only when the ``TRUST_PROXY_HEADERS`` setting is on (off by default):
turn it on only when every request comes through a proxy that sets them. A proxy
that appends to a list (``a, b``) is read at the first value, the client's side. A
value that is not a scheme, a host or a path is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["FORWARDED_HEADERS", "public_origin"]

# The headers, lower-cased as both frameworks can look them up.
FORWARDED_HEADERS = ("x-forwarded-proto", "x-forwarded-host", "x-forwarded-prefix")
_SCHEMES = frozenset({"http", "https"})
# A host name, an IPv4 address or a bracketed IPv6 address, with an optional port.
_HOST = re.compile(r"(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?\Z")
# Path segments of unreserved characters and percent-escapes.
_PREFIX = re.compile(r"(?:/[A-Za-z0-9._~%!$&'()*+,;=:@-]+)*/?\Z")


def _first(value: str | None) -> str:
    """The first of a comma-separated header's values (what the first proxy saw)."""
    return (value or "").split(",", 1)[0].strip()


def _prefix(value: str) -> str:
    """``/a/b`` from ``/a/b/``; an empty prefix for ``/`` or nothing."""
    return value.rstrip("/")


def public_origin(
    scheme: str,
    host: str,
    prefix: str = "",
    forwarded: Mapping[str, str] | None = None,
) -> str:
    """``scheme://host`` plus the prefix the panel is served under (no final ``/``).

    ``forwarded`` holds the request's ``X-Forwarded-*`` headers (lower-case names)
    when the proxy is trusted, else ``None``: each valid one replaces what the server
    saw.
    """
    if forwarded is not None:
        proto = _first(forwarded.get("x-forwarded-proto")).lower()
        scheme = proto if proto in _SCHEMES else scheme
        name = _first(forwarded.get("x-forwarded-host"))
        host = name if _HOST.match(name) else host
        path = _first(forwarded.get("x-forwarded-prefix"))
        prefix = path if path and _PREFIX.match(path) else prefix
    return f"{scheme}://{host}{_prefix(prefix)}"
