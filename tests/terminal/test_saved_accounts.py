"""``manawire play``'s saved accounts (:mod:`client_sdk.saved`): one per server, readable by
their owner only, written whole; a file that isn't theirs is refused, not guessed at."""

from __future__ import annotations

import io
import stat
from pathlib import Path

import pytest
import trio

from client_sdk import saved
from client_sdk.terminal import PlayOptions, _connected
from tests.e2e.test_spectator_resume_e2e import serving


def test_an_account_is_saved_per_server_for_its_owner_only(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    folder = tmp_path / "state" / "manawire"
    monkeypatch.setenv(saved.STATE_ENV, str(folder))
    assert saved.load("ws://a:1") is None  # (no file yet)
    path = saved.save("ws://a:1/", saved.SavedAccount("Ann#0001", "t1"))
    saved.save("ws://b:2", saved.SavedAccount("Bob#0002", "t2"))
    assert path == folder / saved.FILE_NAME
    assert saved.load("ws://a:1") == saved.SavedAccount("Ann#0001", "t1")  # (URL as typed)
    assert saved.load("ws://b:2/") == saved.SavedAccount("Bob#0002", "t2")
    saved.save("ws://a:1", saved.SavedAccount("Ann#0003", "t3"))  # a new guest replaces it
    assert saved.load("ws://a:1") == saved.SavedAccount("Ann#0003", "t3")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in folder.iterdir()] == [saved.FILE_NAME]  # (no temporary left)


def test_the_state_directory_follows_xdg_else_home(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.delenv(saved.STATE_ENV)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert saved.state_dir() == tmp_path / "manawire"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert saved.state_dir() == tmp_path / "home" / ".local" / "state" / "manawire"


def test_a_file_that_holds_no_accounts_is_refused(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(saved.STATE_ENV, str(tmp_path))
    (tmp_path / saved.FILE_NAME).write_text("[1, 2]")
    with pytest.raises(TypeError, match="holds no saved accounts"):
        saved.load("ws://a:1")
    (tmp_path / saved.FILE_NAME).write_text("{not json")
    with pytest.raises(ValueError, match="Expecting"):
        saved.save("ws://a:1", saved.SavedAccount("Ann#0001", "t1"))


async def test_play_comes_back_as_the_saved_account_only_when_it_plays_as_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Which account ``play`` plays as, and whether the same command comes back as it (what
    an interrupted game tells the player to run): a new guest is saved; the next command
    plays as it; a second terminal meanwhile plays as a new guest, not saved -- for that one
    only its token takes the seat back (it said the plain command, which comes back as the
    saved account instead); a token given is never saved."""
    monkeypatch.setenv(saved.STATE_ENV, str(tmp_path / "state"))
    out = io.StringIO()
    with trio.fail_after(30):
        async with serving(tmp_path / "db.sqlite3") as (_app, port):
            options = PlayOptions(url=f"ws://127.0.0.1:{port}", name="Ann")
            async with _connected(options, out) as (first, remembered):
                assert remembered
                assert saved.load(options.url) == saved.SavedAccount(first.account.name,
                                                                     first.account_token)
                async with _connected(options, out) as (second, second_remembered):
                    assert not second_remembered
                    assert second.account.name != first.account.name
                    assert "is playing elsewhere now" in out.getvalue()
            assert saved.load(options.url) == saved.SavedAccount(first.account.name,
                                                                 first.account_token)
            async with _connected(options, out) as (again, remembered):
                assert remembered and again.account.name == first.account.name
            given = PlayOptions(url=options.url, name="Bob", token=first.account_token)
            async with _connected(given, out) as (client, remembered):
                assert not remembered and client.account.name == first.account.name


def test_invite_codes_and_settings_are_kept_for_their_owner_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The invite code of a room created here, per server and room (``invite`` after the
    terminal closed and came back said only that "the terminal that created it" knew it),
    the latest ones only; and the terminal's settings. A file that can't be read gives
    nothing, not an error: neither is worth stopping a game for."""
    folder = tmp_path / "state"
    monkeypatch.setenv(saved.STATE_ENV, str(folder))
    assert saved.load_invite("ws://a:1", "r1") == ""
    assert saved.load_setting("priority_stops", "auto") == "auto"
    path = saved.save_invite("ws://a:1/", "r1", "code1")
    saved.save_invite("ws://b:2", "r1", "other")
    assert saved.load_invite("ws://a:1", "r1") == "code1"
    assert saved.load_invite("ws://b:2/", "r1") == "other"
    assert saved.load_invite("ws://a:1", "r2") == ""
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for n in range(saved.INVITES_KEPT + 5):
        saved.save_invite("ws://a:1", f"x{n}", f"c{n}")
    assert saved.load_invite("ws://a:1", "r1") == ""  # (the oldest went)
    assert saved.load_invite("ws://a:1", f"x{saved.INVITES_KEPT + 4}") == \
        f"c{saved.INVITES_KEPT + 4}"
    settings = saved.save_setting("priority_stops", "full")
    assert saved.load_setting("priority_stops", "auto") == "full"
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600
    assert saved.load("ws://a:1") is None  # (the accounts' file is apart)
    settings.write_text("{broken")
    path.write_text("[1]")
    assert saved.load_setting("priority_stops", "auto") == "auto"
    assert saved.load_invite("ws://a:1", "x1") == ""
