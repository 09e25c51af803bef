"""The packaging tests' one wheel (tests/packaging/wheel_build.py)."""

from __future__ import annotations

import pytest

from tests.packaging.wheel_build import Wheel, shared_wheel


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Wheel:
    """The project's wheel, built once per run from a copy of its files, given
    ``MANAWIRE_COMMIT`` (:data:`~tests.packaging.wheel_build.GIVEN_COMMIT`)."""
    return shared_wheel(tmp_path_factory)
