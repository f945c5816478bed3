from __future__ import annotations

from django.urls import path

from .drf import ArticleViewSet

PATH = "admin/resource/articles/crud"
urlpatterns = [
    path(PATH, ArticleViewSet.as_view({"get": "list", "post": "create"})),
    path(
        PATH + "/<int:pk>",
        ArticleViewSet.as_view(
            {"get": "retrieve", "put": "update", "delete": "destroy"}
        ),
    ),
]
