"""`zerosum serve`: the project's page in the browser, served from this machine."""

from __future__ import annotations

import argparse
import errno
import ipaddress
import socket
import sys
import webbrowser

from zerosum.limits import clipped

LOOPBACK = "127.0.0.1"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Start a web server for the project's page and print its address. It listens on"
        f" {LOOPBACK} (this computer only) unless --host says otherwise, and answers only"
        " requests addressed to it by that address. Ctrl-C stops it."
    )
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    parser.add_argument(
        "--host",
        default=None,
        help=f"the address to listen on (default {LOOPBACK}); any other lets other computers in",
    )
    parser.add_argument("--open", action="store_true", help="open the page in the browser")
    parser.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="GAME",
        help="a game of your own for the Play page, beside the built-in ones: FILE.py:CLASS,"
        " MODULE:CLASS or NAME(OPTIONS), e.g. 'connect4(width=5,height=4)'; repeat for more."
        " The page never loads a game named in a request.",
    )
    parser.add_argument(
        "--network",
        metavar="DIR",
        help="a run of zerosum train: the Play page starts with the game it learned and its"
        " network as the program (the strength 'plays a trained network' with DIR)",
    )
    parser.add_argument(
        "--searches",
        type=int,
        default=None,
        metavar="N",
        help="the program's searches run at once, for all the tabs (default: one a core);"
        " a tab asking for one more waits in line and is told its place",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from zerosum.web.app import create_app

    host = LOOPBACK if args.host is None else args.host
    from zerosum.web.play import network_preset, offered_games
    from zerosum.web.slots import SEARCHES, checked_searches

    searches = SEARCHES if args.searches is None else checked_searches(args.searches)

    offered_games(args.game)  # a game the page cannot play: one line and exit 2, before binding
    if args.network is not None:
        network_preset(args.network)  # no run there: the same, before binding
    listening = bind(host, args.port)
    if args.host is not None and not _loopback(host):  # after binding: a refusal is one line
        print(
            f"zerosum: warning: listening on {host}: whoever can reach it can use the page",
            file=sys.stderr,
        )
    port = listening.getsockname()[1]
    address = f"http://{_url_host(host)}:{port}/"
    app = create_app(own_hosts(host, port), args.game, args.network, searches)
    # log_config=None: uvicorn's own configuration (logging.config.dictConfig) would close the
    # handlers other libraries installed in this process (absl's, which optax brings, closes
    # the stream it holds), and a program calling this command would lose its stderr.
    config = uvicorn.Config(app, log_level="warning", log_config=None)
    print(f"serving the page at {address} (Ctrl-C stops)", flush=True)
    if args.open:
        webbrowser.open(address)
    uvicorn.Server(config).run(sockets=[listening])
    return 0


def bind(host: str, port: int) -> socket.socket:
    """A socket listening on `host` and `port`; ValueError when the port is taken or the
    address is not this computer's (the command's one line and exit 2)."""
    if not 0 <= port <= 65535:
        raise ValueError(f"--port must be from 0 to 65535, not {port}")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listening = socket.socket(family, socket.SOCK_STREAM)
    except OSError as error:
        raise ValueError(f"cannot listen on {host}: {error.strerror or error}") from None
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(128)
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            raise ValueError(
                f"port {port} is in use on {host}: choose another with --port"
            ) from None
        raise ValueError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    except TypeError:  # a NUL in it, or no encoding makes it a host name
        listening.close()
        raise ValueError(
            f"cannot listen on {clipped(host)}: not a host name or an address"
        ) from None
    return listening


def own_hosts(host: str, port: int) -> list[str]:
    """The `Host` headers the server answers: its address, and `localhost` for a loopback one
    (for a wildcard address, 0.0.0.0 or ::, this computer's name and its loopback too)."""
    hosts = [f"{_url_host(host)}:{port}"]
    if _loopback(host) or _wildcard(host):
        hosts += [f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"]
    if _wildcard(host):
        hosts.append(f"{socket.gethostname()}:{port}")
    return list(dict.fromkeys(hosts))


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False
