from claude_tui.fakecli.server import main

if __name__ == "__main__":
    raise SystemExit(main())
