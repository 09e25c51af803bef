"""The phase-python side of ``manawire bench-engine``: one run, one JSON line.

Standalone (standard library and ``phase`` only), because it runs under another interpreter
-- one with ``phase-python`` installed -- that needn't have Manawire installed::

    PYTHON server/benchengine_phase.py SET_FILE DECK_FILE GAMES SEED

It builds phase's card database from the MTGJSON set file (the same file Manawire's cards come
from), reads a plain deck list (``N Card Name`` lines), plays ``GAMES`` two-player games of
uniformly random legal actions with that deck on both seats, seeds ``SEED``, ``SEED + 1``, ...
and prints the figures of :func:`server.benchengine.run_figures`, timed in CPU seconds.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ACTION_BUDGET = 50_000


def card_database(set_file: Path) -> Any:
    """phase's ``Engine`` over the set's cards, built with phase's own MTGJSON converter
    (``phase.gen``). The set file is older, trimmed MTGJSON: ``manaValue`` is filled in
    from ``convertedManaCost``, and the ``identifiers`` and ``legalities`` phase's
    converter requires (it reads only a Scryfall id and a legality count from them) are
    empty. A card phase can't convert is left out."""
    import phase
    from phase.gen import groups_from_set_cards, process_group

    cards = json.loads(set_file.read_text(encoding="utf-8"))["data"]["cards"]
    for card in cards:
        card.setdefault("manaValue", card.get("convertedManaCost", 0))
        card.setdefault("faceManaValue", card.get("faceConvertedManaCost", card["manaValue"]))
        card.setdefault("identifiers", {})
        card.setdefault("legalities", {})
    faces: dict[str, Any] = {}
    for _name, group in groups_from_set_cards(cards):
        try:
            process_group(group, faces)
        except Exception:  # a card phase can't read is simply not in its pool
            continue
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as out:
        json.dump(faces, out)
    try:
        return phase.Engine.from_path(out.name)
    finally:
        Path(out.name).unlink()


def deck_cards(deck_file: Path) -> list[str]:
    """The main deck of a plain ``N Card Name`` list, one name per card."""
    cards: list[str] = []
    for raw in deck_file.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        if line.lower() == "sideboard":
            break
        count, _, name = line.partition(" ")
        cards += [name.strip()] * int(count)
    return cards


def _actor(waiting: dict[str, Any], game: Any) -> int:
    data = waiting.get("data") or {}
    if "player" in data:
        return int(data["player"])
    if data.get("pending"):
        return int(data["pending"][0]["player"])
    return int(game.priority_player())


def play_games(engine: Any, deck: list[str], games: int, seed: int) -> dict[str, Any]:
    actions = turns = completed = 0
    start = time.process_time()
    for game_seed in range(seed, seed + games):
        rng = random.Random(game_seed)
        game = engine.new_game(deck, deck, seed=game_seed)
        for _ in range(ACTION_BUDGET):
            waiting = game.waiting_for()
            if waiting.get("type") == "GameOver":
                completed += 1
                break
            options = game.actions()
            if not options:
                break
            game.apply(_actor(waiting, game), rng.choice(options))
            actions += 1
        turns += game.turn
    cpu = time.process_time() - start
    return {"engine": "phase", "games": games, "completed": completed, "actions": actions,
            "cpu_s": round(cpu, 3), "games_per_s": round(games / cpu, 3) if cpu else 0.0,
            "actions_per_s": round(actions / cpu, 1) if cpu else 0.0,
            "actions_per_game": round(actions / games, 1) if games else 0.0,
            "turns_mean": round(turns / games, 2) if games else 0.0}


def main(argv: list[str]) -> int:
    set_file, deck_file, games, seed = argv
    engine = card_database(Path(set_file))
    print(json.dumps(play_games(engine, deck_cards(Path(deck_file)), int(games), int(seed))),
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
