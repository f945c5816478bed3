"""The ``articles`` table the emitted project created (not managed by Django)."""

from __future__ import annotations

from django.db import models


class Article(models.Model):
    title = models.CharField(max_length=200)
    body = models.TextField(null=True)
    published = models.BooleanField(default=False)
    created_at = models.DateTimeField(null=True)

    class Meta:
        managed = False
        db_table = "articles"
        app_label = "django_site"
