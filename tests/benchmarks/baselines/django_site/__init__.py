"""(c, d) The Django baselines: DRF ``ModelViewSet`` and a plain ``JsonResponse`` view.

``BENCH_DJANGO_VIEW=drf`` serves a ``ModelViewSet`` with ``PageNumberPagination`` (25),
JSON renderer and parser only, no authentication; ``values`` serves function views
returning ``JsonResponse`` of ``.values()``. Serve with ``gunicorn
django_site.wsgi:application`` (one sync worker) from the ``baselines`` folder.
"""
