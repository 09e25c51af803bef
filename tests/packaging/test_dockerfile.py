"""deploy/Dockerfile (an operator's report): its header published plain ws:// and http:// on
every host interface (``-p 8765:8765``), against docs/limits.md's "reachable only through the
proxy", and the image had no health check. The header publishes on the host's loopback
only, and a HEALTHCHECK asks the metrics port's ``/healthz`` with the standard library (the
slim image has no curl) -- run here against a real server.

A second review: the whole ``manawire serve`` line was the CMD, so adding one flag meant
typing it all again (and losing the health check's ``--metrics-port`` if forgotten); the
image's user had whatever UID ``useradd --system`` gave it, so a rebuilt image could no
longer own its /data volume; and the build context was the whole checkout (~777 MB: the
virtualenvs, web/node_modules, .git, and var/, a development store)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

DOCKERFILE = Path(__file__).resolve().parents[2] / "deploy" / "Dockerfile"


def _instruction(text: str, name: str) -> str:
    """The instruction ``name``'s arguments, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", text)
    found = [line for line in joined.splitlines() if line.startswith(name + " ")]
    assert len(found) == 1, found
    return found[0][len(name) + 1:]


def _json_instruction(text: str, name: str) -> list[str]:
    """An exec-form instruction's argv."""
    argv = json.loads(re.sub(r"\s+", " ", _instruction(text, name)))
    assert isinstance(argv, list) and all(isinstance(a, str) for a in argv)
    return argv


def test_the_header_publishes_on_the_host_loopback_only() -> None:
    text = DOCKERFILE.read_text()
    header = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    published = re.findall(r"-p\s+(\S+)", header)
    assert published and all(p.startswith("127.0.0.1:") for p in published), published


def test_the_health_check_asks_healthz_of_the_served_metrics_port(tmp_path: Path) -> None:
    text = DOCKERFILE.read_text()
    check = _instruction(text, "HEALTHCHECK")
    argv = json.loads(check[check.index("CMD ") + 4:])
    assert argv[:2] == ["python", "-c"] and "/healthz" in argv[2]
    port = re.search(r"127\.0\.0\.1:(\d+)/healthz", argv[2])
    assert port is not None
    fixed = _json_instruction(text, "ENTRYPOINT")
    assert fixed[:2] == ["manawire", "serve"]
    # In the fixed part, which extra flags (the CMD) never replace.
    assert fixed[fixed.index("--metrics-port") + 1] == port.group(1)
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1",
                             "--port", "0", "--data-dir", str(tmp_path / "data"),
                             "--metrics-port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(2)]
        metrics = next(line for line in lines if line.startswith("manawire metrics on "))
        ours = metrics.split("127.0.0.1:")[1].split("/")[0]
        script = argv[2].replace(f"127.0.0.1:{port.group(1)}/", f"127.0.0.1:{ours}/")
        healthy = subprocess.run([sys.executable, "-c", script], capture_output=True,
                                 text=True, timeout=30, check=False)
        assert healthy.returncode == 0, healthy.stderr
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    down = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=30, check=False)
    assert down.returncode != 0  # (nothing answers: unhealthy)


def test_extra_flags_are_added_to_the_fixed_ones_and_the_store_stays_the_volumes() -> None:
    text = DOCKERFILE.read_text()
    fixed = _json_instruction(text, "ENTRYPOINT")
    assert fixed == ["manawire", "serve", "--host", "0.0.0.0", "--port", "8765",
                     "--data-dir", "/data", "--metrics-port", "9464"]
    assert _json_instruction(text, "CMD") == []  # (`docker run ... manawire --relays 2`)
    assert _instruction(text, "VOLUME") == "/data"


def test_the_image_runs_as_a_fixed_uid_that_owns_data_and_backups() -> None:
    text = DOCKERFILE.read_text()
    run = re.sub(r"\\\n\s*", " ", text)
    assert _instruction(text, "USER") == "10001:10001"
    assert re.search(r"groupadd (--\S+ )*--gid 10001 manawire", run)
    assert re.search(r"useradd (\S+ )*--uid 10001 --gid 10001 ", run)
    assert "--system" not in _instruction(text, "RUN")  # (no next-free UID)
    assert "mkdir -m 700 /data /backups && chown 10001:10001 /data /backups" in run


def test_the_build_names_its_commit_through_a_build_argument() -> None:
    """The context has no .git: the commit comes as ``--build-arg MANAWIRE_COMMIT``, which
    setup.py (copied, and run by the install) writes into the wheel
    (tests/packaging/test_build_id.py)."""
    text = DOCKERFILE.read_text()
    lines = re.sub(r"\\\n\s*", " ", text).splitlines()
    arg = lines.index("ARG MANAWIRE_COMMIT=")
    install = next(n for n, line in enumerate(lines) if line.startswith("RUN pip install"))
    assert arg < install
    copied = next(line for line in lines if line.startswith("COPY pyproject.toml"))
    assert "setup.py" in copied.split()
    assert "--build-arg MANAWIRE_COMMIT=$(python3 server/build.py)" in text


def test_the_health_checks_start_period_outlasts_a_long_reload() -> None:
    """The metrics port (and /healthz) opens only after every stored game is reloaded:
    docs/operating.md's 1,129 games took 109 s, close to the 120 s the start period was."""
    check = _instruction(DOCKERFILE.read_text(), "HEALTHCHECK")
    period = re.search(r"--start-period=(\d+)s", check)
    assert period is not None and int(period.group(1)) >= 600


def _ignored(patterns: list[str], path: str) -> bool:
    """Whether Docker leaves ``path`` out of the build context: the last pattern that
    matches it or one of its parent directories decides (``!``: kept)."""
    parts = path.split("/")
    ignored = False
    for pattern in patterns:
        keep = pattern.startswith("!")
        body = pattern.lstrip("!").strip("/")
        regex = re.escape(body).replace(r"\*\*/", "(?:.*/)?").replace(r"\*", "[^/]*") \
            .replace(r"\?", "[^/]")
        if any(re.fullmatch(regex, "/".join(parts[:n])) for n in range(1, len(parts) + 1)):
            ignored = not keep
    return ignored


def test_the_build_context_is_only_what_the_image_copies() -> None:
    root = DOCKERFILE.parents[1]
    patterns = [line.strip() for line in (root / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    copied = [source for line in DOCKERFILE.read_text().splitlines()
              if line.startswith("COPY ") for source in line.split()[1:-1]]
    assert set(copied) >= {"pyproject.toml", "README.md", "server", "protocol", "client_sdk"}
    for path in [*copied, "server/cli.py", "server/web/static/app.js",
                 "server/cards/data/M21.json", "protocol/v1/messages_pb2.py",
                 "client_sdk/__init__.py"]:
        assert not _ignored(patterns, path), path
    for path in [".venv/bin/python", ".venv-phase/x", "web/node_modules/x/index.js", ".git/HEAD",
                 "var/manawire.sqlite3", "test-results/shot.png", "tests/conftest.py",
                 "server/__pycache__/cli.cpython-311.pyc", ".mypy_cache/x",
                 "manawire.egg-info/PKG-INFO", "build/lib/server/cli.py"]:
        assert _ignored(patterns, path), path
