"""The rules of a match of several games in one room, as pure functions (no I/O, no clock).

- Rule 100.6a: "A two-player match usually involves playing until one player has won two
  games": a best-of-N match ends once a player has won ceil(N/2) games (:func:`decide`).
- Rule 103.1: in a game after the first, the loser of the previous game chooses who takes
  the first turn; after a draw, the player who chose in that game chooses again
  (:func:`next_chooser`).
- Rules 100.4 and 103.2a: between games a player may exchange cards between their main deck
  and sideboard; the deck they play must be made of exactly the cards they registered, main
  deck and sideboard together (:func:`sideboard_problems`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from server.decks import Deck, DeckFormat
from server.decks.validate import MIN_MAIN

#: The match lengths a room offers: a single game, best of three, best of five.
BEST_OF = (1, 3, 5)


def games_to_win(best_of: int) -> int:
    """Rule 100.6a: the games a player must win to win a best-of-``best_of`` match."""
    return (best_of + 1) // 2


def max_games(best_of: int) -> int:
    """The most games a match plays. A drawn game counts for nobody, so a match goes on
    past ``best_of`` games after draws -- but not forever: at most twice as many."""
    return 1 if best_of <= 1 else 2 * best_of


def decide(best_of: int, wins: Sequence[int], results: Sequence[tuple[int, str]],
           names: Sequence[str], left: Sequence[int] = ()) -> tuple[int, str] | None:
    """The match's result once it is decided -- (the winning seat or -1 for a drawn match,
    why) -- or None while it goes on. ``results``: (winner seat or -1, reason) of each game
    played; ``left``: the seats that left the match (which concedes it)."""
    if best_of <= 1:
        if not results:
            return None
        winner, reason = results[-1]
        return winner, reason
    if left:
        stay = [s for s in range(len(wins)) if s not in left]
        return (stay[0] if len(stay) == 1 else -1,
                f"{names[left[0]]} left the match (and conceded it)")
    need = games_to_win(best_of)
    for seat, won in enumerate(wins):
        if won >= need:  # rule 100.6a
            return seat, f"{names[seat]} won {won} of {len(results)} games"
    if len(results) >= max_games(best_of):
        best = max(wins)
        leaders = [s for s, w in enumerate(wins) if w == best]
        if len(leaders) == 1:
            return leaders[0], (f"{names[leaders[0]]} won the most games ({best}) of the "
                                f"{len(results)} the match may play")
        return -1, f"a draw: no player won more games of the {len(results)} played"
    return None


def next_chooser(previous_winner: int, previous_chooser: int, seats: int) -> int:
    """Rule 103.1: who chooses the starting player of the next game of a two-player match --
    the loser of the previous game, or after a draw (``previous_winner`` -1) the player who
    chose in that game."""
    if previous_winner < 0:
        return previous_chooser
    assert seats == 2, "a match of several games is for two players (rule 100.6a)"
    return 1 - previous_winner


def sideboard_problems(registered: Deck, deck: Deck, fmt: DeckFormat, *,
                       size: bool = True) -> list[str]:
    """Every way ``deck`` (a player's deck for the next game) breaks rules 100.4 and 103.2a
    against the deck and sideboard they ``registered``: together, its main deck and
    sideboard must hold exactly the registered cards (by name), and (``size``) its main
    deck at least the format's minimum (rules 100.2a, 100.2b). Empty: the deck may be
    played."""
    problems = []
    have = Counter(c.name for c in (*registered.main, *registered.sideboard))
    new = Counter(c.name for c in (*deck.main, *deck.sideboard))
    for name in sorted(new.keys() | have.keys()):
        extra, missing = new[name] - have[name], have[name] - new[name]
        if extra > 0:
            problems.append(
                f"'{name}': {new[name]} in the deck and sideboard, but {have[name]} "
                f"registered -- between games you may only exchange cards between your main "
                f"deck and sideboard")  # (rule 100.4)
        elif missing > 0:
            problems.append(
                f"'{name}': {missing} of the {have[name]} registered missing -- the main "
                f"deck and sideboard together must be exactly the registered cards")  # (100.4)
    minimum = MIN_MAIN[fmt]
    if size and len(deck.main) < minimum:
        # (rule 100.2a constructed, 100.2b limited; said as the deck checks say it)
        problems.append(f"a {fmt.value} deck has at least {minimum} cards in its main deck, "
                        f"got {len(deck.main)}")
    return problems
