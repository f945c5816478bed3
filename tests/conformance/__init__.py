"""The conformance suite: one set of HTTP tests every framework target must pass.

Each emitted project (framework × example manifest × SQLite/PostgreSQL) is migrated,
given users and served on a loopback port by its own commands; the tests only speak
HTTP to it (and, for the 409 cases, add a constraint to its database). Expectations
are the wire contract of the FastAPI runtime: statuses, headers, exact bodies.
"""
