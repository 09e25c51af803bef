"""deploy/Dockerfile (an operator's report): its header published plain ws:// and http:// on
every host interface (``-p 8765:8765``), against README's "reachable only through the
proxy", and the image had no health check. The header publishes on the host's loopback
only, and a HEALTHCHECK asks the metrics port's ``/healthz`` with the standard library (the
slim image has no curl) -- run here against a real server."""

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
    serve = json.loads(re.sub(r"\s+", " ", _instruction(text, "CMD")))
    assert serve[serve.index("--metrics-port") + 1] == port.group(1)
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
