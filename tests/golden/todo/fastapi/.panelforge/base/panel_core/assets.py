"""Where the files the panel serves live: inside this package, as in a reusable app.

``templates/panel/`` holds the pages (Jinja, ``.html``) and ``templates/oag/docs.html``
the /docs page; ``static/panel/`` holds the panel's CSS and JavaScript, and
``docs_static/`` Swagger UI (vendored, with its licence) and the script that starts
it. Both frameworks read them from here: FastAPI's template loader and static mounts
(``/static/panel/…``, ``/docs/assets/…``), Django's Jinja2 backend (``DIRS``) and its
static files (``STATICFILES_DIRS``: ``/static/panel/…``, ``/static/oag/…``, served by
WhiteNoise).
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATES_DIR = PACKAGE_DIR / "templates"
# The /docs page's own template (``oag::docs``).
DOCS_TEMPLATES_DIR = TEMPLATES_DIR / "oag"
# The panel's CSS and JavaScript, under ``panel/``.
STATIC_DIR = PACKAGE_DIR / "static"
# Swagger UI's files and the script that starts it.
DOCS_STATIC_DIR = PACKAGE_DIR / "docs_static"
