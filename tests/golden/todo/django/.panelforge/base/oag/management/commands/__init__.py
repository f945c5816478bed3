"""``manage.py oag_generate``."""
