"""Dark Omen's panels an audit of issue 15 found missing: the boss on its own board with its
stage, the guild rank, the recipes a hero knows, the meter's Valor and Resistance in words,
a lost race naming who got there first, and the damage rolls die by die in the battle."""

from __future__ import annotations

import re

from app.games.dark_omen import DARK_OMEN
from app.games.dark_omen.content import load
from app.games.dark_omen.describe import describe
from app.games.dark_omen.state import METER_MAX, Creature, State
from app.kernel.types import GAME_MASTER, SPECTATOR, Event, Viewer
from app.web import fragments
from app.web.templating import make_environment
from tests.games.dark_omen.harness import arranged, enemy, play, table


def board_of(state: State, viewer: Viewer) -> dict[str, str]:
    """The board fragments of one viewer's view, rendered from nothing."""
    ctx = {"view": DARK_OMEN.view(state, viewer), "game": DARK_OMEN}
    return fragments.board_fragments(make_environment(), ctx)


def token_of(face: str, taken: set[str]) -> str:
    """A physical loot token with this face not yet used in the test."""
    token = next(t for t, f in sorted(load().loot.items()) if f == face and t not in taken)
    taken.add(token)
    return token


def with_boss(state: State, card: str = "vahva", hp: int | None = None) -> Creature:
    """The boss of ``card`` on space 11, placed the way rules/days.py places it (party-scaled HP)."""
    boss = load().bosses[card]
    top = -(-boss["hp"] * (1 + len(state.heroes)) // 5)
    creature = Creature(
        id="b1",
        space=11,
        level=1,
        kind="boss",
        omen=True,
        dice=boss["ar_dice"],
        card=card,
        name=boss["name"],
        hp=top if hp is None else hp,
        armor=boss["armor"],
        dr=boss["dr"],
        stage=boss["stage"],
    )
    state.creatures.append(creature)
    return creature


def test_a_boss_has_its_own_board_with_its_stages_and_what_the_next_one_does() -> None:
    """DO L479-493: a boss's card shows its stats and phases; a stage (DO L487-488) changes
    it below an HP mark. The board shows each stage's HP band, armour, dice and damage, the
    one it is in now, and what comes next; once reached, it says it is the last."""
    state = arranged(table(2), at=10)
    boss = with_boss(state)
    card = load().bosses["vahva"]
    top, below = boss.hp, card["stage"]["below_hp"]
    omens = board_of(state, SPECTATOR)["do-omens"]
    board = re.search(r'<article id="do-boss-b1".*?</article>', omens, flags=re.S)
    assert board, omens
    text = board.group(0)
    assert f"<b>{top}</b>/{top} HP · stage 1" in text and f"<b>Boss: {boss.name}</b> on 11" in text
    rows = re.findall(
        r"<tr[^>]*><td>(\d)[^<]*(?:<small>\(now\)</small>)?</td><td>(\d+)–(\d+)</td>"
        r"<td>(\d+)</td><td>(\d+)</td><td>([^<]+)</td></tr>",
        text,
    )
    assert rows == [
        ("1", str(below), str(top), str(card["armor"]), str(card["ar_dice"]), card["dr"]),
        (
            "2",
            "1",
            str(below - 1),
            str(card["armor"] + card["stage"]["armor"]),
            str(card["ar_dice"]),
            card["dr"],
        ),
    ]
    assert 'class="do-stage-now" aria-current="true"><td>1' in text
    assert f"Next stage: below {below} HP its armour rises by {card['stage']['armor']}" in text
    assert "ability, then movement" in text and "DO L54, L493" in text and "DO L487-488" in text
    boss.hp, boss.staged, boss.armor = below - 2, True, card["armor"] + card["stage"]["armor"]
    staged = board_of(state, SPECTATOR)["do-omens"]
    assert f"<b>{below - 2}</b>/{top} HP · stage 2" in staged and "Its last stage." in staged
    assert 'class="do-stage-now" aria-current="true"><td>2' in staged
    state.creatures.clear()
    assert "do-boss-b1" not in board_of(state, SPECTATOR)["do-omens"]


def test_a_lone_heros_boss_board_keeps_its_hp_bands_within_its_hp() -> None:
    """A smaller party meets ``hp × (1 + players) / 5`` (rules/days.py): a lone hero's Vahva has 7
    HP, below its stage mark of 8, so each band stays within 1 and its HP."""
    state = arranged(table(1), at=10)
    with_boss(state)
    stages = DARK_OMEN.view(state, SPECTATOR)["creatures"][0]["board"]["stages"]
    assert [s["hp"] for s in stages] == [[7, 7], [1, 7]]
    assert all(1 <= low <= high <= 7 for low, high in (s["hp"] for s in stages))


def test_the_hero_sheet_shows_the_guild_rank_of_the_chapter() -> None:
    """DO L189-192: Apprentice in chapter 2, Journeyman in 3, Master in 4, with the tier's
    trait; before joining, the sheet says there is no guild yet."""
    state = arranged(table(2, chapter=3), at=10)
    state.heroes[0].guild = "Architect"
    sheets = board_of(state, SPECTATOR)["do-heroes"]
    trait = load().guilds["architect_journeyman"]["bonus"]["obstacle_mp"]
    assert "<b>Architect Journeyman</b> <small" in sheets
    assert f"{trait:+d} MP to cross an obstacle".replace("-", "−") in sheets
    assert "no guild yet" in sheets  # the other hero
    state.chapter = 4
    assert "<b>Architect Master</b>" in board_of(state, SPECTATOR)["do-heroes"]
    assert DARK_OMEN.view(state, SPECTATOR)["heroes"][1]["guild_rank"] is None


def test_the_recipe_list_says_what_each_potion_needs_does_and_which_can_be_brewed_now() -> None:
    """DO L262-284: fast crafting and the nine recipes, each with its ingredients and effect;
    the ones the held ingredients brew now are marked, and they are exactly the "Brew"
    choices the hero is offered (Courage only in a boost window, facts §10)."""
    state = arranged(table(1), at=10)
    taken: set[str] = set()
    state.heroes[0].inventory = [token_of("herb_blue", taken), token_of("herb_blue", taken)]
    view = DARK_OMEN.view(state, Viewer("seat", frozenset({0})))
    recipes = {r["recipe"]: r for r in view["heroes"][0]["recipes"]}
    assert len(recipes) == 11
    assert recipes["morale"] == {
        "recipe": "morale",
        "name": "Morale",
        "needs": "blue herb + blue herb",
        "does": "+5 MP",
        "ready": True,
    }
    assert recipes["health"]["does"] == "+5 HP" and not recipes["health"]["ready"]
    assert recipes["boldness"]["does"] == "+4 MP, −2 HP"
    ready = {name for name, r in recipes.items() if r["ready"]}
    assert ready == {"fast_mp", "morale"}
    offered = {
        c.args["recipe"]
        for p in DARK_OMEN.prompts(state)
        if p.seat == 0
        for c in p.choices
        if c.type == "craft"
    }
    assert offered == ready - {"courage"}
    sheet = board_of(state, Viewer("seat", frozenset({0})))["do-heroes"]
    assert "<b>Potion recipes</b>: 2 of 11 can be brewed now" in sheet
    row = re.search(
        r"<tr class=\"do-recipe-ready\"><td>Morale</td><td>blue herb \+ blue herb</td><td>\+5 MP</td>", sheet
    )
    assert row, sheet
    assert sheet.count('class="do-recipe-missing"') == 9
    state.heroes[0].inventory.append(token_of("herb_yellow", taken))
    again = {r["recipe"] for r in DARK_OMEN.view(state, SPECTATOR)["heroes"][0]["recipes"] if r["ready"]}
    assert again == {"fast_mp", "fast_hp", "morale", "courage"}


def test_the_darkness_meter_says_valor_and_resistance_in_words() -> None:
    """DO L40-42: the meter's ends are written out, and where it stands now, not only a
    colour and a tooltip (unreadable on a phone)."""
    state = arranged(table(1), at=10)
    state.meter = 2
    header = board_of(state, SPECTATOR)["do-header"]
    text = re.search(r'<p class="do-meter-text">.*?</p>', header, flags=re.S)
    assert text, header
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text.group(0)))
    assert f"Meter 2/{METER_MAX}: Valor." in words
    assert "Valor at 1–2: +1 damage" in words and "Resistance at 6–" in words and "0: fully dark" in words
    state.meter = 7
    assert "<b>Resistance</b>." in board_of(state, SPECTATOR)["do-header"]
    state.meter = 4
    assert "neither Valor nor Resistance" in board_of(state, SPECTATOR)["do-header"]


