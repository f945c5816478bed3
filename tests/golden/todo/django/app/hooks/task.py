"""Your Task resource: change how the panel serves it here.

panelforge writes this file once and never overwrites it. The generated declaration
it extends lives in app/resources/task.py (regenerated from the manifest).

Override class attributes such as ``title``, ``search``, ``query_tags``, ``per_page``,
``default_sort`` or ``index_fields``, implement the manifest's methods below, or add
lifecycle hooks (``before_creating``, ``after_updated``…), a ``scope`` and ``can``
(raise ``ValidationError`` or ``Forbidden`` from ``panel.hooks``): see the
README's "Customising". Every resource has URL helpers (``self.form_page_url(key)``…)
and current-page checks (``self.is_now_on_form()``…).
"""

from __future__ import annotations

from app.resources.task import TaskResource as GeneratedTaskResource


class TaskResource(GeneratedTaskResource):
    """Task records in the panel."""
