"""The page loads: ``manawire serve`` answers ``/`` with the client, whose script runs without
a console error."""

from __future__ import annotations

import pytest
from playwright.sync_api import Response

from tests.browser.conftest import Pages

pytestmark = pytest.mark.browser
#: Its tests share one server (tests/browser/conftest.py, shared_server).
SHARED_SERVER = True


def test_page_loads(pages: Pages) -> None:
    page = pages.open("page")
    scripts: list[Response] = []
    page.on("response", lambda r: scripts.append(r) if r.url.endswith("/app.js") else None)
    response = page.goto(pages.base_url, wait_until="load")
    assert response is not None and response.status == 200, response
    assert page.title() == "Manawire"
    assert [r.status for r in scripts] == [200], "app.js was fetched once, with 200"
    # The script has run (it renders into #app) and settled: no request in flight.
    page.wait_for_load_state("networkidle")
    assert page.locator("#app").count() == 1
    pages.screenshot(page)
    pages.assert_no_errors()
