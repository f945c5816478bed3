"""The framework-neutral panel kernel: fields, resources, list queries, the spec.

Nothing in this package imports a web framework or an ORM, so the same files serve the
FastAPI and the Django projects, and panelforge itself runs the OpenAPI builder at
generation time on exactly this code.
"""
