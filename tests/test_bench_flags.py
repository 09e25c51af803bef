"""``manawire bench-server`` raises the server's limits so one loopback address may hold what
it measures: the idle measure keeps thousands of connections silent while they open (3,000
took 10 s) -- longer than the server's default ``--hello-seconds`` (10 s), past which a
connection that hasn't said Hello is closed."""

from __future__ import annotations

from server.app import Limits
from server.benchload.procs import serve_flags


def test_the_servers_hello_deadline_outlasts_the_idle_measures_silent_opening() -> None:
    flags = dict(serve_flags(3000, 0, 0.0))
    assert float(flags["--hello-seconds"]) >= 30.0 + 0.03 * 3000 > Limits().hello_seconds
