"""The session browser: its screen, listing, table, preview, and the remote session store."""
