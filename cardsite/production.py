"""The production stack on one machine: N daphne processes behind nginx, under supervisord.

``make production`` (``python -m cardsite.production start``) writes the configuration of
supervisord and nginx into ``STATE_DIR`` (``var/`` of the checkout unless set), starts
supervisord in the background, which starts and watches the daphne processes (one per port
from ``DAPHNE_PORT`` on) and nginx, and waits until every process is ready. PostgreSQL and
Redis are the machine's own services (Debian's packages), named by ``DATABASE_URL`` and
``REDIS_URL``.

``make production-restart`` (``restart``) is the rolling restart after an update: one daphne
process at a time gets SIGTERM (``cardsite.shutdown`` drains it: its sockets are told 1012
"reconnect" and land on the others through nginx), is started again, and must answer
``/readyz`` before the next one goes; nginx then reloads its configuration. ``stop`` ends
everything; ``status`` says what runs.

supervisord rather than honcho: honcho stops every process as soon as one exits and cannot
restart one process on its own, which is what a rolling restart is. The configuration is
generated here, not kept as files, because the upstream list depends on ``DAPHNE_PROCESSES``.
Nothing here imports Django: the stack is started from the outside, like any process manager.
"""

from __future__ import annotations

import argparse
import os
import shutil
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READY_TIMEOUT = 90  # seconds for a process (or the whole stack) to answer after a start

# Paths that carry a secret (an invitation, a password reset) are logged without it.
ACCESS_LOG_URI = r"""
    map $uri $uri_logged {
        ~^(?<kept>/[a-z][a-z]/join/)[^/]+ "${kept}…";
        ~^(?<kept>/[a-z][a-z]/accounts/password/reset/)[^/]+/[^/]+ "${kept}…";
        default $uri;
    }
    log_format site '$remote_addr [$time_local] "$request_method $uri_logged" $status '
                    '$body_bytes_sent $request_time $upstream_addr';
"""


class StackError(Exception):
    """Something an operator must fix before the stack can run; the message says what."""


def _int(environ, name: str, default: int | None) -> int | None:
    value = environ.get(name, "")
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise StackError(f"{name} must be a whole number, not {value!r}.") from None


