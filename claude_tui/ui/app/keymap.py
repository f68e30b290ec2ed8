"""User keymaps from `config.keymap` (binding id -> keys) through Textual's `App.set_keymap`.

Every binding a user may want to move carries an `id=`. Entries naming an
unknown id or an unknown key are reported (a notification), never fatal; the
valid ones still apply.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.binding import Binding
from textual.keys import REPLACED_KEYS, Keys, key_to_character

if TYPE_CHECKING:
    from textual.app import App

MODIFIERS = {"ctrl", "shift", "alt", "meta", "super", "hyper"}
_NAMED_KEYS = {key.value.rpartition("+")[2] for key in Keys} | {"space", "tab", "enter", "escape", "backspace",
                                                              "delete", "insert", "home", "end", "pageup", "pagedown"}


def binding_key(character: str) -> str:
    """Textual's name for a one-character key ("?" -> "question_mark", "k" -> "k"), exactly as
    `BINDINGS` name it: a keymap entry must use the same name to replace a binding's key."""
    (binding,) = Binding.make_bindings([Binding(character, "")])
    return binding.key


def bindable_classes() -> list[type]:
    """Every class whose BINDINGS may carry user-remappable ids."""
    from claude_tui.ui.app.bindings import APP_BINDINGS
    from claude_tui.ui.chat.view import ChatView
    from claude_tui.ui.panels.find_bar import FindBar
    from claude_tui.ui.panels.select_bar import SelectBar

    class App:  # the app's bindings, named without importing the app (which imports this module)
        BINDINGS = APP_BINDINGS

    return [App, ChatView, FindBar, SelectBar]


def known_binding_ids(classes: Iterable[type] | None = None) -> dict[str, Binding]:
    found: dict[str, Binding] = {}
    for cls in classes if classes is not None else bindable_classes():
        for binding in getattr(cls, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.id:
                found[binding.id] = binding
    return found


def valid_key(key: str) -> bool:
    """Whether `key` ("ctrl+shift+f", "f3", "?", "question_mark") names a key Textual can deliver."""
    if not key:
        return False
    if len(key) == 1:
        return key.isprintable()
    *modifiers, base = key.split("+")
    if any(modifier not in MODIFIERS for modifier in modifiers) or not base:
        return False
    if len(base) == 1:
        return base.isprintable()
    if base in _NAMED_KEYS:
        return True
    # Named printable keys ("question_mark", "slash", "at"); not any Unicode name ("banana" is 🍌).
    character = key_to_character(REPLACED_KEYS.get(base, base))
    return character is not None and character.isascii() and character.isprintable()


def check_keymap(keymap: dict[str, str], known: Iterable[str]) -> tuple[dict[str, str], list[str]]:
    """Split `keymap` into the entries that can apply and readable problems for the rest."""
    known_ids = set(known)
    good: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, keys in keymap.items():
        if binding_id not in known_ids:
            problems.append(f"keymap: unknown binding id {binding_id!r}")
            continue
        if not isinstance(keys, str) or not keys.strip():
            problems.append(f"keymap: {binding_id!r} has no keys")
            continue
        parts = [part.strip() for part in keys.split(",")]
        bad = [part for part in parts if not valid_key(part if len(part) == 1 else part.lower())]
        if bad:
            problems.append(f"keymap: {binding_id!r}: unknown key{'s' if len(bad) > 1 else ''} "
                            f"{', '.join(repr(b) for b in bad)}")
            continue
        good[binding_id] = ",".join(binding_key(p) if len(p) == 1 else p.lower() for p in parts)
    return good, problems


def applied_keymap(keymap: dict[str, str]) -> dict[str, str]:
    """What `apply_user_keymap` gives Textual for `keymap` (the help screen shows the keys in force;
    Textual keeps no public copy of the keymap it was given)."""
    return check_keymap(keymap, known_binding_ids())[0] if keymap else {}


def apply_user_keymap(app: App[Any], keymap: dict[str, str]) -> list[str]:
    """Apply the valid entries of `keymap` to `app`; notify and return the problems."""
    if not keymap:
        return []
    known = known_binding_ids()
    good, problems = check_keymap(keymap, known)
    if good:
        app.set_keymap(good)
    if problems:
        hint = "Known ids: " + ", ".join(sorted(known))
        app.notify("\n".join(problems) + "\n" + hint, title="Config: keymap", severity="warning", timeout=12)
    return problems


def effective_keys(binding: Binding, keymap: dict[str, str]) -> str:
    """The keys a binding answers to once the keymap is applied."""
    if binding.id and binding.id in keymap:
        return keymap[binding.id]
    return binding.key
