"""Accounts: sign-up, log-in sessions, passwords, recovery, claimed guest seats.

* A **password** is stored as an argon2id hash (argon2-cffi, :data:`HASHER`); a log-in
  for a name that does not exist still verifies a dummy hash, so that the answer's time
  does not tell which names exist.
* A **session** is a random id (32 bytes) in the ``motherlode_session`` cookie (Secure,
  HttpOnly, SameSite=Lax); the database keeps only its SHA-256, so a copy of the database
  opens no session. Every log-in makes a new id (no session fixation); a session expires
  :data:`SESSION_DAYS` after the log-in; log-out deletes it, "log out everywhere" and a
  password change delete every other one.
* A **recovery code** is shown once at sign-up (and again, a new one, each time it is
  used); the database keeps its SHA-256 (16 random bytes: no dictionary to try).
* The operator's ``motherlode server reset-password USER`` sets a one-time password: it
  logs in once, and the account's pages then ask for a new password first.
* A **guest seat** (an invitation link's token) can be claimed by the logged-in account:
  the seat's token proves it; the match then counts on the account's profile.

Log-in attempts are rate-limited per client (the guard's ``login`` bucket) and per
account (:attr:`~motherlode.server.guard.Limits.login_account`), so that one address
cannot guess quickly and many addresses cannot guess one account quickly.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import math
import re
import secrets
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy import Boolean, DateTime, Engine, ForeignKey, Integer, String, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from motherlode.server.db import Base, SeatRow, utcnow
from motherlode.server.deps import html_errors, page, read_form, templates
from motherlode.server.guard import Buckets, Limits
from motherlode.server.runtime import ServerError

SESSION_COOKIE = "motherlode_session"
SESSION_DAYS = 30
FORM_LIMIT = 8 * 1024
NAME_RE = re.compile(r"[A-Za-z0-9_-]{3,24}")
MIN_PASSWORD = 10
MAX_PASSWORD = 200

HASHER = PasswordHasher()
"""argon2id with argon2-cffi's defaults (RFC 9106's second recommendation); tests swap in
a cheaper one."""


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class UserRow(Base):
    """An account. ``name_key`` (the name in lower case) is unique: "Ann" and "ann" are one."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    recovery_sha256: Mapped[str | None] = mapped_column(String(64), nullable=True)
    must_change: Mapped[bool] = mapped_column(Boolean, default=False)
    """Logged in with an operator's one-time password: a new password comes first."""
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow)


class SessionRow(Base):
    """A log-in session: the SHA-256 of the cookie's random id."""

    __tablename__ = "sessions"

    id_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[_dt.datetime] = mapped_column(DateTime)


class SeatClaimRow(Base):
    """A seat of a match that an account plays (claimed with the seat's token)."""

    __tablename__ = "seat_claims"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    claimed_at: Mapped[_dt.datetime] = mapped_column(DateTime, default=utcnow)


@dataclass(frozen=True)
class Account:
    """The logged-in account of a request."""

    id: int
    name: str
    must_change: bool
    session_sha256: str


class AccountError(ServerError):
    """A refused account operation: shown on the form it came from."""


def check_name(name: str) -> str:
    """A valid user name, or :class:`AccountError` saying what is wrong.

    >>> check_name("Ann_1")
    'Ann_1'
    >>> try:
    ...     check_name("a b")
    ... except AccountError as err:
    ...     print(err.message)
    a user name is 3 to 24 letters, digits, '_' or '-'
    """
    if not NAME_RE.fullmatch(name):
        raise AccountError("bad_name", "a user name is 3 to 24 letters, digits, '_' or '-'")
    return name


