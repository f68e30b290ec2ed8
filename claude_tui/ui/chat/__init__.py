"""The chat: a session object (`session.py`), the widget that shows one (`view.py`) and its parts."""
