"""Rule 608.2n: a resolving instant or sorcery is put into its owner's graveyard as the final
step of its resolving, after its instructions are followed. What the view alone tells of
those instructions -- a pump's new power and toughness (Titanic Growth), permanents tapped
(Frost Breath: tests/terminal/test_log_parity.py) -- is said in the log before the line of
the spell leaving the stack, not after it (it read "your Titanic Growth moved from the stack
to your graveyard", then "your Walking Corpse is now 6/6"). Worked out from a real game's
deltas, as the web client does (web/src/describe.ts ``resolutionEnd``)."""

from __future__ import annotations

from client_sdk.describe import resolution_end
from protocol.v1 import game_pb2 as pb
from tests.terminal.test_player_text import titanic_growth_resolved


def test_608_2n_a_pumps_new_size_is_said_before_the_spell_goes_to_the_graveyard() -> None:
    lines = titanic_growth_resolved().lines
    assert lines[-3:] == ["you cast Titanic Growth targeting Walking Corpse",
                          "your Walking Corpse is now 6/6 (was 2/2)",
                          "your Titanic Growth moved from the stack to your graveyard"], lines


def _moved(from_zone: int, to_zone: int) -> pb.GameEvent:
    return pb.GameEvent(zone_change=pb.ZoneChangeEvent(
        owner=0, from_zone=from_zone, to_zone=to_zone, name="X"))  # type: ignore[arg-type]


def test_608_2n_the_resolving_spell_is_the_last_to_leave_the_stack() -> None:
    """A counterspell's target leaves the stack first (701.6a), the counterspell last; a
    permanent spell entering the battlefield is its resolving (608.3) and a cast taken back
    returns to the hand (733.1): no end of a resolution for the effects to precede."""
    stack, graveyard = pb.ZONE_KIND_STACK, pb.ZONE_KIND_GRAVEYARD
    drawn = pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=0))
    assert resolution_end([_moved(stack, graveyard), drawn, _moved(stack, graveyard),
                           _moved(pb.ZONE_KIND_BATTLEFIELD, graveyard)]) == 2
    assert resolution_end([_moved(stack, pb.ZONE_KIND_EXILE)]) == 0
    assert resolution_end([_moved(stack, pb.ZONE_KIND_BATTLEFIELD), drawn]) == -1
    assert resolution_end([_moved(stack, pb.ZONE_KIND_HAND)]) == -1
    assert resolution_end([]) == -1
