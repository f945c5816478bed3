"""This project's side of the test modules it shares with the Django project.

``test_navigation.py``, ``test_to_page.py``, ``test_page_safety.py``,
``test_cursor.py``, ``gadget_parts.py``, ``token_parts.py`` and ``cases.py`` are one
file in both projects (panelforge keeps them in one place). The kernel they test is
``panel_core`` in both; what differs is the framework's side, taken from here: the URL
helpers and the runtime's module names. The Django project's ``tests/frame.py``
exports the same names.
"""

from __future__ import annotations

from app.panel.navigation import install_template_helpers
from app.panel.navigation import to_page as redirect_to_page

# The module that reads the list from the database (``ESTIMATE_CAP`` and the like).
STORE = "app.panel.store"


__all__ = ["STORE", "install_template_helpers", "redirect_to_page"]