def check_password(name: str, password: str, again: str | None = None) -> None:
    """Refuse a password that is too short, too long, the name itself, or mistyped.

    >>> try:
    ...     check_password("ann", "short")
    ... except AccountError as err:
    ...     print(err.message)
    a password has at least 10 characters
    """
    if len(password) < MIN_PASSWORD:
        raise AccountError("bad_password", f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise AccountError("bad_password", f"a password has at most {MAX_PASSWORD} characters")
    if name.lower() in password.lower():
        raise AccountError("bad_password", "a password must not contain the user name")
    if again is not None and again != password:
        raise AccountError("bad_password", "the two passwords differ")


_DUMMY = HASHER.hash("not a password of anyone")


class Accounts:
    """The accounts of one database (the logic behind the pages and the operator command)."""

    def __init__(self, engine: Engine, limits: Limits | None = None) -> None:
        self.engine = engine
        self.limits = limits or Limits()
        self.per_account = Buckets(self.limits)
        self.service: Any = None
        """The match service (set by :func:`install`): a claim shows on the match page."""

    # -- creating, logging in ----------------------------------------------------------

    def sign_up(self, name: str, password: str, again: str) -> tuple[int, str]:
        """A new account: its id and its recovery code (shown once)."""
        check_name(name)
        check_password(name, password, again)
        code = new_recovery_code()
        with Session(self.engine) as s, s.begin():
            if s.execute(select(UserRow.id).where(UserRow.name_key == name.lower())).first():
                raise AccountError("name_taken", f"the name {name!r} is taken", 409)
            user = UserRow(
                name=name,
                name_key=name.lower(),
                password_hash=HASHER.hash(password),
                recovery_sha256=sha256(code),
            )
            s.add(user)
            s.flush()
            return user.id, code

    def log_in(self, name: str, password: str) -> int:
        """The account whose name and password these are (else ``bad_login``, 403)."""
        wait = self.per_account.take(name.lower(), "login_account")
        if wait:
            raise AccountError(
                "rate_limited",
                f"too many log-in attempts for this account; try again in {math.ceil(wait)} s",
                429,
            )
        with Session(self.engine) as s, s.begin():
            user = s.execute(
                select(UserRow).where(UserRow.name_key == name.lower())
            ).scalar_one_or_none()
            if user is None:
                _verify(_DUMMY, password)  # the same time as a wrong password
                raise _bad_login()
            if not _verify(user.password_hash, password):
                raise _bad_login()
            if HASHER.check_needs_rehash(user.password_hash):
                user.password_hash = HASHER.hash(password)
            return user.id

    def new_session(self, user_id: int) -> str:
        """A fresh session id for ``user_id`` (the cookie's value; stored hashed)."""
        sid = secrets.token_urlsafe(32)
        with Session(self.engine) as s, s.begin():
            s.add(
                SessionRow(
                    id_sha256=sha256(sid),
                    user_id=user_id,
                    expires_at=utcnow() + _dt.timedelta(days=SESSION_DAYS),
                )
            )
        return sid

    def account(self, sid: str | None) -> Account | None:
        """The account of session id ``sid``; ``None`` for none, a wrong or an expired one."""
        if not sid:
            return None
        digest = sha256(sid)
        with Session(self.engine) as s, s.begin():
            row = s.get(SessionRow, digest)
            if row is None:
                return None
            if row.expires_at <= utcnow():
                s.delete(row)
                return None
            user = s.get(UserRow, row.user_id)
            if user is None:
                return None
            return Account(user.id, user.name, user.must_change, digest)

    def log_out(self, session_sha256: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.id_sha256 == session_sha256))

    def log_out_everywhere(self, user_id: int, keep: str | None = None) -> int:
        """Delete the account's sessions (but ``keep``): how many were deleted."""
        with Session(self.engine) as s, s.begin():
            query = delete(SessionRow).where(SessionRow.user_id == user_id)
            if keep is not None:
                query = query.where(SessionRow.id_sha256 != keep)
            return int(s.execute(query).rowcount)  # type: ignore[attr-defined]

    # -- passwords ----------------------------------------------------------------------

    def change_password(self, account: Account, current: str, new: str, again: str) -> None:
        """A new password (the current one proves it); every other session ends."""
        with Session(self.engine) as s, s.begin():
            user = s.get(UserRow, account.id)
            if user is None or not _verify(user.password_hash, current):
                raise AccountError("bad_login", "the current password is wrong", 403)
            check_password(user.name, new, again)
            user.password_hash = HASHER.hash(new)
            user.must_change = False
        self.log_out_everywhere(account.id, keep=account.session_sha256)

    def recover(self, name: str, code: str, new: str, again: str) -> tuple[int, str]:
        """A new password set with the recovery code: the account and its next code.

        The code works once (a new one replaces it); every session of the account ends.
        Attempts draw from the account's log-in bucket.
        """
        wait = self.per_account.take(name.lower(), "login_account")
        if wait:
            raise AccountError(
                "rate_limited", f"too many attempts; try again in {math.ceil(wait)} s", 429
            )
        fresh = new_recovery_code()
        with Session(self.engine) as s, s.begin():
            user = s.execute(
                select(UserRow).where(UserRow.name_key == name.lower())
            ).scalar_one_or_none()
            given = sha256(code.strip().upper())
            if (
                user is None
                or user.recovery_sha256 is None
                or not secrets.compare_digest(user.recovery_sha256, given)
            ):
                raise AccountError("bad_recovery", "this name and recovery code do not match", 403)
            check_password(user.name, new, again)
            user.password_hash = HASHER.hash(new)
            user.recovery_sha256 = sha256(fresh)
            user.must_change = False
            uid = user.id
        self.log_out_everywhere(uid)
        return uid, fresh

    def reset_password(self, name: str) -> str:
        """The operator's reset: a one-time password (printed to the operator); every
        session of the account ends, and its next log-in asks for a new password."""
        otp = secrets.token_urlsafe(12)
        with Session(self.engine) as s, s.begin():
            user = s.execute(
                select(UserRow).where(UserRow.name_key == name.lower())
            ).scalar_one_or_none()
            if user is None:
                raise AccountError("not_found", f"no account {name!r}", 404)
            user.password_hash = HASHER.hash(otp)
            user.must_change = True
            uid = user.id
        self.log_out_everywhere(uid)
        return otp

    # -- seats --------------------------------------------------------------------------

    def claim_seat(self, account: Account, match_id: str, token: str) -> int:
        """The seat of ``match_id`` whose token this is, now the account's."""
        digest = sha256(token.strip())
        with Session(self.engine) as s, s.begin():
            seat = s.execute(
                select(SeatRow).where(SeatRow.match_id == match_id, SeatRow.token_sha256 == digest)
            ).scalar_one_or_none()
            if seat is None:
                raise AccountError(
                    "invalid_token", "this seat token is not valid for this match", 403
                )
            claim = s.get(SeatClaimRow, (match_id, seat.seat))
            if claim is not None and claim.user_id != account.id:
                raise AccountError(
                    "seat_taken", f"seat P{seat.seat + 1} is claimed by another account", 409
                )
            if claim is None:
                s.add(SeatClaimRow(match_id=match_id, seat=seat.seat, user_id=account.id))
            number = seat.seat
        self._shown(match_id, number, account.name)
        return number

    def _shown(self, match_id: str, seat: int, name: str) -> None:
        """The players panel names the account: the cached runtime learns it, watchers get
        the change, other processes hear of it (a ``j`` notice: they re-read the match)."""
        service = self.service
        if service is None:
            return
        rt = service.runtimes.get(match_id)
        if rt is not None and rt.seats[seat].account != name:
            rt.seats[seat].account = name
            rt._cache.clear()
            service._push(match_id)
        if service.shared:
            with self.engine.begin() as conn:
                service._notify(conn, "j", match_id, rt.version if rt is not None else -1)

    def name_seats(self, rt: Any) -> None:
        """A runtime read from the database: its seats' account names (service.on_load)."""
        for seat, name in self.claims(rt.match_id).items():
            if 0 <= seat < len(rt.seats):
                rt.seats[seat].account = name

    def claims(self, match_id: str) -> dict[int, str]:
        """The seats of ``match_id`` claimed by accounts: seat -> the account's name."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(SeatClaimRow.seat, UserRow.name)
                .join(UserRow, UserRow.id == SeatClaimRow.user_id)
                .where(SeatClaimRow.match_id == match_id)
            ).all()
        return {int(seat): str(name) for seat, name in rows}


def new_recovery_code() -> str:
    """16 random bytes as four groups of base32 letters (easy to copy by hand)."""
    import base64

    raw = base64.b32encode(secrets.token_bytes(16)).decode().rstrip("=")
    return "-".join(raw[i : i + 7] for i in range(0, len(raw), 7))


def _verify(hashed: str, password: str) -> bool:
    try:
        return HASHER.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False


def _bad_login() -> AccountError:
    return AccountError("bad_login", "this user name and password do not match", 403)


# -- the pages --------------------------------------------------------------------------

router = APIRouter(default_response_class=HTMLResponse)


def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def current(request: Request) -> Account | None:
    """The request's logged-in account (``None``: a guest), looked up once per request."""
    if not hasattr(request.state, "account"):
        request.state.account = accounts_of(request).account(request.cookies.get(SESSION_COOKIE))
    account: Account | None = request.state.account
    return account


