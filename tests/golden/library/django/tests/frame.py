"""This project's side of the test modules it shares with the FastAPI project.

``test_navigation.py``, ``test_to_page.py``, ``test_page_safety.py``,
``gadget_parts.py``, ``token_parts.py`` and ``cases.py`` are one file in both projects
(panelforge keeps them in one place). The kernel they test is ``panel_core`` in both;
what differs is the framework's side of the URL helpers, taken from here: the FastAPI
project's ``tests/frame.py`` exports the same names.
"""

from __future__ import annotations

from panel.navigation import install_template_helpers
from panel.navigation import to_page as redirect_to_page

__all__ = ["install_template_helpers", "redirect_to_page"]
