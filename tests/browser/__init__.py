"""End-to-end tests of the web client (web/, served by ``manawire serve``) in headless Chromium,
driven by Playwright's sync API against the page's ``data-testid`` hooks (web/README.md)."""
