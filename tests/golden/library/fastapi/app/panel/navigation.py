"""``to_page`` with ``redirect=True``, and the URL helpers as template globals.

Use these in hooks and templates; the kernel (``panel_core``) has the same helpers
without any FastAPI in them::

    from app.panel.navigation import to_page

    return to_page("form", BookResource, params={"resourceItem": 5}, redirect=True)
"""

from __future__ import annotations

from functools import partial

from fastapi.responses import RedirectResponse

from panel_core import page_links
from panel_core.page_links import RedirectingToPage, TemplateEnvironment

# See Other: whatever the method of the request, the browser follows with a GET.
to_page: RedirectingToPage[RedirectResponse] = RedirectingToPage(
    partial(RedirectResponse, status_code=303)
)


def install_template_helpers(env: TemplateEnvironment) -> None:
    """Make ``to_page``, ``route`` and ``current_route`` template globals."""
    page_links.install_template_helpers(env, to_page)
