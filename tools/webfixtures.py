"""Real game traffic for the browser client's tests (web/test/viewhash.test.ts, mirror.test.ts).

``python -m tools.webfixtures OUT_DIR`` plays one short two-player game in process, with a
fixed seed and random but seeded choices, through the served view pipeline
(:class:`server.view.pipeline.ViewPipeline`, what a room runs: one stream per seat and one
for spectators), and writes for each view class (protocol/README.md, "Views, state ids and
hashes": seat 0, seat 1, the spectators) one JSON file, ``seat-0.json``, ``seat-1.json`` and
``spectator.json``::

    {"about": ..., "seed": 4, "decks": [...], "actions": 320, "viewer": 0,
     "snapshot": B64,              # the ServerMessage{snapshot} sent when the game starts
     "deltas": [B64, ...],         # each ServerMessage{delta} the class was sent, in order
     "resync": {"after": K,        # the snapshot a client asking after the K-th delta gets
                "snapshot": B64},
     "final": B64,                 # the snapshot once the game is over
     "elements": [{"tag": "h", "message": B64, "digest": HEX}, ...]}

The snapshots and deltas are the exact serialized ``ServerMessage`` the room sends
(:mod:`server.view.wire` frames deltas by hand). ``elements`` are the view elements of the
``resync`` snapshot, each serialized by Python protobuf deterministically as the view hash
does it, with its element digest (:func:`protocol.viewhash.element_digest`): what the
TypeScript serialization must reproduce byte for byte. ``synthetic.json`` holds more such
elements (``{"elements": [...]}``), built to set every hashed field at edge values
(:func:`synthetic`).

The decks hold cards that look at and reveal hidden cards (scry: 701.22a; search: 701.23;
reveal: 701.20a), so the traffic has ``reveal_object`` and ``conceal_object`` ops and
``cards_revealed`` events. After ``--actions`` actions seat 1 concedes (rule 104.3a), so the
game ends (``game_ended``, a header with a result) and stays short (about 230 KB in all).
The output is deterministic: the same server code gives the same bytes. The committed copy is
``web/test/fixtures``; ``tests/web/test_fixtures_current.py`` regenerates the traffic from the
current server and runs the TypeScript tests against it.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import HEADER, OBJECT, PLAYER, ZONE, element_digest
from server.cards import parse_decklist
from server.engine import PlayerSetup, apply, new_game
from server.engine.actions import Action, Concede, PassPriority
from server.view.pipeline import ViewPipeline
from server.view.project import SPECTATOR

ROOT = Path(__file__).resolve().parent.parent
#: Where the committed fixtures live.
DEFAULT_OUT = ROOT / "web" / "test" / "fixtures"
ROOM_ID = "webfixtures"
SEED = 4
#: Actions played before seat 1 concedes (the fixtures stay under 300 KB).
ACTIONS = 320
#: The resync snapshot is taken after this many actions (at most half of them).
RESYNC_AT = 160
#: How often a player with something to do does it rather than pass (so that a short game
#: has spells, looks and combat).
EAGER = 0.7

#: Blue-red: scry on a land, a spell and creatures (701.22a: the seat looks at its top card).
DECK_SCRY = """\
4 Temple of Epiphany
4 Opt
4 Shock
4 Onakke Ogre
4 Chandra's Magmutt
4 Wall of Runes
4 Spined Megalodon
4 Volcanic Geyser
14 Island
14 Mountain
"""
#: Black-green: scry, searches (701.23) and a card revealed to everyone (701.20a).
DECK_SEARCH = """\
4 Temple of Malady
4 Track Down
3 Grim Tutor
3 Fierce Empath
3 Solemn Simulacrum
4 Llanowar Visionary
4 Walking Corpse
4 Skeleton Archer
4 Eliminate
14 Forest
13 Swamp
"""
DECKS = (DECK_SCRY, DECK_SEARCH)


@dataclass(slots=True)
class Trace:
    """What one view class was sent (serialized ServerMessages)."""

    viewer: int
    snapshot: bytes
    deltas: list[bytes] = field(default_factory=list)
    resync_after: int = 0
    resync: bytes = b""
    final: bytes = b""


def play(seed: int = SEED, actions: int = ACTIONS, resync_at: int = RESYNC_AT
         ) -> dict[int, Trace]:
    """Play the game; each view class's traffic, by viewer (a seat, or -1 for spectators)."""
    rng = random.Random(seed)
    game = new_game(seed.to_bytes(16, "big"),
                    [PlayerSetup(f"bot{i}", parse_decklist(d)) for i, d in enumerate(DECKS)])
    views = ViewPipeline(game)
    traces = {viewer: Trace(viewer, stream.snapshot(ROOM_ID))
              for viewer, stream in views.streams.items()}
    for n in range(actions + 1):
        if n == resync_at:
            for viewer, stream in views.streams.items():
                traces[viewer].resync_after = len(traces[viewer].deltas)
                traces[viewer].resync = stream.snapshot(ROOM_ID, request_id=1)
        if game.result is not None:
            break
        action: Action
        if n == actions:  # rule 104.3a: a player may concede at any time
            seat, action = 1, Concede()
        else:
            pending = game.pending
            if pending is None or not pending.options:
                raise AssertionError(f"no decision after {n} actions")
            seat, action = pending.seat, _choose(rng, pending.options)
        events = apply(game, seat, action)
        for viewer, _prev, data in views.advance(game, action, events):
            traces[viewer].deltas.append(data)
    if game.result is None:
        raise AssertionError("the game did not end")
    for viewer, stream in views.streams.items():
        traces[viewer].final = stream.snapshot(ROOM_ID)
    return traces


