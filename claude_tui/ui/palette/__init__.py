"""The command palette: commands, hosts and sessions providers."""
