"""The ``/docs`` page, minus the web framework: its template, headers and media types.

The page is Jinja (the built-in ``oag::docs`` template or one of the project's), with
Swagger UI's files served by the project itself: the Content-Security-Policy allows
nothing from elsewhere and no inline script (the options travel as JSON data).
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, Template

from .oag import BUILTIN_VIEW

_CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
# Headers of the docs page.
PAGE_HEADERS = {
    "Content-Security-Policy": _CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
# Media types of the served spec, by kind.
SPEC_MEDIA_TYPES = {"json": "application/json", "yaml": "application/yaml"}


def docs_template(view: str, *, builtin_dir: Path, project_dir: Path) -> Template:
    """The /docs template: ``oag::docs`` (``builtin_dir/docs.html``), else a file.

    A file path is relative to ``project_dir`` (or absolute). A template that does not
    exist fails here, when the app starts.
    """
    if view == BUILTIN_VIEW:
        loader, name = FileSystemLoader(builtin_dir), "docs.html"
    else:
        path = project_dir / view
        loader, name = FileSystemLoader(path.parent), path.name
    env = Environment(
        loader=loader,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env.get_template(name)
