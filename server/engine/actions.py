"""Actions: every choice a player can make, as small frozen value types.

Each action round-trips through :func:`action_to_json` / :func:`action_from_json` (used by the
action log) and has a ``repr`` that evaluates back to itself.

>>> action_from_json(action_to_json(CastSpell("a1b2")))
CastSpell(object_id='a1b2')
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class PassPriority:
    """Rule 117.3d: pass priority."""


@dataclass(frozen=True, slots=True)
class PlayLand:
    """Rules 116.2a, 305.1: play a land from hand (a special action)."""

    object_id: str


@dataclass(frozen=True, slots=True)
class CastSpell:
    """Rule 601.2a: begin casting a spell from hand."""

    object_id: str


@dataclass(frozen=True, slots=True)
class ChooseX:
    """Rule 601.2b: announce the value of X."""

    value: int


@dataclass(frozen=True, slots=True)
class ChooseTarget:
    """Rule 601.2c: choose a target -- a player seat or an object id (exactly one is set)."""

    player: int | None = None
    object_id: str | None = None


@dataclass(frozen=True, slots=True)
class ActivateManaAbility:
    """Rules 605.3a-b: activate a permanent's mana ability, with priority or while paying;
    ``mana`` is the mana it adds when it could add one of several kinds; ``paid_with``, for
    an ability whose cost is mana (Prismite's {2}, 605.1a), the mana that pays it (letters
    WUBRGC in that order: the player chooses, 601.2h; "" in a game logged before it was
    offered: the engine's default way, normalized by :func:`server.engine.game.apply`)."""

    object_id: str
    mana: str = ""
    paid_with: str = ""


@dataclass(frozen=True, slots=True)
class PayMana:
    """Rule 601.2h: pay the total cost from the mana pool, spending exactly ``mana`` (letters
    WUBRGC in that order, e.g. ``"RRB"``): the player chooses which mana pays generic costs
    and hybrid symbols.

    ``types`` > 0: one step of a payment asked in steps (:data:`~server.engine.state.MAX_OPTIONS`):
    ``mana`` is what is spent of the first ``types`` mana types (WUBRGC order) -- the rest is
    chosen next. 0: the whole payment."""

    mana: str = ""
    types: int = 0


@dataclass(frozen=True, slots=True)
class DeclareAttacker:
    """Rules 508.1a-b: declare that a creature attacks a player, or (``planeswalker_id``) a
    planeswalker that player controls."""

    object_id: str
    defender: int
    planeswalker_id: str = ""


@dataclass(frozen=True, slots=True)
class FinishAttackers:
    """Rule 508.1: the declaration of attackers is complete."""


@dataclass(frozen=True, slots=True)
class DeclareBlocker:
    """Rule 509.1a: declare that a creature blocks an attacking creature."""

    object_id: str
    attacker_id: str


@dataclass(frozen=True, slots=True)
class FinishBlockers:
    """Rule 509.1: the declaration of blockers is complete."""


@dataclass(frozen=True, slots=True)
class AssignCombatDamage:
    """Rules 510.1c, 702.19b: divide an attacker's combat damage among its blockers (and,
    with trample, ``""`` for the player or planeswalker it attacks)."""

    attacker_id: str
    assignments: tuple[tuple[str, int], ...]
    #: One step of a division asked one recipient at a time (past
    #: :data:`~server.engine.state.MAX_OPTIONS` ways): the first recipients' amounts, the
    #: next recipient's asked next (the last gets the rest).
    partial: bool = False


@dataclass(frozen=True, slots=True)
class Discard:
    """Choose a card to discard: down to maximum hand size (514.1) or for an effect (701.9)."""

    object_id: str


@dataclass(frozen=True, slots=True)
class ChooseStartingPlayer:
    """Rule 103.1: the chosen player decides who takes the first turn (play or draw)."""

    seat: int


@dataclass(frozen=True, slots=True)
class KeepHand:
    """Rule 103.5: keep this hand; it becomes the opening hand."""


@dataclass(frozen=True, slots=True)
class TakeMulligan:
    """Rule 103.5: shuffle the hand away and draw a new one (London mulligan)."""


@dataclass(frozen=True, slots=True)
class PutOnBottom:
    """Rule 103.5: after a mulligan, put this card from hand on the bottom of the library."""

    object_id: str


@dataclass(frozen=True, slots=True)
class ChooseMode:
    """Rules 601.2b, 700.2: choose the mode of a modal spell (index into its modes)."""

    mode: int


@dataclass(frozen=True, slots=True)
class FinishModes:
    """Rule 700.2: choose no more modes (once at least the minimum number is chosen)."""


@dataclass(frozen=True, slots=True)
class ActivateAbility:
    """Rule 602.2: activate a permanent's activated ability (index into its abilities)."""

    object_id: str
    ability: int


@dataclass(frozen=True, slots=True)
class FinishTargets:
    """Rule 601.2c: choose no more targets for an "up to N" target requirement."""


@dataclass(frozen=True, slots=True)
class ChooseOrder:
    """Rules 405.3, 603.3b, 404.3: the next triggered ability to put on the stack, or the
    next card of a simultaneous graveyard arrival (first chosen is lowest)."""

    object_id: str


@dataclass(frozen=True, slots=True)
class KeepLegend:
    """Rule 704.5j: the legendary permanent to keep; the others go to the graveyard."""

    object_id: str


@dataclass(frozen=True, slots=True)
class Sacrifice:
    """Rules 701.21a, 601.2h: the permanent to sacrifice -- for an effect, or as a cost."""

    object_id: str


@dataclass(frozen=True, slots=True)
class ChooseReplacement:
    """Rule 616.1: which replacement or prevention effect to apply to an event. For a
    permanent that would die, ``object_id`` is that permanent and ``replacement`` is
    ``"exile"`` or ``"hand"``. For damage that would be dealt to a player, ``replacement``
    is ``"prevent"`` -- ``object_id`` the
    permanent whose static ability prevents it (Nine Lives), or "" for the prevention
    effects of resolved spells and abilities (615.1) -- or ``"protection"`` (702.16e,
    ``object_id`` the permanent giving the protection)."""

    object_id: str
    replacement: str


@dataclass(frozen=True, slots=True)
class Accept:
    """Take an optional ("you may") action (rule 608.2d)."""


@dataclass(frozen=True, slots=True)
class Decline:
    """Don't take an optional action ("you may ...")."""


@dataclass(frozen=True, slots=True)
class CancelCast:
    """Take back the spell or activated ability being cast or activated, before it is
    (601.2i, 602.2i): the spell returns to its owner's hand as a new object (400.7), the
    ability leaves the stack, nothing is paid, and the player has priority again (as 733.1-
    733.2 reverse an action that can't be completed). Mana already made by mana abilities
    stays in the pool (reversing them is optional there, 733.1)."""


@dataclass(frozen=True, slots=True)
class PayAutomatically:
    """Pay the cost being paid the engine's way (rules 601.2g-h, 605.3a; for "unless its
    controller pays", 118.12a): one action that takes, in turn, the mana abilities and the
    payment the player could have chosen one by one (a shortcut, 732.2a) --
    :mod:`server.engine.autopay`."""


@dataclass(frozen=True, slots=True)
class ResetAttackers:
    """Rule 508.1: start the active player's declaration of attackers over (an attacker
    chosen by mistake, or at the wrong player or planeswalker)."""


@dataclass(frozen=True, slots=True)
class ResetBlockers:
    """Rule 509.1: start this player's declaration of blockers over (e.g. to satisfy
    menace, 702.111b)."""


@dataclass(frozen=True, slots=True)
class PlaceCard:
    """Put a looked-at card on the top or the bottom of its library: scry (701.22a), fateseal
    (701.29a), clash (701.30a). Cards put on top go above the ones put there before (the
    last placed is the new top card); cards put on the bottom go under the ones put there
    before (the last placed is the new bottom card)."""

    object_id: str
    bottom: bool


@dataclass(frozen=True, slots=True)
class ChooseCard:
    """Choose a card: one to find in a search (701.23), for the first pile (700.3), or from a
    revealed hand (701.9b)."""

    object_id: str


@dataclass(frozen=True, slots=True)
class ChoosePlayer:
    """Choose a player: the opponent to clash with (701.30b), to separate piles (700.3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChoosePile:
    """Rule 700.3: choose pile 0 or pile 1."""

    pile: int


@dataclass(frozen=True, slots=True)
class ChooseColor:
    """Rules 105.4, 608.2d: choose a color -- "W", "U", "B", "R" or "G"."""

    color: str


@dataclass(frozen=True, slots=True)
class ChooseName:
    """Rule 608.2d: choose one of the names an effect offers (a keyword ability's name)."""

    name: str


@dataclass(frozen=True, slots=True)
class RollPlanarDie:
    """Rules 901.9, 116.2i: roll the planar die (a special action of the active player in a
    Planechase game), paying ``mana`` -- letters WUBRGC in that order, from the mana pool --
    for its cost of {X}, X the number of times they took this action before this turn."""

    mana: str = ""


class ConcedeReason(enum.StrEnum):
    """Why a player concedes (rule 104.3a): a player's own choice, or one the server makes
    for them -- their clock ran out, they left the running game, or they stayed
    disconnected too long while it waited on them, or (a computer) no person is left playing.
    Only the server sets these; a client concedes with ``ConcedeGame`` and is ``CHOSE``."""

    CHOSE = "chose"
    OUT_OF_TIME = "out_of_time"
    LEFT = "left"
    #: Disconnected too long while the game waited on them (the server's --away-seconds).
    ABSENT = "absent"
    #: A computer player the server runs, once no person is left playing the game.
    NO_PERSON_LEFT = "no_person_left"


@dataclass(frozen=True, slots=True)
class Concede:
    """Rule 104.3a: concede the game (allowed at any time, not only when deciding)."""

    reason: ConcedeReason = ConcedeReason.CHOSE


@dataclass(frozen=True, slots=True)
class ChooseOutsideCard:
    """Rule 400.11b: choose a card you own from outside the game (your sideboard, 400.11a)
    to bring into the game -- the one at ``index`` of your sideboard, named ``name``."""

    index: int
    name: str


@dataclass(frozen=True, slots=True)
class ChooseExilePile:
    """Rule 406.4: choose a pile of face-down exiled cards (the ones in ``object_ids``); a
    card is then chosen at random from it."""

    object_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ActionLimitDraw:
    """Not a player's choice: the server ends a game that reached its limit of ``limit``
    actions as a draw (``manawire serve --max-game-actions``). No rule sets such a limit;
    the closest is 104.4b, an unbreakable loop makes a draw. Logged like an action, so the
    stored log alone replays the game's end; the room applies it (in any seat still
    playing), never a client."""

    limit: int


Action = (
    PassPriority
    | PlayLand
    | CastSpell
    | ChooseX
    | ChooseTarget
    | ActivateManaAbility
    | PayMana
    | DeclareAttacker
    | FinishAttackers
    | DeclareBlocker
    | FinishBlockers
    | AssignCombatDamage
    | Discard
    | ChooseStartingPlayer
    | KeepHand
    | TakeMulligan
    | PutOnBottom
    | ChooseMode
    | ActivateAbility
    | FinishTargets
    | ChooseOrder
    | KeepLegend
    | Sacrifice
    | ChooseReplacement
    | Decline
    | Accept
    | ResetBlockers
    | ResetAttackers
    | PayAutomatically
    | CancelCast
    | PlaceCard
    | ChooseCard
    | ChoosePlayer
    | ChoosePile
    | ChooseColor
    | ChooseName
    | RollPlanarDie
    | FinishModes
    | Concede
    | ChooseOutsideCard
    | ChooseExilePile
    | ActionLimitDraw
)

ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls
    for cls in (
        PassPriority, PlayLand, CastSpell, ChooseX, ChooseTarget, ActivateManaAbility, PayMana,
        DeclareAttacker, FinishAttackers, DeclareBlocker, FinishBlockers, AssignCombatDamage,
        Discard, ChooseStartingPlayer, KeepHand, TakeMulligan, PutOnBottom, ChooseMode,
        ActivateAbility, FinishTargets, ChooseOrder, KeepLegend, Sacrifice, ChooseReplacement,
        Decline, Accept, ResetBlockers, ResetAttackers, PayAutomatically, CancelCast, PlaceCard,
        ChooseCard, ChoosePlayer, ChoosePile,
        RollPlanarDie, FinishModes, ChooseColor, ChooseName,
        Concede,
        ChooseOutsideCard, ChooseExilePile, ActionLimitDraw,
    )
}


def action_to_json(action: Action) -> dict[str, Any]:
    """A JSON-ready dict: ``{"type": "CastSpell", "object_id": ...}``."""
    out: dict[str, Any] = {"type": type(action).__name__}
    out.update(asdict(action))
    if isinstance(action, PayMana) and not action.types:
        del out["types"]  # (a whole payment is logged as before steps existed)
    if isinstance(action, AssignCombatDamage) and not action.partial:
        del out["partial"]
    return out


def action_from_json(data: dict[str, Any]) -> Action:
    """Inverse of :func:`action_to_json`; raises ValueError on anything malformed."""
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown action type {kind!r}")
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise ValueError(f"unknown field(s) {sorted(extra)} for {kind}")
    kwargs = {k: v for k, v in data.items() if k != "type"}
    if cls is AssignCombatDamage:
        kwargs["assignments"] = tuple((str(i), int(n)) for i, n in kwargs["assignments"])
    if cls is ChooseExilePile:
        kwargs["object_ids"] = tuple(str(i) for i in kwargs["object_ids"])
    if cls is Concede and "reason" in kwargs:
        kwargs["reason"] = ConcedeReason(kwargs["reason"])  # ValueError when unknown
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"bad {kind}: {exc}") from None
