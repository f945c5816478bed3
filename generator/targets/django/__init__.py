"""The Django target: models, Django migrations, the panel as a reusable app."""

from .target import DjangoTarget

__all__ = ["DjangoTarget"]
