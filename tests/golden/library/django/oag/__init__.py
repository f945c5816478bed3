"""The OpenAPI docs: ``manage.py oag_generate``, the spec routes and ``/docs``."""
