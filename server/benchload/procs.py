"""Processes for ``manawire bench-server``: the server under test (or the echo baseline) as a
pinned subprocess, its CPU time and memory read from ``/proc``, and small statistics.

Everything here is bounded in time: a server that doesn't accept connections within
``START_TIMEOUT`` seconds is killed and reported, and stopping is SIGTERM, then SIGKILL
after ``STOP_TIMEOUT`` seconds.
"""

from __future__ import annotations

import contextlib
import math
import os
import resource
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

#: Seconds a server has to accept TCP connections on its port after it was started.
START_TIMEOUT = 60.0
#: Seconds SIGTERM has to stop a server before SIGKILL.
STOP_TIMEOUT = 10.0
#: Ports a server is tried on: another process may take a free port before the server
#: binds it (the test suite starts servers in parallel), and then the next one is tried.
PORT_ATTEMPTS = 5
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def raise_nofile() -> int:
    """Raise this process's open-file limit to its hard limit (children inherit it);
    returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return soft


def usable_cpus() -> list[int]:
    """The CPUs this process may run on, in order."""
    return sorted(os.sched_getaffinity(0))


def default_cpus() -> tuple[int, int]:
    """(server CPU, driver CPU): the first two usable CPUs, or -1 (unpinned) for the
    driver on a one-CPU machine."""
    cpus = usable_cpus()
    return (cpus[0], cpus[1]) if len(cpus) >= 2 else (cpus[0], -1)


def pin(pid: int, cpu: int) -> None:
    """Pin every thread of process ``pid`` to ``cpu`` (-1: leave it unpinned). Called right
    after the process started, before it runs threads of its own; threads it starts later
    inherit the mask."""
    if cpu < 0:
        return
    try:
        tids = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        tids = [pid]
    for tid in tids:
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(tid, {cpu})


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _listening_inodes(port: int) -> set[int]:
    """The inodes of the sockets listening on TCP ``port`` (IPv4 and IPv6), from
    ``/proc/net/tcp`` and ``tcp6`` (state 0A is LISTEN)."""
    found: set[int] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A" and \
                    int(fields[1].rsplit(":", 1)[1], 16) == port:
                found.add(int(fields[9]))
    return found


def _socket_inodes(pid: int) -> set[int]:
    """The inodes of the sockets process ``pid`` holds open."""
    found: set[int] = set()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return found
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            found.add(int(target[8:-1]))
    return found


def port_owner(port: int, pids: Sequence[int]) -> bool | None:
    """Whether one of ``pids`` listens on the loopback TCP ``port``: True; False if only
    another process does (it took the port first); None if nothing listens yet."""
    listening = _listening_inodes(port)
    if not listening:
        return None
    return any(listening & _socket_inodes(pid) for pid in pids)


def cpu_ticks(pid: int) -> int:
    """utime + stime of process ``pid`` (all its threads), in clock ticks; -1 if gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return -1
    fields = stat[stat.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12])  # fields 14 and 15 of proc(5)


def rss_kb(pid: int) -> int:
    """VmRSS of process ``pid`` in KiB; -1 if gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return -1
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


def machine_busy_ticks() -> int:
    """Busy clock ticks of all CPUs together since boot (``/proc/stat``: user, nice,
    system, irq, softirq, steal)."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return -1
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[1:9])
    return user + nice + system + irq + softirq + steal


def cpu_ns(pid: int) -> int:
    """CPU time of process ``pid`` in nanoseconds, every thread it ran included (Linux's
    CPU-time clock of a process, ``CPUCLOCK_SCHED``, read with ``clock_gettime``); -1 if the
    process is gone."""
    try:
        return time.clock_gettime_ns(((~pid) << 3) | 2)
    except OSError:
        return -1


