"""An MCP elicitation's form: the fields its JSON schema asks for, and the answer they make.

MCP restricts `requested_schema` to a flat object of primitive properties: string (with
minLength/maxLength, a format, an enum), number/integer (minimum/maximum), boolean, and an
array of enum strings (several choices). A property of any other shape is shown as text.
Pure: the dialog (`ui/manage/elicitation.py`) draws the fields and sends `answer(...)`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .sanitize import printable

__all__ = ["FormField", "form_fields", "parse_values", "answer"]

_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass
class FormField:
    name: str
    kind: str
    """text | number | integer | boolean | choice | choices."""
    title: str
    description: str = ""
    required: bool = False
    default: Any = None
    options: list[tuple[str, str]] = field(default_factory=list)
    """(value, label) of a choice, in the schema's order."""
    minimum: float | None = None
    maximum: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    format: str = ""


def _options(spec: dict[str, Any]) -> list[tuple[str, str]]:
    if isinstance(spec.get("oneOf"), list):  # titled choices: [{const, title}]
        return [(str(o.get("const")), str(o.get("title") or o.get("const")))
                for o in spec["oneOf"] if isinstance(o, dict) and "const" in o]
    values = spec.get("enum")
    if not isinstance(values, list):
        return []
    names = spec.get("enumNames")
    labels = names if isinstance(names, list) and len(names) == len(values) else values
    return [(str(v), str(n)) for v, n in zip(values, labels, strict=False)]


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def form_fields(schema: object, order: list[str] | None = None) -> list[FormField]:
    """The schema's properties as fields, in the server's order (`property_order` when given)."""
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return []
    props: dict[str, Any] = schema["properties"]
    required = set(r for r in schema.get("required") or () if isinstance(r, str))
    names = [n for n in order or () if n in props] + [n for n in props if n not in (order or ())]
    fields: list[FormField] = []
    for name in names:
        spec = props[name] if isinstance(props[name], dict) else {}
        kind = str(spec.get("type") or "string")
        options = _options(spec)
        items = spec.get("items")
        if kind == "array" and isinstance(items, dict):
            options, kind = _options(items), "choices"
        elif options:
            kind = "choice"
        elif kind not in ("number", "integer", "boolean"):
            kind = "text"
        fields.append(FormField(
            name=name, kind=kind, title=printable(str(spec.get("title") or name)),
            description=printable(str(spec.get("description") or "")), required=name in required,
            default=spec.get("default"), options=options,
            minimum=_number(spec.get("minimum")), maximum=_number(spec.get("maximum")),
            min_length=_count(spec.get("minLength", spec.get("minItems"))),
            max_length=_count(spec.get("maxLength", spec.get("maxItems"))),
            format=str(spec.get("format") or ""),
        ))
    return fields


def _check_text(f: FormField, text: str) -> str | None:
    if f.min_length is not None and len(text) < f.min_length:
        return f"at least {f.min_length} characters"
    if f.max_length is not None and len(text) > f.max_length:
        return f"at most {f.max_length} characters"
    if f.format == "email" and not _EMAIL.fullmatch(text):
        return "an email address"
    if f.format == "date" and not _DATE.fullmatch(text):
        return "a date (YYYY-MM-DD)"
    if f.format == "uri" and "://" not in text:
        return "a URL (scheme://…)"
    return None


def _check_number(f: FormField, text: str) -> tuple[Any, str | None]:
    try:
        value: float | int = int(text) if f.kind == "integer" else float(text)
    except ValueError:
        return None, "a whole number" if f.kind == "integer" else "a number"
    if f.minimum is not None and value < f.minimum:
        return None, f"at least {f.minimum:g}"
    if f.maximum is not None and value > f.maximum:
        return None, f"at most {f.maximum:g}"
    return value, None


def parse_values(fields: list[FormField], entered: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """What the user entered (text for text and numbers, a bool, a value or a list of values for
    choices) as the content to send, and the problems by field name ("needed", "at least 2 …")."""
    content: dict[str, Any] = {}
    problems: dict[str, str] = {}
    for f in fields:
        raw = entered.get(f.name)
        if raw is None or raw == "" or raw == []:
            if f.required and f.kind != "boolean":
                problems[f.name] = "needed"
            elif f.kind == "boolean" and raw is not None:
                content[f.name] = bool(raw)
            continue
        if f.kind == "boolean":
            content[f.name] = bool(raw)
        elif f.kind in ("number", "integer"):
            value, why = _check_number(f, str(raw).strip())
            if why:
                problems[f.name] = why
            else:
                content[f.name] = value
        elif f.kind == "choice":
            if str(raw) not in {v for v, _ in f.options}:
                problems[f.name] = "one of the choices"
            else:
                content[f.name] = str(raw)
        elif f.kind == "choices":
            chosen = [str(v) for v in raw] if isinstance(raw, (list, tuple)) else [str(raw)]
            if f.min_length is not None and len(chosen) < f.min_length:
                problems[f.name] = f"at least {f.min_length} choices"
            elif f.max_length is not None and len(chosen) > f.max_length:
                problems[f.name] = f"at most {f.max_length} choices"
            else:
                content[f.name] = chosen
        else:
            why = _check_text(f, str(raw))
            if why:
                problems[f.name] = why
            else:
                content[f.name] = str(raw)
    return content, problems


def answer(action: str, content: dict[str, Any] | None = None) -> dict[str, Any]:
    """The `elicitation` response: accept (with the content), decline or cancel."""
    if action == "accept":
        return {"action": "accept", "content": dict(content or {})}
    return {"action": action}
