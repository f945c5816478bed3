"""The admin panel as a reusable Django app: resources, routes, pages, logins.

The framework-neutral kernel is the top-level package ``panel_core`` (the same files
as in panelforge's FastAPI projects); the modules here are its Django runtime.
"""
