"""How a bot picks an option: uniformly, or "eagerly" by the options' kinds.

A decision's options are ``Action`` messages; their kind is the name of the ``kind`` oneof's
case (``"pass_priority"``, ``"play_land"``, ...; the web client's ``data-kind`` is the same in
lowerCamelCase, see :func:`snake_case`). A uniform choice (:class:`Policy.UNIFORM`) explores
every option but makes long games -- about 1,800 actions between two bots with demo decks:
it taps lands for nothing and passes with spells in hand. :func:`eager_choice` plays lands,
casts spells and attacks most of the time, so a game ends by damage in a few hundred actions,
still seeded and still reaching every kind of decision.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from enum import Enum
from typing import assert_never

from protocol.v1 import game_pb2 as pb


class Policy(Enum):
    """How :class:`client_sdk.bots.RandomBot` picks an option."""

    UNIFORM = "uniform"
    EAGER = "eager"


#: Never chosen eagerly: a game should end by damage, not by a concession (nor go round
#: casting and taking back).
NEVER = frozenset({"concede", "take_mulligan", "cancel_cast"})


def snake_case(kind: str) -> str:
    """An option kind as the protocol names it: ``"castSpell"`` -> ``"cast_spell"``."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", kind).lower()


def eager_choice(rng: random.Random, kinds: Sequence[str]) -> int:
    """The index of the option to pick among options of these kinds (protocol names)."""
    allowed = [i for i, k in enumerate(kinds) if k not in NEVER] or list(range(len(kinds)))

    def of(*wanted: str) -> list[int]:
        return [i for i in allowed if kinds[i] in wanted]

    present = {kinds[i] for i in allowed}
    if "keep_hand" in present:
        return of("keep_hand")[0]
    if "pass_priority" in present:
        # Priority: play a land, cast a spell; sometimes an ability; else pass (tapping
        # lands for mana only happens when a spell is being paid for).
        if (lands := of("play_land")) and rng.random() < 0.95:
            return rng.choice(lands)
        if (spells := of("cast_spell")) and rng.random() < 0.9:
            return rng.choice(spells)
        if (abilities := of("activate_ability")) and rng.random() < 0.2:
            return rng.choice(abilities)
        return rng.choice(of("pass_priority"))
    if "declare_attacker" in present and rng.random() < 0.9:
        return rng.choice(of("declare_attacker"))
    if "finish_attackers" in present:
        return rng.choice(of("finish_attackers"))
    if "declare_blocker" in present and rng.random() < 0.2:
        return rng.choice(of("declare_blocker"))
    if "finish_blockers" in present:
        return rng.choice(of("finish_blockers"))
    if (auto := of("pay_automatically")) and rng.random() < 0.8:
        return auto[0]
    if (payments := of("pay_mana")) and rng.random() < 0.8:
        return rng.choice(payments)
    return rng.choice(allowed)


def pick(policy: Policy, rng: random.Random, options: Sequence[pb.Action]) -> int:
    """The index of the option ``policy`` picks among a decision's ``options``."""
    match policy:
        case Policy.UNIFORM:  # (never a cast taken back while anything else is offered:
            # casting and cancelling would only lengthen its games)
            kept = [i for i, o in enumerate(options) if o.WhichOneof("kind") != "cancel_cast"]
            return rng.choice(kept) if kept else rng.randrange(len(options))
        case Policy.EAGER:
            return eager_choice(rng, [o.WhichOneof("kind") or "" for o in options])
        case _:
            assert_never(policy)
