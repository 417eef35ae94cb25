"""``quick_init``: the kernel's value classes keep the behaviour of a frozen dataclass
(defaults, fresh default factories, keywords, frozen fields, equality, pickling)."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from app.kernel.frozen import quick_init
from app.kernel.types import Choice, Command, Event, LazyChoice, Prompt, Unavailable


def test_the_value_classes_build_as_their_dataclass_would() -> None:
    event = Event("HeroMoved")
    assert event.data == {} and event.v == 1
    assert Event("X").data is not Event("X").data  # a fresh dict each time
    assert Event("X", {"a": 1}, 2) == Event(type="X", data={"a": 1}, v=2)
    choice = Choice("travel", {"to": "Village"}, "Travel")
    assert repr(choice) == "Choice(type='travel', args={'to': 'Village'}, label='Travel', detail='')"
    prompt = Prompt(0, "Act", (choice,))
    assert prompt.unavailable == () and prompt.required is True and prompt.any_one is False
    assert Command(0, "hide").args == {}
    assert Unavailable("pray", "Pray", "only in the Monastery").rule == ""
    for value in (event, choice, prompt, Command(1, "x", {"a": [1]})):
        assert pickle.loads(pickle.dumps(value)) == value
        assert dataclasses.replace(value) == value
    with pytest.raises(TypeError):
        Choice("travel")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Event("X", {}, 1, 2)  # type: ignore[call-arg]
    parameters = list(inspect.signature(Prompt).parameters)
    assert parameters == ["seat", "title", "choices", "unavailable", "required", "any_one"]


def test_they_stay_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Event("X").type = "Y"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Choice("t", {}, "T").label = "U"  # type: ignore[misc]


def test_only_frozen_slotted_positional_dataclasses() -> None:
    @dataclasses.dataclass(slots=True)
    class Loose:
        a: int

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
    class Keywords:
        a: int

    for cls in (Loose, NoSlots, Keywords):
        with pytest.raises(TypeError):
            quick_init(cls)


def test_a_lazy_choice_is_the_choice_it_explains_once_read() -> None:
    asked: list[int] = []

    def detail() -> str:
        asked.append(1)
        return "2 dice vs 5 — 56%"

    lazy = LazyChoice("attack", {"blight": "b1"}, "Attack", detail)
    plain = Choice("attack", {"blight": "b1"}, "Attack", "2 dice vs 5 — 56%")
    assert not asked  # nothing worked out until read
    assert lazy == plain and plain == lazy and [lazy] == [plain]
    assert lazy != Choice("attack", {"blight": "b1"}, "Attack", "other")
    assert repr(lazy) == repr(plain) and lazy.detail == plain.detail
    assert asked == [1]  # worked out once, however often read
    restored = pickle.loads(pickle.dumps(LazyChoice("t", {}, "T", detail)))
    assert type(restored) is Choice and restored == Choice("t", {}, "T", "2 dice vs 5 — 56%")
    assert dataclasses.replace(lazy) == plain
    with pytest.raises(dataclasses.FrozenInstanceError):
        lazy.label = "U"  # type: ignore[misc]
