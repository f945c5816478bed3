"""The WSGI entry point: ``gunicorn config.wsgi``.

Settings the panel cannot work with (no SECRET_KEY, no usable JWT_SECRET…) stop the
server here with one ``error:`` line each, before it answers anything.
"""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

from panel.checks import application_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = application_or_exit(get_wsgi_application)
