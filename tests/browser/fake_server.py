"""A scripted server behind Playwright's WebSocket routing: a page signs in to it as a guest
and is sent exactly the messages a test gives (a decision with a dozen options, a log of
thousands of lines, a three-player game with a player out), which a real game reaches only
by chance. The page is the real one, served by the test's ``manawire serve``; only its
WebSocket talks to this instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.sync_api import Page, WebSocketRoute, expect

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import view_hash

HAND = pb.ZONE_KIND_HAND
BATTLEFIELD = pb.ZONE_KIND_BATTLEFIELD


@dataclass
class FakeServer:
    """Answers Hello with a Welcome (as guest ``Ann#0001``) and ListRooms with no rooms;
    everything else the page sends is kept in :attr:`received`."""

    route: WebSocketRoute | None = None
    received: list[mpb.ClientMessage] = field(default_factory=list)

    def attach(self, page: Page) -> None:
        """Route the page's WebSocket here (before it is opened)."""
        page.route_web_socket(re.compile(r"^wss?://"), self._connected)

    def _connected(self, route: WebSocketRoute) -> None:
        self.route = route
        route.on_message(self._message)

    def send(self, msg: mpb.ServerMessage) -> None:
        assert self.route is not None, "the page has not connected"
        self.route.send(msg.SerializeToString())

    def _message(self, data: str | bytes) -> None:
        msg = mpb.ClientMessage.FromString(data if isinstance(data, bytes) else data.encode())
        self.received.append(msg)
        body = msg.WhichOneof("body")
        if body == "hello":
            self.send(mpb.ServerMessage(request_id=msg.request_id, welcome=mpb.Welcome(
                protocol_version=1, resume_token="resume", account_token="token",
                account=mpb.Account(account_id="a", name="Ann#0001"))))
        elif body == "list_rooms":
            self.send(mpb.ServerMessage(request_id=msg.request_id, room_list=mpb.RoomList()))

    def acts(self) -> list[int]:
        """The option indices of the Acts the page sent."""
        return [m.act.option_index for m in self.received if m.WhichOneof("body") == "act"]

    # ---- a game
    def seat(self, seats: int = 2) -> None:
        """The page is seated at seat 0 of room ``r``."""
        self.send(mpb.ServerMessage(joined=mpb.Joined(
            role=mpb.ROLE_PLAYER, seat=0,
            room=mpb.RoomInfo(room_id="r", name="friday", seats=seats, started=True))))

    def snapshot(self, view: pb.View, state_id: int) -> None:
        self.send(mpb.ServerMessage(snapshot=pb.Snapshot(
            room_id="r", state_id=state_id, view=view, view_hash=view_hash(view))))

    def delta(self, view: pb.View, prev: int, events: list[pb.GameEvent],
              ops: list[pb.DeltaOp] | None = None) -> None:
        """A delta from state ``prev`` to ``prev + 1`` whose result is ``view``."""
        self.send(mpb.ServerMessage(delta=pb.Delta(
            prev_state_id=prev, state_id=prev + 1, ops=ops or [], view_hash=view_hash(view),
            events=events)))

    def decision(self, prompt_id: int, state_id: int, options: list[pb.Action],
                 kind: pb.DecisionKind = pb.DECISION_KIND_PRIORITY) -> None:
        self.send(mpb.ServerMessage(decision=pb.Decision(
            room_id="r", prompt_id=prompt_id, seat=0, kind=kind, state_id=state_id,
            options=options)))


def card(obj_id: str, name: str, zone: pb.ZoneKind, types: list[str], *, owner: int = 0,
         cost: str = "") -> pb.GameObject:
    """A card of ``owner``'s: in their hand, or on the battlefield under their control."""
    return pb.GameObject(id=obj_id, name=name, owner=owner, controller=owner,
                         zone=pb.ZoneRef(kind=zone, owner=owner if zone == HAND else -1),
                         card_types=types, mana_cost=cost)


def game_view(players: list[pb.Player], objects: list[pb.GameObject], *,
              pending_seat: int | None = 0, prompt_id: int = 1, turn: int = 3,
              active: int = 0) -> pb.View:
    """Seat 0's view of the precombat main phase of ``active``'s turn: each object in its
    zone, in order."""
    zones: dict[tuple[pb.ZoneKind, int], list[str]] = {}
    for obj in objects:
        zones.setdefault((obj.zone.kind, obj.zone.owner), []).append(obj.id)
    header = pb.GameHeader(turn=turn, active_seat=active, step=pb.STEP_PRECOMBAT_MAIN,
                           phase=pb.GAME_PHASE_PLAYING)
    if pending_seat is not None:
        header.pending.CopyFrom(pb.PendingInfo(seat=pending_seat, kind=pb.DECISION_KIND_PRIORITY,
                                               prompt_id=prompt_id))
    return pb.View(viewer=0, header=header, players=players, objects=objects,
                   zones=[pb.ZoneContents(zone=pb.ZoneRef(kind=k, owner=o), object_ids=ids)
                          for (k, o), ids in sorted(zones.items())])


def sign_in(page: Page, url: str, fake: FakeServer) -> None:
    """Open the page with its WebSocket on ``fake`` and play as a guest."""
    fake.attach(page)
    page.goto(url)
    page.locator("#display-name").fill("Ann")
    page.locator("[data-testid=sign-in-guest]").click()
    expect(page.locator("[data-testid=account-name]")).to_have_text("Ann#0001")
