"""Dialogs: the guarded frame (`base.py`) and its parts, and every dialog and one-field prompt built on it."""
