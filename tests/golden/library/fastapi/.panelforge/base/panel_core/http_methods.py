"""HEAD, OPTIONS and trailing slashes, the same on both frameworks.

HEAD and OPTIONS as RFC 9110 defines them (§9.3.2, §9.3.7): HEAD is answered as GET
is, without the body (same status and headers, the ``Content-Length`` the body would
have had). OPTIONS (but a CORS preflight, which ``panel_core.cors`` answers) is 204
with ``Allow`` naming the path's methods, and a 405 names the same. A URL with a
trailing slash: see ``without_slash``. Each framework's middleware runs the GET and
drops the body, and answers OPTIONS from its own table of routes; the rules come from
here.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import quote

# The methods redirected from a URL with a trailing slash to the one without.
REDIRECTED = frozenset({"GET", "HEAD"})


def allow(methods: Iterable[str]) -> list[str]:
    """The methods an ``Allow`` names for routes taking ``methods``, sorted.

    HEAD wherever GET is, OPTIONS wherever the path exists.
    """
    found = {method.upper() for method in methods}
    if "GET" in found:
        found.add("HEAD")
    if found:
        found.add("OPTIONS")
    return sorted(found)


def allow_header(methods: Iterable[str]) -> str:
    """``Allow``'s value for routes taking ``methods``."""
    return ", ".join(allow(methods))


def without_slash(path: str) -> str | None:
    """``path`` without its trailing slash (``None``: it has none, or is ``/``).

    The panel's URLs have no trailing slash. A GET or HEAD of one with a slash is
    redirected (308, permanent) to the URL without, when that is a route: links typed
    or pasted with a slash still work. Other methods get 404: a client sending a body
    to a wrong URL learns it, rather than having the body sent on.
    """
    stripped = path.rstrip("/") or "/"
    # "//host/" would become "//host": another site's URL, never a redirect here.
    if stripped == path or stripped.startswith("//"):
        return None
    return stripped


def location(path: str, query: str) -> str:
    """The ``Location`` of a redirect to ``path`` (decoded) with ``query`` (as sent)."""
    found = quote(path, safe="/:@!$&'()*+,;=-._~")
    return f"{found}?{query}" if query else found
