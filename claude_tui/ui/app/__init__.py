"""The application: the App, its keys and bindings, launching, shutdown, the quiet driver, remembered state, help."""
