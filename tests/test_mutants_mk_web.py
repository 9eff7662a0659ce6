"""Review MK's mutation pass (review MJ's mutants of the page's live region): an answer's words that were still
waiting to come back stay away once the next Calculate is sent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def web() -> Iterator[tuple[str, Any, Any]]:
    """The page's address, one browser for the module and Playwright's `expect` (test_web_accessibility's)."""
    from clihelp import CHROMIUM, FLAGS, need_chromium, serving

    need_chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    with serving() as url, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield url, browser, sync_api.expect
        finally:
            browser.close()


def test_an_answer_superseded_before_it_is_said_does_not_come_back(web):
    """Mutant: tell()'s `if (mine !== saying) return;` left out: Calculate pressed twice 150 ms apart, the first
    answer back before the second press, had its words still waiting (300 ms after they left the tree) when the
    second request hushed them; they came back into #status ('Worked example: 64 devices × 2,000 samples/s at
    E = 0.9') while the second request was awaited, so a screen reader said an answer the user had already
    replaced. The newest tell alone comes back: #status stays empty until the second answer."""
    url, browser, expect = web
    page = browser.new_page()
    page.goto(url)
    title = "Worked example: 64 devices × 2,000 samples/s at E = 0.9"
    expect(page.get_by_role("status").filter(has_text=title)).to_have_count(1)
    held: list[Any] = []
    seen = [0]

    def second_held(route: Any) -> None:
        seen[0] += 1
        route.continue_() if seen[0] == 1 else held.append(route)

    page.route("**/api/calc", second_held)
    page.evaluate("""async () => {
        const run = document.querySelector('#calc .run');
        run.click();
        await new Promise((r) => setTimeout(r, 150));
        run.click();
    }""")
    page.wait_for_timeout(700)  # past the first answer's 300 ms
    assert len(held) == 1
    assert page.text_content("#status") == ""
    held.pop().continue_()
    expect(page.get_by_role("status").filter(has_text=title)).to_have_count(1)
    page.unroute("**/api/calc")
    page.close()
