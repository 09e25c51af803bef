"""``manawire bench-server``: a load benchmark of the real server over loopback WebSockets.

Prints figures as JSON lines, never assertions. Three processes: the server under test
(``python -m server.cli serve`` on a free 127.0.0.1 port, a fresh data directory, limits
raised so one address may hold thousands of connections and rooms, pinned to
``--server-cpu``), a load driver (pinned to ``--driver-cpu``) and this orchestrator. The
modes:

- **closed loop** (default): R rooms of two bots each answer every decision as soon as it
  arrives;
- **paced** (``--pace A``): each room makes about A actions per second (a schedule per
  room);
- **idle** (``--idle N``): N connections say Hello and stay idle; the server's RSS per
  connection;
- **fan-out** (``--spectators LIST``): room X watched by N spectators, room Y measured
  (:mod:`server.benchload.watchers`); with ``--join-cost``, N spectators moving between two
  waiting games instead, and the server's CPU per join (:mod:`server.benchload.joincost`).

Each game measurement is followed by an echo baseline: a bare websockets.trio echo server
(pinned to the server's CPU) driven with the same number of connections (2R) at the rate of
Acts the game server completed in that measurement (``actions_per_s``), each message a
payload of the mean size of the frames the game server sent. ``p99_ratio`` is the game
server's action-to-delta p99 over the echo round trip's p99. :mod:`server.benchload.driver`
and :mod:`server.benchload.baselines` (the echo and idle runs) define every figure;
:mod:`server.benchload.bench` the order of runs.
"""

from server.benchload.bench import register, run

__all__ = ["register", "run"]
