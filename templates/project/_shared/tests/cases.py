"""Tables both projects' HTTP tests run: the same requests, the same answers.

One file in the FastAPI and the Django project; each project's test module sends
these requests its own framework's way.
"""

from __future__ import annotations

import base64

import pytest

HOME = "/admin"
# Targets a request may name (next, _redirect), and where they lead.
REDIRECTS = [
    ("/admin/resource/x/index-page?page=2", "/admin/resource/x/index-page?page=2"),
    ("/", "/"),
    ("//evil.com", HOME),
    ("///evil.com", HOME),
    ("/\\evil.com", HOME),
    ("\\\\evil.com", HOME),
    ("/admin\\..\\evil", HOME),
    ("https://evil.com", HOME),
    ("https:evil.com", HOME),
    ("http://user@evil.com", HOME),
    ("evil.com", HOME),
    ("javascript:alert(1)", HOME),
    ("JaVaScRiPt:alert(1)", HOME),
    ("data:text/html,<script>alert(1)</script>", HOME),
    ("\t//evil.com", HOME),
    (" /admin", HOME),
    ("\n/admin", HOME),
    ("\x01/admin", HOME),
    ("/\t/evil.com", HOME),
    ("/admin\r\nSet-Cookie: x=1", HOME),
    ("", HOME),
    (None, HOME),
]


def guarded_routes(uri: str) -> list[tuple[str, str]]:
    """Every kind of panel route of the resource ``uri``, and a method it answers."""
    crud = f"/admin/resource/{uri}/crud"
    return [
        ("GET", "/admin"),
        ("GET", crud),
        ("POST", crud),
        ("DELETE", crud),
        ("GET", f"{crud}/1"),
        ("PUT", f"{crud}/1"),
        ("PATCH", f"{crud}/1"),
        ("DELETE", f"{crud}/1"),
        ("GET", f"/admin/resource/{uri}/index-page"),
        ("GET", f"/admin/resource/{uri}/form-page"),
        ("GET", f"/admin/resource/{uri}/detail-page/1"),
        ("POST", "/admin/logout"),
    ]


# What ``page_checks`` answers where the request is on none of the resource's pages.
NOWHERE = {
    "index": False,
    "form": False,
    "create": False,
    "update": False,
    "detail": False,
}
INDEX = {**NOWHERE, "index": True}
DETAIL = {**NOWHERE, "detail": True}
CREATE = {**NOWHERE, "form": True, "create": True}
UPDATE = {**NOWHERE, "form": True, "update": True}
_G = "resource/gadget-resource"

# (method, path under /admin, the current-page checks during that request)
PAGE_CHECKS_BY_ROUTE = [
    ("GET", f"{_G}/crud", INDEX),
    ("GET", f"{_G}/crud/5", DETAIL),
    ("POST", f"{_G}/crud", CREATE),
    ("PUT", f"{_G}/crud/5", UPDATE),
    ("PATCH", f"{_G}/crud/5", UPDATE),
    ("DELETE", f"{_G}/crud/5", INDEX),
    ("DELETE", f"{_G}/crud", INDEX),
    ("GET", f"{_G}/index-page", INDEX),
    ("GET", f"{_G}/form-page", CREATE),
    ("GET", f"{_G}/form-page/5", UPDATE),
    ("GET", f"{_G}/detail-page", DETAIL),
    ("GET", f"{_G}/detail-page/5", DETAIL),
    ("GET", f"{_G}/no-such-page", NOWHERE),
    ("GET", "resource/other-resource/index-page", NOWHERE),
    ("GET", "resource/other-resource/crud", NOWHERE),
    ("GET", f"{_G}/handler/export", NOWHERE),
    ("POST", "method/form-page/gadget-resource", CREATE),
    ("POST", "method/index-page/gadget-resource", INDEX),
    ("GET", "component/detail-page/gadget-resource", DETAIL),
    ("GET", "page/report-page", NOWHERE),
    ("GET", "", NOWHERE),
]
# (page an async method is called from, the checks in the method)
PAGE_CHECKS_IN_METHODS = [
    ("index-page", INDEX),
    ("form-page", CREATE),
    ("detail-page", DETAIL),
]

# (CSV text of an import, the 422 answer's errors)
MALFORMED_CSV = [
    ("", {"file": ["The file has no header row."]}),
    (
        "name,colour\n",
        {"file": ["The column 'colour' is not a field of this resource."]},
    ),
    ("name,name\n", {"file": ["The column 'name' appears twice."]}),
    ("name,stock\nA\n", {"row 2": ["The row has 1 cells; the header has 2."]}),
    ("id,name\nabc,A\n", {"row 2": ["The ID 'abc' is not a valid key."]}),
]

# (username, password, the fields a login with them is refused for)
MALFORMED_LOGINS = [
    (None, None, {"username", "password"}),
    ("", "correct horse battery staple", {"username"}),
    ("ada@example.com", 12345, {"password"}),
    ("ada@example.com", "x" * 4097, {"password"}),
]
# (JWT_SECRET, why the panel refuses it), beside a missing one, which each project
# leaves out its own way.
BAD_JWT_SECRETS = [
    pytest.param(" \n", "JWT_SECRET is not set", id="blank"),
    pytest.param("not base64!", "JWT_SECRET is not base64", id="not-base64"),
    pytest.param(
        base64.urlsafe_b64encode(b"\xfb" * 32).decode(),
        "JWT_SECRET is not base64",
        id="url-safe",
    ),
    pytest.param("changeme", "JWT_SECRET is 6 bytes once decoded", id="changeme"),
    pytest.param(
        base64.b64encode(b"k" * 16).decode(),
        "JWT_SECRET is 16 bytes once decoded",
        id="16-bytes",
    ),
]
