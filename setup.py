"""The wheel is built as pyproject.toml says; this only adds ``server/_build.txt`` to it: the
commit the build came from (``server/build.py``), so that an installed server -- the Docker
image's -- says which build it is (``manawire --version``, docs/commands.md "Command line").

The commit is ``$MANAWIRE_COMMIT`` if set (the Docker build's ``--build-arg``: its context
has no ``.git``), else git's word on the checkout being built; neither: no file, and the
installed server says ``commit unknown``. An editable install writes nothing: it runs from
the checkout, and asks git."""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildPy(build_py):
    """``build_py``, then the build's commit written beside ``server/build.py``."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        build = runpy.run_path(str(ROOT / "server" / "build.py"))
        given = os.environ.get(build["COMMIT_VARIABLE"], "").strip()
        if given and not build["COMMIT_SHAPE"].fullmatch(given):
            raise SystemExit(f"{build['COMMIT_VARIABLE']}={given!r}: not a commit (letters, "
                             f"digits and . _ + -, at most 64)")
        commit = given or build["git_commit"](ROOT)
        if commit:
            target = Path(self.build_lib) / "server" / build["BUILD_FILE"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(f"{commit}\n", encoding="utf-8")


setup(cmdclass={"build_py": BuildPy})
