"""Django's PBKDF2 hasher, which gives the request's database connection back before it
works: hashing a password is a few hundred milliseconds of CPU (under a burst of sign-ups
and logins, seconds), and a connection held meanwhile is one the pool cannot lend
(``cardsite.busy``). Every place a password is hashed or checked (sign-up, login, the
password change, deleting an account, Django's equal-time check of an unknown username)
goes through here. The algorithm and its name are Django's: stored hashes stay valid.
"""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher

from cardsite.busy import release_connection


class PBKDF2ReleasingHasher(PBKDF2PasswordHasher):
    def encode(self, password, salt, iterations=None):
        release_connection()
        return super().encode(password, salt, iterations)
