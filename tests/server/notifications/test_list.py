"""The bell's list through the notify port: kept once per account, updated by later news of the same
thing, worded in the reader's language, read and unread, kept across devices, gone with the account."""

from __future__ import annotations

from chickenfoot.server.notices import ChatLine, Invited, Kind, MatchOver, YourTurn

from .conftest import App


def test_a_notice_is_listed_worded_in_the_pages_language_and_linked_to_its_table(app: App) -> None:
    ann, bo = app.sign_up("ann"), app.sign_up("bob")
    code = app.table()
    app.notify(ann, Invited(code, seat=1, inviter="Bo", players=2), sender=bo.id)
    listed = ann.notices()
    assert listed["unread"] == 1
    [notice] = listed["notices"]
    assert notice["text"] == f"Bo invites you to table {code}" and notice["url"] == f"/t/{code}"
    assert notice["kind"] == "invited" and not notice["read"]
    assert ann.notices("lv")["notices"][0]["text"] == f"Bo aicina tevi pie galda {code}"
    assert bo.notices() == {"unread": 0, "language": "en", "notices": []}  # nobody else's


def test_the_same_notice_told_twice_is_kept_once_and_later_news_updates_it(app: App) -> None:
    ann = app.sign_up("ann")
    code = app.table()
    for _ in range(2):  # two processes following one table both tell it
        app.notify(ann, MatchOver(code, won=True, rating_change=12))
    assert [n["text"] for n in ann.notices()["notices"]] == [f"You won the match at table {code}"]
    for number in (1, 2, 2, 3):  # lines 1-3 of the table's chat, line 2 heard twice
        app.notify(ann, ChatLine(code, by="Bo", number=number))
    chat = ann.notices()["notices"][0]
    assert chat["text"] == f"3 new chat lines at table {code}" and chat["detail"] == "The latest from Bo"
    assert ann.notices()["unread"] == 2


def test_read_notices_stay_listed_and_news_makes_them_unread_again(app: App) -> None:
    ann = app.sign_up("ann")
    first, second = app.table(), app.table()
    app.notify(ann, YourTurn(first, turn=1))
    app.notify(ann, YourTurn(second, turn=1))
    assert ann.call("POST", "/api/notifications/read", json={"table": first}).status_code == 200
    listed = ann.notices()
    assert listed["unread"] == 1 and [n["read"] for n in listed["notices"]] == [False, True]
    app.notify(ann, YourTurn(first, turn=3))  # the turn came round again
    assert ann.notices()["unread"] == 2
    assert ann.call("POST", "/api/notifications/read", json={}).json() == {"read": 2}
    assert ann.notices()["unread"] == 0


def test_the_list_is_the_accounts_on_every_device(app: App) -> None:
    ann = app.sign_up("ann")
    code = app.table()
    app.notify(ann, YourTurn(code, turn=1))
    app.client.cookies.clear()  # another browser
    phone = app.client.post("/api/account/signin", json={"username": "ann", "password": "tile hub toe chicken"})
    assert phone.status_code == 200
    other = type(ann)(app, "ann", ann.id, app.client.cookies["chickenfoot_session"], phone.json()["csrf"])
    assert other.session != ann.session
    assert other.notices()["notices"][0]["text"] == f"Your turn at table {code}"
    other.call("POST", "/api/notifications/read", json={})
    assert ann.notices()["unread"] == 0  # read on the phone: read on the computer too


def test_a_kind_turned_off_for_the_site_is_not_listed(app: App) -> None:
    ann = app.sign_up("ann")
    code = app.table()
    ann.choose(choices={Kind.MATCH_OVER: ["push"]}, time_zone="UTC")
    app.notify(ann, MatchOver(code, won=False))
    app.notify(ann, YourTurn(code, turn=1))
    assert [n["kind"] for n in ann.notices()["notices"]] == ["your_turn"]


def test_the_list_needs_a_session_and_its_changes_the_csrf_token(app: App) -> None:
    ann = app.sign_up("ann")
    app.client.cookies.clear()
    assert app.client.get("/api/notifications").json()["code"] == "account.not_signed_in"
    forged = ann.call("POST", "/api/notifications/read", json={}, headers={"x-csrf-token": "forged"})
    assert forged.status_code == 403


def test_the_accounts_data_download_holds_its_notifications(app: App) -> None:
    ann = app.sign_up("ann")
    code = app.table()
    app.notify(ann, YourTurn(code, turn=1))
    ann.subscribe(app.push_service.device("phone").subscription())
    ann.choose(choices={}, quiet_from=60, quiet_until=120, time_zone="Europe/Riga")
    kept = ann.call("GET", "/api/account/data").json()["notifications"]
    assert kept["notices"][0]["kind"] == "your_turn" and kept["notices"][0]["table"] == code
    assert kept["time_zone"] == "Europe/Riga" and (kept["quiet_from"], kept["quiet_until"]) == (60, 120)
    assert kept["devices"] == [
        {"push_service": app.push_service.origin.removeprefix("http://"), "added": kept["devices"][0]["added"]}
    ]
    assert "/push/" not in str(kept)  # the device's endpoint, a capability, is not in it


def test_a_deleted_accounts_notices_devices_and_address_go_with_it(app: App) -> None:
    ann = app.sign_up("ann")
    code = app.table()
    app.notify(ann, YourTurn(code, turn=1))
    ann.subscribe(app.push_service.device("phone").subscription())
    assert ann.call("DELETE", "/api/account").status_code == 200
    store = app.notifications.store
    assert app.run(store.listed, ann.id, list(Kind)) == [] and app.run(store.devices, ann.id) == 0
    app.notify(ann, YourTurn(code, turn=2))  # news for a deleted account is kept nowhere
    assert app.run(store.listed, ann.id, list(Kind)) == []
