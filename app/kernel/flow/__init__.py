"""The stepwise decision engine every game asks through (see README.md here).

A game makes one ``Rules`` registry, registers its steps, event appliers, decision kinds
and "any time" windows on it, and runs each command in a ``Ctx``.
"""

from app.kernel.flow.ctx import MAX_STEPS_PER_COMMAND, Ctx, FlowState
from app.kernel.flow.decisions import Decision, StepDecision
from app.kernel.flow.game import FlowGame
from app.kernel.flow.rules import RESUME_OP, DecisionRule, Rules, Step, StepSpec, Window
from app.kernel.types import RuleError


def refuse(code: str, message: str, *, status: int = 422) -> RuleError:
    """A command the rules forbid, naming the rule broken (``RuleError``)."""
    return RuleError(code, message, status=status)


__all__ = [
    "MAX_STEPS_PER_COMMAND",
    "RESUME_OP",
    "Ctx",
    "Decision",
    "DecisionRule",
    "StepDecision",
    "FlowGame",
    "FlowState",
    "Rules",
    "Step",
    "StepSpec",
    "Window",
    "refuse",
]
