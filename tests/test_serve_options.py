"""``manawire serve``'s limit flags reach :class:`~server.app.Limits` (README, "Limits")."""

from __future__ import annotations

import argparse

import pytest

from server.app import Limits
from server.serve_options import add_serve_options, serve_limits


def _limits(*args: str) -> Limits:
    parser = argparse.ArgumentParser(prog="manawire serve")
    add_serve_options(parser)
    return serve_limits(parser, parser.parse_args(list(args)))


def test_every_limit_flag_sets_its_limit() -> None:
    limits = _limits("--max-replays", "9", "--max-replays-per-address", "2",
                     "--max-rooms-per-address", "5", "--password-check-burst", "3")
    assert (limits.max_replays, limits.max_replays_per_address, limits.max_rooms_per_address,
            limits.password_check_burst) == (9, 2, 5, 3)


@pytest.mark.parametrize("flag", ["--max-replays", "--max-replays-per-address"])
def test_a_replay_limit_below_one_is_a_usage_error(
        flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        _limits(flag, "0")
    assert exited.value.code == 2
    assert f"{flag} must be at least 1" in capsys.readouterr().err
