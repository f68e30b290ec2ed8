"""The panels around the log: the prompt (composer), status bar, sidebar, changes, find and select bars."""
