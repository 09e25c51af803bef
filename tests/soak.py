"""The suite's soak switch: how deep the long randomized tests go.

``make test`` keeps the suite within its time budget by playing a fixed sample of each long
randomized test (the same seeds or examples every run). ``--soak`` (``make soak``), or the
environment variable ``MANAWIRE_SOAK=1``, plays them in full:

- ``tests/engine/test_simulation.py``: 1,000 random games (50 by default);
- ``tests/view/test_protocol_properties.py``: 1,000 examples per property (50), whole demo
  games 6 (1);
- ``tests/view/test_prompts.py``: 200 examples (40);
- ``tests/view/test_omniscient_tracked.py``: 100 examples (5);
- ``tests/view/test_omniscient.py``: 60 examples (8);
- ``tests/engine/test_cancel_cast.py``: every take-back of each game (the first 40);
- ``tests/engine/test_replacement_order.py``: 4 random games (1);
- ``tests/e2e/test_restart.py``: 40 SIGKILLs (6).

Test modules read :func:`soaking` when they are imported (hypothesis settings are fixed
then); ``tests/conftest.py`` sets the variable from ``--soak`` before collection.
"""

from __future__ import annotations

import os

SOAK_ENV = "MANAWIRE_SOAK"


def soaking() -> bool:
    """Whether the full soak was asked for (``--soak`` or ``MANAWIRE_SOAK=1``)."""
    return os.environ.get(SOAK_ENV, "") not in ("", "0")


def depth(default: int, soak: int) -> int:
    """A long test's size: its sample in the default run, its full size when soaking."""
    return soak if soaking() else default
