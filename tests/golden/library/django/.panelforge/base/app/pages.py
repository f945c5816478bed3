"""Stand-alone panel pages: pages of their own, without a resource.

List your page classes in ``PAGES``; each is served at ``/admin/page/<uri>`` (the kebab
case of the class name unless it sets ``uri``), rendered from
``templates/panel/pages/<uri>.html`` if you write one::

    from panel_core.pages import Page


    class ReportsPage(Page):
        title = "Reports"
        methods = ("rebuild",)  # POST /admin/method/reports-page?method=rebuild

        def rebuild(self, request):
            return {"message": "Rebuilt."}


    PAGES = (ReportsPage,)
"""

from __future__ import annotations

from panel_core.pages import Page

PAGES: tuple[type[Page], ...] = ()
