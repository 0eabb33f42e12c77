"""Failed logins are counted across processes: two daphne servers, one database and cache."""

import http.cookiejar
import re
import subprocess
import sys
import urllib.parse
import urllib.request

import pytest

from tests.servers import ROOT, daphne, fresh_database


def _attempt(base, username, password):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(base + "/en/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": username, "password": password}
    ).encode()
    req = urllib.request.Request(
        base + "/en/accounts/login/", data=data, headers={"Referer": base + "/"}
    )
    return opener.open(req).read().decode()


@pytest.mark.slow
def test_failed_logins_through_two_processes_are_counted_together(tmp_path):
    with fresh_database(tmp_path) as env:
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "shell",
                "-c",
                "from django.contrib.auth import get_user_model as g; "
                "g().objects.create_user('lin', password='Kartenspiel-2026')",
            ],
            cwd=ROOT,
            env=env,
            check=True,
        )
        with daphne(env, tmp_path) as a, daphne(env, tmp_path) as b:
            servers = [a, b]
            for i in range(5):
                html = _attempt(servers[i % 2], "lin", "wrong")
                assert "Please enter a correct username" in html
            # The sixth attempt, with the right password, is refused by either process.
            for base in servers:
                html = _attempt(base, "lin", "Kartenspiel-2026")
                assert "Too many failed attempts" in html
