"""Panel URLs: the kernel's (``panel_core/urls.py``), shared with the Django panels."""

from __future__ import annotations

from panel_core.urls import (
    CRUD,
    PREFIX,
    crud_url,
    form_page_url,
    login_url,
    page_url,
    record_url,
)

__all__ = [
    "CRUD",
    "PREFIX",
    "crud_url",
    "form_page_url",
    "login_url",
    "page_url",
    "record_url",
]
