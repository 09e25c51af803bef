"""Playing for ante (rule 407), an optional rule, and the ante zone (400.1, 400.2).

- 407.2: after it is determined who goes first and before anyone draws, each player puts one
  random card from their deck into the ante zone. The ante is a public zone (400.2).
- 407.2: at the end of the game the winner becomes the owner of every card in the ante zone.
  The engine records that change in :attr:`Ante.result` (card name, previous owner, new
  owner) and sets the owner of the ante objects still in the game; the game server keeps no
  card collections, so applying the change to real collections is up to whoever runs the
  game. A draw (104.4a) changes no ownership.
- 407.3: cards reading "Remove this card from your deck before playing if you're not playing
  for ante" are legal in decks and sideboards only when playing for ante
  (:func:`validate_ante_cards`).
- 407.4: to ante an object is to put it into the ante zone; only its owner may ante it.

The variant's state is its own record, :class:`Ante`, in ``game.variants`` (its hooks are
called through :mod:`server.engine.variants`); the ante zone itself is a zone of every game
(400.1), empty unless something antes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from server.cards import CardDef
from server.engine.events import Event
from server.engine.state import Game, GameObject, Zone
from server.engine.zones import move

#: Rule 407.3: the reminder printed on ante cards.
ANTE_TEXT = "if you're not playing for ante"


class AnteError(ValueError):
    """A deck holding an ante card when not playing for ante (rule 407.3)."""


@dataclass(slots=True)
class Ante:
    """Playing for ante (rule 407): the ante zone's contents as the game ended (card name,
    owner), whether the end was settled, and the ownership changes it made (407.2): (card
    name, previous owner, new owner)."""

    final: list[tuple[str, int]] = field(default_factory=list)
    settled: bool = False
    result: list[tuple[str, int, int]] = field(default_factory=list)


def state(game: Game) -> Ante | None:
    """The ante record, if the game is played for ante (rule 407)."""
    return next((v for v in game.variants if isinstance(v, Ante)), None)


def is_ante_card(card: CardDef) -> bool:
    """Rule 407.3: the card reads "Remove this card from your deck before playing if you're
    not playing for ante"."""
    return ANTE_TEXT in card.rules_text.replace("\u2019", "'")


def validate_ante_cards(seat: int, cards: Sequence[CardDef], playing_for_ante: bool) -> None:
    """Rule 407.3: when not playing for ante, players can't include ante cards in their decks
    or sideboards."""
    if playing_for_ante:
        return
    for card in cards:
        if is_ante_card(card):
            raise AnteError(f"player {seat}'s deck or sideboard holds {card.name!r}, which is "
                            "legal only when playing for ante (rule 407.3)")


def ante_object(game: Game, object_id: str, seat: int, events: list[Event]) -> GameObject:
    """Rule 407.4: ``seat`` antes an object -- puts it into the ante zone from whichever zone
    it is in. Only its owner may."""
    obj = game.objects[object_id]
    if obj.owner != seat:
        raise ValueError(f"only its owner may ante {obj.card.name} (rule 407.4)")
    return move(game, object_id, Zone.ANTE, events)


def ante_top(game: Game, seat: int, events: list[Event]) -> GameObject | None:
    """"Ante the top card of your library" (Contract from Below; rules 407.3, 407.4): the
    top card of ``seat``'s library goes to the ante zone. Nothing happens if the library is
    empty (101.3)."""
    library = game.player(seat).library
    if not library:
        return None
    return ante_object(game, library[-1], seat, events)


def ante_at_start(game: Game, events: list[Event]) -> None:
    """Rule 407.2: each player, in turn order from the starting player, antes one random card
    from their deck (the library, before it is shuffled and anyone draws)."""
    for seat in game.apnap(game.starting_player):
        library = game.player(seat).library
        if library:
            ante_object(game, library[game.rng.randbelow(len(library))], seat, events)


def before_leaving(game: Game, record: Ante, seat: int) -> None:
    """Rule 407.2 with 104.2a: when the last opponent leaves, the game ends at once; the cards
    in the ante zone as it ends (including those of the player leaving, which would leave the
    game with them, 800.4a) are what the winner gets."""
    del seat  # whoever it is: the ante as the game ends
    if not record.final and len(game.in_game()) <= 1:
        record.final = [(game.objects[i].card.name, game.objects[i].owner)
                           for i in game.ante]


def settle(game: Game, record: Ante) -> None:
    """Rule 407.2: at the end of the game the winner becomes the owner of all the cards in the
    ante zone. Recorded once in :attr:`Ante.result`."""
    if game.result is None or record.settled:
        return
    record.settled = True
    final = record.final or [(game.objects[i].card.name, game.objects[i].owner)
                                for i in game.ante]
    if len(game.result.winners) != 1:
        return  # a draw (104.4a): nobody wins the ante
    winner = game.result.winners[0]
    record.result = [(name, owner, winner) for name, owner in final]
    for oid in game.ante:
        game.objects[oid].owner = winner
