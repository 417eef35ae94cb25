"""Print the effect vocabulary: every op card data may name, by module, with its rule.

.venv/bin/python -m app.games.darkest_night.vocabulary
"""

from __future__ import annotations

import inspect
from collections import defaultdict

from app.games.darkest_night import DARKEST_NIGHT  # noqa: F401  (registers the rules)
from app.games.darkest_night.engine import RULES


def vocabulary() -> dict[str, list[tuple[str, str]]]:
    by_module: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for name, spec in sorted(RULES.steps.items()):
        rule = spec.rule
        doc = (inspect.getdoc(rule) or "").split("\n\n")[0].replace("\n", " ")
        by_module[rule.__module__.rsplit(".", 1)[-1]].append((name, doc))
    return dict(sorted(by_module.items()))


def main() -> None:
    for module, ops in vocabulary().items():
        print(f"\n{module}")
        for name, doc in ops:
            print(f"  {name:28} {doc}")


if __name__ == "__main__":
    main()