@dataclass(frozen=True)
class Stack:
    state: Path
    processes: int
    daphne_port: int
    http_port: int
    https_port: int
    certificate: Path
    certificate_key: Path
    metrics_port: int | None
    nginx: str
    grace: int
    python: str = sys.executable

    @classmethod
    def from_environ(cls, environ=os.environ, starting: bool = True) -> Stack:
        """The stack the environment describes; ``starting`` checks what a start needs (stop
        and status need only ``STATE_DIR`` and the ports)."""
        missing = [n for n in ("TLS_CERTIFICATE", "TLS_CERTIFICATE_KEY") if not environ.get(n)]
        if missing and starting:
            raise StackError(
                f"{' and '.join(missing)} must be set: the paths of the certificate (full chain)"
                " and its key that nginx serves HTTPS with."
            )
        if environ.get("DEBUG", "1") != "0" and starting:
            raise StackError("DEBUG=0 must be set for the production stack.")
        for name in ("TLS_CERTIFICATE", "TLS_CERTIFICATE_KEY"):
            if starting and not Path(environ[name]).is_file():
                raise StackError(f"{name}: no file at {environ[name]}.")
        nginx = environ.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(nginx).exists():
            raise StackError("nginx is not installed (Debian: apt-get install nginx).")
        processes = _int(environ, "DAPHNE_PROCESSES", 2)
        if processes < 1:
            raise StackError("DAPHNE_PROCESSES must be at least 1.")
        return cls(
            state=Path(environ.get("STATE_DIR") or ROOT / "var").resolve(),
            processes=processes,
            daphne_port=_int(environ, "DAPHNE_PORT", 8001),
            http_port=_int(environ, "HTTP_PORT", 80),
            https_port=_int(environ, "HTTPS_PORT", 443),
            certificate=Path(environ.get("TLS_CERTIFICATE", "")).resolve(),
            certificate_key=Path(environ.get("TLS_CERTIFICATE_KEY", "")).resolve(),
            metrics_port=_int(environ, "METRICS_PORT", None),
            nginx=nginx,
            grace=_int(environ, "SHUTDOWN_GRACE_SECONDS", 15),
        )

    @property
    def ports(self) -> list[int]:
        return [self.daphne_port + i for i in range(self.processes)]

    @property
    def supervisord_conf(self) -> Path:
        return self.state / "supervisord.conf"

    @property
    def nginx_conf(self) -> Path:
        return self.state / "nginx.conf"

    @property
    def logs(self) -> Path:
        return self.state / "log"

    def program(self, port: int) -> str:
        return f"daphne:daphne-{port}"

    # -- configuration --------------------------------------------------------------------

    def nginx_text(self) -> str:
        state, logs = self.state, self.logs
        upstreams = "\n".join(
            f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;" for port in self.ports
        )
        https_suffix = "" if self.https_port == 443 else f":{self.https_port}"
        temp = "\n".join(
            f"    {kind}_temp_path {state}/nginx/{kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        return rf"""# Written by `python -m cardsite.production`; edits are overwritten on the next start.
daemon off;
pid {state}/nginx.pid;
error_log {logs}/nginx-error.log warn;
worker_processes auto;
events {{ worker_connections 4096; }}

http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    server_tokens off;
{temp}
{ACCESS_LOG_URI}
    access_log {logs}/nginx-access.log site;

    # A WebSocket's handshake asks for an upgrade; every other request closes as usual.
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        "" close;
    }}

    # Every daphne process serves every table (the database and Redis are shared). A process
    # that refuses connections (restarting, draining) is skipped: the request goes to the next.
    upstream daphne {{
{upstreams}
    }}

    server {{
        listen {self.http_port};
        listen [::]:{self.http_port};
        location / {{ return 301 https://$host{https_suffix}$request_uri; }}
    }}

    server {{
        # Debian 12's nginx (1.22): http2 on the listen line.
        listen {self.https_port} ssl http2;
        listen [::]:{self.https_port} ssl http2;
        ssl_certificate {self.certificate};
        ssl_certificate_key {self.certificate_key};
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:SSL:10m;
        client_max_body_size 1m;

        # Served gzipped where collectstatic wrote a .gz; a fingerprinted name (the pages link
        # only those) is cached for good, any other for an hour.
        location /static/ {{
            alias {ROOT}/staticfiles/;
            gzip_static on;
            expires 1h;
            location ~ "\.[0-9a-f]{{12}}\.[a-z0-9]+$" {{
                expires max;
                add_header Cache-Control "public, immutable";
            }}
        }}

        location / {{
            proxy_pass http://daphne;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_next_upstream error timeout http_502 http_503;
            proxy_connect_timeout 2s;
            # A table's socket is quiet between moves; its heartbeat keeps it well inside this.
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }}
    }}
}}
"""

    def supervisord_text(self) -> str:
        state, logs = self.state, self.logs
        programs = []
        for index, port in enumerate(self.ports):
            environment = (
                f'\nenvironment=METRICS_PORT_OFFSET="{index}"' if self.metrics_port else ""
            )
            programs.append(
                f"""[program:daphne-{port}]
command={self.python} -m daphne -v 0 -b 127.0.0.1 -p {port} cardsite.asgi:application
directory={ROOT}{environment}
autorestart=true
priority=200
startsecs=2
stopsignal=TERM
stopwaitsecs={self.grace + 15}
redirect_stderr=true
stdout_logfile={logs}/daphne-{port}.log
stdout_logfile_maxbytes=50MB
stdout_logfile_backups=5
"""
            )
        names = ",".join(f"daphne-{port}" for port in self.ports)
        return f"""; Written by `python -m cardsite.production`; edits are overwritten on the next start.
[supervisord]
logfile={logs}/supervisord.log
pidfile={state}/supervisord.pid
childlogdir={logs}
directory={ROOT}

[unix_http_server]
file={state}/supervisor.sock
chmod=0700

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[supervisorctl]
serverurl=unix://{state}/supervisor.sock

{chr(10).join(programs)}
[group:daphne]
programs={names}
; nginx (100) starts first and stops last: the daphne processes drain behind it.
priority=200

