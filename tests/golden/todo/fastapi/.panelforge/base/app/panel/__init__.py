"""The admin panel runtime: one generic router serving every registered resource.

``core/`` holds the framework-neutral declarations (fields, resources, list queries);
the modules beside it bind them to FastAPI and SQLAlchemy.
"""
