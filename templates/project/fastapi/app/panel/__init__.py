"""The admin panel runtime: one generic router serving every registered resource.

The framework-neutral declarations (fields, resources, list queries) are the kernel's,
the top-level package ``panel_core`` (the same files as in panelforge's Django
projects); the modules here bind them to FastAPI and SQLAlchemy.
"""
