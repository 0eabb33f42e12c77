"""Limits hold when the requests arrive at once: logins, Play now guests, password-reset mails.

The parallel tests run each request in its own thread with its own test client and database
connection, released together by a barrier, against committed data (transactional tests).
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core import mail
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import translation

from cardsite import ratelimit
from cardsite.accounts.models import Profile
from tests.site.conftest import PASSWORD

WAIT = 60  # seconds; only a safety net against a hung thread, never a pause


@pytest.fixture
def fresh_counters(transactional_db):
    """Committed counters outlive a transactional test: the flush knows only models' tables."""

    def clear():
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {ratelimit.TABLE}")

    clear()
    yield
    clear()


def url(name, **kwargs):
    with translation.override("en"):
        return reverse(name, kwargs=kwargs or None)


def in_parallel(n, work):
    """Run ``work(i)`` for i in range(n), each in its own thread, all released at once."""
    barrier = threading.Barrier(n)

    def run(i):
        try:
            barrier.wait(timeout=WAIT)
            return work(i)
        finally:
            connections.close_all()  # this thread's connections

    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(run, range(n)))


@pytest.fixture
def password_checks(monkeypatch):
    """The passwords the auth backend was asked to check, across all threads."""
    checked = []
    lock = threading.Lock()
    real = ModelBackend.authenticate

    def spy(self, request, username=None, password=None, **kwargs):
        with lock:
            checked.append(password)
        return real(self, request, username=username, password=password, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", spy)
    return checked


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_counters")
def test_parallel_wrong_passwords_get_at_most_the_limit_of_checks(alice, password_checks):
    limit = settings.LOGIN_FAILURE_LIMIT

    def guess(i):
        response = Client().post(url("accounts:login"), {"username": "alice", "password": f"x{i}"})
        return response.status_code, response.content.decode()

    results = in_parallel(4 * limit, guess)
    assert 1 <= len(password_checks) <= limit
    assert all(status == 200 for status, _ in results)
    refused = [html for _, html in results if "Too many failed attempts" in html]
    assert len(refused) == 4 * limit - len(password_checks)
    # The right password is refused too now, without a check.
    client = Client()
    response = client.post(url("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert "Too many failed attempts" in response.content.decode()
    assert not logged_in(client)
    assert len(password_checks) <= limit


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_counters")
def test_the_right_password_among_parallel_guesses_does_not_log_in(alice, monkeypatch):
    """19 wrong passwords and the right one at once; the right one after `limit` guesses.

    The wrong guesses that get to the password check are held there until the right one has
    its answer, as if hashing were slow: a throttle that counts only finished failures would
    then let the right password through.
    """
    limit = settings.LOGIN_FAILURE_LIMIT
    checked = []
    lock = threading.Lock()
    limit_reached = threading.Event()
    release = threading.Event()
    real = ModelBackend.authenticate

    def slow_wrong_checks(self, request, username=None, password=None, **kwargs):
        if password != PASSWORD:
            with lock:
                checked.append(password)
                if len(checked) >= limit:
                    limit_reached.set()
            release.wait(timeout=WAIT)
        else:
            with lock:
                checked.append(password)
        return real(self, request, username=username, password=password, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", slow_wrong_checks)
    clients = [Client() for _ in range(20)]

    def attempt(i):
        if i < 19:
            response = clients[i].post(
                url("accounts:login"), {"username": "alice", "password": f"wrong{i}"}
            )
            return response.content.decode()
        try:
            assert limit_reached.wait(timeout=WAIT), "the first guesses never reached the check"
            response = clients[i].post(
                url("accounts:login"), {"username": "alice", "password": PASSWORD}
            )
            return response.content.decode()
        finally:
            release.set()

    results = in_parallel(20, attempt)
    assert "Too many failed attempts" in results[19]
    assert not logged_in(clients[19])
    assert PASSWORD not in checked
    assert len(checked) <= limit


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_counters")
def test_parallel_play_now_makes_at_most_the_limit_of_guests(settings):
    settings.GUEST_LIMIT_PER_HOUR = 20
    play = url("games:play_now", game="gongzhu")

    def play_now(i):
        return Client().post(play).url

    urls = in_parallel(30, play_now)
    guests = Profile.objects.filter(is_guest=True).count()
    assert guests <= 20
    assert sum("/tables/" in u for u in urls) == guests
    assert urls.count(url("lobby")) == 30 - guests


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_counters")
def test_the_counter_lets_exactly_the_limit_through_in_parallel():
    limit = ratelimit.Limit.of("test", "203.0.113.5", 20, 3600)

    def take(i):
        try:
            ratelimit.take(limit)
        except ratelimit.Exceeded:
            return False
        return True

    assert sum(in_parallel(30, take)) == 20
    assert ratelimit.count(limit) == 20


@pytest.mark.django_db
def test_play_now_stops_making_guests_at_the_limit(settings):
    settings.GUEST_LIMIT_PER_HOUR = 3
    play = url("games:play_now", game="gongzhu")
    urls = [Client().post(play).url for _ in range(5)]
    assert [("/tables/" in u) for u in urls] == [True, True, True, False, False]
    assert Profile.objects.filter(is_guest=True).count() == 3
    # Another address still gets its guest.
    assert "/tables/" in Client(REMOTE_ADDR="198.51.100.4").post(play).url


@pytest.mark.django_db
def test_a_refused_request_does_not_use_up_the_other_limits(monkeypatch):
    now = [1_000_000]
    monkeypatch.setattr(ratelimit, "_now", lambda: now[0])
    address = ratelimit.Limit.of("a", "x", 2, 60)
    user = ratelimit.Limit.of("u", "y", 5, 60)
    ratelimit.take(address, user)
    ratelimit.take(address, user)
    with pytest.raises(ratelimit.Exceeded) as refused:
        ratelimit.take(address, user)
    assert refused.value.seconds == 60
    assert (ratelimit.count(address), ratelimit.count(user)) == (2, 2)
    now[0] += 45
    with pytest.raises(ratelimit.Exceeded) as refused:
        ratelimit.take(address, user)
    assert refused.value.seconds == 15
    # The window ends: counting starts again, and a use given back is no longer counted.
    now[0] += 15
    (use, _) = ratelimit.take(address, user)
    assert ratelimit.count(address) == 1
    use.give_back()
    assert ratelimit.count(address) == 0


@pytest.mark.django_db
def test_an_empty_password_does_not_reset_the_count(client, alice):
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        client.post(url("accounts:login"), {"username": "alice", "password": "wrong"})
    client.post(url("accounts:login"), {"username": "alice", "password": ""})
    client.post(url("accounts:login"), {"username": "alice", "password": "wrong"})
    response = client.post(url("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert "Too many failed attempts" in response.content.decode()


@pytest.mark.django_db
def test_successful_logins_do_not_use_up_the_address(client, alice):
    for _ in range(settings.LOGIN_FAILURE_LIMIT * 4 + 1):
        response = client.post(url("accounts:login"), {"username": "alice", "password": PASSWORD})
        assert response.status_code == 302
        client.post(url("accounts:logout"))


@pytest.mark.django_db
def test_reset_mails_are_limited_per_address(client, alice):
    responses = [
        client.post(url("accounts:password_reset"), {"email": email})
        for email in ["alice@example.com"] * 9 + ["ALICE@example.com"]
    ]
    assert len(mail.outbox) == settings.PASSWORD_RESET_LIMIT_PER_ADDRESS == 3
    assert {(r.status_code, r.url) for r in responses} == {
        (302, url("accounts:password_reset_done"))
    }
    # Another client does not get more mails to the same address either.
    other = Client(REMOTE_ADDR="198.51.100.4")
    assert other.post(url("accounts:password_reset"), {"email": "alice@example.com"}).url == url(
        "accounts:password_reset_done"
    )
    assert len(mail.outbox) == 3


@pytest.mark.django_db
def test_reset_mails_are_limited_per_client(client):
    users = get_user_model().objects
    emails = [f"player{i}@example.com" for i in range(12)]
    for i, email in enumerate(emails):
        users.create_user(f"player{i}", email, PASSWORD)
    responses = [client.post(url("accounts:password_reset"), {"email": e}) for e in emails]
    assert len(mail.outbox) == settings.PASSWORD_RESET_LIMIT_PER_CLIENT == 10
    assert {(r.status_code, r.url) for r in responses} == {
        (302, url("accounts:password_reset_done"))
    }
    assert [m.to for m in mail.outbox] == [[e] for e in emails[:10]]
    # Refused requests do not count against the addresses: from elsewhere they still get mail.
    other = Client(REMOTE_ADDR="198.51.100.4")
    other.post(url("accounts:password_reset"), {"email": emails[10]})
    assert mail.outbox[-1].to == [emails[10]]
