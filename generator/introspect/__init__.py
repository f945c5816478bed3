"""``panelforge inspect``: a manifest from an existing database's catalog.

A pipeline read from its modules: :mod:`.urls` (the URL a user gives → an engine URL,
masked for messages) → :mod:`.catalog` (the only module that talks to the database:
tables, columns, keys, constraints as plain data) → :mod:`.types` (a column's type →
a field's options) → :mod:`.resources` (tables → the manifest's resources, and the
notes on what it cannot say) → :mod:`.yamltext` (the manifest's text, with its header).
"""
