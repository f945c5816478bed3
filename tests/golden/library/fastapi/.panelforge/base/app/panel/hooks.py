"""The names your resource hooks use: ``from app.panel.hooks import ValidationError``.

They are the kernel's (``panel_core.hooks``), shared with panelforge's Django panels;
see that module for what each hook receives and when it runs.
"""

from panel_core.hooks import NOT_A_FIELD, Forbidden, ValidationError

__all__ = ["NOT_A_FIELD", "Forbidden", "ValidationError"]
