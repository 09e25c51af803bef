"""Architecture: the engine (and the card data it needs) import only the standard library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PURE = [ROOT / "server" / "engine", ROOT / "server" / "cards"]
ALLOWED_PREFIXES = ("server.engine", "server.cards")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_engine_source_imports_only_stdlib_and_itself() -> None:
    offenders = []
    for folder in PURE:
        for path in sorted(folder.rglob("*.py")):
            for name in _imports(path):
                top = name.split(".")[0]
                if name.startswith(ALLOWED_PREFIXES) or name == "server":
                    continue
                if top not in sys.stdlib_module_names and top != "__future__":
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == []


def test_importing_the_engine_loads_no_third_party_module() -> None:
    code = (
        "import sys; before = set(sys.modules); import server.engine, server.cards;"
        "print('\\n'.join(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.split()
    foreign = [m for m in out if m.split(".")[0] not in sys.stdlib_module_names
               and not m.startswith(("server.engine", "server.cards")) and m != "server"]
    assert out, "the probe imported nothing: it would pass vacuously"
    assert foreign == []
