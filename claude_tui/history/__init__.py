"""Past sessions on disk: listing, a cached index, full-text search, transcripts.

No Textual here, and nothing under the CLI's config dir is ever written.
"""

from .index import RefreshStats, SessionIndex, SessionRow, fts5_available
from .meta import SessionMeta, read_meta
from .names import NameStore, get_session_name, set_session_name
from .paths import config_root, encode_project_dir, find_session_file, list_project_dirs, project_dir_for
from .scan import count_messages
from .search import SearchHit
from .transcript import Transcript, load_session, load_transcript

__all__ = [
    "NameStore", "RefreshStats", "SearchHit", "SessionIndex", "SessionMeta", "SessionRow", "Transcript",
    "config_root", "count_messages", "encode_project_dir", "find_session_file", "fts5_available",
    "get_session_name", "list_project_dirs", "load_session", "load_transcript", "project_dir_for",
    "read_meta", "set_session_name",
]
