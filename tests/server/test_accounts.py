"""Accounts: sign-up, log-in, sessions, passwords, recovery, the operator's reset, claims."""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("argon2")

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.profiles import CHEAPEST
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from motherlode.server import accounts
from motherlode.server.accounts import SESSION_COOKIE, Accounts, SessionRow, sha256
from motherlode.server.app import create_app
from motherlode.server.guard import Limits, Rate
from tests.server.helpers import create, csrf

PASSWORD = "correct horse battery"
NAME_CHARS = "&#39;_&#39; or &#39;-&#39;"


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    # argon2's production cost (64 MiB, 3 passes) per hash would make these tests slow
    monkeypatch.setattr(accounts, "HASHER", PasswordHasher.from_parameters(CHEAPEST))


def browser(app: Any) -> TestClient:
    """A client on https (the session cookie is Secure: a browser sends it on https only)."""
    return TestClient(app, base_url="https://testserver")


@pytest.fixture
def make_client(app_factory: Callable[..., Any]) -> Iterator[Callable[..., TestClient]]:
    opened: list[TestClient] = []
    apps: dict[str, Any] = {}

    def make(**kwargs: Any) -> TestClient:
        if "app" not in apps or kwargs:
            apps["app"] = app_factory(**kwargs)
        c = browser(apps["app"])
        c.__enter__()
        opened.append(c)
        return c

    yield make
    for c in opened:
        c.__exit__(None, None, None)


def form(client: TestClient, path: str, **fields: str) -> Any:
    return client.post(path, data={"csrf": csrf(client), **fields}, follow_redirects=False)


def sign_up(client: TestClient, name: str = "ann", password: str = PASSWORD) -> str:
    r = form(client, "/signup", name=name, password=password, again=password)
    assert r.status_code == 200, r.text
    code = re.search(r'id="recovery-code">([A-Z0-9-]+)<', r.text)
    assert code is not None
    return code.group(1)


def log_in(client: TestClient, name: str = "ann", password: str = PASSWORD) -> Any:
    return form(client, "/login", name=name, password=password)


def who(client: TestClient) -> str | None:
    m = re.search(r'id="me" href="/account">([^<]+)<', client.get("/").text)
    return m.group(1) if m else None


def test_sign_up_logs_in_with_a_secure_http_only_lax_cookie(make_client: Any) -> None:
    c = make_client()
    r = form(c, "/signup", name="Ann", password=PASSWORD, again=PASSWORD)
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    low = cookie.lower()
    assert "secure" in low and "httponly" in low and "samesite=lax" in low
    assert who(c) == "Ann"
    # the database keeps only the id's hash
    sid = c.cookies[SESSION_COOKIE]
    engine = c.app.state.accounts.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        stored = [row[0] for row in conn.execute(sa.select(SessionRow.id_sha256))]
    assert stored == [sha256(sid)]


@pytest.mark.parametrize(
    ("name", "password", "again", "message"),
    [
        ("ann", "short", "short", "a password has at least 10 characters"),
        ("ann", "x" * 201, "x" * 201, "a password has at most 200 characters"),
        ("ann", "my name is ann!", "my name is ann!", "a password must not contain the user name"),
        ("ann", PASSWORD, PASSWORD + "x", "the two passwords differ"),
        (
            "a b",
            PASSWORD,
            PASSWORD,
            "a user name is 3 to 24 letters, digits, &#39;_&#39; or &#39;-&#39;",
        ),
    ],
)
def test_bad_sign_ups_are_refused_saying_why(
    make_client: Any, name: str, password: str, again: str, message: str
) -> None:
    c = make_client()
    r = form(c, "/signup", name=name, password=password, again=again)
    assert r.status_code == 422
    assert f'<p class="error" id="error">{message}</p>' in r.text
    assert SESSION_COOKIE not in c.cookies


def test_a_name_is_taken_whatever_its_case(make_client: Any) -> None:
    sign_up(make_client(), "Ann")
    r = form(make_client(), "/signup", name="ANN", password=PASSWORD, again=PASSWORD)
    assert r.status_code == 422
    assert "the name &#39;ANN&#39; is taken" in r.text


