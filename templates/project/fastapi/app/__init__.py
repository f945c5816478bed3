"""The admin panel application."""