def _with_session(response: Response, sid: str) -> Response:
    response.set_cookie(
        SESSION_COOKIE,
        sid,
        max_age=SESSION_DAYS * 86400,
        path="/",
        secure=True,
        httponly=True,
        samesite="lax",
    )
    return response


def _form(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    return page(request, name, status, me=current(request), **context)


_FORM_ERRORS = html_errors(403, 422, 429, json=(413,))


class _Refused(Exception):
    def __init__(self, response: HTMLResponse) -> None:
        self.response = response


async def _read(request: Request) -> dict[str, str]:
    """The form, its CSRF field checked: a refusal is an error page (HTML, as the form's
    other answers); only a body over the limit is answered in JSON (413), as elsewhere."""
    try:
        return await read_form(request, FORM_LIMIT)
    except ServerError as err:
        if err.code != "csrf":
            raise
        raise _Refused(page(request, "error.html", 403, message=err.message)) from None


@router.get("/signup", responses=html_errors())
async def signup_form(request: Request) -> HTMLResponse:
    return _form(request, "signup.html", user="", error="")


@router.post("/signup", responses=_FORM_ERRORS, response_model=None)
async def signup(request: Request) -> Response:
    form = await _read(request)
    name = form.get("name", "").strip()
    try:
        uid, code = accounts_of(request).sign_up(
            name, form.get("password", ""), form.get("again", "")
        )
    except AccountError as err:
        return _form(request, "signup.html", 422, user=name, error=err.message)
    sid = accounts_of(request).new_session(uid)
    response = page(request, "recovery.html", user=name, code=code, me=None)
    return _with_session(response, sid)


@router.get("/login", responses=html_errors())
async def login_form(request: Request, next: str = "/") -> HTMLResponse:
    return _form(request, "login.html", user="", error="", next=_local(next))


@router.post("/login", responses=_FORM_ERRORS, response_model=None)
async def login(request: Request) -> Response:
    form = await _read(request)
    name = form.get("name", "").strip()
    target = _local(form.get("next", "/"))
    accounts = accounts_of(request)
    try:
        uid = accounts.log_in(name, form.get("password", ""))
    except AccountError as err:
        status = 429 if err.code == "rate_limited" else 403
        return _form(request, "login.html", status, user=name, error=err.message, next=target)
    old = request.cookies.get(SESSION_COOKIE)
    if old:  # the id the browser had is never reused (session fixation)
        accounts.log_out(sha256(old))
    sid = accounts.new_session(uid)
    me = accounts.account(sid)
    if me is not None and me.must_change:
        target = "/account"
    return _with_session(RedirectResponse(target, status_code=303), sid)


@router.post("/logout", responses=_FORM_ERRORS, response_model=None)
async def logout(request: Request) -> Response:
    await _read(request)
    me = current(request)
    if me is not None:
        accounts_of(request).log_out(me.session_sha256)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/", secure=True, httponly=True, samesite="lax")
    return response


@router.post("/logout-everywhere", responses=_FORM_ERRORS, response_model=None)
async def logout_everywhere(request: Request) -> Response:
    await _read(request)
    me = current(request)
    if me is not None:
        accounts_of(request).log_out_everywhere(me.id)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/", secure=True, httponly=True, samesite="lax")
    return response


@router.get("/account", responses=html_errors(), response_model=None)
async def account_page(request: Request) -> Response:
    if current(request) is None:
        return RedirectResponse("/login?next=/account", status_code=303)
    return _form(request, "account.html", error="", done="")


@router.post("/account/password", responses=_FORM_ERRORS, response_model=None)
async def change_password(request: Request) -> Response:
    form = await _read(request)
    me = current(request)
    if me is None:
        return RedirectResponse("/login?next=/account", status_code=303)
    try:
        accounts_of(request).change_password(
            me, form.get("current", ""), form.get("password", ""), form.get("again", "")
        )
    except AccountError as err:
        return _form(request, "account.html", 422, error=err.message, done="")
    request.state.account = accounts_of(request).account(request.cookies.get(SESSION_COOKIE))
    return _form(
        request, "account.html", error="", done="password changed; your other sessions ended"
    )


@router.get("/recover", responses=html_errors())
async def recover_form(request: Request) -> HTMLResponse:
    return _form(request, "recover.html", user="", error="")


@router.post("/recover", responses=_FORM_ERRORS, response_model=None)
async def recover(request: Request) -> Response:
    form = await _read(request)
    name = form.get("name", "").strip()
    accounts = accounts_of(request)
    try:
        uid, code = accounts.recover(
            name, form.get("code", ""), form.get("password", ""), form.get("again", "")
        )
    except AccountError as err:
        status = {"rate_limited": 429, "bad_recovery": 403}.get(err.code, 422)
        return _form(request, "recover.html", status, user=name, error=err.message)
    sid = accounts.new_session(uid)
    return _with_session(page(request, "recovery.html", user=name, code=code, me=None), sid)


@router.post(
    "/m/{match_id}/claim", responses=html_errors(403, 409, 429, json=(413,)), response_model=None
)
async def claim(request: Request, match_id: str) -> Response:
    """Claim a guest seat for the logged-in account (the form carries the seat's token)."""
    form = await _read(request)
    me = current(request)
    if me is None:
        return page(request, "error.html", 403, message="log in to claim a seat", link="/login")
    try:
        seat = accounts_of(request).claim_seat(me, match_id, form.get("token", ""))
    except AccountError as err:
        return page(request, "error.html", err.status, message=err.message, link="/")
    token = form.get("token", "").strip()
    return RedirectResponse(f"/m/{match_id}#t={token}&claimed={seat}", status_code=303)


def _local(target: str) -> str:
    """Only a path of this site after a log-in (an open redirect otherwise).

    >>> _local("/u/ann"), _local("https://evil.example/"), _local("//evil.example")
    ('/u/ann', '/', '/')
    """
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def install(app: Any, limits: Limits) -> None:
    """Give ``app`` its accounts (``app.state.accounts``) and their pages."""
    app.state.accounts = Accounts(app.state.service.engine, limits)
    app.state.accounts.service = app.state.service
    app.state.service.on_load.append(app.state.accounts.name_seats)
    templates.env.globals["signed_in"] = current
    templates.env.globals["seat_claims"] = lambda request, match_id: accounts_of(request).claims(
        match_id
    )
    app.include_router(router)
    app.add_exception_handler(_Refused, _refused)


async def _refused(_request: Request, err: Exception) -> Response:
    assert isinstance(err, _Refused)
    return err.response
