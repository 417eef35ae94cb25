"""A game's flow manifest: the published step vocabulary and decision schemas, checked
into the game's folder (``flow_schema.json``) so a change to them is a visible diff.

``problems(rules, manifest)`` is what a game's test asserts empty: every op, parameter
and decision field a stored game may hold must still be understood, either because the
code still has it or because an upcaster for the old name or shape is registered; and
the manifest must list everything the code registers (write it anew with
``python -m app.kernel.flow.manifest <module>:<RULES> <path>``).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

from app.kernel.flow.records import WAITING_EVENT, WAITING_VERSION
from app.kernel.flow.rules import Rules

Manifest = dict[str, Any]


def build(rules: Rules) -> Manifest:
    """The manifest the code's registry stands for now."""
    return {
        "game": rules.game,
        "waiting_event": {"type": WAITING_EVENT, "v": WAITING_VERSION},
        "steps_version": rules.steps_version,
        "steps": {op: sorted(spec.params) for op, spec in sorted(rules.steps.items())},
        "decisions": {
            kind: {"v": rule.schema.version, "fields": sorted(rule.schema.fields)}
            for kind, rule in sorted(rules.decisions.items())
        },
    }


def load(path: Path) -> Manifest:
    return dict(json.loads(path.read_text(encoding="utf-8")))


def dump(manifest: Manifest) -> str:
    return json.dumps(manifest, indent=2, sort_keys=True) + "\n"


def problems(rules: Rules, stored: Manifest) -> list[str]:
    """Where the code's registry and the checked-in manifest disagree in a way that could
    break a stored game, or leave the manifest out of date."""
    current = build(rules)
    out: list[str] = []
    regenerate = "the manifest is out of date (write it anew)"
    if stored.get("game") != rules.game:
        out.append(f"the manifest is for {stored.get('game')!r}, not {rules.game!r}")
    if stored.get("waiting_event") != current["waiting_event"]:
        was = stored.get("waiting_event")
        out.append(f"the Waiting event changed from {was}: upcast it, then {regenerate}")
    if int(stored.get("steps_version", 1)) > rules.steps_version:
        out.append("the step vocabulary's version went down")
    upcast_ops = set(rules.step_upcasters)
    for op, params in stored.get("steps", {}).items():
        if op not in rules.steps:
            if op not in upcast_ops:
                out.append(f"step {op!r} is gone and no upcaster reads it (rules.upcast_step)")
            continue
        gone = sorted(set(params) - set(rules.steps[op].params))
        if gone and op not in upcast_ops:
            out.append(f"step {op!r} lost parameters {gone} and no upcaster reads them")
    for kind, shape in stored.get("decisions", {}).items():
        rule = rules.decisions.get(kind)
        version = int(shape.get("v", 1))
        if rule is None or rule.schema.version != version:
            if (kind, version) not in rules.decision_upcasters:
                out.append(
                    f"decision {kind!r} v{version} changed; no upcaster reads it (rules.upcast_decision)"
                )
            continue
        gone = sorted(set(shape.get("fields", ())) - set(rule.schema.fields))
        if gone:
            out.append(f"decision {kind!r} lost fields {gone} at v{version}: raise its version, upcast")
    if not out and current != stored:
        changed = sorted(
            {
                op
                for op in {*current["steps"], *stored.get("steps", {})}
                if current["steps"].get(op) != stored.get("steps", {}).get(op)
            }
            | {
                kind
                for kind in {*current["decisions"], *stored.get("decisions", {})}
                if current["decisions"].get(kind) != stored.get("decisions", {}).get(kind)
            }
        )
        out.append(f"{regenerate}: {', '.join(changed) or 'versions'}")
    return out


def main(argv: list[str]) -> None:
    """``python -m app.kernel.flow.manifest <module>:<RULES> <path of flow_schema.json>``"""
    target, path = argv
    module, name = target.split(":")
    rules = getattr(importlib.import_module(module), name)
    if not isinstance(rules, Rules):
        raise SystemExit(f"{target} is not a Rules registry")
    Path(path).write_text(dump(build(rules)), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
