"""The project's configuration: settings, URLs, and the ASGI and WSGI entry points."""