class CpuMeter:
    """CPU% of one process over a window (100 = one core busy). In nanoseconds where the
    kernel gives them (:func:`cpu_ns`), else in clock ticks: a tick is 10 ms, and counted
    in ticks a process that ran a few milliseconds in a half-second window on a loaded
    machine read 0%."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.ns = cpu_ns(pid)
        self.ticks = cpu_ticks(pid) if self.ns < 0 else -1
        self.wall = time.monotonic()

    def percent(self) -> float:
        """CPU% since this meter was made (-1 if the process is gone)."""
        wall = time.monotonic() - self.wall
        if self.ns >= 0:
            ns = cpu_ns(self.pid)
            if ns < 0 or wall <= 0:
                return -1.0
            return round(100.0 * (ns - self.ns) / 1e9 / wall, 1)
        ticks = cpu_ticks(self.pid)
        if ticks < 0 or self.ticks < 0 or wall <= 0:
            return -1.0
        return round(100.0 * (ticks - self.ticks) / CLOCK_TICKS / wall, 1)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q <= 1) of sorted values (0.0 if none)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def median(values: Sequence[float]) -> float | None:
    """The median, or None for no values."""
    if not values:
        return None
    s = sorted(values)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


@dataclass
class Target:
    """A server to benchmark: the current checkout, another root, or a whole command."""

    label: str
    #: The command (the serve flags are appended), its working directory, extra env.
    argv: list[str]
    cwd: Path | None = None
    env: dict[str, str] = field(default_factory=dict)
    #: The ``serve`` options the command understands (None: not asked; pass them all).
    known: frozenset[str] | None = None

    @classmethod
    def current(cls) -> Target:
        return cls("current", [sys.executable, "-m", "server.cli", "serve"])

    @classmethod
    def root(cls, root: Path) -> Target:
        """``python -m server.cli serve`` from another checkout (a git worktree)."""
        root = root.resolve()
        return cls(str(root), [sys.executable, "-m", "server.cli", "serve"], cwd=root,
                   env={"PYTHONPATH": str(root)})

    @classmethod
    def command(cls, command: str) -> Target:
        return cls(command, shlex.split(command))

    def learn_options(self) -> None:
        """Ask the command's ``--help`` which options it has (an older checkout may lack
        some limit flags); on failure every option is passed."""
        try:
            out = subprocess.run([*self.argv, "--help"], cwd=self.cwd, env=self.environ(),
                                 capture_output=True, text=True, timeout=60, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return
        if out.returncode == 0:
            self.known = frozenset(w.strip("[],") for w in out.stdout.split()
                                   if w.startswith(("--", "[--")))

    def environ(self) -> dict[str, str]:
        """The environment of the command: this one plus :attr:`env` (a PYTHONPATH given
        comes first)."""
        env = dict(os.environ)
        for key, value in self.env.items():
            env[key] = value + os.pathsep + env[key] if key == "PYTHONPATH" and \
                env.get(key) else value
        return env


def serve_flags(connections: int, rooms: int, linger: float, spectators: int = 0
                ) -> list[tuple[str, str]]:
    """The ``serve`` limits raised so one loopback address may hold ``connections``
    connections and ``rooms`` busy rooms (with ``spectators`` in one room, if given)."""
    many = str(max(1000, 2 * connections + 64))
    watching = [("--max-spectators", str(spectators))] if spectators else []
    return [("--max-connections-per-address", many),
            ("--max-rooms", str(max(2000, 4 * rooms + 64))),
            ("--max-rooms-per-account", "1000"),
            ("--max-waiting-rooms-per-address", str(max(16, 2 * rooms + 64))),
            ("--max-rooms-per-address", str(max(64, 4 * rooms + 64))),
            # (every table makes a room a game, all from this one address)
            ("--room-burst", str(max(1000, 4 * rooms + 64))),
            ("--rooms-per-minute", "1000000"),
            ("--guest-burst", many),
            ("--guests-per-minute", "1000000"),
            ("--messages-per-second", "100000"),
            ("--message-burst", "100000"),
            ("--outbox", "8192"),
            # (the idle measure holds thousands of connections silent while they open, and
            # the server closes one that says nothing for --hello-seconds)
            ("--hello-seconds", "3600"),
            ("--linger-seconds", f"{linger:g}"),
            ("--grace", "1"),
            *watching]


class ServerProcess:
    """A server (or echo server) subprocess on a free loopback port, pinned to a CPU, with
    a temporary directory of its own; a context manager that always stops it and removes
    the directory. ``make_argv(port, directory)`` gives its command line.

    It has started once *it* listens on its port (``/proc`` says whose the listening
    socket is): a port free a moment ago may be taken by another process first, and then a
    bench must not drive that process; the server is started again on another port (up to
    ``PORT_ATTEMPTS`` ports)."""

    def __init__(self, make_argv: Callable[[int, Path], list[str]], *, cpu: int,
                 cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
        self.make_argv = make_argv
        self.port = 0
        self.tmp = Path(tempfile.mkdtemp(prefix="manawire-bench-"))
        self.argv: list[str] = []
        self.cpu = cpu
        self.cwd = cwd
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        #: What the process printed, read when it stopped (its last 64 KiB).
        self.output = ""

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def __enter__(self) -> ServerProcess:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        taken: list[int] = []
        for _attempt in range(PORT_ATTEMPTS):
            if self._start_on(free_port(), deadline):
                return
            taken.append(self.port)
            self._end()  # (another process took the port: try the next)
        raise RuntimeError(f"another process took each port the server was started on "
                           f"({', '.join(map(str, taken))})")

    def _start_on(self, port: int, deadline: float) -> bool:
        """Start the server on ``port`` and wait until it listens there (True), or until
        it is known that another process listens there (False)."""
        self.port = port
        self.argv = self.make_argv(port, self.tmp)
        self._log = (self.tmp / "server.log").open("wb")
        proc = self.proc = subprocess.Popen(self.argv, cwd=self.cwd, env=self.env,
                                            stdin=subprocess.DEVNULL, stdout=self._log,
                                            stderr=subprocess.STDOUT)
        pin(proc.pid, self.cpu)
        while time.monotonic() < deadline:
            owner = port_owner(port, [proc.pid])
            if owner is False:  # (it will fail to listen, if it hasn't yet)
                return False
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode} before "
                                   f"listening: {self.log_tail()}")
            if owner:
                return True
            time.sleep(0.05)
        raise RuntimeError(f"server not listening after {START_TIMEOUT:g} s: "
                           f"{self.log_tail()}")

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return (self.tmp / "server.log").read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self) -> None:
        try:
            self._end()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def _end(self) -> None:
        """Stop the process (if it runs) and close its log, keeping what it printed."""
        proc, self.proc = self.proc, None
        try:
            if proc is not None and proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(STOP_TIMEOUT)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(STOP_TIMEOUT)
        finally:
            if self._log is not None:
                self._log.close()
                self._log = None
                self.output = self.log_tail(64 * 1024)

    def gc_figures(self) -> dict[str, Any] | None:
        """The garbage collector's figures a server prints as its last ``gc {...}`` line
        when it stops (``server.gctune``; a server that doesn't print one: None)."""
        import json

        for line in reversed(self.output.splitlines()):
            if line.startswith("gc {"):
                try:
                    figures = json.loads(line[3:])
                except ValueError:
                    return None
                return figures if isinstance(figures, dict) else None
        return None


def run_helper(role: str, config: dict[str, Any], *, cpu: int, timeout: float
               ) -> dict[str, Any]:
    """Run ``python -m server.benchload ROLE CONFIG`` pinned to ``cpu``; its last stdout
    line is a JSON object (its result). Killed after ``timeout`` seconds."""
    with Helper(role, config, cpu=cpu) as helper:
        return helper.result(timeout)


class Helper:
    """``python -m server.benchload ROLE CONFIG`` started pinned to ``cpu``, running beside
    the caller until :meth:`result` (its last stdout line, a JSON object); killed on exit
    if it is still running."""

    def __init__(self, role: str, config: dict[str, Any], *, cpu: int) -> None:
        import json

        self.role = role
        self._err = tempfile.TemporaryFile()  # noqa: SIM115 -- closed in __exit__
        argv = [sys.executable, "-m", "server.benchload", role, json.dumps(config)]
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=self._err)
        pin(self.proc.pid, cpu)

    def result(self, timeout: float) -> dict[str, Any]:
        """Wait (at most ``timeout`` s) for the helper's figures; {"error": ...} if it
        failed or took too long."""
        import json

        proc = self.proc
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate(timeout=STOP_TIMEOUT)
            return {"error": f"{self.role} did not finish within {timeout:.0f} s"}
        self._err.seek(0)
        tail = self._err.read().decode(errors="replace")[-1500:]
        lines = [ln for ln in out.decode(errors="replace").splitlines() if ln.startswith("{")]
        if proc.returncode != 0 or not lines:
            return {"error": f"{self.role} exited with {proc.returncode}: {tail.strip()}"}
        result = json.loads(lines[-1])
        assert isinstance(result, dict)
        return result

    def __enter__(self) -> Helper:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate(timeout=STOP_TIMEOUT)
        self._err.close()


def write_atomically(path: str, text: str) -> None:
    """Replace the file ``path`` with ``text`` at once (a reader sees old or new)."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="ascii") as f:
        f.write(text)
    os.replace(tmp, path)


def read_text(path: str) -> str:
    """The file's text ("" if it isn't there)."""
    try:
        with open(path, encoding="ascii") as f:
            return f.read()
    except OSError:
        return ""


def wait_listening(port: int, pid: int, timeout: float = START_TIMEOUT) -> None:
    """Wait until process ``pid`` or one of its children listens on the loopback
    ``port`` (RuntimeError if another process does, or nothing does in time)."""
    deadline = time.monotonic() + timeout
    while True:
        owner = port_owner(port, [pid, *children(pid)])
        if owner:
            return
        if owner is False:
            raise RuntimeError(f"another process took port {port} first")
        if time.monotonic() > deadline:
            raise RuntimeError(f"nothing listens on port {port} after {timeout:g} s")
        time.sleep(0.05)


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (its threads' children, from /proc)."""
    out: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                out.extend(int(c) for c in f.read().split())
        except OSError:
            continue
    return out
