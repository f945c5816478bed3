from __future__ import annotations

from django.urls import path

from .values import article, articles

PATH = "admin/resource/articles/crud"
urlpatterns = [path(PATH, articles), path(PATH + "/<int:pk>", article)]
