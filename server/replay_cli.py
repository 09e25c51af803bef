"""``manawire replay GAME_ID --as SEAT|public|all``: replay a finished game from the store,
offline (the operator's tool), printing per action its number, turn, the view class's state id
and view hash and what it learned, in plain words or as JSON lines -- to compare with what a
client had (protocol/README.md, "Replays")."""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb


def register(sub: Any) -> None:
    """Add the ``replay`` subcommand to the ``manawire`` parser."""
    replay = sub.add_parser("replay", help="replay a finished game from the store, per action")
    replay.add_argument("game_id", metavar="GAME_ID", help="the game's room id")
    replay.add_argument("--as", dest="perspective", required=True, metavar="SEAT|public|all",
                        help="a seat number, public (the spectators' view) or all (omniscient)")
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
    from server.replay import OMNISCIENT, PUBLIC

    if text == "public":
        return PUBLIC
    if text == "all":
        return OMNISCIENT
    return int(text) if text.isdigit() else None


_ZONES = {pb.ZONE_KIND_LIBRARY: "library", pb.ZONE_KIND_HAND: "hand",
          pb.ZONE_KIND_BATTLEFIELD: "battlefield", pb.ZONE_KIND_GRAVEYARD: "graveyard",
          pb.ZONE_KIND_STACK: "stack", pb.ZONE_KIND_EXILE: "exile",
          pb.ZONE_KIND_COMMAND: "command zone", pb.ZONE_KIND_ANTE: "ante"}


def describe_event(event: pb.GameEvent, name_of: Callable[[str], str]) -> str:
    """One event in plain words (``name_of``: an object id's name in the view, or "")."""
    kind = event.WhichOneof("kind")

    def obj(oid: str, fallback: str = "something") -> str:
        return name_of(oid) or fallback if oid else fallback

    if kind == "zone_change":
        z = event.zone_change
        what = z.name or obj(z.new_id or z.old_id, "a card")
        return (f"{what} (player {z.owner}'s) moved from {_ZONES.get(z.from_zone, '?')} to "
                f"{_ZONES.get(z.to_zone, '?')}")
    if kind == "damage":
        d = event.damage
        to = f"player {d.player}" if d.WhichOneof("recipient") == "player" else obj(d.object_id)
        return f"{obj(d.source_id)} dealt {d.amount} damage to {to}"
    if kind == "player_lost":
        return f"player {event.player_lost.seat} lost ({event.player_lost.reason})"
    if kind == "spell_cast":
        s = event.spell_cast
        return f"player {s.controller} cast {s.name or 'a spell'}"
    if kind == "card_drawn":
        return f"player {event.card_drawn.seat} drew a card"
    if kind == "token_created":
        t = event.token_created
        return f"player {t.controller} created a token {t.name}".rstrip()
    if kind == "attackers_declared":
        names = [obj(i) for i in event.attackers_declared.attacker_ids]
        return "attackers: " + (", ".join(names) or "none")
    if kind == "blockers_declared":
        pairs = [f"{obj(b.blocker_id)} blocks {obj(b.attacker_id)}"
                 for b in event.blockers_declared.blocks]
        return "blockers: " + (", ".join(pairs) or "none")
    if kind == "cards_revealed":
        r = event.cards_revealed
        return ("revealed to everyone: " if r.to_everyone else "seen: ") + \
            ", ".join(c.name for c in r.cards)
    if kind == "library_searched":
        found = event.library_searched
        return (f"player {found.seat} searched player {found.owner}'s library, found "
                f"{found.found}")
    if kind == "game_ended":
        g = event.game_ended
        winners = ", ".join(str(w) for w in g.winners) or "nobody (a draw)"
        return f"the game ended: won by {winners} ({g.reason})"
    if kind is None:
        return "an event"
    return str(kind).replace("_", " ")


def main(args: argparse.Namespace) -> int:
    """Run ``manawire replay``; 0 on success, 1 if the game can't be replayed, 2 on a usage
    problem (no store, unknown game, bad perspective)."""
    import sys

    from server.replay import Replay, ReplayError, replayable, viewer_name
    from server.store.sqlite import Store

    viewer = _viewer(args.perspective)
    if viewer is None:
        print(f"--as takes a seat number, public or all, not {args.perspective!r}",
              file=sys.stderr)
        return 2
    path = args.data_dir / "manawire.sqlite3"
    if not path.is_file():
        print(f"no store at {path}", file=sys.stderr)
        return 2
    store = Store(path)
    try:
        record = store.load_game(args.game_id)
    except KeyError:
        print(f"no game {args.game_id!r} in {path}", file=sys.stderr)
        return 2
    finally:
        store.close()
    try:
        problem = replayable(record)
        if problem is not None:
            raise problem
        replay = Replay(record, viewer)
        if args.turn is not None:
            replay.seek_turn(args.turn)
        elif args.at is not None:
            replay.seek(args.at)
    except ReplayError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    as_json = args.format == "json"

    start = {"action": replay.position, "turn": replay.turn, "state_id": replay.state_id,
             "view_hash": replay.view_hash.hex(), "snapshot": True,
             "viewer": viewer_name(viewer), "actions": replay.actions}
    if as_json:
        print(json.dumps(start), flush=True)
    else:
        print(f"game {record.room_id} as {viewer_name(viewer)}: {replay.actions} actions; "
              f"snapshot after action {replay.position} (turn {replay.turn}) state "
              f"{replay.state_id} hash {replay.view_hash.hex()}", flush=True)
    def names() -> dict[str, str]:
        return {oid: v.name for oid, v in replay.view.objects.items() if not v.face_down}

    before = names()  # an object that left the view is named as it was before the action
    for frame in replay.frames():
        events: list[str] = []
        if frame.message is not None:
            delta = mpb.ServerMessage.FromString(frame.message).delta
            known = defaultdict(str, {**before, **names()})
            events = [describe_event(e, known.__getitem__) for e in delta.events]
            before = names()
        if as_json:
            print(json.dumps({"action": frame.action, "turn": frame.turn, "seat": frame.seat,
                              "kind": frame.kind, "state_id": frame.state_id,
                              "view_hash": frame.view_hash.hex(),
                              "delta": frame.message is not None, "events": events}))
        else:
            seen = f"state {frame.state_id}" if frame.message is not None else \
                f"state {frame.state_id} (nothing seen)"
            print(f"#{frame.action} turn {frame.turn} seat {frame.seat} {frame.kind}: {seen} "
                  f"hash {frame.view_hash.hex()}" + "".join(f"\n    {e}" for e in events))
    result = record.result or {}
    if not as_json:
        print(f"end: {result}")
    return 0
