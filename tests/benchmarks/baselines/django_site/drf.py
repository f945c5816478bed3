"""(c) Django REST framework: a ``ModelViewSet`` with page-number pagination."""

from __future__ import annotations

from rest_framework import serializers, viewsets

from .models import Article


class ArticleSerializer(serializers.ModelSerializer):
    class Meta:
        model = Article
        fields = ["id", "title", "body", "published", "created_at"]


class ArticleViewSet(viewsets.ModelViewSet):
    queryset = Article.objects.order_by("-id")
    serializer_class = ArticleSerializer
