"""Mana symbols and mana costs (rules 107.4, 202).

A :class:`ManaCost` is a small value type that round-trips with its printed form:

>>> ManaCost.parse("{X}{R}{R}")
ManaCost.parse('{X}{R}{R}')
>>> str(ManaCost.parse("{2}{W}"))
'{2}{W}'
>>> ManaCost.parse("{2}{W}").mana_value
3
>>> ManaCost.parse("{R/G}{R/G}").mana_value
2
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The five colours in WUBRG order (rule 105.1), then colorless (rule 106.1b).
COLORS: tuple[str, ...] = ("W", "U", "B", "R", "G")
MANA_TYPES: tuple[str, ...] = (*COLORS, "C")

_SYMBOL = re.compile(r"\{([^{}]+)\}")


class ManaCostError(ValueError):
    """A mana cost string that is not made of supported mana symbols."""


@dataclass(frozen=True, slots=True)
class ManaCost:
    """A mana cost: generic amount, coloured/colorless symbols and X symbols (rule 107.4)."""

    generic: int = 0
    #: Counts of {W}{U}{B}{R}{G}{C} symbols, in :data:`MANA_TYPES` order.
    symbols: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)
    x_count: int = 0
    #: Two-colour hybrid symbols such as ``{R/G}`` (rule 107.4e), each a pair of mana types.
    hybrid: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> ManaCost:
        """Parse a printed cost such as ``"{X}{R}{R}"``; ``""`` is no cost."""
        generic = 0
        x_count = 0
        counts = [0] * len(MANA_TYPES)
        hybrid: list[tuple[str, str]] = []
        pos = 0
        for match in _SYMBOL.finditer(text):
            if match.start() != pos:
                raise ManaCostError(f"unexpected text in mana cost {text!r}")
            pos = match.end()
            sym = match.group(1)
            if sym.isdigit():
                generic += int(sym)
            elif sym == "X":
                x_count += 1
            elif sym in MANA_TYPES:
                counts[MANA_TYPES.index(sym)] += 1
            elif len(sym) == 3 and sym[1] == "/" and sym[0] in COLORS and sym[2] in COLORS \
                    and sym[0] != sym[2]:
                hybrid.append((sym[0], sym[2]))  # rule 107.4e
            else:
                raise ManaCostError(f"unsupported mana symbol {{{sym}}} in {text!r}")
        if pos != len(text):
            raise ManaCostError(f"unexpected text in mana cost {text!r}")
        c = counts
        return cls(generic, (c[0], c[1], c[2], c[3], c[4], c[5]), x_count, tuple(hybrid))

    @property
    def mana_value(self) -> int:
        """Mana value with X treated as 0 (rule 202.3e, off the stack); hybrid counts 1 (202.3f)."""
        return self.generic + sum(self.symbols) + len(self.hybrid)

    @property
    def colors(self) -> tuple[str, ...]:
        """The colours of the mana symbols in this cost, in WUBRG order (rule 105.2)."""
        present = {MANA_TYPES[i] for i, n in enumerate(self.symbols) if n}
        present.update(c for pair in self.hybrid for c in pair)
        return tuple(c for c in COLORS if c in present)

    def with_x(self, x: int) -> ManaCost:
        """The cost to pay once X is chosen (rule 107.3a, 601.2f): X symbols become generic."""
        if not self.x_count:
            return self  # no X: the same (immutable) cost
        return ManaCost(self.generic + self.x_count * x, self.symbols, 0, self.hybrid)

    def plus(self, other: ManaCost) -> ManaCost:
        """This cost with another added to it (rule 601.2f: additional costs)."""
        a, b = self.symbols, other.symbols
        return ManaCost(self.generic + other.generic,
                        (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4],
                         a[5] + b[5]),
                        self.x_count + other.x_count, (*self.hybrid, *other.hybrid))

    def __str__(self) -> str:
        parts = ["{X}"] * self.x_count
        if self.generic:
            parts.append(f"{{{self.generic}}}")
        for sym, n in zip(MANA_TYPES, self.symbols, strict=True):
            parts.extend([f"{{{sym}}}"] * n)
        parts.extend(f"{{{a}/{b}}}" for a, b in self.hybrid)
        return "".join(parts)

    def __repr__(self) -> str:
        return f"ManaCost.parse({str(self)!r})"
