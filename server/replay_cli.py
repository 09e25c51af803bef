"""``manawire replay GAME_ID --as SEAT|public|all``: replay a finished game from the store,
offline (the operator's tool), printing per action its number, turn, the view class's state id
and view hash and what it learned, in plain words or as JSON lines -- to compare with what a
client had (protocol/README.md, "Replays")."""

from __future__ import annotations

import argparse
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from client_sdk.describe import event_text, result_text
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.view.project import View


def register(sub: Any) -> None:
    """Add the ``replay`` subcommand to the ``manawire`` parser."""
    replay = sub.add_parser("replay", help="replay a finished game from the store, per action")
    replay.add_argument("game_id", metavar="GAME_ID", help="the game's room id")
    replay.add_argument("--as", dest="perspective", required=True,
                        metavar="SEAT|public|hands|all",
                        help="a seat number, public (the spectators' view), hands (every hand "
                             "and look, no library: the every-hand spectator tier's view) or "
                             "all (omniscient)")
    replay.add_argument("--data-dir", type=Path, default=Path("var"),
                        help="directory of the embedded store (default ./var)")
    start = replay.add_mutually_exclusive_group()
    start.add_argument("--at", type=int, default=None, metavar="ACTION",
                       help="start after this many actions (a snapshot there)")
    start.add_argument("--turn", type=int, default=None, metavar="T",
                       help="start at the beginning of turn T")
    replay.add_argument("--format", choices=["text", "json"], default="text",
                        help="plain words (default) or one JSON object per line")
    replay.set_defaults(replay_main=main)


def _viewer(text: str) -> int | None:
    from server.replay import EVERY_HAND, OMNISCIENT, PUBLIC

    if text == "public":
        return PUBLIC
    if text == "hands":
        return EVERY_HAND
    if text == "all":
        return OMNISCIENT
    return int(text) if text.isdigit() else None


class _ReplayNames:
    """Names for :func:`client_sdk.describe.event_text` from a replay's view: the players'
    names and every object seen so far (an object that left the view in the same action is
    named as it was)."""

    def __init__(self, viewer: int, players: Sequence[str]) -> None:
        self.viewer = viewer
        self._players = list(players)
        self._seen: dict[str, pb.GameObject] = {}
        self._texts: dict[str, str] = {}  # the rules text of each object in the view now

    def see(self, view: View) -> None:
        self._texts = {}
        for oid, obj in view.objects.items():
            self._seen[oid] = pb.GameObject(id=oid, name=obj.name, face_down=obj.face_down)
            self._texts[oid] = obj.rules_text.lower()

    def object(self, object_id: str) -> pb.GameObject | None:
        return self._seen.get(object_id)

    def player(self, seat: int) -> str:
        return self._players[seat] if 0 <= seat < len(self._players) else f"seat {seat}"

    def mentions(self, word: str) -> bool:
        return any(word in text for text in self._texts.values())


def main(args: argparse.Namespace) -> int:
    """Run ``manawire replay``; 0 on success, 1 if the game can't be replayed, 2 on a usage
    problem (no store, unknown game, bad perspective)."""
    import sys

    from server.replay import PUBLIC, Replay, ReplayError, replayable, viewer_name
    from server.store.files import STORE_NAME
    from server.store.sqlite import Store

    viewer = _viewer(args.perspective)
    if viewer is None:
        print(f"--as takes a seat number, public or all, not {args.perspective!r}",
              file=sys.stderr)
        return 2
    path = args.data_dir / STORE_NAME
    if not path.is_file():
        print(f"no store at {path}", file=sys.stderr)
        return 2
    store = Store(path)
    try:
        record = store.load_game(args.game_id)
    except KeyError:
        print(f"no game {args.game_id!r} in {path}", file=sys.stderr)
        return 2
    except ValueError as exc:  # (an action type or field this build doesn't know)
        print(f"game {args.game_id} was played by a build whose rules differ from this "
              f"one's: its log holds an action this build can't read ({exc}), so this build "
              f"can't replay it (the build that played it can)", file=sys.stderr)
        return 1
    finally:
        store.close()
    try:
        problem = replayable(record)
        if problem is not None:
            raise problem
        replay = Replay(record, viewer)
        replay.check()  # (a game this build's rules play otherwise is refused)
        if args.turn is not None:
            replay.seek_turn(args.turn)
        elif args.at is not None:
            replay.seek(args.at)
    except ReplayError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    as_json = args.format == "json"
    players = [name for name, _deck, _session in record.players]

    start = {"action": replay.position, "turn": replay.turn, "state_id": replay.state_id,
             "view_hash": replay.view_hash.hex(), "snapshot": True,
             "viewer": viewer_name(viewer), "actions": replay.actions}
    if as_json:
        print(json.dumps(start), flush=True)
    else:
        seats = ", ".join(f"seat {n} {name}" for n, name in enumerate(players))
        whose = f" ({players[viewer]})" if 0 <= viewer < len(players) else ""
        print(f"game {record.room_id} as {viewer_name(viewer)}{whose}: {replay.actions} "
              f"actions; players: {seats}", flush=True)
        print(f"snapshot after action {replay.position} (turn {replay.turn}) state "
              f"{replay.state_id} hash {replay.view_hash.hex()}:")
        print(_board_text(replay.snapshot()), flush=True)
    names = _ReplayNames(viewer, players)
    names.see(replay.view)
    for frame in replay.frames():
        events: list[str] = []
        if frame.message is not None:
            delta = mpb.ServerMessage.FromString(frame.message).delta
            names.see(replay.view)
            events = [line for e in delta.events if (line := event_text(names, e)) is not None]
        if as_json:
            print(json.dumps({"action": frame.action, "turn": frame.turn, "seat": frame.seat,
                              "kind": frame.kind, "state_id": frame.state_id,
                              "view_hash": frame.view_hash.hex(),
                              "delta": frame.message is not None, "events": events}))
        else:
            seen = f"state {frame.state_id}" if frame.message is not None else \
                f"state {frame.state_id} (nothing seen)"
            who = f"seat {frame.seat} ({names.player(frame.seat)})" if frame.seat >= 0 else \
                f"seat {frame.seat}"
            print(f"#{frame.action} turn {frame.turn} {who} {frame.kind}: {seen} "
                  f"hash {frame.view_hash.hex()}" + "".join(f"\n    {e}" for e in events))
    if not as_json:
        result = record.result or {}
        winners, reason = result.get("winners", []), result.get("reason", "")
        # (named, whichever view was replayed: the events say "you" for the seat's own)
        said = result_text(_ReplayNames(PUBLIC, players),
                           [int(w) for w in winners] if isinstance(winners, list) else [],
                           str(reason))
        print(f"Game over: {said}")
    return 0


def _board_text(snapshot: bytes, width: int = 100) -> str:
    """The board of a replay's ``Snapshot`` (serialized ServerMessage) as the terminal
    client draws it (client_sdk.board), without colour: the turn, each player's side and
    zones, the stack. Seats are numbered as ``--as`` takes them (from 0)."""
    from rich.console import Console

    from client_sdk.board import Board, render_lines, render_top
    from client_sdk.mirror import Mirror

    mirror = Mirror()
    mirror.load_snapshot(mpb.ServerMessage.FromString(snapshot).snapshot)
    board = Board(mirror, watching=True, first_seat=0)
    console = Console(file=io.StringIO(), width=width, color_system=None,
                      force_terminal=False, highlight=False, emoji=False)
    lines = render_lines(console, render_top(board, 0.0, title_line=False))
    return "\n".join(line.rstrip() for line in lines)
