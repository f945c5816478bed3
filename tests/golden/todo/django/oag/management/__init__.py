"""The docs app's commands."""
