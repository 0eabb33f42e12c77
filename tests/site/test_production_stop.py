"""`make production-stop` drains the daphne processes before it stops nginx (findings 3.7):
supervisord's own shutdown stopped nginx first, which waited for the open sockets and was
killed after 10 s, and only then were the daphne processes drained."""

import configparser

from cardsite import production


def stack(tmp_path) -> production.Stack:
    return production.Stack(
        state=tmp_path,
        processes=2,
        daphne_port=8001,
        http_port=8080,
        https_port=8443,
        certificate=tmp_path / "c.pem",
        certificate_key=tmp_path / "k.pem",
        metrics_port=None,
        nginx="/usr/sbin/nginx",
        grace=15,
    )


def test_stop_drains_daphne_before_it_stops_nginx(tmp_path, monkeypatch):
    calls = []
    s = stack(tmp_path)

    class Done:
        stdout = "4242"
        returncode = 0

    def ctl(self, *args, check=True):
        calls.append(args)
        return Done()

    monkeypatch.setattr(production.Stack, "running", lambda self: True)
    monkeypatch.setattr(production.Stack, "ctl", ctl)
    monkeypatch.setattr(production, "_alive", lambda pid: False)
    s.stop()
    assert calls == [("pid",), ("stop", "daphne:*"), ("shutdown",)]


def test_supervisord_itself_stops_nginx_last(tmp_path):
    """Whatever stops supervisord (a SIGTERM from the system): lower priorities start first
    and stop last."""
    config = configparser.ConfigParser(interpolation=None, strict=False)
    config.read_string(stack(tmp_path).supervisord_text())
    assert int(config["program:nginx"]["priority"]) < int(config["group:daphne"]["priority"])