def _choose(rng: random.Random, options: tuple[Action, ...]) -> Action:
    """A random option, mostly not passing priority (see :data:`EAGER`)."""
    if len(options) > 1 and rng.random() < EAGER:
        acting = [a for a in options if not isinstance(a, PassPriority)]
        if acting:
            return rng.choice(acting)
    return rng.choice(options)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def elements(snapshot_message: bytes) -> list[dict[str, str]]:
    """The elements of a snapshot's view: tag, deterministic serialization and digest."""
    view = mpb.ServerMessage.FromString(snapshot_message).snapshot.view
    parts: list[tuple[bytes, Element]] = [
        (HEADER, view.header), *((PLAYER, p) for p in view.players),
        *((OBJECT, o) for o in view.objects), *((ZONE, z) for z in view.zones)]
    return [_element(tag, message) for tag, message in parts]


Element = pb.GameHeader | pb.Player | pb.GameObject | pb.ZoneContents

#: The largest values of the integer types of hashed fields.
_I32_MIN, _I32_MAX, _U32_MAX, _U64_MAX = -(1 << 31), (1 << 31) - 1, (1 << 32) - 1, (1 << 64) - 1


def synthetic() -> list[tuple[bytes, Element]]:
    """Elements with every hashed field set, many at edge values -- zeros of fields with
    presence, negative and largest integers, non-ASCII text, set but empty submessages,
    both members of a oneof -- and each element type empty: what a short game may not show."""
    every_object_field = pb.GameObject(
        id="0123456789abcdef", zone=pb.ZoneRef(kind=pb.ZONE_KIND_EXILE, owner=-1),
        owner=_I32_MAX, controller=_I32_MIN, name="Lim-Dûl the Necromancer \U0001f0a1",
        mana_cost="{X}{R}{R}", mana_value=_U32_MAX, supertypes=["Legendary"],
        card_types=["Creature", "Artifact"], subtypes=["Human", "Wizard"],
        colors=["W", "U", "B", "R", "G"], rules_text="Flying\nWhen ~ enters, scry 1.",
        power=0, toughness=-1, tapped=True, damage=3, summoning_sick=True, attacking=0,
        blocking=["a1", "a2"], x_value=0,
        targets=[pb.Target(player=0), pb.Target(object_id="t1"), pb.Target(player=-1),
                 pb.Target(object_id="")],
        counters=[pb.Counter(kind="+1/+1", count=2), pb.Counter(kind="loyalty", count=0),
                  pb.Counter()],
        attached_to="host", face_down=True, is_ability=True, ability_text="{T}: Add {C}.",
        modes=[0, 2, 300, _U32_MAX], attacking_planeswalker="pw", keywords=["flying"],
        is_token=True, library_position=0,
        stickers=[pb.Sticker(kind="power_toughness", text="4/4"), pb.Sticker()])
    sparse_object = pb.GameObject(id="ff", zone=pb.ZoneRef(), power=0, toughness=0)
    every_header_field = pb.GameHeader(
        turn=_U32_MAX, active_seat=-1, step=pb.STEP_CLEANUP, priority_seat=0,
        pending=pb.PendingInfo(seat=0, kind=pb.DECISION_KIND_CAST_MADNESS, prompt_id=_U64_MAX),
        result=pb.GameResult(winners=[0, 2, -1], reason="rule 104.4a"),
        phase=pb.GAME_PHASE_PLAYING, starting_seat=1,
        triggers=[pb.WaitingTrigger(id="t", controller=-1, source_name="Src", text="x"),
                  pb.WaitingTrigger()],
        planar_controller=0)
    empty_parts = pb.GameHeader(pending=pb.PendingInfo(), result=pb.GameResult())
    every_player_field = pb.Player(
        seat=7, name="ボット", life=-5, library_count=_U32_MAX, hand_count=1,
        mana_pool=pb.ManaPool(white=1, blue=2, black=3, red=4, green=5, colorless=_U32_MAX),
        lands_played_this_turn=2, has_lost=True, poison=10, mulligans=1, max_hand_size=7,
        planar_deck_count=10)
    empty_pool = pb.Player(seat=0, mana_pool=pb.ManaPool())
    zones = [pb.ZoneContents(zone=pb.ZoneRef(kind=pb.ZONE_KIND_BATTLEFIELD, owner=-1),
                             object_ids=["b", "a", ""]),
             pb.ZoneContents(zone=pb.ZoneRef())]
    return [(OBJECT, every_object_field), (OBJECT, sparse_object), (OBJECT, pb.GameObject()),
            (HEADER, every_header_field), (HEADER, empty_parts), (HEADER, pb.GameHeader()),
            (PLAYER, every_player_field), (PLAYER, empty_pool), (PLAYER, pb.Player()),
            *((ZONE, z) for z in zones), (ZONE, pb.ZoneContents())]


