"""Frozen, slotted record classes: `dataclasses` without its import cost.

The core types (the command model, rules, executions, reductions) are immutable
records with snake_case fields. `dataclasses` would give us that, but importing it
pulls in `inspect` and `ast`: ~8 ms on every hook call and every wrap, a sixth of
wrap's whole run. `@record` does the part we use — a generated `__init__` (fields
in declaration order, keyword-friendly, defaults), `__slots__`, immutability,
equality, hashing, `repr` — and `fields`, `replace` and `as_dict` work on any
record. Type checkers see it as a frozen dataclass (PEP 681).

    @record
    class Point:
        x: int
        y: int = field(default=0, metadata={"doc": "..."})
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` costs ~5 ms to import; type checkers know this name
if TYPE_CHECKING:
    from typing import Any, TypeVar, dataclass_transform

    T = TypeVar("T")
else:

    def dataclass_transform(**_: object) -> object:
        return lambda function: function


MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()


class Field:
    """One field of a record: its name, type (as written), default and metadata."""

    __slots__ = ("default", "metadata", "name", "type")

    def __init__(self, default: Any = MISSING, metadata: dict[str, Any] | None = None) -> None:
        self.name = ""
        self.type = ""
        self.default = default
        self.metadata: dict[str, Any] = metadata or {}

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Field({self.name}: {self.type} = {self.default!r})"


def field(*, default: Any = MISSING, metadata: dict[str, Any] | None = None) -> Any:
    """A field with a default and/or metadata (`spec` in rules/model.py uses it)."""
    return Field(default, metadata)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T]) -> type[T]:
    """Turn a class with annotated fields into a frozen, slotted record."""
    annotations: dict[str, str] = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - no inspect import
    fields: list[Field] = []
    for name, annotation in annotations.items():
        if str(annotation).startswith("ClassVar"):
            continue
        value = cls.__dict__.get(name, MISSING)
        spec = value if isinstance(value, Field) else Field(value)
        spec.name, spec.type = name, str(annotation)
        fields.append(spec)
    names = tuple(f.name for f in fields)
    namespace = {
        key: value for key, value in cls.__dict__.items() if key not in names and key not in ("__dict__", "__weakref__")
    }
    namespace["__slots__"] = names
    namespace["__record_fields__"] = tuple(fields)
    namespace["__qualname__"] = cls.__qualname__
    for name, method in _METHODS:
        if name not in cls.__dict__:
            namespace[name] = method  # in the class as it is made: setting each afterwards costs more
    new = type(cls.__name__, cls.__bases__, namespace)
    setattr(new, "__init__", _lazy_init(fields, new))  # noqa: B010 - assigning to a class
    return new


#: Instantiations a record class takes through the generic `__init__` before its own
#: is compiled: compiling costs ~0.1 ms, the generic one ~2 µs more per call, and most
#: classes are instantiated a few times per run (an execution, its reduction) while a
#: few are instantiated hundreds of times (a catalogue's match tables).
_COMPILE_AFTER = 32


def _lazy_init(fields: list[Field], cls: type) -> Any:
    """An `__init__` that binds arguments generically for the first instantiations
    and then compiles the class's own and puts it in its place."""
    names = tuple(spec.name for spec in fields)
    defaults = tuple(spec.default for spec in fields)
    calls = 0

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        if calls > _COMPILE_AFTER:
            real = _make_init(fields, cls)
            setattr(cls, "__init__", real)  # noqa: B010 - assigning to a class
            real(self, *args, **kwargs)
            return
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__}: takes {len(names)} fields, {len(args)} given")
        for index, name in enumerate(names):
            if index < len(args):
                if name in kwargs:
                    raise TypeError(f"{cls.__name__}: got two values for {name}")
                value = args[index]
            elif name in kwargs:
                value = kwargs.pop(name)
            elif defaults[index] is not MISSING:
                value = defaults[index]
            else:
                raise TypeError(f"{cls.__name__}: missing a required field")
            object.__setattr__(self, name, value)
        if kwargs:
            raise TypeError(f"{cls.__name__}: no field {sorted(kwargs)[0]}")

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _make_init(fields: list[Field], cls: type) -> Any:
    defaults = {f"_d_{f.name}": f.default for f in fields if f.default is not MISSING}
    params, body = [], []
    seen_default = False
    for spec in fields:
        if spec.default is MISSING:
            params.append(spec.name if not seen_default else f"{spec.name}=_required")
        else:
            seen_default = True
            params.append(f"{spec.name}=_d_{spec.name}")
        body.append(f" _set(self, {spec.name!r}, {spec.name})")
    required = [f.name for f in fields if f.default is MISSING]
    check = (
        f" if any(v is _required for v in ({', '.join(required)},)):"
        f" raise TypeError('{cls.__name__}: missing a required field')"
        if seen_default and required
        else ""
    )
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(([check] if check else []) + body + [" pass"])
    scope: dict[str, Any] = {"_set": object.__setattr__, "_required": MISSING, **defaults}
    exec(source, scope)  # noqa: S102 - generated from the class's own field names
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _frozen(self: Any, name: str, value: Any = None) -> None:
    raise AttributeError(f"{type(self).__name__} is immutable; use record.replace()")


def _values(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, name) for name in self.__slots__)


def _eq(self: Any, other: object) -> Any:
    if type(other) is not type(self):
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash((type(self).__name__, _values(self)))


def _repr(self: Any) -> str:
    return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__slots__)})"


def _getstate(self: Any) -> tuple[Any, ...]:
    return _values(self)


def _setstate(self: Any, state: tuple[Any, ...]) -> None:
    for name, value in zip(self.__slots__, state, strict=True):
        object.__setattr__(self, name, value)


#: What every record class gets unless it defines its own.
_METHODS = (
    ("__setattr__", _frozen),
    ("__delattr__", _frozen),
    ("__eq__", _eq),
    ("__hash__", _hash),
    ("__repr__", _repr),
    ("__getstate__", _getstate),
    ("__setstate__", _setstate),
)


def fields(cls_or_record: Any) -> tuple[Field, ...]:
    """The fields of a record class or instance, in declaration order."""
    found: tuple[Field, ...] = cls_or_record.__record_fields__
    return found


def is_record(value: object) -> bool:
    return hasattr(type(value), "__record_fields__")


def replace(obj: T, **changes: Any) -> T:
    """A copy of `obj` with some fields changed."""
    values = {spec.name: getattr(obj, spec.name) for spec in fields(obj)}
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]}")
    return type(obj)(**(values | changes))


def as_dict(obj: Any) -> Any:
    """A record (and the records, tuples, lists and dicts inside it) as plain data;
    tuples become lists, so the result is JSON-able when the leaves are."""
    if is_record(obj):
        return {spec.name: as_dict(getattr(obj, spec.name)) for spec in fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [as_dict(item) for item in obj]
    if isinstance(obj, dict):
        return {key: as_dict(value) for key, value in obj.items()}
    return obj
