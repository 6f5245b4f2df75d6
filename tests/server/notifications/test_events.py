"""A page follows its account's list live: server-sent events say the list changed, on every change, in
every process (the cluster's bus), until the session ends; a fifth page of one account polls instead."""

from __future__ import annotations

from chickenfoot.server.notices import YourTurn

from .conftest import App


def test_a_page_hears_each_change_of_the_accounts_list(app: App) -> None:
    ann = app.sign_up("ann")
    code = app.table()
    app.client.cookies.set("chickenfoot_session", ann.session)
    with app.client.stream("GET", "/api/notifications/events") as events:
        assert events.headers["content-type"].startswith("text/event-stream")
        lines = events.iter_lines()
        assert next(lines) == "retry: 10000"
        app.notify(ann, YourTurn(code, turn=1))
        assert [line for line in (next(lines), next(lines)) if line] == ['data: {"type": "notice"}']
        ann.call("POST", "/api/notifications/read", json={})
        assert [line for line in (next(lines), next(lines)) if line] == ['data: {"type": "read"}']
        assert ann.call("POST", "/api/account/signout").status_code == 200
        assert [line for line in lines if line] == []  # the session ended: so did the stream


def test_a_fifth_page_of_one_account_is_refused_and_polls(app: App) -> None:
    ann = app.sign_up("ann")
    app.client.cookies.set("chickenfoot_session", ann.session)
    streams = [app.client.stream("GET", "/api/notifications/events") for _ in range(4)]
    opened = [stream.__enter__() for stream in streams]
    try:
        assert all(answer.status_code == 200 for answer in opened)
        for answer in opened:
            assert next(answer.iter_lines()) == "retry: 10000"
        refused = ann.call("GET", "/api/notifications/events")
        assert refused.status_code == 429 and refused.json()["code"] == "notify.too_many_streams"
    finally:
        for stream in streams:
            stream.__exit__(None, None, None)
