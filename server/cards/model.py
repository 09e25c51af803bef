"""Frozen, typed card definitions (see ../README: "How to add a card").

Printed characteristics come from MTGJSON-format data; behaviour is data over a closed
vocabulary of effects named after the rules' verbs. This module holds only the types.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from server.cards.mana import ManaCost


class TargetSpec(Enum):
    """What a spell may target (rule 115)."""

    #: "any target": a creature, player, planeswalker or battle (rule 115.4).
    ANY = "any"


@dataclass(frozen=True, slots=True)
class DealDamage:
    """``[This] deals N damage to <target>`` (rule 120). ``amount`` None means X (rule 107.3)."""

    amount: int | None
    target: TargetSpec


#: The closed vocabulary of spell effects. Grows with the rules engine.
Effect = DealDamage


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card's printed characteristics and its behaviour."""

    name: str
    mana_cost: ManaCost
    has_mana_cost: bool
    supertypes: tuple[str, ...]
    card_types: tuple[str, ...]
    subtypes: tuple[str, ...]
    colors: tuple[str, ...]
    rules_text: str
    power: int | None
    toughness: int | None
    #: Effects performed, in order, when the spell resolves (rule 608.2c).
    effects: tuple[Effect, ...] = ()
    #: Mana this permanent can tap for: the intrinsic ability of basic land types (rule 305.6).
    mana_abilities: tuple[str, ...] = ()

    def is_type(self, card_type: str) -> bool:
        """Whether the card has the given card type (rule 205.2)."""
        return card_type in self.card_types

    @property
    def is_land(self) -> bool:
        """Rule 305: lands are played, not cast."""
        return "Land" in self.card_types

    @property
    def is_permanent_card(self) -> bool:
        """Rule 110.4: artifact, battle, creature, enchantment, land and planeswalker cards."""
        return not ("Instant" in self.card_types or "Sorcery" in self.card_types)

    @property
    def targets(self) -> tuple[TargetSpec, ...]:
        """Targets the spell requires, in the order its text names them (rule 601.2c)."""
        return tuple(e.target for e in self.effects)

    @property
    def type_line(self) -> str:
        """The printed type line, e.g. ``Basic Land — Forest`` (rule 205.1)."""
        left = " ".join((*self.supertypes, *self.card_types))
        return f"{left} — {' '.join(self.subtypes)}" if self.subtypes else left
