"""`claude-tui usage`: every API call the transcripts record, counted as ccusage counts them, and
reports of them — `scan` reads a transcript's calls, `pool` scans many at once, `index` keeps them in
the session index's database, `report` sums them, `text` and `charts` draw them, `command` is the
subcommand."""
