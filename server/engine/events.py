"""Events: what happened during one :func:`server.engine.apply`.

Events name objects by id and may mention hidden zones, so they are never sent to a client as
they are: like every other outgoing channel they must pass through :mod:`server.view`.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.cards import CardDef
from server.cards.model import TriggeredAbility
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
    #: Its counters and whether it was attacking, as it last existed (rule 603.10a).
    counters: tuple[tuple[str, int], ...] = ()
    attacking: bool = False
    #: The permanent it was attached to, as it last existed (rule 603.10a).
    attached_to: str | None = None
    #: The triggered abilities granted to it, as it last existed (rules 603.10a, 613.1f).
    granted: tuple[TriggeredAbility, ...] = ()
    #: Whether it was a creature (after layer 4) and a token as it last existed (603.10a):
    #: "dies" (700.4), descended (700.11).
    creature: bool = False
    token: bool = False
    #: Its subtypes, power and toughness as it last existed on the battlefield, after the
    #: layers (603.10a, 608.2h); None: it didn't come from the battlefield (or had none).
    subtypes: tuple[str, ...] | None = None
    power: int | None = None
    toughness: int | None = None


@dataclass(frozen=True, slots=True)
class LeftGame:
    """Rules 800.4a, 603.6c: the permanent ``old_id`` left the battlefield by leaving the
    game with its owner (it goes to no zone); leaves-the-battlefield abilities trigger, as
    it last existed (603.10a)."""

    old_id: str
    owner: int
    controller: int
    card: CardDef
    counters: tuple[tuple[str, int], ...] = ()
    attached_to: str | None = None
    granted: tuple[TriggeredAbility, ...] = ()


@dataclass(frozen=True, slots=True)
class DamageDealt:
    """Rule 120: ``source_id`` dealt ``amount`` damage to a player seat or an object id."""

    source_id: str
    player: int | None
    object_id: str | None
    amount: int
    #: Combat damage (rule 510.2) rather than noncombat damage.
    combat: bool = False
    #: Rules 113.7a, 608.2h: the permanent the damage was dealt as, by its last known
    #: information (a key of ``Game.last_known_permanents``), when ``source_id`` is an
    #: ability whose source has left the battlefield ("When [this] dies, it deals 3
    #: damage"); empty otherwise.
    dealt_as: str = ""


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
    #: Which card they drew this turn: 1 for the first, 2 for the second, ...
    number: int = 0


@dataclass(frozen=True, slots=True)
class TargetsChosen:
    """Rule 601.2c: the objects ``targets`` became targets of the spell or ability
    ``object_id`` (as it became cast, activated or put on the stack; 603.3d, 707.10c)."""

    object_id: str
    targets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TokenCreated:
    """Rule 111.1: a token was created on the battlefield (it "enters", 603.6a)."""

    object_id: str
    controller: int
    card: CardDef


@dataclass(frozen=True, slots=True)
class AttackersDeclared:
    """Rule 508.1: the declared attackers (attack triggers, 508.3a), and what each attacks:
    the player (or the controller of the planeswalker, 506.2) and the planeswalker ("" for
    a player), in the same order."""

    attackers: tuple[str, ...]
    defenders: tuple[int, ...] = ()
    planeswalkers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BlockersDeclared:
    """Rule 509.1: one defending player's (blocker, attacker) pairs (block triggers, 509.3)."""

    blocks: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class CardsRevealed:
    """Rules 701.20a, 701.20e: cards were revealed to ``seats`` (every player for a reveal,
    one player for a look). Names the cards: only those seats may ever be told of it."""

    object_ids: tuple[str, ...]
    seats: tuple[int, ...]
    cards: tuple[CardDef, ...]


@dataclass(frozen=True, slots=True)
class LibrarySearched:
    """Rule 701.23: ``seat`` searched ``owner``'s library (found cards are not named: they
    are revealed only if the effect says so, 701.23e)."""

    seat: int
    owner: int
    found: int


