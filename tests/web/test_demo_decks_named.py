"""The browser client's list of the demo decks (``DEMO_DECKS``, web/src/deck.ts: the names a
player may type in the deck box) is the server's (:func:`server.cards.demo_deck_names`): a
deck added or renamed on the server is named in the lobby too."""

from __future__ import annotations

import re
from pathlib import Path

from server.cards import demo_deck_names

DECK_TS = Path(__file__).resolve().parents[2] / "web" / "src" / "deck.ts"
LIST = re.compile(r"export const DEMO_DECKS: readonly string\[\] = \[(.*?)\];", re.DOTALL)


def test_the_web_clients_demo_decks_are_the_servers() -> None:
    found = LIST.search(DECK_TS.read_text(encoding="utf-8"))
    assert found is not None, "DEMO_DECKS is not in web/src/deck.ts"
    assert re.findall(r'"([^"]*)"', found.group(1)) == list(demo_deck_names())
