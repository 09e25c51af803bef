"""The browser client's view hash and mirror against the current server (protocol/README.md,
"Views, state ids and hashes" and "Versioning").

``web/test/viewhash.test.ts`` and ``web/test/mirror.test.ts`` check the TypeScript view hash
and mirror on real server traffic; their committed fixtures (``web/test/fixtures``) are a copy
that may lag behind the server. Here :mod:`tools.webfixtures` plays its game again with the
current server into a temporary directory, and those TypeScript tests run on it
(``MANAWIRE_WEB_FIXTURES``): a change to what the server sends, or to how it hashes a view,
that the web client doesn't follow fails ``make test``.

Needs Node.js and ``web/node_modules`` (``make web-deps``). Without them the test is skipped,
unless the environment variable ``CI`` is set: then it fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tools import webfixtures

WEB = Path(__file__).resolve().parents[2] / "web"
#: The TypeScript tests that read the fixtures.
TESTS = ("test/viewhash.test.ts", "test/mirror.test.ts")


def _toolchain() -> tuple[str, Path]:
    """Node.js and the pinned esbuild, or skip (fail under CI) saying what is missing."""
    node = shutil.which("node")
    esbuild = WEB / "node_modules" / ".bin" / "esbuild"
    missing = []
    if node is None:
        missing.append("Node.js (node) is not on PATH")
    if not (esbuild.exists() and (WEB / "node_modules" / "@bufbuild" / "protobuf").is_dir()):
        missing.append("web/node_modules is not installed (make web-deps)")
    if missing:
        reason = "the web client's tests can't run: " + "; ".join(missing)
        if os.environ.get("CI", "").lower() not in ("", "0", "false"):  # as tests/browser
            pytest.fail(f"{reason} (CI is set: they must run)")
        pytest.skip(reason)
    assert node is not None
    return node, esbuild


def test_the_web_client_verifies_the_current_servers_traffic(tmp_path: Path) -> None:
    node, esbuild = _toolchain()
    fixtures = tmp_path / "fixtures"
    written = webfixtures.write(fixtures)
    assert len(written) == 4, written  # seat 0, seat 1, the spectators, synthetic elements
    bundles = tmp_path / "bundles"
    build = subprocess.run(
        [str(esbuild), *TESTS, "--bundle", "--platform=node", "--format=esm",
         "--target=node20", f"--outdir={bundles}", "--out-extension:.js=.mjs",
         "--log-level=warning"],
        cwd=WEB, capture_output=True, text=True, timeout=120, check=False)
    assert build.returncode == 0, f"esbuild failed:\n{build.stdout}{build.stderr}"
    run = subprocess.run(
        [node, "--test", "--test-reporter=tap", *map(str, sorted(bundles.glob("*.mjs")))],
        cwd=WEB, env={**os.environ, "MANAWIRE_WEB_FIXTURES": str(fixtures)},
        capture_output=True, text=True, timeout=300, check=False)
    report = run.stdout + run.stderr
    assert run.returncode == 0, f"the web client's tests fail on current traffic:\n{report}"
    counts = {k: int(v) for k, v in re.findall(r"^# (tests|pass|fail) (\d+)$", report, re.M)}
    assert counts.get("fail") == 0 and counts.get("pass", 0) >= 15 \
        and counts["pass"] == counts.get("tests"), report
