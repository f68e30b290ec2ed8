"""Past sessions on disk: listing, a cached index, full-text search, transcripts.

No Textual here, and nothing under the CLI's config dir is ever written. Import the modules
themselves (`history.paths`, `history.index`…): the package re-exports nothing, so that a light one
(`paths`, which the launcher needs before it starts the CLI) does not load the index and its SQLite.
"""
