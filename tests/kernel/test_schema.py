"""The state schema hash (``app.kernel.schema``): it changes with every structural change of
a state (a field added, removed, renamed, retyped or moved, a nested class changed, a class
renamed) and with nothing else, and it is the same in every process whatever the hash seed."""

from __future__ import annotations

import enum
import os
import subprocess
import sys
from dataclasses import dataclass, field, make_dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from app.kernel.schema import describe_schema, state_schema_hash

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Piece:
    name: str
    power: int = 0


@dataclass
class State:
    round: int = 0
    pieces: dict[str, Piece] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    winner: str | None = None


# The same State, one change at a time (each a separate class of the same shape otherwise).
@dataclass
class StateWithOneMoreField:
    round: int = 0
    pieces: dict[str, Piece] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    winner: str | None = None
    extra: int = 0


@dataclass
class PieceRenamedField:
    name: str
    might: int = 0


@dataclass
class PieceRetyped:
    name: str
    power: str = ""


@dataclass(slots=True)
class PieceWithSlots:
    name: str
    power: int = 0


class Phase(enum.Enum):
    DAY = "day"
    NIGHT = "night"


class PhaseWithDusk(enum.Enum):
    DAY = "day"
    NIGHT = "night"
    DUSK = "dusk"


class Spot(NamedTuple):
    x: int
    y: int


@dataclass
class Node:
    """A recursive type: its description must end."""

    value: int
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None


@dataclass
class Partly:
    """One annotation names nothing: the others are still followed."""

    piece: Piece
    ghost: NotDefinedAnywhere  # type: ignore[name-defined]  # noqa: F821


def holder(inner: Any) -> type:
    """A dataclass ``Holder`` with one field of type ``inner``."""
    return make_dataclass("Holder", [("item", inner)])


def state_class(**fields: Any) -> type:
    """A dataclass named ``State`` in this module with these fields (so two of them differ
    only by their fields)."""
    return make_dataclass("State", list(fields.items()), namespace={"__module__": __name__})


def test_an_instance_and_its_type_hash_alike_and_the_hash_is_short_hex() -> None:
    digest = state_schema_hash(State)
    assert digest == state_schema_hash(State(round=3, pieces={"a": Piece("a")}))
    assert len(digest) == 16 and int(digest, 16) >= 0


def test_the_description_follows_nested_classes_and_containers() -> None:
    text = describe_schema(State)
    assert "round:int" in text and "winner:Union[None,str]" in text
    assert "pieces:dict[str,tests.kernel.test_schema.Piece{name:str,power:int}]" in text


def test_a_state_with_one_more_field_hashes_differently() -> None:
    assert state_schema_hash(StateWithOneMoreField) != state_schema_hash(State)
    same_name = state_schema_hash(state_class(round=int, log=list[str]))
    assert state_schema_hash(state_class(round=int, log=list[str])) == same_name
    assert state_schema_hash(state_class(round=int, log=list[str], extra=int)) != same_name
    assert state_schema_hash(state_class(log=list[str], round=int)) != same_name  # order is structure


def test_every_change_of_a_nested_class_changes_the_hash() -> None:
    base = state_schema_hash(holder(dict[str, Piece]))
    for changed in (PieceRenamedField, PieceRetyped, PieceWithSlots):
        assert state_schema_hash(holder(dict[str, changed])) != base, changed
    assert state_schema_hash(holder(dict[str, Piece])) == base  # and the same shape hashes alike


def test_containers_unions_literals_and_enums_count() -> None:
    hashes = {
        state_schema_hash(holder(t))
        for t in (
            list[int],
            list[str],
            tuple[int, ...],
            tuple[int, int],
            set[int],
            dict[str, int],
            dict[int, int],
            int | None,
            int | str,
            Literal["a", "b"],
            Literal["a", "c"],
            Phase,
            PhaseWithDusk,
            Spot,
            Any,
        )
    }
    assert len(hashes) == 15
    assert state_schema_hash(holder(int | None)) == state_schema_hash(holder(None | int))


def test_an_unresolvable_annotation_is_kept_as_text_and_the_rest_followed() -> None:
    text = describe_schema(Partly)
    assert "ghost:ref:NotDefinedAnywhere" in text
    assert "piece:tests.kernel.test_schema.Piece{name:str,power:int}" in text


def test_a_recursive_state_has_a_finite_description() -> None:
    text = describe_schema(Node)
    assert text.count("recursive:tests.kernel.test_schema.Node") == 2


def test_the_hash_is_the_same_in_every_process_whatever_the_hash_seed() -> None:
    from app.games.darkest_night.state import State as DarkestNightState
    from tests.support.lanterns import LanternsState

    here = [state_schema_hash(State), state_schema_hash(DarkestNightState), state_schema_hash(LanternsState)]
    script = (
        "from app.kernel.schema import state_schema_hash as h\n"
        "from tests.kernel.test_schema import State\n"
        "from app.games.darkest_night.state import State as D\n"
        "from tests.support.lanterns import LanternsState as L\n"
        "print(h(State), h(D), h(L))\n"
    )
    for seed in ("0", "1", "12345"):
        out = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.split() == here, seed