@dataclass(frozen=True, slots=True)
class ClashResolved:
    """Rule 701.30d: the clash's winner, if any (a player whose revealed card had a higher
    mana value than every other revealed card)."""

    seats: tuple[int, ...]
    winner: int | None


@dataclass(frozen=True, slots=True)
class CrimeCommitted:
    """Rule 700.13: ``seat`` committed a crime (a spell or ability they control targets an
    opponent, something an opponent controls, or a card in an opponent's graveyard)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Expended:
    """Rule 700.14: ``seat`` expended ``amount``."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class LifeGained:
    """Rule 119.3: ``seat`` gained ``amount`` life (a life-gain event, 119.9)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class LifeLost:
    """Rule 119.3: ``seat`` lost ``amount`` life -- by damage (120.3a), by paying life
    (119.4) or by an effect (a life-loss event)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class CountersPut:
    """Rule 122.1: ``amount`` counters of ``kind`` were put on the permanent ``object_id``
    (also as it entered with them, 614.1c)."""

    object_id: str
    kind: str
    amount: int


@dataclass(frozen=True, slots=True)
class AbilityActivated:
    """Rule 602.2: ``controller`` activated an ability of ``source_id`` (it became the object
    ``object_id`` on the stack, 602.2i); ``loyalty``: a loyalty ability (606.4)."""

    object_id: str
    source_id: str
    controller: int
    loyalty: bool = False


@dataclass(frozen=True, slots=True)
class AbilityTriggered:
    """Rule 603.3: ``controller`` put a triggered ability of ``source_id`` on the stack (the
    object ``object_id``), its targets chosen (603.3d)."""

    object_id: str
    source_id: str
    controller: int


@dataclass(frozen=True, slots=True)
class Untapped:
    """Rule 701.26b: the permanent ``object_id`` became untapped."""

    object_id: str


@dataclass(frozen=True, slots=True)
class Sacrificed:
    """Rule 701.21a: ``seat`` sacrificed the permanent ``object_id`` (its id on the
    battlefield), ``card`` as it last existed there ("whenever you sacrifice ...", 603.10a)."""

    seat: int
    object_id: str
    card: CardDef


@dataclass(frozen=True, slots=True)
class LifeExchanged:
    """Rule 701.12c: each player's life total became the other's (as gain or loss)."""

    seats: tuple[int, int]


@dataclass(frozen=True, slots=True)
class StartingPlayerChosen:
    """Rule 103.1: ``chooser`` chose ``starting`` to take the first turn."""

    chooser: int
    starting: int


@dataclass(frozen=True, slots=True)
class Countered:
    """Rule 701.6a (2009: 701.5a): the spell or ability ``object_id`` (its id on the stack) was
    countered by the resolving spell or ability ``by_id`` ("" if none). For "counter ...
    unless its controller pays {N}" (118.12a), ``unless_cost`` is that cost (as it was to be
    paid, 609.4b) and ``declined`` says whether its controller could pay and chose not to
    (else they couldn't, 118.3, and weren't asked)."""

    object_id: str
    controller: int
    by_id: str = ""
    unless_cost: str = ""
    declined: bool = False


@dataclass(frozen=True, slots=True)
class MulliganTaken:
    """Rule 103.5: ``seat`` took a mulligan, its ``number``-th of this game."""

    seat: int
    number: int


Event = (ZoneChanged | LeftGame | DamageDealt | PlayerLost | GameEnded | SpellCast | CardDrawn
         | TokenCreated | AttackersDeclared | BlockersDeclared | CardsRevealed
         | LibrarySearched | ClashResolved | LifeExchanged | CrimeCommitted | Expended
         | LifeGained | LifeLost | TargetsChosen | CountersPut | AbilityActivated
         | AbilityTriggered | Sacrificed | Untapped | StartingPlayerChosen | MulliganTaken
         | Countered)
