"""The framework-neutral panel kernel: fields, resources, list queries, the spec,
the route table and URL helpers (``routes``, ``pages``, ``navigation``, ``endpoints``),
the current request (``current``) and CSV text (``csv_text``).

Nothing in this package imports a web framework or an ORM, so the same files serve the
FastAPI and the Django projects, and panelforge itself runs the OpenAPI builder at
generation time on exactly this code.
"""
