"""The names your resource hooks use: ``from panel.hooks import ValidationError``.

They are the kernel's (``panel_core.hooks``), shared with panelforge's FastAPI panels;
see that module for what each hook receives and when it runs, and the README's
"Customising" chapter for examples.
"""

from panel_core.hooks import NOT_A_FIELD, Forbidden, ValidationError

__all__ = ["NOT_A_FIELD", "Forbidden", "ValidationError"]