def test_wrong_password_and_unknown_name_get_the_same_answer(make_client: Any) -> None:
    sign_up(make_client())
    c = make_client()
    wrong = log_in(c, "ann", "wrong password!")
    nobody = log_in(c, "bob", PASSWORD)
    assert wrong.status_code == nobody.status_code == 403
    for r in (wrong, nobody):
        assert "this user name and password do not match" in r.text
    assert SESSION_COOKIE not in c.cookies
    assert log_in(c).status_code == 303
    assert who(c) == "ann"


def test_wrong_and_expired_sessions_are_guests(make_client: Any) -> None:
    c = make_client()
    sign_up(c)
    sid = c.cookies[SESSION_COOKIE]
    c.cookies.set(SESSION_COOKIE, "not-a-session", domain="testserver.local")
    assert who(c) is None
    c.cookies.clear()
    c.cookies.set(SESSION_COOKIE, sid, domain="testserver.local")
    assert who(c) == "ann"
    engine = c.app.state.accounts.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        past = _dt.datetime(2000, 1, 1)
        conn.execute(sa.update(SessionRow).values(expires_at=past))
    assert who(c) is None
    with engine.connect() as conn:  # the expired row is gone
        assert conn.execute(sa.select(sa.func.count()).select_from(SessionRow)).scalar() == 0


def test_every_log_in_makes_a_new_session_id(make_client: Any) -> None:
    c = make_client()
    sign_up(c)
    planted = c.cookies[SESSION_COOKIE]  # an id the visitor had before logging in
    assert log_in(c).status_code == 303
    fresh = c.cookies[SESSION_COOKIE]
    assert fresh != planted
    other = make_client()
    other.cookies.set(SESSION_COOKIE, planted, domain="testserver.local")
    assert who(other) is None  # the old id opens nothing any more
    assert who(c) == "ann"


def test_forms_without_the_csrf_token_are_refused(make_client: Any) -> None:
    c = make_client()
    sign_up(c)
    for path, fields in [
        ("/signup", {"name": "bob", "password": PASSWORD, "again": PASSWORD}),
        ("/login", {"name": "ann", "password": PASSWORD}),
        ("/logout", {}),
        ("/logout-everywhere", {}),
        ("/account/password", {"current": PASSWORD, "password": "x" * 12, "again": "x" * 12}),
        ("/recover", {"name": "ann", "code": "x", "password": "x" * 12, "again": "x" * 12}),
    ]:
        r = c.post(path, data={**fields, "csrf": "forged"}, follow_redirects=False)
        assert r.status_code == 403, path
        assert "this form did not come from this site&#39;s page" in r.text
    assert who(c) == "ann"


def test_log_out_and_log_out_everywhere(make_client: Any) -> None:
    home, phone, laptop = make_client(), make_client(), make_client()
    sign_up(home)
    log_in(phone)
    log_in(laptop)
    assert form(phone, "/logout").status_code == 303
    assert who(phone) is None
    assert who(home) == who(laptop) == "ann"
    assert form(home, "/logout-everywhere").status_code == 303
    assert who(home) is None and who(laptop) is None


def test_a_password_change_ends_the_other_sessions(make_client: Any) -> None:
    here, there = make_client(), make_client()
    sign_up(here)
    log_in(there)
    new = "a much better one"
    r = form(here, "/account/password", current="wrong password!", password=new, again=new)
    assert r.status_code == 422 and "the current password is wrong" in r.text
    r = form(here, "/account/password", current=PASSWORD, password=new, again=new)
    assert r.status_code == 200 and "password changed" in r.text
    assert who(here) == "ann" and who(there) is None
    assert log_in(there).status_code == 403
    assert log_in(there, password=new).status_code == 303


def test_the_recovery_code_sets_a_new_password_once(make_client: Any) -> None:
    first = make_client()
    code = sign_up(first)
    c = make_client()
    new = "recovered at last"
    bad = form(c, "/recover", name="ann", code="AAAA-BBBB", password=new, again=new)
    assert bad.status_code == 403 and "this name and recovery code do not match" in bad.text
    r = form(c, "/recover", name="ann", code=code.lower(), password=new, again=new)
    assert r.status_code == 200
    next_code = re.search(r'id="recovery-code">([A-Z0-9-]+)<', r.text)
    assert next_code is not None and next_code.group(1) != code
    assert who(c) == "ann" and who(first) is None  # the others' sessions ended
    again = form(make_client(), "/recover", name="ann", code=code, password=new, again=new)
    assert again.status_code == 403  # a code works once
    assert log_in(make_client(), password=new).status_code == 303


