"""The "summoning sick" badge (rule 302.6) shows only where it means something: on a
creature of the player whose turn it is, without haste. On blockers and an opponent's
creatures during your turn it read as "can't block" (a new player's review)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from tests.browser.conftest import Pages
from tests.browser.fake_server import FakeServer, game_view, sign_in

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True


def _bears(oid: str, controller: int, keywords: tuple[str, ...] = ()) -> pb.GameObject:
    return pb.GameObject(id=oid, zone=pb.ZoneRef(kind=pb.ZONE_KIND_BATTLEFIELD, owner=-1),
                         owner=controller, controller=controller, name="Grizzly Bears",
                         card_types=["Creature"], power=2, toughness=2, summoning_sick=True,
                         keywords=list(keywords))


def test_summoning_sick_only_on_the_active_players_creatures_without_haste(pages: Pages) -> None:
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    players = [pb.Player(seat=0, name="Ann#0001", life=20),
               pb.Player(seat=1, name="Bob#0002", life=20)]
    fake.seat(seats=2)
    objects = [_bears("a1", 0), _bears("a2", 0, ("Haste",)), _bears("b1", 1)]
    fake.snapshot(game_view(players, objects, pending_seat=1, turn=3, active=0), 4)
    sick = "[data-testid=card][data-id='{}'] [data-testid=sick]"
    expect(page.locator(sick.format("a1"))).to_have_count(1)
    expect(page.locator(sick.format("a2"))).to_have_count(0)  # haste
    expect(page.locator(sick.format("b1"))).to_have_count(0)  # Bob's, in Ann's turn
    fake.snapshot(game_view(players, objects, pending_seat=1, turn=4, active=1), 5)
    expect(page.locator(sick.format("b1"))).to_have_count(1)
    expect(page.locator(sick.format("a1"))).to_have_count(0)


def test_a_spectator_sees_the_stack_between_the_two_players(pages: Pages) -> None:
    """The spectator's layout put the stack below both players; the players see it in the
    middle (a new player's review)."""
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    fake.send(mpb.ServerMessage(joined=mpb.Joined(
        role=mpb.ROLE_SPECTATOR, seat=-1,
        room=mpb.RoomInfo(room_id="r", name="friday", seats=2, started=True))))
    players = [pb.Player(seat=0, name="Ann#0001", life=20),
               pb.Player(seat=1, name="Bob#0002", life=20)]
    view = game_view(players, [_bears("a1", 0), _bears("b1", 1)], pending_seat=1)
    view.viewer = -1
    fake.snapshot(view, 4)
    expect(page.locator("[data-testid=player]")).to_have_count(2)
    tops = page.evaluate("""() => [...document.querySelectorAll(
        '[data-testid=player], .zone.stack')].map((el) => [
        el.classList.contains('stack') ? 'stack' : el.dataset.seat,
        el.getBoundingClientRect().top])""")
    ordered = [name for name, _ in sorted(tops, key=lambda t: t[1])]
    assert ordered[1] == "stack", ordered
