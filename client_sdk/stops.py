"""When the terminal client stops for its player's priority, and when it passes by itself.

A player holding an instant with an untapped land was asked at every step of each
opponent's turn -- upkeep, draw, main, beginning of combat, ... -- with nothing on the stack,
their clock running at each (found by a new player: ~9 passes a turn, and 8 minutes of
clock lost while away). ``pp`` lasted a turn only. The client now passes by itself, as a
lasting setting, where a player seldom acts:

* :data:`AUTO` (the default, as Arena's): with an empty stack, priority is passed in the
  upkeep, draw, beginning of combat, combat damage, end of combat and cleanup steps, in
  an opponent's main phases and in your own end step. It stops whenever the stack has
  something on it, in your own main phases, in the declare attackers and declare blockers
  steps of a combat you attack in or are attacked in, and in an opponent's end step (the
  moment to cast an instant before your turn).
* :data:`FULL` (full control): it stops at every priority the player could act in.

Either way only a plain priority decision with ``PassPriority`` among its options is ever
passed, and never with mana in the player's pool; every other decision waits for the player.

What the client passes at once depends only on what everyone sees (the step, the stack,
whose turn it is, the mana pool): the time an answer takes is seen by the opponents and
spectators (the clocks, to the millisecond). At a stop, a priority with nothing to cast or
activate (:func:`client_sdk.describe.only_pass`) is passed too -- with :data:`AUTO` only,
after a human-like wait (:data:`HUMAN_PASS_SECONDS`): passed at once, it told the table
"nothing castable in that hand" (an attacker guessed it right 173 times of 173). With
:data:`FULL` the player is always asked.
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol.v1 import game_pb2 as pb

#: Pass priority by itself where a player seldom acts (the default).
AUTO = "auto"
#: Stop at every priority the player could act in.
FULL = "full"
MODES = (AUTO, FULL)
#: The seconds the client waits, drawn uniformly afresh each time, before passing by itself
#: a priority at a stop with nothing but passing to do (as a player reading the board would).
HUMAN_PASS_SECONDS = (1.0, 3.0)

#: Steps in which :data:`AUTO` passes with an empty stack, whoever's turn it is.
_PASSED_STEPS = frozenset({pb.STEP_UNTAP, pb.STEP_UPKEEP, pb.STEP_DRAW,
                           pb.STEP_BEGINNING_OF_COMBAT, pb.STEP_COMBAT_DAMAGE,
                           pb.STEP_END_OF_COMBAT, pb.STEP_CLEANUP})
_MAIN_STEPS = frozenset({pb.STEP_PRECOMBAT_MAIN, pb.STEP_POSTCOMBAT_MAIN})
_COMBAT_STEPS = frozenset({pb.STEP_DECLARE_ATTACKERS, pb.STEP_DECLARE_BLOCKERS})


def mode_words(mode: str) -> str:
    """The setting in words, for ``stops`` and the help."""
    if mode == FULL:
        return ("Full control: you are asked at every step in which you could act "
                "(full turns it off).")
    return ("Usual stops: with nothing on the stack the client passes for you in upkeep, "
            "draw, combat's beginning and end and the opponents' main phases; it stops "
            "when anything is on the stack, in your main phases, when you attack or are "
            "attacked, and at an opponent's end step (full: stop at every step).")


def pass_option(decision: pb.Decision | None) -> int | None:
    """The index of the ``PassPriority`` option of a plain priority decision (None: not
    such a decision -- never passed by the client)."""
    if decision is None or decision.kind != pb.DECISION_KIND_PRIORITY:
        return None
    return next((i for i, option in enumerate(decision.options)
                 if option.WhichOneof("kind") == "pass_priority"), None)


def in_combat(seat: int, active_seat: int, objects: Iterable[pb.GameObject]) -> bool:
    """Whether ``seat`` attacks (its turn, a creature attacking) or is attacked (a creature
    attacks it or a planeswalker it controls)."""
    objects = list(objects)
    walkers = {o.id for o in objects if o.controller == seat}
    for obj in objects:
        if not obj.HasField("attacking"):
            continue
        if active_seat == seat or (obj.attacking_planeswalker in walkers
                                   if obj.attacking_planeswalker else obj.attacking == seat):
            return True
    return False


def pool_empty(pool: pb.ManaPool | None) -> bool:
    """Whether there is no mana in ``pool`` (None: not known, taken as empty)."""
    return pool is None or not (pool.white or pool.blue or pool.black or pool.red
                                or pool.green or pool.colorless)


def auto_passes(mode: str, decision: pb.Decision | None, header: pb.GameHeader, seat: int, *,
                stack: Iterable[str], objects: Iterable[pb.GameObject],
                pool: pb.ManaPool | None = None) -> bool:
    """Whether the client passes ``decision`` for the player at ``seat`` by itself, under
    the setting ``mode`` (:data:`AUTO` or :data:`FULL`) -- never with mana in the player's
    ``pool``: made for something, it would empty as the step ends (106.4)."""
    if mode != AUTO or pass_option(decision) is None or any(True for _ in stack):
        return False
    if not pool_empty(pool):
        return False
    step, mine = header.step, header.active_seat == seat
    if step in _PASSED_STEPS:
        return True
    if step in _MAIN_STEPS:
        return not mine
    if step in _COMBAT_STEPS:
        return not in_combat(seat, header.active_seat, objects)
    if step == pb.STEP_END:
        return mine
    return False  # (a step not known: ask)
