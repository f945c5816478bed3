"""This project's side of the test modules it shares with the Django project.

``test_navigation.py``, ``test_to_page.py``, ``test_page_safety.py``,
``gadget_parts.py`` and ``cases.py`` are
one file in both projects (the Django project's are links to these). They test the
kernel, which each project imports by its own path, so they take the kernel's names
and the framework's URL helpers from here: the Django project's ``tests/frame.py``
exports the same names.
"""

from __future__ import annotations

from app.panel.core.csv_text import neutralise, restore
from app.panel.core.current import (
    RouteState,
    Site,
    reset_current_route,
    set_current_route,
)
from app.panel.core.endpoints import to_page
from app.panel.core.fields import (
    ID,
    Boolean,
    Date,
    Integer,
    Number,
    Select,
    Text,
    Textarea,
    Url,
)
from app.panel.core.pages import FormPage, IndexPage, Page, PageError, Pages
from app.panel.core.resource import QueryTag, Resource
from app.panel.core.table import display
from app.panel.core.urls import safe_path
from app.panel.navigation import install_template_helpers
from app.panel.navigation import to_page as redirect_to_page

__all__ = [
    "ID",
    "Boolean",
    "Date",
    "FormPage",
    "IndexPage",
    "Integer",
    "Number",
    "Page",
    "PageError",
    "Pages",
    "QueryTag",
    "Resource",
    "RouteState",
    "Select",
    "Site",
    "Text",
    "Textarea",
    "Url",
    "display",
    "install_template_helpers",
    "neutralise",
    "redirect_to_page",
    "reset_current_route",
    "restore",
    "safe_path",
    "set_current_route",
    "to_page",
]
