"""Panel URLs: the kernel's (``panel_core/urls.py``), shared with the Django panels."""

from __future__ import annotations

from panel_core.urls import (
    CRUD,
    DEFAULT_PREFIX,
    crud_url,
    form_page_url,
    login_url,
    mount_panel,
    page_url,
    panel_prefix,
    record_url,
)

__all__ = [
    "CRUD",
    "DEFAULT_PREFIX",
    "crud_url",
    "form_page_url",
    "login_url",
    "mount_panel",
    "page_url",
    "panel_prefix",
    "record_url",
]
