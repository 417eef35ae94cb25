"""Effect ops used by Darkest Night's darkness content that the shared vocabulary (rules/ops.py)
does not cover. Each is a registered step; its docstring cites the rule or card it serves."""

from __future__ import annotations
