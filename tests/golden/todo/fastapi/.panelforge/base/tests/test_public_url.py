"""Where the JSON answers' absolute links start (``panel_core.public_url``).

The served behaviour (a real proxy's headers, trusted or not) is tested against both
frameworks' servers by panelforge's conformance suite; these are the rules alone.
"""

from __future__ import annotations

import pytest

from panel_core.pagination import PageUrls
from panel_core.public_url import public_origin

SERVER = ("http", "127.0.0.1:8000", "")
PROXY = {
    "x-forwarded-proto": "https",
    "x-forwarded-host": "panel.example.com",
    "x-forwarded-prefix": "/panel",
}


def test_the_server_as_it_saw_the_request() -> None:
    assert public_origin(*SERVER) == "http://127.0.0.1:8000"
    assert public_origin("https", "example.com", "/panel/") == (
        "https://example.com/panel"
    )
    assert public_origin("http", "example.com", "/") == "http://example.com"


def test_proxy_headers_count_only_when_trusted() -> None:
    assert public_origin(*SERVER, forwarded=None) == "http://127.0.0.1:8000"
    assert public_origin(*SERVER, forwarded=PROXY) == "https://panel.example.com/panel"


def test_the_first_of_a_list_counts() -> None:
    forwarded = {**PROXY, "x-forwarded-proto": "https, http"}
    forwarded["x-forwarded-host"] = "panel.example.com, internal:8080"
    assert public_origin(*SERVER, forwarded=forwarded) == (
        "https://panel.example.com/panel"
    )


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("x-forwarded-proto", "gopher"),
        ("x-forwarded-proto", ""),
        ("x-forwarded-host", "evil.example/path"),
        ("x-forwarded-host", "user@evil.example"),
        ("x-forwarded-host", "two words"),
        ("x-forwarded-prefix", "no-slash"),
        ("x-forwarded-prefix", "//evil.example"),
        ("x-forwarded-prefix", "/a b"),
    ],
)
def test_a_value_that_is_no_scheme_host_or_path_is_ignored(
    header: str, value: str
) -> None:
    found = public_origin(*SERVER, forwarded={header: value})
    assert found == "http://127.0.0.1:8000"


def test_hosts_with_ports_and_ipv6_pass() -> None:
    for host in ("panel.example.com:8443", "[2001:db8::1]:8443", "10.0.0.1"):
        found = public_origin(*SERVER, forwarded={"x-forwarded-host": host})
        assert found == f"http://{host}"


def test_a_root_prefix_is_no_prefix() -> None:
    found = public_origin("http", "h", "/mounted", {"x-forwarded-prefix": "/"})
    assert found == "http://h"


def test_page_links_start_with_the_origin_and_keep_the_query() -> None:
    urls = PageUrls("/admin/resource/x/crud", [("search", "a b"), ("page", "3")], "o")
    assert urls.path == "o/admin/resource/x/crud"
    assert urls(2) == "o/admin/resource/x/crud?search=a+b&page=2"
    assert urls.cursor("t") == "o/admin/resource/x/crud?search=a+b&cursor=t"
    assert PageUrls("/p", []).path == "/p"  # the HTML pages' links: paths
