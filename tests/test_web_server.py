"""`dpscale serve` and the page's server: ports, hosts and languages, what HTTP it answers and refuses before the
work (bodies, names, methods, sizes), and requests at once answering as each does alone."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from clihelp import WORKED, _free_port, post, run

from dpscale.errors import DpscaleError
from dpscale.faces.cli import main
from dpscale.faces.i18n import say_error

pytest.importorskip("fastapi")
pytest.importorskip("httpx2")
from fastapi.testclient import TestClient  # noqa: E402

from dpscale.faces.web.app import create_app  # noqa: E402


def test_serve_rejects_a_bad_port(capsys):
    rc, _, err = run(capsys, "serve", "--port", "70000")
    assert (
        rc == 2 and err.strip() == "dpscale serve: error: --port: got '70000'; allowed: a whole number from 1 to 65,535"
    )
    rc, _, err = run(capsys, "serve", "--port", "abc")  # once argparse's 'invalid int value', with no range
    assert (
        rc == 2 and err.strip() == "dpscale serve: error: --port: got 'abc'; allowed: a whole number from 1 to 65,535"
    )
    for host in ("999.1.1.1", "192.0.2.1", "é..x"):  # not an address; not this machine's (TEST-NET-1); no IDNA name
        rc, _, err = run(capsys, "serve", "--host", host, "--port", "8123")
        assert rc == 2 and err.startswith(f"dpscale serve: error: --host: got '{host}'; allowed: an address of this")


def test_serve_restarts_on_a_port_its_last_run_left_in_time_wait(monkeypatch, capsys):
    """A server that closed its connections first leaves them in TIME_WAIT: uvicorn binds there (SO_REUSEADDR), and
    the one-line probe before it refused the port for a minute after a restart."""
    with socket.socket() as old:
        old.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        old.bind(("127.0.0.1", 0))
        old.listen()
        port = old.getsockname()[1]
        peer = socket.create_connection(("127.0.0.1", port))
        conn, _ = old.accept()
        conn.close()  # the server's side closes first: its end waits in TIME_WAIT on the port
        peer.recv(1)
        peer.close()
    started = []
    monkeypatch.setattr("uvicorn.Server.run", lambda self, sockets: started.append(sockets[0].getsockname()[1]))
    rc, _, err = run(capsys, "serve", "--port", str(port))
    assert rc == 0 and started == [port], err


def test_a_second_serve_on_the_port_of_a_running_one_is_one_line_and_no_address(monkeypatch, capsys):
    """Two started at once both passed a probe: the loser printed 'page is at', then uvicorn's English bind error
    beside dpscale's line. The socket is now listening before the address is said, and uvicorn serves that one."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    second = []

    def serving(self, sockets):  # the first server, running: a second one on its port
        assert sockets[0].getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
        second.append(main(["serve", "--port", str(port)]))

    monkeypatch.setattr("uvicorn.Server.run", serving)
    monkeypatch.setattr("uvicorn.run", lambda *a, **kw: pytest.fail("uvicorn bound a port of its own"))
    assert main(["serve", "--port", str(port)]) == 0 and second == [2]
    out, err = capsys.readouterr()
    assert out.count("the page is at") == 1 and err.count("\n") == 1
    assert err.startswith(f"dpscale serve: error: --port: got {port}; allowed: a free port on 127.0.0.1 (")


def test_serve_on_a_taken_port_is_one_line(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        rc, _, err = run(capsys, "serve", "--port", str(port))
    assert rc == 2 and err.count("\n") == 1
    assert err.startswith(f"dpscale serve: error: --port: got {port}; allowed: a free port on 127.0.0.1 (")


@pytest.mark.skipif(not socket.has_ipv6, reason="no IPv6 in this Python")
def test_serve_takes_an_ipv6_loopback_and_brackets_it_in_the_url(monkeypatch, capsys):
    """'--host ::1' was refused ('Address family for hostname not supported'): the probe was an IPv4 socket."""
    started = []
    monkeypatch.setattr("uvicorn.Server.run", lambda self, sockets: started.append(sockets[0].getsockname()[:2]))
    try:
        with socket.socket(socket.AF_INET6) as free:
            free.bind(("::1", 0))
            port = free.getsockname()[1]
    except OSError:  # a kernel without IPv6
        pytest.skip("no IPv6 loopback on this machine")
    rc, out, err = run(capsys, "serve", "--host", "::1", "--port", str(port))
    assert rc == 0 and started == [("::1", port)] and f"http://[::1]:{port}/" in out, err


def test_serve_without_the_web_extra_says_which(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if not installed
    rc, _, err = run(capsys, "serve")
    assert (
        rc == 2
        and err.strip() == "dpscale serve: error: the web page: needs uvicorn; allowed: pip install 'dpscale[web]'"
    )


@pytest.mark.parametrize("body", [b"", b"null", b"[]", b"1", b"{bad"])
def test_a_body_that_is_not_an_object_gets_the_error_line(client, body):
    """FastAPI's own refusals answered {"detail": [...]}, which the page could not show: one "error" line too."""
    r = client.post("/api/calc", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json() == {
        "error": 'dpscale: error: body: allowed: a JSON object {"options": {"flag": "value"}, "lang": "en"}'
    }
    r = client.get("/api/calc")
    assert r.status_code == 405 and r.json()["error"].startswith("dpscale: error: GET /api/calc: Method Not Allowed")


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "dpscale: note: 0.0.0.0 is reachable from other machines; the page has no login and no encryption: "
               "anyone who reaches it can use it (--host 127.0.0.1 keeps it to this machine)"),
        ("es", "dpscale: nota: 0.0.0.0 es accesible desde otras máquinas; la página no tiene inicio de sesión ni "
               "cifrado: quien llegue a ella puede usarla (--host 127.0.0.1 la deja en esta máquina)"),
    ],
)  # fmt: skip
def test_serve_on_every_interface_says_the_page_is_open_to_the_network(monkeypatch, capsys, lang, said):
    """--host 0.0.0.0 opened a page with no login to the whole network and printed only its address; a loopback
    server (the default) says nothing more."""
    monkeypatch.setattr("uvicorn.Server.run", lambda self, sockets: None)
    port = _free_port()
    rc, out, err = run(capsys, "serve", "--host", "0.0.0.0", "--port", str(port), "--lang", lang)
    assert rc == 0 and f"http://0.0.0.0:{port}/" in out and err.strip() == said
    rc, out, err = run(capsys, "serve", "--port", str(_free_port()), "--lang", lang)
    assert rc == 0 and "127.0.0.1" in out and err == ""


