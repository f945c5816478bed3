"""The project's tests: the API of every resource, the migrations, the CLI."""
