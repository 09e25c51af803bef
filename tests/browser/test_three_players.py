"""A three-player game as its first player out sees it, with a scripted server
(tests/browser/fake_server.py). A new user knocked out at 0 life was shown "lost: has left
the game" (as a quitter is), had no word that they lost, still had a Concede button, and the
final panel named only the winner and the last loser. And the ★ of whose turn it is showed
while the first player was still being chosen. The reasons are today's server's plain words
(no rule numbers), read in the viewer's words: "you have 0 or less life" to Ann."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from protocol.v1 import game_pb2 as pb
from tests.browser.conftest import Pages
from tests.browser.fake_server import FakeServer, game_view, sign_in

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True

ANN_OUT = "Ann#0001 has 0 or less life"
CY_OUT = "Cy#0003 conceded"


def test_a_player_out_of_three_sees_that_they_lost_and_the_end_gives_each_result(
        pages: Pages) -> None:
    page = pages.open("A")
    fake = FakeServer()
    sign_in(page, pages.base_url, fake)
    players = [pb.Player(seat=0, name="Ann#0001", life=3),
               pb.Player(seat=1, name="Bob#0002", life=20),
               pb.Player(seat=2, name="Cy#0003", life=20)]
    fake.seat(seats=3)
    # Bob chooses who plays first: nobody's turn yet, so no ★ (it was on seat 0's name).
    choosing = game_view(players, [], pending_seat=None, turn=0, active=0)
    choosing.header.phase = pb.GAME_PHASE_CHOOSE_STARTING_PLAYER
    choosing.header.pending.CopyFrom(pb.PendingInfo(
        seat=1, kind=pb.DECISION_KIND_CHOOSE_STARTING_PLAYER, prompt_id=1))
    fake.snapshot(choosing, 4)
    expect(page.locator("[data-testid=prompt]")).to_contain_text("Waiting for Bob#0002")
    names = page.locator("[data-testid=player] .pname")
    expect(names).to_have_count(3)
    assert "★" not in "".join(names.all_text_contents())
    # Bob's turn 4: the ★ is his.
    view = game_view(players, [], pending_seat=1, turn=4, active=1)
    fake.snapshot(view, 5)
    expect(page.locator("[data-testid=player][data-seat='1'] .pname")).to_contain_text("★")
    assert "★" not in "".join(names.all_text_contents()).replace("Bob#0002 ★", "")
    ann = page.locator("[data-testid=player][data-seat='0']")
    concede = page.get_by_role("button", name="Concede", exact=True)
    expect(concede).to_have_count(1)

    # Ann goes to 0 life: out of the game, which goes on for Bob and Cy (rule 800.4a).
    view.players[0].life = 0
    view.players[0].has_lost = True
    fake.delta(view, 5, [pb.GameEvent(player_lost=pb.PlayerLostEvent(seat=0, reason=ANN_OUT))],
               ops=[pb.DeltaOp(set_player=view.players[0])])
    lost = page.locator("[data-testid=you-lost]")
    expect(lost).to_contain_text("You lost the game")
    expect(lost.locator("[data-testid=you-lost-why]")).to_have_text("You have 0 or less life.")
    expect(lost).to_contain_text("The game goes on without you: watch it to its end")
    expect(lost).not_to_contain_text("rule")
    badge = ann.locator("[data-testid=lost]")
    expect(badge).to_have_text("lost: you have 0 or less life")
    expect(badge).to_have_attribute("title", "Out of the game: its cards left it, and it goes on "
                                    "without this player.")
    expect(page.locator("[data-testid=event-log]")).to_contain_text(
        "You lost the game (you have 0 or less life)")
    expect(concede).to_have_count(0)
    expect(page.locator("[data-testid=leave-room]")).to_have_text("Leave room")
    pages.screenshot(page, "out")

    # Cy concedes: Bob wins. The end says each player's result.
    view.players[2].has_lost = True
    view.header.ClearField("pending")
    view.header.result.CopyFrom(pb.GameResult(winners=[1], reason=CY_OUT))
    fake.delta(view, 6, [pb.GameEvent(player_lost=pb.PlayerLostEvent(seat=2, reason=CY_OUT))],
               ops=[pb.DeltaOp(set_player=view.players[2]), pb.DeltaOp(set_header=view.header)])
    results = page.locator("[data-testid=game-over] [data-testid=results] li")
    # (The winner is named above the list, not in it again.)
    expect(page.locator("[data-testid=game-over] > p").first).to_have_text("Bob#0002 won.")
    expect(results).to_have_text(["You lost: you have 0 or less life",
                                  "Cy#0003 lost: Cy#0003 conceded"])
    expect(page.locator("[data-testid=event-log]")).to_contain_text(
        "Cy#0003 lost the game (Cy#0003 conceded)")
    expect(lost).to_have_count(0)
    pages.screenshot(page)
    pages.assert_no_errors()
