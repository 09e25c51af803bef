"""``python -m server.benchload bench-server [options]`` is ``manawire bench-server``; the
rest are its helper processes (not user commands):

- ``python -m server.benchload driver|echo-driver|idle-driver|watch-driver|tables-driver
  CONFIG_JSON`` runs a load driver (or a fan-out run's spectators, or a join-cost run's
  tables) and prints its figures as one JSON line; ``engine CONFIG_JSON`` likewise runs the
  engine baseline;
- ``python -m server.benchload echo-server --port P`` serves the echo baseline on
  127.0.0.1 until it is signalled.
"""

from __future__ import annotations

import json
import sys
from functools import partial

import trio

from server.benchload.baselines import (
    EchoConfig,
    EngineConfig,
    IdleConfig,
    drive_echo,
    drive_idle,
    echo_serve,
    run_engine,
)
from server.benchload.driver import GameConfig, drive_games
from server.benchload.joincost import TablesConfig, drive_tables
from server.benchload.watchers import WatchConfig, drive_watchers


def main(argv: list[str]) -> int:
    if argv[:1] == ["bench-server"]:
        from server.benchload.bench import main as bench_main

        return bench_main(argv[1:])
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    role, arg = argv
    if role == "echo-server":
        trio.run(echo_serve, int(arg.removeprefix("--port=")))
        return 0
    config = json.loads(arg)
    if role == "driver":
        result = trio.run(drive_games, GameConfig(**config))
    elif role == "echo-driver":
        result = trio.run(drive_echo, EchoConfig(**config))
    elif role == "watch-driver":
        result = trio.run(drive_watchers, WatchConfig(**config))
    elif role == "tables-driver":
        result = trio.run(drive_tables, TablesConfig(**config))
    elif role == "engine":
        result = run_engine(EngineConfig(**config))
    elif role == "idle-driver":
        result = trio.run(partial(drive_idle, IdleConfig(**config)))
    else:
        print(f"unknown role {role!r}", file=sys.stderr)
        return 2
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
