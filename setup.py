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
        build["write_build_file"](Path(self.build_lib), os.environ, ROOT)


setup(cmdclass={"build_py": BuildPy})