def test_the_battle_panel_shows_each_damage_roll_with_armour_and_the_minimum() -> None:
    """DO L410-418: each damage roll in order, die by die: the hero's weapon die with its
    bonuses less the enemy's armour; the enemy's damage die less the victim's armour, at
    least 1."""
    state = arranged(table(2), at=10, mp=10)
    enemy(state, space=10, level=2, hp=20, armor=1, dr="d6+1", name="Test Foe")
    state, _ = play(state, 0, "attack", rolls=[5, 2, 3, 1], creature="e1")
    view = DARK_OMEN.view(state, SPECTATOR)
    rolls = view["battles"][0]["rolls"]
    assert [r["by"] for r in rolls] == [s["by"] for s in view["battles"][0]["strikes"]]
    assert any(r["by"] == "enemy" for r in rolls) and any(r["by"] == "hero" for r in rolls)
    enemy_roll = next(r for r in rolls if r["by"] == "enemy")
    assert enemy_roll["die"] == "d6+1" and enemy_roll["least"] == 1 and enemy_roll["armor"] == {"0": 0}
    hero_roll = next(r for r in rolls if r["by"] == "hero")
    assert hero_roll["die"] == "d4-1" and hero_roll["armor"] == {"enemy": 1}  # unarmed (DO L388)
    panel = board_of(state, SPECTATOR)["do-battle"]
    listed = re.search(r'<ol class="do-damage-rolls".*?</ol>', panel, flags=re.S)
    assert listed, panel
    lines = [
        re.sub(r"<[^>]+>|\s+", " ", li).strip() for li in re.findall(r"<li>(.*?)</li>", listed.group(0), re.S)
    ]
    assert len(lines) == len(rolls)
    assert "Enemy → P1 : d6+1 − P1’s armour 0, at least 1" in lines
    assert "P1 → enemy : d4-1 − armour 1, at least 0" in lines


