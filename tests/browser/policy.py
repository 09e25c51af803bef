"""How the browser tests pick an option: by the options' kinds (``data-kind``, the ``Action``
oneof case in lowerCamelCase), seeded, so a game between two clicking pages ends by damage in
a few hundred actions (a uniform random choice, like ``client_sdk.bots.RandomBot``, takes
about 1,800 here: it taps lands for nothing and passes with spells in hand)."""

from __future__ import annotations

import random
from collections.abc import Sequence

#: Never chosen: the game should end by damage, not by a concession.
NEVER = frozenset({"concede", "takeMulligan"})


def choose(rng: random.Random, kinds: Sequence[str]) -> int:
    """The index of the option to click among options of these kinds."""
    allowed = [i for i, k in enumerate(kinds) if k not in NEVER] or list(range(len(kinds)))

    def of(*wanted: str) -> list[int]:
        return [i for i in allowed if kinds[i] in wanted]

    present = {kinds[i] for i in allowed}
    if "keepHand" in present:
        return of("keepHand")[0]
    if "passPriority" in present:
        # Priority: play a land, cast a spell; sometimes an ability; else pass (tapping
        # lands for mana only happens when a spell is being paid for).
        if (lands := of("playLand")) and rng.random() < 0.95:
            return rng.choice(lands)
        if (spells := of("castSpell")) and rng.random() < 0.9:
            return rng.choice(spells)
        if (abilities := of("activateAbility")) and rng.random() < 0.2:
            return rng.choice(abilities)
        return rng.choice(of("passPriority"))
    if "declareAttacker" in present and rng.random() < 0.9:
        return rng.choice(of("declareAttacker"))
    if "finishAttackers" in present:
        return rng.choice(of("finishAttackers"))
    if "declareBlocker" in present and rng.random() < 0.2:
        return rng.choice(of("declareBlocker"))
    if "finishBlockers" in present:
        return rng.choice(of("finishBlockers"))
    if (payments := of("payMana")) and rng.random() < 0.8:
        return rng.choice(payments)
    return rng.choice(allowed)
