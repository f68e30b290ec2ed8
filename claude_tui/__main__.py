"""`python -m claude_tui`: the same as the `claude-tui` command."""

import sys

from claude_tui.cli import main

sys.exit(main())
