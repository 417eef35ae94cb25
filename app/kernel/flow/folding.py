"""The fold of a game whose events are applied by its flow ``Rules``: the ``evolve``,
``evolve_all`` and ``upcast`` every such game would otherwise write out again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from app.kernel.flow.rules import Rules
from app.kernel.types import Event


class RulesFold:
    """Mix in before ``GameBase`` and set ``rules``: one copy of the state per fold, each
    event brought up to the current schema, then applied by its registered applier."""

    rules: ClassVar[Rules]

    def evolve(self, state: Any, event: Event) -> Any:
        return self.evolve_all(state, [event])

    def evolve_all(self, state: Any, events: Sequence[Event]) -> Any:
        new = state.clone()
        for event in events:
            self.rules.apply(new, self.upcast(event))
        return new

    def upcast(self, event: Event) -> Event:
        return self.rules.upcast(event)
