"""Events: what happened during one :func:`server.engine.apply`.

Events name objects by id and may mention hidden zones, so they are never sent to a client as
they are: like every other outgoing channel they must pass through :mod:`server.view`.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.cards import CardDef
from server.engine.state import Zone


@dataclass(frozen=True, slots=True)
class ZoneChanged:
    """Rule 400.7: ``old_id`` left ``from_zone`` and became the new object ``new_id``."""

    old_id: str
    new_id: str
    owner: int
    from_zone: Zone
    to_zone: Zone
    #: Who controlled it just before it left (look-back, rule 603.10a).
    controller: int
    #: The card, for triggers that look back in time (rule 603.10a).
    card: CardDef


@dataclass(frozen=True, slots=True)
class DamageDealt:
    """Rule 120: ``source_id`` dealt ``amount`` damage to a player seat or an object id."""

    source_id: str
    player: int | None
    object_id: str | None
    amount: int


@dataclass(frozen=True, slots=True)
class PlayerLost:
    """Rules 104.3, 704.5a-b: a player lost the game (or conceded)."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    """Rule 104: the game is over."""

    winners: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class SpellCast:
    """Rule 601.2i: a spell became cast."""

    object_id: str
    controller: int
    card: CardDef


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """Rule 121.1: a player drew a card."""

    seat: int


@dataclass(frozen=True, slots=True)
class TokenCreated:
    """Rule 111.1: a token was created on the battlefield (it "enters", 603.6a)."""

    object_id: str
    controller: int
    card: CardDef


@dataclass(frozen=True, slots=True)
class AttackersDeclared:
    """Rule 508.1: the declared attackers (attack triggers, 508.3a)."""

    attackers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BlockersDeclared:
    """Rule 509.1: one defending player's (blocker, attacker) pairs (block triggers, 509.3)."""

    blocks: tuple[tuple[str, str], ...]


Event = (ZoneChanged | DamageDealt | PlayerLost | GameEnded | SpellCast | CardDrawn
         | TokenCreated | AttackersDeclared | BlockersDeclared)