def test_the_operators_reset_prints_a_one_time_password(make_client: Any, tmp_path: Path) -> None:
    from motherlode.cli import app as cli

    c = make_client()
    sign_up(c)
    db = str(tmp_path / "motherlode.db")
    result = CliRunner().invoke(cli, ["server", "reset-password", "ANN", "--db", db])
    assert result.exit_code == 0, result.output
    otp = re.search(r"one-time password for ann: (\S+)", result.output)
    assert otp is not None
    assert who(c) is None  # every session ended
    assert log_in(make_client()).status_code == 403  # the old password is gone
    d = make_client()
    r = log_in(d, password=otp.group(1))
    assert r.status_code == 303 and r.headers["location"] == "/account"
    assert 'id="must-change"' in d.get("/account").text
    new = "chosen once more"
    form(d, "/account/password", current=otp.group(1), password=new, again=new)
    assert 'id="must-change"' not in d.get("/account").text
    missing = CliRunner().invoke(cli, ["server", "reset-password", "zed", "--db", db])
    assert missing.exit_code == 2 and "no account 'zed'" in missing.output


def test_log_in_attempts_are_limited_per_client_and_per_account(
    make_client: Any,
) -> None:
    off = Limits.off()
    c = make_client(limits=Limits(**{**off.__dict__, "login": Rate(1 / 3600, 3)}))
    sign_up(c)
    for _ in range(3):
        assert log_in(c, password="wrong password!").status_code == 403
    r = log_in(c)
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"

    d = make_client(limits=Limits(**{**off.__dict__, "login_account": Rate(1 / 3600, 2)}))
    sign_up(d, "bob")
    assert log_in(d, "bob", "wrong password!").status_code == 403
    assert log_in(d, "bob", "wrong password!").status_code == 403
    e = make_client()  # another client, the same account: refused too
    r = log_in(e, "BOB")
    assert r.status_code == 429 and "too many log-in attempts for this account" in r.text
    assert log_in(e, "ann2", PASSWORD).status_code == 403  # other accounts: not limited


def test_a_guest_seat_is_claimed_with_its_token(make_client: Any) -> None:
    c = make_client()
    sign_up(c)
    m = create(c)
    bad = form(c, f"/m/{m['id']}/claim", token="not the token")
    assert bad.status_code == 403 and "this seat token is not valid for this match" in bad.text
    r = form(c, f"/m/{m['id']}/claim", token=m["tokens"][1])
    assert r.status_code == 303
    assert r.headers["location"] == f"/m/{m['id']}#t={m['tokens'][1]}&claimed=1"
    accts: Accounts = c.app.state.accounts  # type: ignore[attr-defined]
    assert accts.claims(m["id"]) == {1: "ann"}
    other = make_client()
    sign_up(other, "bob")
    taken = form(other, f"/m/{m['id']}/claim", token=m["tokens"][1])
    assert taken.status_code == 409 and "seat P2 is claimed by another account" in taken.text
    guest = make_client()
    refused = form(guest, f"/m/{m['id']}/claim", token=m["tokens"][0])
    assert refused.status_code == 403 and "log in to claim a seat" in refused.text


POSTGRES = os.environ.get("MOTHERLODE_TEST_POSTGRES")


@pytest.mark.skipif(not POSTGRES, reason="MOTHERLODE_TEST_POSTGRES is not set")
def test_accounts_on_postgres() -> None:

    assert POSTGRES is not None
    from tests.server.postgres_db import fresh

    fresh(POSTGRES)
    with browser(create_app(POSTGRES, limits=Limits.off())) as c:
        code = sign_up(c)
        assert who(c) == "ann"
        assert log_in(c).status_code == 303
        m = create(c)
        assert form(c, f"/m/{m['id']}/claim", token=m["tokens"][0]).status_code == 303
        new = "postgres password"
        r = form(c, "/recover", name="ann", code=code, password=new, again=new)
        assert r.status_code == 200
        assert c.app.state.accounts.claims(m["id"]) == {0: "ann"}  # type: ignore[attr-defined]