def test_serve_speaks_the_language_it_is_given(capsys):
    """`serve` had no --lang (session 12): its refusals and its one line now follow it, and the URL it prints opens
    the page in that language (?lang=es, which the page reads)."""
    rc, _, err = run(capsys, "serve", "--port", "70000", "--lang", "es")
    assert rc == 2 and "--port: se recibió '70000'; se admite: un número entero de 1 a 65.535" in err
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "dpscale", "serve", "--port", str(port), "--lang", "es"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
    try:
        line = proc.stdout.readline()
        assert line.strip() == f"dpscale: la página está en http://127.0.0.1:{port}/?lang=es  (Ctrl-C la detiene)"
        html = ""
        for _ in range(100):  # the bare address opens in that language too (it opened in English)
            try:
                html = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert '<html lang="en" data-lang="es">' in html
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_spanish_locale_says_serve_s_line_in_spanish_but_leaves_the_page_to_each_browser():
    """LANG=es_ES.UTF-8 without --lang: the terminal's line follows the locale, but the page is not marked (it was
    data-lang="es" with ?lang=es, so an English browser — anyone's, on --host 0.0.0.0 — opened it in Spanish: the
    server's locale, not the visitor's)."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    proc = subprocess.Popen([sys.executable, "-m", "dpscale", "serve", "--port", str(port)], text=True,
                            env={**env, "LANG": "es_ES.UTF-8"}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)  # fmt: skip
    try:
        line = proc.stdout.readline()
        assert line.strip() == f"dpscale: la página está en http://127.0.0.1:{port}/  (Ctrl-C la detiene)"
        html = ""
        for _ in range(100):
            try:
                html = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert '<html lang="en">' in html and '<html lang="en" data-lang' not in html
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_english_page_leaves_its_language_to_the_browser(client):
    """Only `serve --lang es` marks the page (data-lang, test above); served in English it is left unmarked, so the
    page's script falls to the browser's own language (es-ES → es) — a data-lang="en" would open a Spanish
    browser's page in English."""
    html = client.get("/").text
    assert '<html lang="en">' in html and 'data-lang="en"' not in html


def test_a_lone_surrogate_is_refused_in_one_line_not_a_500(client):
    """'\\ud800' is valid JSON but no UTF-8: fit's runs field echoed it raw in its error ('--point 1:\\ud800, …'),
    which the JSON answer could not encode (500 Internal Server Error, no "error" line)."""
    for lang in ("en", "es"):
        for point in ("1:\ud800", "\ud800:1", "1:1000 8:\ud800", "1\t\ud800", "1;\ud800"):
            body = json.dumps({"options": {"point": point}, "lang": lang})  # (ASCII: the surrogate as \\ud800)
            r = client.post("/api/fit", content=body, headers={"content-type": "application/json"})
            assert r.status_code == 422, (point, r.text)
            assert r.json()["error"].startswith("dpscale fit: error: --point: ") and "\n" not in r.json()["error"]
    body = '{"options": {"devices": "64\\udcff", "throughput": "2000", "efficiency": "0.9"}, "lang": "es"}'
    r = client.post("/api/calc", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale calc: error: --devices: se recibió '64\\udcff'; se admite: un texto que UTF-8 pueda escribir (sin un "
        "sustituto suelto como \\ud800)"
    )


def test_an_unknown_command_is_not_echoed_raw_in_the_lines_prefix(client):
    """POST /api/a%0Ab answered 'dpscale a\\nb: error: …' (two lines) and a 30,000-letter name came back whole."""
    r = client.post("/api/a%0Ab", json={"lang": "es"})
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale: error: orden: se recibió 'a\\nb'; se admite: calc, predict, fit, batch, pipeline, memory, plan"
    )
    r = client.post("/api/" + "x" * 30_000, json={})
    assert r.status_code == 422 and len(r.json()["error"]) < 400 and r.json()["error"].startswith("dpscale: error: ")
    assert post(client, "measure", {}).json()["error"].startswith("dpscale: error: command: got 'measure'")


