"""What a running server is doing, for a monitoring system: Prometheus metrics
(``prometheus_client``), answered on a port of their own (``manawire serve --metrics-port
P``, :mod:`server.transport.metrics`; docs/limits.md, "Monitoring").

The figures -- connections, rooms, accounts, actions, refusals by kind, the store (its
files' sizes: a ``stat`` each), relays, the garbage collector, the process -- are read from
the live objects at each scrape, on the server's event loop between two steps of the rooms:
every figure is consistent and nothing is shared with a thread. Nothing is counted for them
on the game's paths beyond the status line's additions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, PlatformCollector, ProcessCollector
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

import server
from server import build, incidents
from server.refusals import KINDS
from server.store.files import store_sizes

if TYPE_CHECKING:
    from server.app import App
    from server.gctune import GcMonitor
    from server.relay.host import RelayLink


@dataclass(eq=False)  # (the registry keys its collectors by identity)
class AppCollector(Collector):
    """The server's own figures, read from ``app`` (and its relays, and the collector's
    timings if given) at each scrape."""

    app: App
    relays: Callable[[], Sequence[RelayLink]] = tuple
    gc: GcMonitor | None = None

    def collect(self) -> Iterable[Metric]:
        app = self.app
        rooms = app.lobby.rooms.values()
        gauges = app.gauges()
        yield GaugeMetricFamily("manawire_connections", "Open client connections (relayed "
                                "ones too).", value=gauges.connections)
        yield GaugeMetricFamily("manawire_rooms", "Open rooms: waiting for players, in "
                                "play, or finished and lingering.", value=gauges.rooms)
        yield GaugeMetricFamily("manawire_rooms_stopped", "Rooms stopped because the "
                                "store couldn't be written (a full disk): their games are "
                                "stored and come back once it can (not in manawire_rooms).",
                                value=gauges.stopped)
        yield GaugeMetricFamily("manawire_games_in_play", "Rooms whose game is being "
                                "played.", value=gauges.playing)
        yield GaugeMetricFamily("manawire_spectators", "Spectators in every room, all "
                                "tiers.", value=sum(len(r.spectators) for r in rooms))
        accounts = GaugeMetricFamily("manawire_accounts", "Accounts the server holds.",
                                     labels=["kind"])
        registered = app.accounts.registered_count
        accounts.add_metric(["registered"], registered)
        accounts.add_metric(["guest"], len(app.accounts.by_id) - registered)
        yield accounts
        yield CounterMetricFamily("manawire_connections_opened", "Client connections "
                                  "opened.", value=app.activity.connections_total)
        yield CounterMetricFamily("manawire_actions", "Game actions played.",
                                  value=app.activity.actions_total)
        refused = CounterMetricFamily("manawire_refusals", "Clients refused by a limit, by "
                                      "kind (docs/limits.md, \"Limits\").", labels=["kind"])
        for kind in KINDS:
            refused.add_metric([kind], app.refusals.totals[kind])
        yield refused
        failed = CounterMetricFamily("manawire_incidents", "Failures the server survived by "
                                     "ending only what failed, by kind: a room (closed), a "
                                     "connection (closed with 1011), a stored game a start "
                                     "could not reload (aborted); each logged with its "
                                     "incident id.", labels=["kind"])
        for failure, count in incidents.totals().items():
            failed.add_metric([failure], count)
        yield failed
        writer = app.writer
        yield CounterMetricFamily("manawire_store_commits", "Store transactions committed "
                                  "(each makes one or more rooms' writes durable).",
                                  value=writer.commits)
        yield CounterMetricFamily("manawire_store_commit_seconds", "Time spent committing "
                                  "store transactions, all together (over "
                                  "manawire_store_commits_total: the mean commit).",
                                  value=writer.commit_seconds)
        yield GaugeMetricFamily("manawire_store_writes_waiting", "Writes waiting for the "
                                "store's writer thread now: a room sends nothing of an "
                                "action before it is durable.", value=writer.waiting)
        yield GaugeMetricFamily("manawire_store_writable", "Whether the store can be "
                                "written (0: its last write failed -- a full disk, an I/O "
                                "error, a read-only file system; /healthz answers 503 and "
                                "the log says why).", value=0.0 if writer.writes.down else 1.0)
        yield CounterMetricFamily("manawire_store_failed_writes", "Store writes refused "
                                  "because the store couldn't be written (each a client's "
                                  "request or a room's action refused, or a probe).",
                                  value=writer.writes.failures)
        checkpoints = writer.checkpoint_state
        yield CounterMetricFamily("manawire_store_checkpoints", "Checkpoints that copied "
                                  "the write-ahead log into the database.",
                                  value=writer.checkpoints)
        yield CounterMetricFamily("manawire_store_checkpoint_failures", "Checkpoints that "
                                  "failed (a full disk: writes may still fit in the "
                                  "write-ahead log meanwhile, which then grows).",
                                  value=checkpoints.failures)
        yield GaugeMetricFamily("manawire_store_checkpoints_ok", "Whether checkpoints "
                                "work (0: they fail, since the log's 'checkpoints fail' "
                                "line, until its 'checkpoints work again' one).",
                                value=0.0 if checkpoints.down else 1.0)
        size = GaugeMetricFamily("manawire_store_size_bytes", "The store's files on disk "
                                 "now: the database and its write-ahead log (which "
                                 "checkpoints keep to a few tens of MB, reused).",
                                 labels=["file"])
        for file, count in store_sizes(writer.store.path).items():
            size.add_metric([file], count)
        yield size
        info = GaugeMetricFamily("manawire_build_info", "The server's version and the git "
                                 "commit it was built from, +dirty if a tracked file "
                                 "differed, or unknown (always 1).",
                                 labels=["version", "commit"])
        info.add_metric([server.__version__, build.commit()], 1.0)
        yield info
        links = self.relays()
        if links:
            up = GaugeMetricFamily("manawire_relay_up", "Whether each relay process is "
                                   "listening.", labels=["relay"])
            restarts = CounterMetricFamily("manawire_relay_restarts", "Times each relay "
                                           "process was started again.", labels=["relay"])
            for link in links:
                up.add_metric([str(link.index)], 1.0 if link.listening.is_set()
                              and not link.stopped.is_set() else 0.0)
                restarts.add_metric([str(link.index)], link.restarts)
            yield up
            yield restarts
        if self.gc is not None:
            yield from self._gc(self.gc)

    @staticmethod
    def _gc(monitor: GcMonitor) -> Iterator[Metric]:
        count = CounterMetricFamily("manawire_gc_collections", "Garbage collections, by "
                                    "generation.", labels=["generation"])
        spent = CounterMetricFamily("manawire_gc_seconds", "Time spent collecting garbage "
                                    "(the event loop waits meanwhile), by generation.",
                                    labels=["generation"])
        longest = GaugeMetricFamily("manawire_gc_longest_seconds", "The longest collection "
                                    "so far, by generation.", labels=["generation"])
        for n, generation in enumerate(monitor.generations):
            count.add_metric([str(n)], generation.collections)
            spent.add_metric([str(n)], generation.total_s)
            longest.add_metric([str(n)], generation.longest_s)
        yield from (count, spent, longest)


def registry_for(app: App, relays: Callable[[], Sequence[RelayLink]] = tuple,
                 gc: GcMonitor | None = None) -> CollectorRegistry:
    """The server's figures, with the process's (memory, CPU, open files) and Python's
    version."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(AppCollector(app, relays, gc))
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    return registry
