"""The decision loop every flow game shares: ``decide``, ``prompts`` and ``refusal`` over the
game's ``Rules`` (issue 24: one loop, written once, in the kernel).

A game mixes ``FlowGame`` in, sets ``rules`` and supplies its round structure
(``schedule``), its per-command context (``command_ctx``) and, where its table differs
from the defaults, a few small hooks (whose choices a multi-seat question offers to whom,
a prompt's title, who may act in its "any time" windows). It writes no loop.

How a command is taken (``decide``, called by ``kernel.decide`` once the command was found
among the offered choices, equal as JSON: that is the one choice check):

- a command one of the game's windows offers its seat now is an interruption
  (``Ctx.interrupt``: the pending question set aside, asked again afterwards) or, for a
  window that does not set it aside, an action beside it (Dark Omen's free actions);
- any other command answers the pending decision (``Ctx.resolve``);
- then the rules run until the next question (``Ctx.run``) and the command's events end
  with the record of where the table waits (``Ctx.finish``). The state the rules reached
  is handed to the kernel, whose fold of those very events returns it.

Refusals name the rule: a greyed-out action's reason (the decision's ``unavailable``,
read by ``app.kernel.offers``), a decision kind's ``refusals`` (a command type's rule),
a window's ``closed`` rule, or whom the table waits for.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, ClassVar

from app.kernel import table as kernel
from app.kernel.flow.ctx import Ctx
from app.kernel.flow.decisions import Decision
from app.kernel.flow.folding import RulesFold
from app.kernel.flow.memo import hand_on, known_answers, reading, remembered
from app.kernel.flow.rules import Rules, Window
from app.kernel.game import GameBase
from app.kernel.types import GM_SEAT, Choice, Command, Event, Prompt, RuleError, Seat, Viewer


class FlowGame(RulesFold, GameBase):
    """``GameBase`` with the kernel's decision loop over ``rules`` (mix in first)."""

    rules: ClassVar[Rules]
    keeps_answers: ClassVar[bool] = False
    """Does the game keep answers about a published state (``app.kernel.flow.memo``)? Then
    each seat's choices and "any time" offers are listed once per published state, and a
    command's working memo (``Ctx.working``) starts from the answers about the state it was
    made from. Only for a game whose states are never changed in place once published
    (tests stating positions included): Darkest Night."""

    # -- what a game supplies ------------------------------------------------------------------

    def command_ctx(self, state: Any, rng: random.Random) -> Ctx[Any, Any]:
        """A context for one command on a private successor of the published ``state``."""
        raise NotImplementedError

    def schedule(self, ctx: Ctx[Any, Any]) -> None:
        """Refill an empty agenda: the game's round structure (``Ctx.run``)."""
        raise NotImplementedError

    def step_check(self) -> Any:
        """What runs before every step of one command (a victory check), or None."""
        return None

    def reached(self, ctx: Ctx[Any, Any]) -> Any:
        """The state a command's rules reached: the fold of its events (the kernel keeps it
        for that fold), published with what the command's memo still knows about it."""
        if ctx.memo is not None:
            hand_on(ctx.s, ctx.memo)
        return ctx.s

    def playing(self, state: Any) -> bool:
        """Is the table set up and its game not over?"""
        return bool(state.started) and state.result is None

    # -- whom a question asks what ---------------------------------------------------------------

    def seat_choices(self, state: Any, d: Decision, seat: Seat) -> list[Choice]:
        """The choices ``seat`` is offered by the pending decision ``d``, as sent (listed
        once per published state when the game ``keeps_answers``)."""
        if not self.keeps_answers:
            return self.list_choices(state, d, seat)
        return remembered(state, ("choices", seat), lambda: self.list_choices(state, d, seat))

    def list_choices(self, state: Any, d: Decision, seat: Seat) -> list[Choice]:
        """``seat_choices`` worked out: the decision kind's own per-seat list if it
        registered one, else its choices (those of another seat left out when several
        seats are asked, by ``choice_seat``)."""
        rule = self.rules.decisions[d.kind]
        if rule.seat_choices is not None:
            return rule.seat_choices(state, d, seat)
        choices = rule.choices(state, d)
        if d.seats and len(d.seats) > 1:
            return [c for c in choices if self.choice_seat(state, c) in (None, seat)]
        return choices

    def choice_seat(self, state: Any, choice: Choice) -> Seat | None:
        """Whose choice this is when a question asks several seats at once (None: anyone's)."""
        return None

    def window_seats(self, state: Any) -> Iterable[Seat]:
        """The seats that may act in the game's "any time" windows now."""
        return ()

    def window_choices(self, state: Any, window: Window, seat: Seat) -> list[Choice]:
        """What ``seat`` may do in ``window`` now, as sent (when the game ``keeps_answers``,
        listed once per published state: its prompts list it, and a command sent in the
        window is routed by that very list)."""
        if not self.keeps_answers:
            return self.list_window(state, window, seat)
        with reading(state):
            return remembered(state, (window.name, seat), lambda: self.list_window(state, window, seat))

    def list_window(self, state: Any, window: Window, seat: Seat) -> list[Choice]:
        """``window_choices`` worked out."""
        return window.choices(state, seat)

    def command_args(self, state: Any, command: Command) -> dict[str, Any]:
        """The arguments the rules' resolvers read for ``command`` (its own, by default)."""
        return command.args

    def prompt_title(self, state: Any, d: Decision, seat: Seat) -> str:
        """The heading of ``seat``'s prompt for the pending decision."""
        return d.kind

    def seat_name(self, state: Any, seat: Seat) -> str:
        """A seat as a refusal names it."""
        return "the game master" if seat == GM_SEAT else f"seat {seat}"

    # -- the loop ------------------------------------------------------------------------------

    def prompts(self, state: Any) -> list[Prompt]:
        """The pending decision's prompt for each seat it asks, then each window's optional
        prompt for each seat that may act in it."""
        if not self.playing(state):
            return []
        with reading(state):
            out: list[Prompt] = []
            d = state.decision
            if d is not None:
                rule = self.rules.decisions[d.kind]
                greyed: tuple[Any, ...] | None = None
                any_one = d.first_answer_decides and len(d.asked) > 1
                for seat in d.asked:
                    choices = self.seat_choices(state, d, seat)
                    if choices:
                        if greyed is None:
                            greyed = tuple(rule.unavailable(state, d)) if rule.unavailable else ()
                        title = self.prompt_title(state, d, seat)
                        out.append(Prompt(seat, title, tuple(choices), greyed, any_one=any_one))
            windows = self.rules.windows.values()
            for seat in self.window_seats(state):
                for window in windows:
                    offer = self.window_choices(state, window, seat)
                    if offer:
                        out.append(Prompt(seat, window.title, tuple(offer), required=False))
            return out

    def decide(self, state: Any, command: Command, actor: Viewer, rng: random.Random) -> list[Event]:
        """The events of ``command``, which ``kernel.decide`` found among the offered choices."""
        if not state.started:
            raise RuleError("not_started", "the table has not begun")
        if state.result is not None:
            raise RuleError("game_over", "the game is over")
        seat = command.seat
        window = self.rules.window_for(command.type)
        if window is not None:
            offer = self.window_choices(state, window, seat)
            if not any(c.type == command.type and c.args == command.args for c in offer):
                window = None  # the same type answers the pending decision (a seat it asks)
        ctx = self.command_ctx(state, rng)
        if ctx.memo is not None:
            ctx.knowing(known_answers(state))
        args = self.command_args(state, command)
        if window is not None:
            ctx.interrupt(window, seat, command.type, args)
        else:
            d = state.decision
            if d is None:
                raise RuleError("nothing_to_decide", "the table is not waiting for a decision")
            if seat not in d.asked:
                raise self.not_asked(state, d, seat, command.type) or self.waits_for(state, d)
            ctx.resolve(command.type, args)
        ctx.run(self.schedule, self.step_check())
        events = ctx.finish()
        kernel.remember_fold(state, events, self.reached(ctx))
        return events

    def refusal(self, state: Any, seat: Any, command_type: str) -> RuleError | None:
        """The rule a command of ``command_type`` from ``seat`` breaks, for a command the
        kernel found among none of the seat's choices (``Game.refusal``)."""
        d = state.decision
        if not self.playing(state) or d is None:
            return None
        if seat not in d.asked:
            return self.not_asked(state, d, seat, command_type)
        window = self.rules.window_for(command_type)
        return self.rule_refusal(state, d, seat, command_type) or (_closed(window) if window else None)

    def not_asked(self, state: Any, d: Decision, seat: Seat, command_type: str) -> RuleError | None:
        """Why a seat the pending decision does not ask may not send ``command_type``: a
        window's rule for one of its commands (None: the kernel says what the seat may do),
        else whom the table waits for."""
        window = self.rules.window_for(command_type)
        if window is not None:
            return _closed(window)
        return self.waits_for(state, d)

    def waits_for(self, state: Any, d: Decision) -> RuleError:
        who = " or ".join(self.seat_name(state, s) for s in d.asked)
        return RuleError("not_your_decision", f"the table waits for {who}")

    def rule_refusal(self, state: Any, d: Decision, seat: Seat, command_type: str) -> RuleError | None:
        """The rule a command of ``command_type`` that ``d`` did not offer ``seat`` breaks:
        the decision kind's ``refusals`` (from the type alone, never the arguments)."""
        text = type(d).refusals.get(command_type)
        return RuleError("not_a_choice", text) if text else None


def _closed(window: Window) -> RuleError | None:
    if window.closed is None:
        return None
    code, message = window.closed
    return RuleError(code, message)
