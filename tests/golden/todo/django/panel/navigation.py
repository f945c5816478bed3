"""``to_page`` with ``redirect=True``, and the URL helpers as template globals.

Use these in hooks and templates; the kernel (``panel_core``) has the same helpers
without any Django in them::

    from panel.navigation import to_page

    return to_page("form", BookResource, params={"resourceItem": 5}, redirect=True)
"""

from __future__ import annotations

from django.http import HttpResponse

from panel_core import page_links
from panel_core.page_links import RedirectingToPage, TemplateEnvironment

from .redirects import see_other

to_page: RedirectingToPage[HttpResponse] = RedirectingToPage(see_other)


def install_template_helpers(env: TemplateEnvironment) -> None:
    """Make ``to_page``, ``route`` and ``current_route`` template globals."""
    page_links.install_template_helpers(env, to_page)
