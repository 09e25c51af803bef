"""Running out of file descriptors (an operator's report): with a low ``ulimit -n`` the
accepts failed with EMFILE and trio's ``serve_listeners`` logged an ERROR with a whole
traceback every 0.1 s (188 in 20 s). The listener now retries them itself, with one warning
a minute at most and its count; and ``serve`` raises its soft open-files limit to the hard
one at start, saying so."""

from __future__ import annotations

import errno
import logging
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest
import trio
import trio.testing

from server.transport.ws import AddressListener


class _Failing:
    """A listener whose accepts fail with EMFILE ``failures`` times, then never return."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.socket = trio.socket.socket()

    async def accept(self) -> trio.SocketStream:
        if self.failures:
            self.failures -= 1
            raise OSError(errno.EMFILE, "Too many open files")
        await trio.sleep_forever()
        raise AssertionError  # (never)


async def test_accepts_out_of_descriptors_are_retried_with_one_warning_a_minute(
        autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture) -> None:
    inner = _Failing(1200)  # 120 s of failures, tried every 0.1 s
    listener = AddressListener(cast(trio.SocketListener, inner), 64)
    with caplog.at_level(logging.DEBUG):
        with trio.move_on_after(200):
            await listener.accept()
    inner.socket.close()
    assert inner.failures == 0
    lines = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert all(r.exc_info is None for r in caplog.records)
    assert [level for level, _m in lines] == ["WARNING"] * 2, lines  # at 0 s and 60 s
    assert lines[0][1] == ("can't accept new connections: Too many open files (1 time in the "
                           "last 60 s); the open connections go on. Raise the open-files "
                           "limit (nofile, `ulimit -n`)")
    assert "(600 times in the last 60 s)" in lines[1][1]


async def test_other_accept_errors_still_raise() -> None:
    class _Broken(_Failing):
        async def accept(self) -> trio.SocketStream:
            raise OSError(errno.EBADF, "Bad file descriptor")

    inner = _Broken(0)
    try:
        with pytest.raises(OSError, match="Bad file descriptor"):
            await AddressListener(cast(trio.SocketListener, inner), 64).accept()
    finally:
        inner.socket.close()


#: ``manawire`` started with a soft open-files limit of 256 (``ulimit -n 256``).
_LOW_LIMIT = ("import resource, runpy, sys; N = resource.RLIMIT_NOFILE; "
              "resource.setrlimit(N, (256, resource.getrlimit(N)[1])); "
              "sys.argv = ['manawire', *sys.argv[1:]]; "
              "runpy.run_module('server.cli', run_name='__main__')")


def test_serve_raises_its_open_files_limit_to_the_hard_one(tmp_path: Path) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 256:
        pytest.skip("this machine's hard limit is no higher than the test's soft one")
    proc = subprocess.Popen([sys.executable, "-c", _LOW_LIMIT, "serve", "--host", "127.0.0.1",
                             "--port", "0", "--data-dir", str(tmp_path / "data")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("manawire listening on ")
        with open(f"/proc/{proc.pid}/limits") as limits:
            line = next(x for x in limits if x.startswith("Max open files"))
        assert line.split()[3] == ("unlimited" if hard == resource.RLIM_INFINITY
                                   else str(hard)), line
    finally:
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    assert "open files limit (nofile): " in err and "(raised from 256" in err, err