def hero_stats(sheets: str, seat: int) -> str:
    """One hero's HP and MP line on the sheet, as a reader sees it (tags stripped)."""
    found = re.search(rf'<dl id="do-sheet-{seat}-stats".*?</dl>', sheets, flags=re.S)
    assert found, sheets
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split())


def test_the_sheet_says_hp_and_mp_against_what_they_may_reach_not_as_half_of_30() -> None:
    """DO L88, L193-197: a hero starts at 15 on tracks that run to 30, so "15/30" read as half
    a hero. The sheet says the most HP the hero may heal to (30 less its wounds, some back
    while an Oak Belt is worn, DO L195) and MP's top in words, on every viewer's page."""
    state = arranged(table(2), at=10, hp=15, mp=15)
    for viewer in (SPECTATOR, Viewer("seat", frozenset({0})), GAME_MASTER):
        sheets = board_of(state, viewer)["do-heroes"]
        assert hero_stats(sheets, 1) == "HP 15 heals up to 30 MP 15 up to 30 AP 6 Gold 0 Blood 0"
        assert "/30" not in sheets
    wounded = state.heroes[0]
    wounded.max_hp = 26
    sheets = board_of(state, SPECTATOR)["do-heroes"]
    assert "HP 15 heals up to 26 (wounds took 4) MP 15" in hero_stats(sheets, 0)
    wounded.gear, wounded.equipped = ["g1_c3"], {"accessory": "g1_c3"}  # the Oak Belt: max HP +2
    sheets = board_of(state, SPECTATOR)["do-heroes"]
    assert "HP 15 heals up to 28 (wounds took 4, gear gives 2 back)" in hero_stats(sheets, 0)
    assert '<meter min="0" max="28" low="5" value="15">' in sheets


def test_a_heros_tracks_in_the_log_are_words_with_the_new_values() -> None:
    """A ``HeroStats`` line says the values the change left, "12 HP of at most 27", never
    "hp 12, max_hp 27" (issue 26: words, not ids)."""
    names = {0: ("Ann", "Visko")}
    blow = Event("HeroStats", {"seat": 0, "why": "the Groll’s blow", "hp": 12, "max_hp": 27})
    assert describe(blow, names) == "Ann’s Visko now has 12 HP of at most 27 (the Groll’s blow)."
    paid = Event("HeroStats", {"seat": 0, "why": "resting", "hp": 17, "mp": 16, "gold": 2})
    assert describe(paid, names) == "Ann’s Visko now has 17 HP, 16 MP, 2 gold (resting)."
    bag = Event("HeroStats", {"seat": 0, "why": "the Blood Bag", "max_hp": 29, "blood": 1})
    assert describe(bag, names) == "Ann’s Visko now has at most 29 HP, 1 blood of the beast (the Blood Bag)."