def test_the_pages_bootstrap_is_bounded_before_the_work(client, monkeypatch):
    """100,000 resamples (the CLI's most) took 8-14 s and 1.5-2.5 GB a request: four at once held 6 GB, twenty would
    take the server down. The page takes a tenth: refused in one line before any fit, in the page's language."""
    import dpscale.faces.cli.fit as fit_cli

    monkeypatch.setattr(fit_cli, "run", lambda args: pytest.fail("bootstrapped what the page then refused"))
    runs = "1:1000 8:7500 16:14600 32:28000"
    r = post(client, "fit", {"point": runs, "resamples": "100000"})
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale fit: error: --resamples: got '100000'; allowed: at most 10,000 on the page (the command line takes "
        "up to 100,000)"
    )
    r = post(client, "fit", {"point": runs, "resamples": "10000", "at": "1..300+1"}, "es")
    assert r.status_code == 422 and r.json()["error"] == (
        "dpscale fit: error: --resamples: 10.000 remuestreos × 300 tamaños; se admite: como mucho 2.000.000 valores en "
        "la página (la línea de órdenes admite más)"
    )
    monkeypatch.undo()
    r = post(client, "fit", {"point": runs, "resamples": "abc"})  # the command's own refusal, in the command's order
    assert r.status_code == 422 and "--resamples: got 'abc'; allowed: a whole number from 50 to 100,000" in r.text
    assert post(client, "fit", {"point": runs, "resamples": "10000"}).status_code == 200
    assert post(client, "fit", {"point": runs, "at": "1..2000+1"}).status_code == 200  # the page's rows, as they were


def test_head_is_answered_where_get_is(client):
    """HEAD / was 405 Method Not Allowed (allow: GET): every GET resource answers HEAD, headers and no body."""
    for path, kind in (("/", "text/html; charset=utf-8"), ("/api/options", "application/json"),
                       ("/api/labels/es", "application/json")):  # fmt: skip
        r = client.head(path)
        assert r.status_code == 200 and r.headers["content-type"] == kind and r.content == b"", path
        assert int(r.headers["content-length"]) == len(client.get(path).content)
    assert client.head("/api/calc").status_code == 405  # a POST route still is not one


def test_a_server_on_loopback_answers_only_its_own_names():
    """Bound to 127.0.0.1, any Host header was answered: a page elsewhere that points its own name at 127.0.0.1 (DNS
    rebinding) could run commands. serve gives the loopback names; a network address stays open to any name."""
    from dpscale.faces.cli.serve import loopback_hosts

    assert loopback_hosts("127.0.0.1", "127.0.0.1") == ["127.0.0.1", "[::1]", "localhost"]
    assert loopback_hosts("LocalHost", "127.0.0.1") == ["127.0.0.1", "[::1]", "localhost"]
    assert loopback_hosts("::1", "::1") == ["127.0.0.1", "[::1]", "localhost"]
    assert loopback_hosts("127.0.0.2", "127.0.0.2") == ["127.0.0.1", "127.0.0.2", "[::1]", "localhost"]
    assert loopback_hosts("0.0.0.0", "0.0.0.0") is None and loopback_hosts("10.1.2.3", "10.1.2.3") is None
    app = create_app("en", loopback_hosts("127.0.0.1", "127.0.0.1"))
    for name in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "localhost"):
        assert TestClient(app).get("/api/options", headers={"host": name}).status_code == 200, name
    for name in ("evil.example:8000", "evil.example", "127.0.0.1.evil.example"):
        r = TestClient(app).post("/api/calc", json={}, headers={"host": name})
        assert r.status_code == 400, name


