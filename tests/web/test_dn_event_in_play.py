"""The event card in play is on the board (issue 11, DN 7.0): its name and text while it
resolves, for every viewer (its reveal is public), and gone once it is discarded. It is a
page extra (``app/web/boardview.py``), so the API's views keep their shape."""

from __future__ import annotations

import random
import re

from app.games.darkest_night.content import load
from app.games.darkest_night.describe import page_extras
from app.kernel import table as kernel
from app.kernel.game import validate_options
from app.kernel.registry import get_game
from app.kernel.types import SPECTATOR, Command, SeatInfo, Viewer
from app.web import fragments
from app.web.boardview import board_view
from app.web.templating import make_environment


def test_the_event_in_play_is_on_the_board_until_it_is_discarded() -> None:
    game = get_game("darkest_night")
    assert game is not None
    rng = random.Random(11)
    seats = [SeatInfo(0, "Ann"), SeatInfo(1, "Bo")]
    state = kernel.fold_all(game, game.initial_state(), game.setup(validate_options(game, {}), seats, rng))
    env = make_environment()
    shown = gone = 0
    for _ in range(4000):
        if game.outcome(state) is not None or (shown and gone):
            break
        extras = page_extras(state)
        board = fragments.board_fragments(env, {"view": board_view(game, state, SPECTATOR), "game": game})
        status = board["dn-status"]
        if extras:
            event = extras["event"]
            spec = load().events[event["id"]]
            assert event["name"] == spec.name and event["text"] == spec.text
            panel = re.search(r'<div id="dn-event"[^>]*>(.*?)</div>', status, flags=re.S)
            assert panel and "hidden" not in panel.group(0).split(">")[0]
            assert spec.name in panel.group(1) and "Event in play" in panel.group(1)
            assert "event" not in game.view(state, SPECTATOR)  # the API's view is unchanged
            shown += 1
        elif shown:
            assert re.search(r'<div id="dn-event" class="dn-event" hidden>\s*</div>', status)
            gone += 1
        prompt = next(p for p in game.prompts(state) if p.required)
        choice = rng.choice(prompt.choices)
        command = Command(prompt.seat, choice.type, choice.args)
        state = kernel.fold_all(
            game, state, game.decide(state, command, Viewer("seat", frozenset({prompt.seat})), rng)
        )
    assert shown and gone, "no event was in play with a question pending in this game"
