"""The OpenAPI docs: ``python -m app oag:generate``, ``/docs`` and the served spec."""