[program:nginx]
command={self.nginx} -c {self.nginx_conf} -e {logs}/nginx-error.log
autorestart=true
priority=100
startsecs=1
stopsignal=QUIT
redirect_stderr=true
stdout_logfile={logs}/nginx.log
"""

    def write(self) -> None:
        self.logs.mkdir(parents=True, exist_ok=True)
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.state / "nginx" / kind).mkdir(parents=True, exist_ok=True)
        self.nginx_conf.write_text(self.nginx_text())
        self.supervisord_conf.write_text(self.supervisord_text())
        checked = subprocess.run(
            [
                self.nginx,
                "-t",
                "-q",
                "-c",
                str(self.nginx_conf),
                "-e",
                str(self.logs / "nginx-error.log"),
            ],
            capture_output=True,
            text=True,
        )
        if checked.returncode != 0:
            raise StackError(f"nginx refuses its configuration:\n{checked.stderr.strip()}")

    # -- processes ------------------------------------------------------------------------

    def ctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [
                self.python,
                "-m",
                "supervisor.supervisorctl",
                "-c",
                str(self.supervisord_conf),
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=self.grace + 60,
        )
        if check and done.returncode != 0:
            raise StackError(
                f"supervisorctl {' '.join(args)}: {(done.stdout + done.stderr).strip()}"
            )
        return done

    def running(self) -> bool:
        if not (self.state / "supervisor.sock").exists():
            return False
        return self.ctl("pid", check=False).stdout.strip().isdigit()

    def ready(self, port: int) -> bool:
        return _status(f"http://127.0.0.1:{port}/readyz") == 200

    def wait_ready(self, ports: list[int], proxy: bool = True) -> None:
        deadline = time.monotonic() + READY_TIMEOUT
        waiting = list(ports)
        while waiting or proxy:
            waiting = [port for port in waiting if not self.ready(port)]
            if proxy and not waiting:
                proxy = _status(f"https://127.0.0.1:{self.https_port}/healthz") != 200
            if not waiting and not proxy:
                return
            if time.monotonic() > deadline:
                what = [f"daphne on port {p}" for p in waiting] + (["nginx"] if proxy else [])
                raise StackError(
                    f"not ready within {READY_TIMEOUT} s: {', '.join(what)} (logs in {self.logs})"
                )
            time.sleep(0.2)  # polling processes that are starting

    def start(self) -> None:
        if self.running():
            raise StackError("already running: `make production-restart` restarts it.")
        self.write()
        subprocess.run(
            [self.python, "-m", "supervisor.supervisord", "-c", str(self.supervisord_conf)],
            check=True,
            timeout=30,
        )
        self.wait_ready(self.ports)

    def restart(self) -> None:
        if not self.running():
            raise StackError("not running: `make production` starts it.")
        self.write()
        for port in self.ports:
            print(f"restarting daphne on port {port} …", flush=True)
            self.ctl("restart", self.program(port))
            self.wait_ready([port], proxy=False)
        self.ctl("signal", "HUP", "nginx")  # reload nginx's configuration, keep connections
        self.wait_ready([])

    def stop(self) -> None:
        if not self.running():
            print("not running")
            return
        pid = int(self.ctl("pid").stdout)
        # The daphne processes first, each drained (its sockets told 1012 "reconnect"), while
        # nginx still passes their last frames on; then nginx and supervisord. supervisord's
        # own shutdown stopped nginx first, which waited for the open sockets and was killed
        # after 10 s, before the daphne processes were drained at all.
        self.ctl("stop", "daphne:*")
        self.ctl("shutdown")
        deadline = time.monotonic() + self.grace + 60
        while _alive(pid):
            if time.monotonic() > deadline:
                raise StackError(f"supervisord (pid {pid}) still running")
            time.sleep(0.2)  # polling a process that is ending

    def status(self) -> str:
        if not self.running():
            return "not running"
        lines = [self.ctl("status", check=False).stdout.rstrip()]
        for port in self.ports:
            lines.append(f"daphne {port}: {'ready' if self.ready(port) else 'NOT READY'}")
        return "\n".join(lines)


def _status(url: str) -> int | None:
    context = ssl.create_default_context()
    context.check_hostname = False  # our own nginx, by address: the certificate names the host
    context.verify_mode = ssl.CERT_NONE
    try:
        with urllib.request.urlopen(url, timeout=2, context=context) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (urllib.error.URLError, OSError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardsite.production", description=__doc__)
    parser.add_argument("command", choices=["start", "restart", "stop", "status", "config"])
    args = parser.parse_args(argv)
    try:
        stack = Stack.from_environ(starting=args.command in ("start", "restart", "config"))
        if args.command == "config":
            stack.write()
            print(f"{stack.supervisord_conf}\n{stack.nginx_conf}")
        elif args.command == "status":
            print(stack.status())
        else:
            getattr(stack, args.command)()
            if args.command != "stop":
                suffix = "" if stack.https_port == 443 else f":{stack.https_port}"
                host = (os.environ.get("ALLOWED_HOSTS") or "127.0.0.1").split(",")[0]
                print(f"Serving https://{host}{suffix}/ (logs in {stack.logs})")
    except StackError as error:
        print(f"production stack: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
