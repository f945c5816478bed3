"""HEAD and OPTIONS as RFC 9110 defines them (§9.3.2, §9.3.7), the same on both.

HEAD is answered as GET is, without the body: same status and headers, the
``Content-Length`` the body would have had. OPTIONS (but a CORS preflight, which
``panel_core.cors`` answers) is 204 with ``Allow`` naming the path's methods, and a
405 names the same. Each framework's middleware runs the GET and drops the body, and
answers OPTIONS from its own table of routes; the rules come from here.
"""

from __future__ import annotations

from collections.abc import Iterable


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
