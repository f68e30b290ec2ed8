"""Shared pieces of the protocol models: config, `.raw`, tagged unions with an Unknown fallback.

Design: every level that is discriminated (message `type`, system `subtype`, stream `event.type`,
delta `type`, content block `type`, control request `subtype`) is a pydantic-core *tagged union*
(dispatch by dict lookup, in Rust) wrapped in a left-to-right union whose second arm builds the
level's Unknown model in Python. A known line therefore validates entirely in Rust; an unknown or
malformed one lands on the Unknown of the innermost level that failed, keeping its raw dict and the
validation error text. Nothing raises.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import core_schema as cs
from pydantic_core import from_json

from .lenient import repair

__all__ = ["ProtoModel", "UnknownBase", "Tagged", "attach_raw", "dropped_fields", "loads"]

_set = object.__setattr__


def loads(src: bytes | str) -> Any:
    return from_json(src)


class ProtoModel(BaseModel):
    """Base of every protocol model: unknown keys are kept, both field names and aliases accepted."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, arbitrary_types_allowed=False)

    lenient: ClassVar[bool] = True
    """A malformed instance is repaired by dropping its bad fields (`lenient.repair`); False keeps
    it Unknown (permission requests: a dropped field would change what we answer)."""

    @property
    def raw(self) -> dict[str, Any]:
        """The original JSON object (parsed lazily from the source line when decoded from bytes)."""
        p = self.__pydantic_private__
        if p:
            r = p.get("raw")
            if r is None and "src" in p:
                try:
                    r = loads(p["src"])
                except ValueError:  # pragma: no cover - src was already valid JSON
                    r = {}
                p["raw"] = r
                del p["src"]
            if isinstance(r, dict):
                return r
        return self.model_dump(by_alias=True, exclude_unset=True)


def dropped_fields(model: Any) -> list[str]:
    """The paths of the bad fields dropped to decode `model` (empty for a clean one)."""
    private = getattr(model, "__pydantic_private__", None)
    return list(private.get("dropped", ())) if isinstance(private, dict) else []


def attach_raw(model: BaseModel, raw: Any = None, src: bytes | str | None = None) -> BaseModel:
    """Remember the original object (or the line it will be parsed from) on a decoded model."""
    if src is not None:
        _set(model, "__pydantic_private__", {"src": src})
    else:
        _set(model, "__pydantic_private__", {"raw": raw})
    return model


class UnknownBase(ProtoModel):
    """Something we could not type: kept whole (`.raw`) with the reason (`.validation_error`)."""

    type: Any = None
    validation_error: str | None = None

    _tag_key: ClassVar[str] = "type"

    @classmethod
    def from_raw(cls, data: Any, error: str | None = None) -> UnknownBase:
        raw = data if isinstance(data, dict) else {"value": data}
        fields: dict[str, Any] = {"validation_error": error}
        for name, info in cls.model_fields.items():
            if name != "validation_error" and name in raw:
                value = raw[name]
                # Only values that cannot upset the field's type (Unknown* fields are Any or str | None).
                if info.annotation is Any or value is None or isinstance(value, str):
                    fields[name] = value
        m = cls.model_construct(**fields)
        return attach_raw(m, raw)  # type: ignore[return-value]


def _error_text(exc: ValidationError) -> str:
    parts = []
    for e in exc.errors(include_url=False)[:5]:
        loc = ".".join(str(x) for x in e.get("loc", ()))
        parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
    return "; ".join(parts)


class Tagged:
    """`Annotated[Union[...], Tagged(key, {tag: cls}, Unknown)]`: fast tagged union + Unknown fallback."""

    def __init__(self, key: str, choices: dict[str, Any], fallback: type[UnknownBase]) -> None:
        self.key = key
        self.choices = choices
        self.fallback = fallback
        self._adapters: dict[str, Any] = {}

    def _adapter(self, tag: str) -> Any:
        from pydantic import TypeAdapter

        ad = self._adapters.get(tag)
        if ad is None:
            ad = self._adapters[tag] = TypeAdapter(self.choices[tag])
        return ad

    def make_unknown(self, data: Any) -> UnknownBase:
        error: str | None = None
        if not isinstance(data, dict):
            error = f"expected an object, got {type(data).__name__}"
        else:
            tag = data.get(self.key)
            if isinstance(tag, str) and tag in self.choices:
                validate = self._adapter(tag).validate_python
                try:
                    validate(data)
                except ValidationError as exc:
                    fixed = repair(self.choices[tag], data, validate, exc)
                    if fixed is not None:
                        model, kept, dropped = fixed
                        # `.raw` without the bad fields too: handlers read it and must not meet them.
                        attach_raw(model, kept)
                        model.__pydantic_private__["dropped"] = dropped
                        return model  # type: ignore[no-any-return]
                    error = _error_text(exc)
                except Exception as exc:  # pragma: no cover - defensive
                    error = repr(exc)
            elif tag is None:
                error = f"missing {self.key!r}"
            else:
                error = f"unknown {self.key} {tag!r}"
        return self.fallback.from_raw(data, error)

    def bare_type(self) -> Any:
        """An annotated type validating the tagged union only (no Unknown arm): raises on a miss."""
        outer = self

        class _Bare:
            def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> cs.CoreSchema:
                return outer._tagged_schema(handler)

        return Annotated[Any, _Bare()]

    def _tagged_schema(self, handler: Any) -> cs.CoreSchema:
        return cs.tagged_union_schema(
            {tag: handler.generate_schema(cls) for tag, cls in self.choices.items()},
            discriminator=self.key,
        )

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> cs.CoreSchema:
        tagged = self._tagged_schema(handler)
        unknown = cs.no_info_plain_validator_function(self.make_unknown)
        return cs.union_schema([tagged, unknown], mode="left_to_right")
