"""Open tables from the lobby: a stranger with the room code takes the free seat and keeps it."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page

from .conftest import watch_errors
from .helpers import open_lobby, ready_all, state


def test_a_stranger_joins_an_open_table_by_code_and_a_reload_keeps_the_seat(
    browser: Browser, page: Page, server: str
) -> None:
    open_lobby(page, server)
    page.select_option("#seat-count", "3")
    page.fill("#my-name", "Ann")
    page.locator("#seats li").nth(1).locator(".seat-kind").select_option("human")
    page.check("#open-table")
    page.select_option("#turn-timer", "120")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/t/[A-Z0-9]+$"))
    page.wait_for_function("() => window.chickenfoot && window.chickenfoot.state")
    code = page.url.split("/t/")[1]
    assert state(page)["open"] is True and state(page)["turn_timer"] == 120
    assert "Open table" in page.locator("#room-kind").inner_text()
    cy = browser.new_context().new_page()
    errors = watch_errors(cy)
    try:
        open_lobby(cy, server)
        cy.fill("#join-code", code)
        cy.locator("#join-code").dispatch_event("change")
        cy.wait_for_function("() => document.querySelector('#join-kind').textContent.includes('is open')")
        cy.click("#join")
        # A first visit: the page asks for a name before taking the seat, and remembers it.
        cy.fill("#name-input", "  Cy  ")
        cy.click("#name-dialog button[value=save]")
        cy.wait_for_url(re.compile(rf".*/t/{code}$"))
        cy.wait_for_function("() => window.chickenfoot && window.chickenfoot.state")
        assert state(cy)["seat"] == 1 and state(cy)["names"][1] == "Cy"
        assert cy.evaluate("localStorage.getItem('cf-name')") == "Cy"
        ready_all(page, cy)
        # The table now plays: on a human's turn everyone sees the turn timer's countdown.
        cy.wait_for_function(
            "() => !document.querySelector('#clock').hidden"
            " && /^(You have|.+ has) \\d+ s$/.test(document.querySelector('#clock').textContent)"
        )
        cy.reload()
        cy.wait_for_function("() => window.chickenfoot && window.chickenfoot.state")
        assert state(cy)["seat"] == 1
        # The lobby's Join takes a browser that holds a seat back to it.
        open_lobby(cy, server)
        cy.fill("#join-code", code)
        cy.click("#join")
        cy.wait_for_url(re.compile(rf".*/t/{code}$"))
        cy.wait_for_function("() => window.chickenfoot && window.chickenfoot.state")
        assert state(cy)["seat"] == 1
        assert not errors, errors
    finally:
        cy.context.close()