def _element(tag: bytes, message: Element) -> dict[str, str]:
    return {"tag": tag.decode("ascii"),
            "message": _b64(message.SerializeToString(deterministic=True)),
            "digest": f"{element_digest(tag, message):064x}"}


def fixture(trace: Trace, seed: int, actions: int) -> dict[str, object]:
    """One view class's fixture (the JSON object described in the module docstring)."""
    return {
        "about": "Generated by `python -m tools.webfixtures` (tools/webfixtures.py): real "
                 "server traffic for web/test. Do not edit; regenerate.",
        "seed": seed,
        "decks": [d.splitlines() for d in DECKS],
        "actions": actions,
        "viewer": trace.viewer,
        "snapshot": _b64(trace.snapshot),
        "deltas": [_b64(d) for d in trace.deltas],
        "resync": {"after": trace.resync_after, "snapshot": _b64(trace.resync)},
        "final": _b64(trace.final),
        "elements": elements(trace.resync),
    }


def file_name(viewer: int) -> str:
    """The fixture file of a view class."""
    return "spectator.json" if viewer == SPECTATOR else f"seat-{viewer}.json"


def write(out_dir: Path, seed: int = SEED, actions: int = ACTIONS) -> list[Path]:
    """Play the game and write each view class's fixture, and ``synthetic.json``, into
    ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for viewer, trace in sorted(play(seed, actions, min(RESYNC_AT, actions // 2)).items()):
        if not trace.resync:
            raise AssertionError(f"the game ended before the resync snapshot (seed {seed})")
        written.append(_write_json(out_dir / file_name(viewer), fixture(trace, seed, actions)))
    written.append(_write_json(out_dir / "synthetic.json", {
        "about": "Generated by `python -m tools.webfixtures` (tools/webfixtures.py): view "
                 "elements as Python protobuf serializes them for the view hash. Do not edit.",
        "elements": [_element(tag, message) for tag, message in synthetic()]}))
    return written


def _write_json(path: Path, data: dict[str, object]) -> Path:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", nargs="?", type=Path, default=DEFAULT_OUT,
                        help=f"where to write the fixtures (default {DEFAULT_OUT})")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--actions", type=int, default=ACTIONS,
                        help="actions played before seat 1 concedes")
    args = parser.parse_args(argv)
    for path in write(args.out_dir, args.seed, args.actions):
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
