"""Phasing (rule 702.26): a phased-out permanent is treated as though it doesn't exist.

It leaves ``game.battlefield`` (every rule and effect that looks at the battlefield skips it)
while its object stays in ``game.objects`` on the battlefield zone: it doesn't change zones or
control (702.26d), keeps its counters, tapped status and attachments, and a token goes on
existing. Auras and Equipment attached to it phase out with it, "indirectly" (702.26g), and
phase in with it. It phases in during the untap step of the player who controlled it as it
phased out, before permanents untap (702.26a) -- unless an effect says it can't phase in yet.
"""

from __future__ import annotations

from server.engine.state import Game, PhasedOut
from server.engine.zones import remove_from_combat


def is_phased_out(game: Game, object_id: str) -> bool:
    """Whether the object is a phased-out permanent (rule 702.26b)."""
    return any(p.object_id == object_id for p in game.phased_out)


def phase_out(game: Game, object_ids: list[str], *, held_by: int = -1) -> None:
    """Rules 702.26b, 702.26g: the permanents phase out, with whatever is attached to them
    (indirectly, 702.26h); each is removed from combat (506.4). ``held_by``: "until the end of
    your next turn, they can't phase in"."""
    for oid in object_ids:
        if oid not in game.battlefield:
            continue
        # Whatever is attached to it, and to those in turn (an Aura on an Aura: 702.26g,
        # each "a permanent phasing out"); all of them come back with it (702.26h).
        group = [oid]
        for host in group:
            group += [i for i in game.battlefield
                      if game.objects[i].attached_to == host and i not in group]
        attached = group[1:]
        for each in (oid, *attached):
            game.battlefield.remove(each)
            remove_from_combat(game, each)
            game.phased_out.append(PhasedOut(
                each, game.objects[each].controller, host=oid if each != oid else "",
                held_by=held_by, held_from=game.turn))


def phase_in(game: Game, seat: int) -> None:
    """Rule 702.26a: in ``seat``'s untap step, the permanents that phased out under their
    control phase in -- with those attached to them (702.26g) -- unless held until the end of
    a turn of the holder's that hasn't ended yet."""
    for entry in list(game.phased_out):
        if entry.host or entry.controller != seat or _held(game, entry):
            continue
        for each in [e for e in game.phased_out if e is entry or e.host == entry.object_id]:
            game.phased_out.remove(each)
            game.battlefield.append(each.object_id)  # 702.26c: it exists again


def _held(game: Game, entry: PhasedOut) -> bool:
    """"Until the end of your next turn, they can't phase in": the holder's next turn after
    the effect hasn't ended yet (it began after ``held_from`` and before this turn)."""
    if entry.held_by < 0:
        return False
    last = game.last_turn_of.get(entry.held_by, -1)
    return not (entry.held_from < last < game.turn)
