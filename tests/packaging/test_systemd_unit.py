"""deploy/manawire.service (an operator's review: the README told how to stop a systemd
service, and the project had none): a unit that runs ``manawire serve`` as a user of its
own, its store in a state directory only that user may enter, started again on failure,
hardened. Its ``ExecStart`` flags are ``manawire serve``'s own, and ``systemd-analyze
verify`` accepts it where systemd is installed."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "manawire.service"


def _sections(text: str) -> dict[str, dict[str, list[str]]]:
    """The unit's settings by section and key (a key may be given more than once),
    continuation lines joined."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in re.sub(r"\\\n\s*", " ", text).splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def _service() -> dict[str, list[str]]:
    return _sections(UNIT.read_text())["Service"]


def _exec_start() -> list[str]:
    (line,) = _service()["ExecStart"]
    return shlex.split(line)


def test_the_unit_runs_serve_with_flags_serve_has() -> None:
    argv = _exec_start()
    assert Path(argv[0]).name == "manawire" and argv[1] == "serve"
    flags = [a for a in argv[2:] if a.startswith("--")]
    assert flags
    usage = subprocess.run([sys.executable, "-m", "server.cli", "serve", "--help"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60, check=True).stdout
    for flag in flags:
        assert re.search(rf"(^|\s){re.escape(flag)}[\s,=]", usage), f"{flag} is no serve flag"
    given = dict(zip(argv[2::2], argv[3::2], strict=True))  # (every flag takes a value)
    assert given["--host"] == "127.0.0.1"  # (behind a TLS proxy: README)
    int(given["--port"]), int(given["--metrics-port"])


def test_the_store_is_in_a_state_directory_only_the_services_user_may_write() -> None:
    service = _service()
    data_dir = _exec_start()[_exec_start().index("--data-dir") + 1]
    (state,) = service["StateDirectory"]
    assert data_dir == f"/var/lib/{state}"
    assert service["StateDirectoryMode"] == ["0700"]  # (serve refuses one others may write)
    assert data_dir in " ".join(service["ReadWritePaths"]).split()
    # A user of its own: the store's files must stay one user's.
    assert service.get("User") == ["manawire"] or service.get("DynamicUser") == ["yes"]


def test_the_unit_restarts_on_failure_and_stops_gracefully() -> None:
    service = _service()
    assert service["Restart"] == ["on-failure"]
    assert service.get("KillSignal", ["SIGTERM"]) == ["SIGTERM"]
    (stop,) = service["TimeoutStopSec"]
    assert int(stop) > 10  # (the server's --grace, 10 s, then its commit)
    assert service["Type"] != ["notify"]  # (the server doesn't tell systemd it is ready)


def test_the_unit_is_hardened() -> None:
    service = _service()
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict",
                       "ProtectHome": "yes", "PrivateTmp": "yes", "CapabilityBoundingSet": "",
                       "RestrictSUIDSGID": "yes"}.items():
        assert service.get(key) == [value], key
    assert _sections(UNIT.read_text())["Install"]["WantedBy"] == ["multi-user.target"]


def test_systemd_analyze_verifies_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    # (verify wants ExecStart's program to exist: this environment's manawire stands in)
    manawire = Path(sys.executable).with_name("manawire")
    if not manawire.exists():
        pytest.skip(f"no {manawire} to stand in for the unit's manawire")
    text = UNIT.read_text()
    program = _exec_start()[0]
    assert text.count(program) == 1
    copy = tmp_path / UNIT.name
    copy.write_text(text.replace(program, str(manawire)))
    done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{UNIT.name}:" not in done.stderr, done.stderr  # (warnings about the unit)


#: node_exporter's port: docs/limits.md ("Monitoring") recommends running it beside the server.
NODE_EXPORTER_PORT = 9100


def test_the_metrics_port_is_not_node_exporters_and_the_image_uses_the_same() -> None:
    """An operator's review: the unit (and the image) put the metrics on 9100, the port of
    node_exporter, which docs/limits.md ("Monitoring") recommends on the same host."""
    argv = _exec_start()
    port = int(argv[argv.index("--metrics-port") + 1])
    assert port != NODE_EXPORTER_PORT
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert f'"--metrics-port", "{port}"' in dockerfile
    assert f"127.0.0.1:{port}/healthz" in dockerfile
    assert str(NODE_EXPORTER_PORT) not in re.sub(r"#.*", "", dockerfile)
    docs = "\n".join(path.read_text() for path in [ROOT / "README.md",
                                                   *sorted((ROOT / "docs").glob("*.md"))])
    assert f"--metrics-port {NODE_EXPORTER_PORT}" not in docs
    assert f"--metrics-port {port}" in (ROOT / "docs" / "operating.md").read_text()


def test_the_units_install_steps_build_the_wheel_as_the_readme_says() -> None:
    """The unit's comment said ``sudo pip install /path/to/checkout`` (a build as root:
    ``commit unknown``), docs/operating.md a wheel built as the checkout's owner."""
    comment = "\n".join(line for line in UNIT.read_text().splitlines()
                        if line.startswith("#"))
    assert "python3 -m pip wheel --no-deps -w dist ." in comment
    assert "pip install /path/to/checkout" not in comment
    assert "sudo /opt/manawire/bin/pip install dist/manawire-" in comment
    operating = (ROOT / "docs" / "operating.md").read_text()  # "Running under systemd"
    assert "python3 -m pip wheel --no-deps -w dist ." in operating
    assert "sudo /opt/manawire/bin/pip install dist/manawire-" in operating
