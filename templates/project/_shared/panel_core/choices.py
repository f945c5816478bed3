"""How related records are offered and named: in tables, on detail pages, in selects.

A related record is named by its resource's ``display`` (``panel_core.labels``). Each
framework loads the fields a display reads with its own database layer, by these rules.
"""

from __future__ import annotations

# A select box with more options than this is no help; the list stops there.
MAX_OPTIONS = 1000
