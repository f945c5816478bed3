"""The admin panel as a reusable Django app: resources, routes, pages, logins.

``panel.core`` is the framework-neutral kernel (the same files as in panelforge's
FastAPI projects); the modules beside it are its Django runtime.
"""
