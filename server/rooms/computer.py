"""The computer players the server runs (``CreateRoom.computers``): how one picks among its
own decision's legal options, and how long it takes to.

A computer seat is a :class:`~server.rooms.room.Member` with no connection and no account
(:func:`computer_id`: an id no account, session or token ever has). Its room decides for it,
inside its own state machine: when the pending decision is a computer's, the room wakes
after :func:`think_seconds` and, if that decision is still pending, applies
:func:`choose`'s option through the same path a player's ``Act`` takes (logged before any
delta leaves, invariant 6).

The policy is "eager", as the SDK's (``client_sdk.policy.EAGER``, which the server doesn't
import): it keeps its opening hand (rule 103.5), plays a land when it may, casts what it can,
attacks with what may attack, seldom blocks, pays costs automatically, and never concedes,
mulligans or takes back a cast. It reads its own legal options -- what the engine offers
the seat deciding -- and only what that seat's player may see besides: whose its targets
are and its own spell's text (:func:`aimed_targets`), the legendary permanents it controls
(:func:`second_legends`); so it knows no more than that player would (the object ids it
picks are the options' own).

Its cost: :func:`choose` scans the options (about 15 us; 40 us at the 99th percentile),
then the room does what a person's ``Act`` costs -- the engine's action and every view
class's delta: 0.4 ms at the median, 8 ms at the 99th percentile (1,564 decisions of 5 games
against a person playing the same policy, measured on the 2-core machine while others ran).
A room's computers decide at most once every ``computer_seconds / 2`` seconds (the pacing):
at the default 0.8 s, at most 2.5 decisions a second -- a thousandth of a core on average --
so a room with computers costs no more than one of people who answer fast.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from server.engine.actions import (
    Action,
    ActivateAbility,
    CancelCast,
    CastSpell,
    ChooseStartingPlayer,
    ChooseTarget,
    Concede,
    DeclareAttacker,
    DeclareBlocker,
    FinishAttackers,
    FinishBlockers,
    KeepHand,
    PassPriority,
    PayAutomatically,
    PayMana,
    PlayLand,
    ResetAttackers,
    ResetBlockers,
    TakeMulligan,
)
from server.engine.board import board
from server.engine.state import Game

#: Never chosen while anything else is offered: a game should end by damage, not by a
#: concession, a mulligan to nothing, or casting and taking back (or declaring and undoing)
#: over and over.
_NEVER = (Concede, TakeMulligan, CancelCast, ResetAttackers, ResetBlockers)

#: The name a computer seat plays under ("Computer 2", ... when a room has several).
COMPUTER_NAME = "Computer"


def computer_id(seat: int) -> str:
    """The session and account id of the computer in ``seat``: with a colon, which no
    account id, session id or token (hex digits, URL-safe base64) ever has."""
    return f"computer:{seat}"


def computer_name(index: int, count: int) -> str:
    """The name of a room's ``index``-th computer (0-based) of ``count``."""
    return COMPUTER_NAME if count == 1 else f"{COMPUTER_NAME} {index + 1}"


def think_seconds(rng: random.Random, mean: float) -> float:
    """How long a computer takes over one decision: uniform in ``mean`` x [0.5, 1.5] (the
    same for every kind of decision, so that how fast it answers tells nothing of its hand)."""
    return mean * (0.5 + rng.random())


#: Words of a spell's or ability's text that make it bad for what it targets: damage,
#: destruction, exile, a toughness loss, tapping, bouncing, countering, a restriction, a
#: fight. (Anything else -- a pump, a counter put, an untap, a keyword given -- is good
#: for its target.)
_HOSTILE = re.compile(
    r"damage|destroy|exile|gets? -|-\d+/-\d+|-x/-x|\btap target|return target|"
    r"counter target|can't (?:attack|block)|doesn't untap|fights?\b|sacrifices?\b|loses? ")


#: Reminder text (rule 207.2): what a keyword means, in parentheses.
_REMINDER = re.compile(r"\([^()]*\)")


def hostile(text: str) -> bool:
    """Whether a spell or ability with this rules text harms what it targets (a computer aims
    such a one at its opponents' things, anything else at its own). Reminder text, in
    parentheses, is left out: Sure Strike's first strike "deals combat damage" before it.
    (Rough: the whole text is judged, so a spell with a good and a bad target -- Rookie
    Mistake's +0/+2 and another's -2/-0 -- aims both one way.)"""
    return bool(_HOSTILE.search(_REMINDER.sub("", text).lower()))


