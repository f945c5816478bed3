"""The longest password the panel accepts, in both frameworks.

Hashing megabytes of "password" is a denial of service (Django's cap, CVE-2013-1443),
so input validation refuses longer passwords before any hasher sees them.
"""

from __future__ import annotations

MAX_PASSWORD_BYTES = 4096


def is_too_long(password: str) -> bool:
    """Whether ``password`` is over ``MAX_PASSWORD_BYTES`` in UTF-8."""
    return len(password.encode("utf-8", "surrogatepass")) > MAX_PASSWORD_BYTES
