"""`dpscale serve`: the web page on a local port (needs the `web` extra: fastapi, uvicorn)."""

from __future__ import annotations

import argparse

from dpscale.errors import DpscaleError, require

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class _Typed(argparse.Action):
    """--lang as typed is the page's language too (page_lang); untyped, the locale's says only the terminal's line,
    and each visitor's browser picks the page's (a server's Spanish locale opened an English browser's page in
    Spanish, and on --host 0.0.0.0 everyone's)."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: Any = None) -> None:
        namespace.lang = namespace.page_lang = values


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", default="8000", help="port (default 8000)")
    from dpscale.faces.locale import LANGS, env_lang, lang_named

    p.add_argument(
        "--lang",
        choices=LANGS,
        type=lang_named,
        default=env_lang(),
        action=_Typed,
        help="the page's first language (the page has a menu); default: each browser's own",
    )
    p.set_defaults(page_lang=None)


def run(args: argparse.Namespace) -> int:
    from dpscale.faces.cli.common import whole

    args.port = whole(args.port, "--port", lo=1, hi=65535)
    uvicorn = require("uvicorn", "web", "the web page")
    require("fastapi", "web", "the web page")
    import errno
    import socket
    import sys

    from dpscale.faces.web.app import create_app

    v6 = ":" in args.host  # '::1': an IPv4 probe refused it as 'Address family for hostname not supported'
    # The page's socket, bound and listening here and handed to uvicorn: a taken port is one line before uvicorn,
    # and two servers started at once no longer both pass a probe (the loser printed 'page is at' and uvicorn's
    # English bind error beside dpscale's line)
    sock = socket.socket(socket.AF_INET6 if v6 else socket.AF_INET)
    try:
        # as uvicorn binds: a port whose last server has gone (its closed connections in TIME_WAIT) is free, one
        # with a listener is not (without this a restart on the same port was refused for a minute)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((args.host, args.port))
            sock.listen(2048)  # (uvicorn's backlog) listening at once: another bind to this port now fails
        except (OSError, UnicodeError, TypeError) as exc:  # socket.gaierror (an unknown name) is an OSError too
            why = getattr(exc, "strerror", None) or str(exc)  # TypeError: a name IDNA cannot encode ('é..x')
            # EINVAL: an address bind cannot take (a link-local fe80::1 with no interface named), not the port
            if isinstance(exc, (socket.gaierror, UnicodeError, TypeError)) or exc.errno in (
                errno.EADDRNOTAVAIL,
                errno.EINVAL,
            ):
                raise DpscaleError(f"--host: got {args.host!r}; allowed: an address of this machine ({why})") from None
            raise DpscaleError(
                f"--port: got {args.port}; allowed: a free port on {args.host} ({exc.strerror})"
            ) from None

        from dpscale.faces.i18n import label

        host = f"[{args.host}]" if v6 else args.host  # http://[::1]:8000/
        page = args.page_lang or "en"  # (create_app marks only a language other than English: the browser's, else)
        url = f"http://{host}:{args.port}/" + ("" if page == "en" else f"?lang={page}")  # the page reads it
        print(label("serve_at", args.lang).format(url=url), flush=True)  # (the locale's, where --lang is not typed)
        hosts = loopback_hosts(args.host, sock.getsockname()[0])
        if hosts is None:  # (--host 0.0.0.0, a LAN address: the page was opened to the network without a word)
            print(label("serve_open", args.lang).format(host=args.host), file=sys.stderr, flush=True)
        app = create_app(page, hosts)
        config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    return 0


def loopback_hosts(host: str, bound: str) -> list[str] | None:
    """The Host headers a server bound to this machine's loopback answers (None: any, where it was bound to a
    network address its users reach by their own names). A page elsewhere that re-points its own name at
    127.0.0.1 (DNS rebinding) reached the API with its own name as the host."""
    import ipaddress

    if not ipaddress.ip_address(bound.split("%")[0]).is_loopback:
        return None
    named = {host.lower(), bound, "localhost", "127.0.0.1", "::1"}
    return sorted(f"[{h}]" if ":" in h else h for h in named)
