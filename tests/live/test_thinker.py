"""Where the bots think (``app/live/thinker.py``): the strong bot in a child process, the
quick one in a thread, the same answers as thinking in place, and a child that dies is
replaced without a bot ever missing a move."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from typing import Any

from app.kernel import playout
from app.kernel.search import quick_choice, search_choice
from app.kernel.types import Prompt
from app.live.thinker import Thinker
from tests.support.lanterns import LANTERNS


def question() -> tuple[Any, Prompt]:
    state = playout.set_up(LANTERNS, {"target": 12}, ["Ann", "Bo"], "thinker").state
    return state, next(p for p in LANTERNS.prompts(state) if p.required)


def test_the_strong_bot_thinks_in_a_child_process_and_answers_as_in_place() -> None:
    state, prompt = question()

    async def main() -> None:
        thinker = Thinker()
        try:
            strong = await thinker.think(LANTERNS, state, prompt, random.Random(4), "strong")
            assert strong == search_choice(LANTERNS, state, prompt, random.Random(4))
            assert thinker.process is not None  # started by the first strong move
            (child,) = thinker.process._processes.values()
            assert child.pid != os.getpid() and child.is_alive()

            quick = await thinker.think(LANTERNS, state, prompt, random.Random(4), "quick")
            assert quick == quick_choice(LANTERNS, state, prompt, random.Random(4))

            # The child dies: that move is thought in the thread, the next in a new child.
            os.kill(child.pid, signal.SIGKILL)
            child.join(5)
            again = await thinker.think(LANTERNS, state, prompt, random.Random(4), "strong")
            assert again == strong
            again = await thinker.think(LANTERNS, state, prompt, random.Random(4), "strong")
            assert again == strong and thinker.process is not None
            (replacement,) = thinker.process._processes.values()
            assert replacement.pid != child.pid
        finally:
            thinker.close()
        assert thinker.process is None

    asyncio.run(main())
