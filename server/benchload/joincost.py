"""The tables of a join-cost run of ``manawire bench-server --join-cost``: what a spectator's
move from one room to another costs the server.

Two rooms, each with two players whose game has started and who never act, so nothing but
the spectators' joins and leaves keeps the server busy. Every ``period`` seconds this process
writes the other room's id to ``room_file``; the spectators' process
(:mod:`server.benchload.watchers`) follows it, each spectator sending ``LeaveRoom`` then
``JoinRoom``. The spectators' process counts the joins of its window and the server's CPU
in that window; the orchestrator divides one by the other (``server_us_per_join``). The
server's own idle work with everyone connected (its collector's clock, the store's
checkpoints) is counted in too: about 1% of a core.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass

import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import ClientConnection

from protocol.v1 import messages_pb2 as mpb
from server.benchload.driver import REQUEST_TIMEOUT, client, decode_frame, hello
from server.benchload.procs import read_text, write_atomically


@dataclass
class TablesConfig:
    """What :func:`drive_tables` is told (JSON from the orchestrating process)."""

    url: str
    room_file: str
    ready_file: str
    #: Seconds between moves of the audience (a new room id in ``room_file``).
    period: float
    seconds: float
    warmup: float
    setup_timeout: float = 60.0


async def _request(ws: ClientConnection, rid: int, **body: object) -> mpb.ServerMessage:
    """Send a request and return its answer (other messages are skipped)."""
    await ws.send(mpb.ClientMessage(request_id=rid, **body)  # type: ignore[arg-type]
                  .SerializeToString())
    with trio.fail_after(REQUEST_TIMEOUT):
        while True:
            for msg in decode_frame(await ws.recv(decode=False), True):
                if msg.request_id != rid:
                    continue
                if msg.HasField("error"):
                    raise RuntimeError(f"the server refused a table's request: "
                                       f"{msg.error.message}")
                return msg


async def _drain(ws: ClientConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        while True:
            await ws.recv(decode=False)


async def _room(nursery: trio.Nursery, url: str, index: int) -> str:
    """A room whose two players have joined (its game started) and then only listen."""
    players = []
    for seat in range(2):
        ws = await client(url).connect(nursery)
        reply = await hello(ws, f"table{index}-{seat}", True)
        if not reply.HasField("welcome"):
            raise RuntimeError(f"a table's Hello was refused: {reply}")
        players.append(ws)
    created = await _request(players[0], 2, create_room=mpb.CreateRoom(
        name=f"join-cost-{index}", seats=2))
    room_id = created.room_created.room.room_id
    for ws in players:
        await _request(ws, 3, join_room=mpb.JoinRoom(room_id=room_id,
                                                     role=mpb.ROLE_PLAYER))
        nursery.start_soon(_drain, ws)
    return room_id


async def drive_tables(cfg: TablesConfig) -> dict[str, object]:
    """Open the two rooms, then move the audience between them until the window is over."""
    async with trio.open_nursery() as nursery:
        with trio.fail_after(cfg.setup_timeout):
            rooms = [await _room(nursery, cfg.url, i) for i in range(2)]
        write_atomically(cfg.room_file, rooms[0] + "\n")
        with trio.fail_after(cfg.setup_timeout):
            while True:  # until the spectators have all joined
                if read_text(cfg.ready_file):
                    break
                await trio.sleep(0.02)
        moves = 0
        end = time.perf_counter() + cfg.warmup + cfg.seconds
        while time.perf_counter() < end:
            await trio.sleep(cfg.period)
            moves += 1
            write_atomically(cfg.room_file, rooms[moves % 2] + "\n")
        nursery.cancel_scope.cancel()
    return {"moves": moves, "period": cfg.period}
