"""Hand-written apps the emitted projects are compared with (one table, same URLs).

Each reads its settings from the environment: ``BENCH_DB`` (the SQLite file),
``BENCH_PRAGMAS`` (a JSON list of statements run on every new connection: the emitted
app's settings, or ``[]`` for SQLite's defaults) and, where supported,
``BENCH_JWT_SECRET`` (require ``Authorization: Bearer`` HS256 tokens).
"""
