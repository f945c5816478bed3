"""The panel's views, by route name (``panel.urls`` registers them).

Routes that share a path (``crud.index``, ``crud.store``, ``crud.massDelete``) share
one class-based view, which dispatches on the HTTP method.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse

from .. import files
from . import auth, crud, dashboard, handlers, methods, pages, record_actions, trash

_collection = crud.CollectionView.as_view()
_item = crud.ItemView.as_view()

VIEWS: dict[str, Callable[..., HttpResponse]] = {
    "index": pages.home,
    "dashboard": dashboard.dashboard,
    "login": auth.login_page,
    "authenticate": auth.authenticate,
    "logout": auth.logout,
    "crud.index": _collection,
    "crud.store": _collection,
    "crud.massDelete": _collection,
    "crud.show": _item,
    "crud.update": _item,
    "crud.destroy": _item,
    "crud.action": record_actions.action,
    "crud.trash": trash.trash,
    "crud.restore": trash.restore,
    "crud.forceDelete": trash.force_delete,
    "crud.file": files.file,
    "handler": handlers.handler,
    "resource.page": pages.resource_page,
    "page": pages.page,
    "method": methods.method,
    "component": methods.component,
}
