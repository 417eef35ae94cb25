"""Real-browser end-to-end tests (Debian's chromium driven by Playwright)."""
