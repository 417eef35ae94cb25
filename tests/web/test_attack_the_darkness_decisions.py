"""The board for the decisions players take themselves (issue 13, README "Who decides
what"): a trade proposal shown to both players (and the table), A Lifetime of
Preparation's cards on the Samurai's page only, penalties on the tokens, the panels and
the monster line. Boards rendered from crafted states through the game's own template."""

from __future__ import annotations

import re
from typing import Any

from markupsafe import escape

from app.games.attack_the_darkness import ATTACK_THE_DARKNESS as GAME
from app.games.attack_the_darkness.content import load
from app.games.attack_the_darkness.state import Penalty, State
from app.games.attack_the_darkness.view import view_of
from app.kernel.types import Viewer
from app.web import fragments
from app.web.templating import make_environment
from tests.games.attack_the_darkness.harness import Table
from tests.games.attack_the_darkness.test_trades import _choose, _cleared, _equip

C = load()
ENV = make_environment()
SPECTATOR = Viewer("spectator", frozenset())


def seat(n: int) -> Viewer:
    return Viewer("seat", frozenset({n}))


def board(state: State, viewer: Viewer) -> dict[str, str]:
    return fragments.board_fragments(ENV, {"view": view_of(state, viewer), "game": GAME})


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_trade_proposal_is_shown_to_both_players_and_the_table() -> None:
    """AtD L207, L279: the player offered the trade reads what is offered and answers; the
    proposer and the table read whom they wait for."""
    t = _cleared()
    axe = _equip(t, 0, "battle_axe")
    _equip(t, 1, "short_bow")
    _choose(t, (0, 1))
    before = text(board(t.state, seat(0))["atd-window"])
    assert "Trading equipment" in before and "Still trading: P1, P2" in before
    t.send(0, "propose", seat=0, to=1, give=axe, take=None)
    offer = "P1 offers P2 Battle Axe for nothing."
    answering = text(board(t.state, seat(1))["atd-window"])
    assert offer in answering and "Accept or decline it." in answering
    for viewer in (seat(0), SPECTATOR):
        window = text(board(t.state, viewer)["atd-window"])
        assert offer in window and "Waiting for P2 to accept or decline." in window


def test_the_samurais_cards_are_shown_only_to_that_player() -> None:
    """AtD L313: only the Samurai's player sees the cards looked at; each is a click (the
    ``top`` choice) and the ones put back are listed in order."""
    t = Table(2, classes=["samurai", "champion"], dungeon="random")
    t.craft([(0, 0, "v")], {0: (0, 0), 1: (1, 0)})
    t.monster("zombies", (2, 3))
    top = t.state.chars[0].actions[:5]
    t.send(0, "ability")
    t.send(0, "top", card=top[2])
    names = [str(escape(C.card_name(t.state.cards[c]))) for c in top]
    mine = board(t.state, seat(0))["atd-window"]
    assert "A Lifetime of Preparation" in mine and f"1. {names[2]}" in text(mine)
    arranged = re.search(r'<div class="atd-cards atd-arrange">(.*?)</div>\s*</section>', mine, flags=re.S)
    assert arranged
    left = [t.state.cards[c] for c in top if c != top[2]]
    assert sorted(re.findall(r'data-target="top:([^"]+)"', arranged.group(1))) == sorted(left)
    targets = {GAME.choice_target(t.state, c) for p in GAME.prompts(t.state) for c in p.choices}
    assert {f"top:{cid}" for cid in left} <= targets
    for viewer in (seat(1), SPECTATOR):
        page = board(t.state, viewer)
        assert "atd-arrange" not in page["atd-window"]
        assert 'data-target="top:' not in "".join(page.values())


def test_penalties_show_on_tokens_panels_and_the_monster_line() -> None:
    """AtD L295: a penalty for rounds and an Arena one for the next uses, each drawn where
    its bearer is; a spent or expired penalty is gone."""
    t = Table(2, classes=["samurai", "champion"], dungeon="random")
    t.craft([(0, 0, "v")], {0: (0, 0), 1: (1, 0)})
    mid = t.monster("zombies", (2, 3))
    s = t.state
    s.chars[1].penalties = {"move": Penalty(2, None, 1)}
    s.monsters[mid].penalties = {
        "save": Penalty(2, s.round + 2, None),
        "damage": Penalty(3, s.round, None),  # expired at the end of this round
    }
    page: dict[str, Any] = board(s, SPECTATOR)
    token = re.search(
        rf'<div class="atd-token atd-mon[^"]*" data-target="combatant:{mid}"[^>]*>.*?</div>',
        page["atd-map"],
        flags=re.S,
    )
    assert token and f"−2 saves, until round {s.round + 2}" in token.group(0) and "−2s" in token.group(0)
    assert "damage" not in token.group(0)
    assert "−2 saves, until round" in page["atd-line"]
    assert "−2 movement, the next 1 use" in page["atd-party"] and "−2m" in page["atd-map"]
    s.chars[1].penalties = {"move": Penalty(2, None, 0)}
    assert "movement" not in text(board(s, SPECTATOR)["atd-party"])
