"""(d) Plain Django: ``JsonResponse`` of ``.values()``, JSON body parsed by hand."""

from __future__ import annotations

import json

from bench_env import PER_PAGE
from django.core.paginator import Paginator
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from .models import Article

COLUMNS = ("id", "title", "body", "published", "created_at")


@csrf_exempt
def articles(request: HttpRequest) -> JsonResponse:
    if request.method == "POST":
        return _create(request)
    paginator = Paginator(Article.objects.order_by("-id").values(*COLUMNS), PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    return JsonResponse(
        {
            "current_page": page.number,
            "data": list(page.object_list),
            "per_page": PER_PAGE,
            "total": paginator.count,
            "last_page": paginator.num_pages,
        }
    )


def _create(request: HttpRequest) -> JsonResponse:
    payload = json.loads(request.body)
    title = payload.get("title")
    if not isinstance(title, str) or len(title) > 200:
        return JsonResponse({"message": "title: at most 200 characters"}, status=422)
    article = Article.objects.create(
        title=title,
        body=payload.get("body"),
        published=bool(payload.get("published", False)),
        created_at=payload.get("created_at"),
    )
    row = Article.objects.values(*COLUMNS).get(pk=article.pk)
    return JsonResponse(row, status=201)


def article(request: HttpRequest, pk: int) -> JsonResponse:  # noqa: ARG001
    row = Article.objects.filter(pk=pk).values(*COLUMNS).first()
    if row is None:
        return JsonResponse({"message": "Not found."}, status=404)
    return JsonResponse(row)