def choose(rng: random.Random, seat: int, options: Sequence[Action],
           aimed: Sequence[int] = (), pointless: Sequence[int] = ()) -> int:
    """The index of the option the computer in ``seat`` picks among its decision's legal
    ``options`` (never empty). ``aimed``: the target options it would rather pick, if any --
    its opponents' things for a spell that harms its target, its own for one that helps
    (the room tells, :func:`hostile`; picked at random, the computer cast Turn to Slag on its
    own creature with the player's two in reach). ``pointless``: options it never picks while
    any other is offered -- a legendary permanent spell whose name it already has on the
    battlefield (the room tells: the legend rule, 704.5j, would put one of the two into its
    graveyard; a player saw it cast a second Sanctum of Stone Fangs and lose it)."""
    usable = [i for i, o in enumerate(options) if not isinstance(o, _NEVER)] \
        or list(range(len(options)))
    allowed = [i for i in usable if i not in pointless] or usable

    def of(*kinds: type) -> list[int]:
        return [i for i in allowed if isinstance(options[i], kinds)]

    if aims := [i for i in aimed if i in allowed]:
        return rng.choice(aims)

    if keep := of(KeepHand):
        return keep[0]
    if first := [i for i in of(ChooseStartingPlayer)
                 if isinstance(o := options[i], ChooseStartingPlayer) and o.seat == seat]:
        return first[0]  # (103.1: it plays first)
    if of(PassPriority):
        if (lands := of(PlayLand)) and rng.random() < 0.95:
            return rng.choice(lands)
        if (spells := of(CastSpell)) and rng.random() < 0.9:
            return rng.choice(spells)
        if (abilities := of(ActivateAbility)) and rng.random() < 0.2:
            return rng.choice(abilities)
        return of(PassPriority)[0]
    if (attackers := of(DeclareAttacker)) and rng.random() < 0.9:
        return rng.choice(attackers)
    if finish := of(FinishAttackers):
        return finish[0]
    if (blockers := of(DeclareBlocker)) and rng.random() < 0.2:
        return rng.choice(blockers)
    if finish := of(FinishBlockers):
        return finish[0]
    if (auto := of(PayAutomatically)) and rng.random() < 0.8:
        return auto[0]
    if (payments := of(PayMana)) and rng.random() < 0.8:
        return rng.choice(payments)
    return rng.choice(allowed)


def aimed_targets(game: Game, seat: int) -> list[int]:
    """The target options (601.2c) of ``seat``'s pending decision its computer would rather
    pick: its opponents' things (players, and permanents they control) for a spell or
    ability that harms its target (:func:`hostile`), its own for one
    that helps. It reads only what its player may see: its own spell's text and whose the
    targets are (public: 400.2)."""
    pending, casting = game.pending, game.casting
    if pending is None or casting is None or casting.seat != seat:
        return []
    source = game.objects.get(casting.object_id)
    if source is None:
        return []
    text = source.ability_def.text if source.is_ability and source.ability_def \
        else source.card.rules_text
    harms = hostile(text)
    aimed = []
    for i, option in enumerate(pending.options):
        if not isinstance(option, ChooseTarget):
            continue
        if option.player is not None:
            whose = option.player
        elif option.object_id is not None and option.object_id in game.objects:
            whose = game.objects[option.object_id].controller
        else:
            continue
        if (whose != seat) == harms:
            aimed.append(i)
    return aimed


def second_legends(game: Game, seat: int) -> list[int]:
    """The options of ``seat``'s pending decision that cast a legendary permanent spell
    (205.4d) with the name of a legendary permanent ``seat`` controls: the legend rule
    (704.5j) would put one of the two into its graveyard at once. (Public: the battlefield,
    and the computer's own hand.)"""
    pending = game.pending
    if pending is None:
        return []
    names = {o.card.name for o in board(game).legendary if o.controller == seat}
    if not names:
        return []
    found = []
    for i, option in enumerate(pending.options):
        if not isinstance(option, CastSpell) or option.object_id not in game.objects:
            continue
        card = game.objects[option.object_id].card
        if card.name in names and card.legendary and card.is_permanent_card:
            found.append(i)
    return found
