"""A quicker ``__init__`` for the frozen, slotted value classes made many times per command.

A frozen dataclass's generated ``__init__`` sets each field with ``object.__setattr__``,
twice the cost of setting a slot through its own descriptor: a random Darkest Night
command makes some twenty-five events, choices and prompts, and their construction was a
tenth of its time. ``quick_init`` gives such a class an ``__init__`` with the same
signature and defaults that sets the slots directly. The class stays frozen (assigning a
field still raises ``FrozenInstanceError``); equality, repr and pickling are unchanged.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T", bound=type)


class _Factory:
    """The default of a field with a default factory (the factory is called in ``__init__``)."""

    def __repr__(self) -> str:
        return "<factory>"  # as dataclasses shows it in a signature


_NO_VALUE = _Factory()


def quick_init(cls: T) -> T:
    """Replace the ``__init__`` of a frozen, slotted dataclass (positional fields only,
    no ``__post_init__``, no ``InitVar``) by one that sets its slots directly."""
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    if not (params.frozen and "__slots__" in vars(cls)) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick_init is for frozen, slotted dataclasses")
    fields = dataclasses.fields(cls)
    if any(not f.init or f.kw_only for f in fields):
        raise TypeError(f"{cls.__name__}: quick_init takes positional init fields only")
    names: dict[str, Any] = {"_NO_VALUE": _NO_VALUE}
    signature, body = [], []
    for f in fields:
        names[f"_set_{f.name}"] = getattr(cls, f.name).__set__  # the slot's member descriptor
        if f.default is not dataclasses.MISSING:
            names[f"_default_{f.name}"] = f.default
            signature.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_factory_{f.name}"] = f.default_factory
            signature.append(f"{f.name}=_NO_VALUE")
            body.append(f"    if {f.name} is _NO_VALUE:\n        {f.name} = _factory_{f.name}()")
        else:
            signature.append(f.name)
        body.append(f"    _set_{f.name}(self, {f.name})")
    closure = ", ".join(names)
    source = (
        f"def _make({closure}):\n"
        + f"  def __init__(self, {', '.join(signature)}):\n"
        + "\n".join("  " + line for chunk in body for line in chunk.split("\n"))
        + "\n  return __init__\n"
    )
    scope: dict[str, Any] = {}
    exec(source, {}, scope)  # noqa: S102  (generated from the class's own field names)
    init = scope["_make"](**names)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[misc]
    return cls
