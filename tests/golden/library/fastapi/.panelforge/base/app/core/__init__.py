"""Project-wide plumbing: settings, database, model base, password hashing."""