def test_a_body_over_the_cap_is_refused_before_it_is_parsed(client):
    """A 1 GB POST was read whole and parsed before the 10,000-character field cap could refuse it."""
    from dpscale.faces.web.app import MAX_BODY_BYTES

    big = '{"options": {"devices": "' + "1" * MAX_BODY_BYTES + '"}}'
    r = client.post("/api/calc", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.json() == {
        "error": "dpscale: error: body: over 1,048,576 bytes; allowed: at most 1,048,576 (a form's fields)"
    }

    def chunks():  # sent without a Content-Length: counted as it arrives
        yield b'{"options": {"devices": "'
        for _ in range(MAX_BODY_BYTES // 65536 + 1):
            yield b"1" * 65536
        yield b'"}}'

    r = client.post("/api/calc", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "1,048,576" in r.json()["error"]
    # under the cap the body reaches the command unchanged: the field cap answers, in its own words
    r = client.post("/api/calc", json={"options": {"devices": "1" * 20_000}})
    assert r.status_code == 422 and "--devices: got '20,000 characters'" in r.json()["error"]
    assert client.post("/api/calc", json={"options": WORKED}).json()["records"]["actual_throughput"] == 115_200


HELD_PAIRS = [
    (("fit", {"point": "1:1000 2:1950 4:3800 8:7000 16:13000", "resamples": "200", "seed": "7"}, "es"),
     ("fit", {"point": "1:900 2:1700 4:3000 8:5200", "resamples": "300", "at": "64"}, "en")),
    (("predict", {"model": "gpt2-xl", "system": "dgx-a100", "devices": "8,64"}, "es"),
     ("calc", {"devices": "8", "throughput": "1000", "actual": "9000"}, "en")),
    (("memory", {"model": "gpt2-xl", "devices": "64", "zero": "3"}, "es"), ("memory", {"params": "7.5e9"}, "en")),
]  # fmt: skip


def _answer(case: tuple[str, dict[str, str], str]) -> str:
    """One request's answer as the API gives it, or its error line, as text to compare."""
    from dpscale.faces.web.app import run_command

    try:
        return json.dumps(run_command(case[0], dict(case[1]), case[2]), ensure_ascii=False, sort_keys=True)
    except DpscaleError as exc:
        return f"error: {say_error(exc, case[2])}"


def test_requests_at_once_answer_as_each_does_alone() -> None:
    """The page runs the CLI's own parsers and commands in FastAPI's thread pool (up to 40 at once), so nothing one
    request sets (a parser's language, args.sink, a note's words, the bootstrap's generator, a catalog entry) may
    reach another. Every command, in both languages, answered and refused, run alone and then all at once on 8
    threads: the same answers, word for word and digit for digit; and the catalogs they read are unchanged."""
    from concurrent.futures import ThreadPoolExecutor

    from dpscale import catalog

    cases = [
        (cmd, opts, lang)
        for cmd, opts in (
            ("calc", {}),
            ("calc", {"devices": "8", "throughput": "1000", "actual": "9000"}),  # E > 1: a note
            ("calc", {"devices": "1..64x2", "throughput": "100", "law": "amdahl", "serial_fraction": "0.05"}),
            ("calc", {"devices": "2.000", "throughput": "5"}),  # refused in Spanish only (dot groups)
            ("predict", {"model": "gpt2-xl", "system": "dgx-a100", "devices": "8,64,512"}),
            ("predict", {"zero": "7"}),
            ("fit", {"point": "1:1000 2:1950 4:3800 8:7000 16:13000", "resamples": "200", "at": "32,64"}),
            ("fit", {"point": "1:1000 2:1950 4:3800 8:7000 16:13000", "resamples": "200", "seed": "7"}),
            ("fit", {"point": "1:abc"}),
            ("batch", {"micro_batch": "32", "devices": "1..64x2", "base_lr": "0.1", "base_batch": "256"}),
            ("pipeline", {"stages": "4", "microbatches": "8", "schedule": "interleaved", "chunks": "2"}),
            ("memory", {"model": "gpt2-xl", "devices": "64", "zero": "3", "gpu": "a100-40gb"}),
            ("memory", {"params": "7.5"}),
            ("plan", {}),
        )
        for lang in ("en", "es")
    ]

    tables = {kind: json.dumps(catalog.table(kind), sort_keys=True) for kind in catalog.KINDS}
    alone = [_answer(case) for case in cases]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns every few bytecodes: a shared value is seen mid-change
    try:
        with ThreadPoolExecutor(8) as pool:
            together = list(pool.map(_answer, cases * 4))
    finally:
        sys.setswitchinterval(interval)
    assert together == alone * 4
    assert {kind: json.dumps(catalog.table(kind), sort_keys=True) for kind in catalog.KINDS} == tables
    # (what was compared is the real answers: the worked example's 115,200 samples/s, Spanish where asked)
    assert json.loads(alone[0])["records"]["actual_throughput"] == 115200
    assert json.loads(alone[1])["table"]["rows"][0][0] != json.loads(alone[0])["table"]["rows"][0][0]
    assert alone[7].startswith("error: --devices: se recibió '2.000'") and alone[6].startswith("error: inputs")
    fits = [json.loads(alone[i])["report"] for i in (12, 13, 14, 15)]  # one seed: one bootstrap, in either language
    assert fits[0] == fits[1] and fits[2] == fits[3] and fits[0]["parameters"] != fits[2]["parameters"]


@pytest.mark.parametrize("a, b", HELD_PAIRS, ids=[a[0] for a, _ in HELD_PAIRS])
@pytest.mark.parametrize("pause", ["parsed", "computed"])
def test_a_request_held_midway_while_another_runs_whole_is_unchanged(monkeypatch, pause: str, a, b) -> None:
    """The interleaving the thread pool may make, made on purpose: request A (Spanish) is held after its options are
    parsed, or after its command has handed over its records, while request B (English, other numbers) runs from
    start to end; then A finishes. Whatever one request left in a shared place (a parser's language, a module-level
    answer, the bootstrap's generator) would show in A's answer or B's."""
    import threading

    from dpscale.faces.web import app as web

    alone = _answer(a), _answer(b)
    # each runs whole: a refusal never reaches the sink, nor a shared place past the parser (memory's B was
    # '--params: got '7.5'', and a module-level sink shared by every request passed: review LZ)
    assert not any(x.startswith("error: ") for x in alone), alone
    held, released, got = threading.Event(), threading.Event(), {}

    def hold() -> None:
        if threading.current_thread().name == "A":
            held.set()
            assert released.wait(30)

    if pause == "parsed":
        parse = web.WebParser.parse_args
        monkeypatch.setattr(web.WebParser, "parse_args", lambda self, *x, **k: (parse(self, *x, **k), hold())[0])
    else:  # the command has run, and handed its records to the sink: not yet read back, nor rendered
        from importlib import import_module

        command = import_module(f"dpscale.faces.cli.{a[0]}")
        run = command.run
        monkeypatch.setattr(command, "run", lambda args: (run(args), hold())[0])
    first = threading.Thread(target=lambda: got.update(a=_answer(a)), name="A")
    first.start()
    assert held.wait(30)
    got["b"] = _answer(b)  # B whole, while A waits midway
    released.set()
    first.join(30)
    assert (got["a"], got["b"]) == alone


PREFIX = "/tools/dpscale/"  # where a reverse proxy, or an app that mounts it, puts the page


def _under_prefix() -> Any:
    """The page's app mounted under PREFIX, as a proxy that serves it under a path hands it its requests."""
    from starlette.applications import Starlette
    from starlette.routing import Mount

    return Starlette(routes=[Mount(PREFIX.rstrip("/"), app=create_app())])


def test_the_pages_requests_reach_its_api_when_it_is_served_under_a_path(client):
    """The page fetched /api/labels/…, /api/options and /api/COMMAND from the host's root: served under a path
    (https://host/tools/dpscale/ behind a proxy) its words, menus and answers were the host's 404s and it said 'no
    answer from the server'. Each address the page's script fetches, under the page's own path (API: that path as a
    folder, the server showing the page only at its root), answers there what the API answers at the root."""
    import re

    page = client.get("/").text
    fetched = [m[2] for m in re.finditer(r"fetch\(([\"`])(.*?)\1", page)]
    commands = re.findall(r'<form [^>]*data-command="(\w+)"', page)
    assert len(fetched) == 3 and len(commands) == 7 and all(f.startswith("${API}") for f in fetched)
    assert 'const API = location.pathname.replace(/\\/*$/, "/") + "api/";' in page
    proxied = TestClient(_under_prefix())
    assert proxied.get(PREFIX).text == page
    for template in fetched:
        for lang in ("en", "es"):
            for command in commands if "${form.dataset.command}" in template else commands[:1]:
                url = template.replace("${lang}", lang).replace("${form.dataset.command}", command)
                path = url.replace("${API}", PREFIX + "api/")
                root = "/" + path.removeprefix(PREFIX)
                if "${form.dataset.command}" in template:
                    body = {"options": {}, "lang": lang}
                    got, want = proxied.post(path, json=body), client.post(root, json=body)
                else:
                    got, want = proxied.get(path), client.get(root)
                assert path.startswith(PREFIX) and (got.status_code, got.json()) == (want.status_code, want.json())
                assert want.status_code == 200 or "error" in want.json()


@contextmanager
def _uvicorn(app: Any) -> Iterator[int]:
    """An ASGI app served by uvicorn on a free loopback port in a thread while the block runs: the port."""
    import threading

    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.mark.slow
def test_the_page_works_in_a_browser_under_a_path() -> None:
    """The page at http://127.0.0.1:PORT/tools/dpscale/ in Chromium: its words and the worked example come, then a
    form's answer (each went to the host's /api/ and the page said 'no answer from the server')."""
    from clihelp import chromium

    with _uvicorn(_under_prefix()) as port, chromium() as (browser, expect):
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}{PREFIX}?lang=es")
        expect(page.locator("#result")).to_contain_text("115.200 muestras/s")
        expect(page.locator("#tab-calc")).to_have_text("Calculadora")
        page.fill("#calc input[name=devices]", "0")
        page.click("#calc .run")
        expect(page.locator("#error")).to_contain_text("--devices (Dispositivos d): se recibió '0'")


def _prefix_taken_off() -> Any:
    """The page's app behind a proxy that takes its prefix off the path (Traefik's StripPrefix, Caddy's handle_path):
    /tools/dpscale and /tools/dpscale/ both reach the page at /, so the browser shows it at either address."""
    app, prefix = create_app(), PREFIX.rstrip("/")

    async def proxy(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith(prefix):
            scope = {**scope, "path": scope["path"].removeprefix(prefix) or "/", "raw_path": None}
        await app(scope, receive, send)

    return proxy


@pytest.mark.slow
def test_the_page_works_behind_a_proxy_at_its_path_without_the_trailing_slash() -> None:
    """At http://HOST/tools/dpscale behind a proxy that takes the prefix off, the page came but its relative
    'api/…' resolved to /tools/api/…: every request a 404 and the page said 'the server answered 404 without a
    result'. Its requests go under the page's own path, with or without the slash."""
    from clihelp import chromium

    with _uvicorn(_prefix_taken_off()) as port, chromium() as (browser, expect):
        for address in (PREFIX.rstrip("/") + "?lang=es", PREFIX):
            page = browser.new_page()
            asked: list[str] = []
            page.on("request", lambda r, asked=asked: asked.append(r.url))
            page.goto(f"http://127.0.0.1:{port}{address}")
            expect(page.locator("#result")).to_contain_text("115.200" if "es" in address else "115,200")
            api = [u.split(str(port), 1)[1] for u in asked if "/api/" in u]
            assert api and all(u.startswith(PREFIX + "api/") for u in api), api


@pytest.mark.parametrize(
    "body",
    [
        b'{"options": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b'{"options": {"devices": "\xff"}}',
    ],
    ids=["nested-100000-deep", "not-utf8"],
)
def test_a_body_its_json_reader_fails_on_is_refused_as_any_unreadable_body(client, body):
    """Arrays nested past Python's JSON parser's depth, or bytes that are not UTF-8, were FastAPI's 400 'There was
    an error parsing the body; allowed: POST to /api/COMMAND, …' (the request was one), in English on a Spanish page;
    a body that is not JSON at all ('{bad') got the body's own line, 422, in Accept-Language's language."""
    for lang in ("en", "es"):
        headers = {"content-type": "application/json", "accept-language": lang}
        got = client.post("/api/calc", content=body, headers=headers)
        want = client.post("/api/calc", content=b"{bad", headers=headers)
        assert (got.status_code, got.json()) == (want.status_code, want.json())
        assert got.status_code == 422 and ("cuerpo: se admite" if lang == "es" else "body: allowed") in got.text


@pytest.mark.parametrize("kind", ["application/x-www-form-urlencoded", "text/plain; charset=utf-8", None])
def test_a_json_object_sent_without_a_json_type_is_told_the_type(client, kind):
    """FastAPI reads a body as JSON only under a JSON content type: `curl -d '{"options": …}'` (form-encoded), urllib's
    default and requests' data= (none) sent the very object the refusal asked for ('body: allowed: a JSON object
    {"options": …}'). The line names the header; the same bytes as application/json are answered."""
    body = json.dumps({"options": {"devices": "64", "throughput": "2000", "efficiency": "0.9"}, "lang": "es"})
    for lang, said in (("en", "got"), ("es", "se recibió")):
        headers = {"accept-language": lang} | ({"content-type": kind} if kind else {})
        r = client.post("/api/calc", content=body, headers=headers)
        got = repr(kind.split(";")[0] if kind else "")
        assert r.status_code == 422 and r.json()["error"].startswith(f"dpscale: error: content-type: {said} {got};")
        assert "application/json" in r.json()["error"]
    r = client.post("/api/calc", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.json()["records"]["actual_throughput"] == 115_200
    # no body at all is still the body's line, whatever the type
    r = client.post("/api/calc", headers={"content-type": "text/plain"})
    assert r.status_code == 422 and "body: allowed: a JSON object" in r.json()["error"]


def test_a_body_read_as_json_without_a_type_is_told_the_body_not_the_type():
    """FastAPI before 0.132 (pyproject took 0.110 then) reads a body sent with no content type as JSON: '[1]' sent so
    was told "content-type: got ''; allowed: application/json (the body is read as JSON only under it)" — it had
    been read as JSON. The line says what FastAPI did with the body, not what the headers look like: here the
    body's line; the app's routes made as those versions make them (strict_content_type off)."""
    from fastapi.routing import APIRoute, request_response

    app = create_app()
    for route in app.router.routes:
        if isinstance(route, APIRoute):
            route.strict_content_type = False
            route.app = request_response(route.get_route_handler())
    lenient = TestClient(app)
    r = lenient.post("/api/calc", content=b"[1]", headers={"accept-language": "es"})
    assert (r.status_code, r.json()["error"]) == (422, "dpscale: error: cuerpo: se admite: un objeto JSON "
                                                       '{"options": {"flag": "valor"}, "lang": "es"}')  # fmt: skip
    r = lenient.post("/api/calc", content=b'{"options": {"devices": "64", "throughput": "2000", "efficiency": "0.9"}}')
    assert r.status_code == 200 and r.json()["records"]["actual_throughput"] == 115_200
    # an empty chunked body under a form type is no body: the body's line
    r = TestClient(create_app()).post(
        "/api/calc", content=iter([b""]), headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert r.status_code == 422 and "body: allowed: a JSON object" in r.json()["error"]


def test_every_answer_says_nosniff_and_the_page_runs_only_its_own_script():
    """No answer carried X-Content-Type-Options or a Content-Security-Policy: an error that echoes what was sent
    ('got <img …>') relied on its JSON type alone, and markup that ever reached the page's innerHTML (its menus, its
    chart) could run a script of its own. Every answer says nosniff (refusals before the app too: a foreign Host, a
    body over the cap); the page's policy lets run only the page's own inline script and style, by their SHA-256."""
    import base64
    import hashlib
    import re

    from dpscale.faces.web.app import MAX_BODY_BYTES

    def sha(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    c = TestClient(create_app("es", ["127.0.0.1"]), base_url="http://127.0.0.1")
    page = c.get("/")
    policy = dict(p.strip().split(" ", 1) for p in page.headers["content-security-policy"].split(";"))
    scripts = re.findall(r"<script>(.*?)</script>", page.text, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page.text, re.S)
    assert len(scripts) == 1 and len(styles) == 1  # the page's own (its fallback lines are data, run by none)
    assert policy["script-src"] == sha(scripts[0]) and policy["style-src"] == sha(styles[0])
    assert policy["default-src"] == "'none'" and policy["connect-src"] == "'self'"
    refused = [
        c.post("/api/calc", json={"options": {"devices": "<img src=x onerror=alert(1)>"}}),
        c.get("/<img src=x onerror=alert(1)>"),
        c.get("/api/options", headers={"host": "evil.example"}),
        c.post("/api/calc", content=b"1" * (MAX_BODY_BYTES + 1), headers={"content-type": "application/json"}),
    ]
    assert [r.status_code for r in refused] == [422, 404, 400, 413]
    for r in (page, c.get("/api/options"), c.get("/api/labels/es"), *refused):
        assert r.headers["x-content-type-options"] == "nosniff", r.url
        assert r.headers["content-security-policy"] == page.headers["content-security-policy"], r.url


def test_the_page_s_policy_closes_what_the_page_never_uses():
    """Beyond its own script and style the page loads nothing but its blank icon (<link rel="icon" href="data:,">)
    and sends nothing but its own fetches: its seven forms are read by its script (no action: form-action 'none'),
    it has no <base> (base-uri 'none': injected markup cannot point its relative /api/ fetches elsewhere) and no
    image but that data: icon (img-src data:). Every directive is one of these, none wider."""
    import re

    c = TestClient(create_app("en"))
    page = c.get("/")
    policy = dict(p.strip().split(" ", 1) for p in page.headers["content-security-policy"].split(";"))
    html = page.text
    assert '<link rel="icon" href="data:,">' in html and not re.search(r"<base\b|<img\b|\baction=", html)
    assert sorted(policy) == sorted(["default-src", "script-src", "style-src", "connect-src", "img-src",
                                     "base-uri", "form-action"])  # fmt: skip
    assert (policy["img-src"], policy["base-uri"], policy["form-action"]) == ("data:", "'none'", "'none'")


def test_fits_run_two_at_a_time_and_a_calc_is_answered_while_more_wait(monkeypatch) -> None:
    """Every request ran in FastAPI's thread pool, 40 at once: a fit at the page's caps (199 runs, 10,000 resamples)
    takes about 300 MB and 3 s, so 12 posted at once took the server to 2.9 GB (1.8 GB kept after), and behind 50
    fits a calc waited 36 s for a thread. Fits now run MAX_PAGE_FITS at a time, waiting without a thread, and the
    other commands keep theirs: five fits posted at once, each held inside the command until released — two are
    inside, a calc is answered meanwhile, and all five then answer as one does alone."""
    import threading

    from dpscale.faces.cli import fit
    from dpscale.faces.web.app import MAX_PAGE_FITS

    assert MAX_PAGE_FITS == 2
    body = {"options": {"point": "1:1000 2:1950 4:3800 8:7000 16:13000", "resamples": "200", "seed": "7"}}
    inside, peak, lock, release = [0], [0], threading.Lock(), threading.Event()
    run = fit.run

    def held(args: Any) -> Any:
        with lock:
            inside[0] += 1
            peak[0] = max(peak[0], inside[0])
        try:
            assert release.wait(60)
            return run(args)
        finally:
            with lock:
                inside[0] -= 1

    arrived = [0]
    app = create_app()

    async def counted(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/api/fit":
            arrived[0] += 1
        await app(scope, receive, send)

    with TestClient(counted) as c:
        alone = c.post("/api/fit", json=body).json()
        monkeypatch.setattr(fit, "run", held)
        answers: list[Any] = []
        posts = [threading.Thread(target=lambda: answers.append(c.post("/api/fit", json=body))) for _ in range(5)]
        for t in posts:
            t.start()
        deadline = time.monotonic() + 60
        while (arrived[0] < 6 or inside[0] < MAX_PAGE_FITS) and time.monotonic() < deadline:
            time.sleep(0.01)
        r = c.post("/api/calc", json={"options": WORKED})  # answered while the fits are held
        held_then = inside[0]
        release.set()
        for t in posts:
            t.join(60)
    assert r.status_code == 200 and r.json()["records"]["actual_throughput"] == 115_200
    assert (held_then, peak[0]) == (2, 2)
    assert [a.status_code for a in answers] == [200] * 5
    assert all(a.json() == alone for a in answers)
    # (the real fit: the all-reduce law, extrapolated to 32 and 64 devices, 49,582/s at 64)
    assert alone["report"]["law"] == "allreduce" and [r["devices"] for r in alone["records"]][-2:] == [32, 64]
    assert alone["records"][-1]["throughput"] == pytest.approx(49581.501, abs=1e-3)


def test_the_server_serves_no_schema_it_does_not_say(client, recwarn):
    """GET /openapi.json answered FastAPI's schema (docs_url and redoc_url were off, its URL was not), a route the
    refusals' list (POST to /api/COMMAND, GET / or /api/labels/LANG or /api/options) and README never name, and its
    first request wrote three 'Duplicate Operation ID' UserWarnings (the HEAD routes) to the server's log. It is the
    404 any unserved path gets."""
    r = client.get("/openapi.json")
    assert (r.status_code, r.json()) == (404, {
        "error": "dpscale: error: GET /openapi.json: Not Found; allowed: POST to /api/COMMAND, GET / or "
                 "/api/labels/LANG or /api/options"})  # fmt: skip
    assert [str(w.message) for w in recwarn if "Operation ID" in str(w.message)] == []


@pytest.mark.parametrize("lang, said", [
    ("en", "dpscale: error: host: got 'evil.example:8000'; allowed: this machine's loopback names (`serve --host` "
           "sets the address): 127.0.0.1, [::1], localhost"),
    ("es", "dpscale: error: host: se recibió 'evil.example:8000'; se admite: los nombres de bucle local de esta "
           "máquina (`serve --host` fija la dirección): 127.0.0.1, [::1], localhost"),
])  # fmt: skip
def test_a_foreign_host_is_refused_in_the_api_s_line_in_the_asked_language(lang, said):
    """On loopback a request for another name (DNS rebinding, a proxy that passes its own Host) got starlette's
    plain-text 'Invalid host header': not the {"error": "dpscale: error: …"} every other refusal is, no name it
    would answer, English on the Spanish page. Still 400 and still refused, the page and the API alike."""
    from dpscale.faces.cli.serve import loopback_hosts

    c = TestClient(create_app("en", loopback_hosts("127.0.0.1", "127.0.0.1")))
    for r in (c.get("/", headers={"host": "evil.example:8000", "accept-language": lang}),
              c.post("/api/calc", json={"options": WORKED}, headers={"host": "evil.example:8000",
                                                                     "accept-language": lang})):  # fmt: skip
        assert (r.status_code, r.json()) == (400, {"error": said})
        assert r.headers["x-content-type-options"] == "nosniff"
    ok = c.post("/api/calc", json={"options": WORKED}, headers={"host": "localhost:8000"})
    assert ok.json()["records"]["actual_throughput"] == 115_200


def test_a_fit_whose_client_hung_up_while_it_waited_is_not_run(monkeypatch) -> None:
    """Fits wait their turn (MAX_PAGE_FITS at once), but one whose client had gone ran anyway when its turn came: a
    live server given 10 fits whose clients hung up at once ran all 10, two at a time, and 2 fits posted next waited
    behind them — 12.9 s where 2 alone take 2.2 (review IQ). A fit's turn now first asks whether its client is still
    there: two fits held inside, a third posted whose client then hangs up — the held two answer, the third is not
    run, and the limiter is free for the next."""
    import threading

    import anyio

    from dpscale.faces.cli import fit
    from dpscale.faces.web.app import MAX_PAGE_FITS, fit_limiter

    assert MAX_PAGE_FITS == 2
    body = json.dumps({"options": {"point": "1:1000 2:1950 4:3800 8:7000 16:13000", "resamples": "200", "seed": "7"}})
    ran, inside, lock, release = [0], [0], threading.Lock(), threading.Event()
    real = fit.run

    def held(args: Any) -> Any:
        with lock:
            ran[0] += 1
            inside[0] += 1
        try:
            assert release.wait(60)
            return real(args)
        finally:
            with lock:
                inside[0] -= 1

    monkeypatch.setattr(fit, "run", held)
    app = create_app()

    async def post_fit(answers: list[Any], hangs_up: bool = False) -> None:
        sent = [False]

        async def receive() -> dict[str, Any]:
            if not sent[0]:
                sent[0] = True
                return {"type": "http.request", "body": body.encode(), "more_body": False}
            if hangs_up:
                return {"type": "http.disconnect"}  # (as uvicorn answers once the client has gone)
            await anyio.sleep_forever()
            raise AssertionError

        async def send(message: dict[str, Any]) -> None:
            answers.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": "/api/fit", "raw_path": b"/api/fit", "query_string": b"",
                 "root_path": "", "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")],
                 "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 8000)}  # fmt: skip
        await app(scope, receive, send)

    def status(answers: list[Any]) -> int:
        return next(m["status"] for m in answers if m["type"] == "http.response.start")

    def answer(answers: list[Any]) -> Any:
        return json.loads(b"".join(m.get("body", b"") for m in answers if m["type"] == "http.response.body"))

    stayed: list[list[Any]] = [[], [], []]
    gone: list[Any] = []

    async def main() -> tuple[int, int, int]:
        async with anyio.create_task_group() as tg:
            tg.start_soon(post_fit, stayed[0])
            tg.start_soon(post_fit, stayed[1])
            with anyio.fail_after(60):
                while inside[0] < MAX_PAGE_FITS:
                    await anyio.sleep(0.01)
                tg.start_soon(post_fit, gone, True)
                while fit_limiter().statistics().tasks_waiting < 1:
                    await anyio.sleep(0.01)
            release.set()
        ran_then = ran[0]
        await post_fit(stayed[2])  # the next fit runs: the gone one's turn was given back
        return ran_then, ran[0], fit_limiter().borrowed_tokens

    assert anyio.run(main) == (2, 3, 0)
    assert [status(a) for a in stayed] == [200, 200, 200]
    assert answer(stayed[0]) == answer(stayed[1]) == answer(stayed[2])
    assert answer(stayed[0])["records"][-1]["devices"] == 64 and status(gone) == 499
