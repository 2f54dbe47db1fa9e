"""What this process's Daphne listens on, read from its own command line.

A WebSocket scope from Daphne carries no `scheme`, so a socket on a port
where Daphne itself terminates TLS (`-e ssl:PORT:...`) would look like plain
http to the origin check and every browser on the https page would be
refused.  The listening ports are known only from the command line Daphne
was started with (Twisted endpoint strings, and -b/-p for plain TCP), so this
module reads it as Daphne's cli does.  Not with Daphne's own parser: importing
daphne.cli installs Twisted's reactor, which in any other process (tests,
runserver) would pass for Daphne (backend/asgi.py).  The same knowledge tells
the deploy check whether Daphne answers the internet without a proxy.
"""

from __future__ import annotations

import argparse
import functools
import ipaddress
import sys
from dataclasses import dataclass
from pathlib import Path

from daphne.endpoints import build_endpoint_description_strings

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8000  # daphne.cli's

# The options of daphne.cli that choose where it listens, spelled as there.
_PARSER = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
_PARSER.add_argument("-p", "--port", type=int, default=None)
_PARSER.add_argument("-b", "--bind", dest="host", default=None)
_PARSER.add_argument("-u", "--unix-socket", dest="unix_socket", default=None)
_PARSER.add_argument("--fd", type=int, dest="file_descriptor", default=None)
_PARSER.add_argument("-e", "--endpoint", dest="socket_strings", action="append", default=[])


@dataclass(frozen=True)
class Endpoint:
    kind: str  # "tcp", "ssl", "unix", "fd", ... (Twisted's endpoint type)
    port: int | None
    interface: str  # "" when the endpoint listens on every address


def _fields(description: str) -> list[str]:
    """A Twisted endpoint string split at its unescaped colons, escapes undone."""
    fields, current, escaped = [], [], False
    for char in description:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(char)
    fields.append("".join(current))
    return fields


def parse_endpoint(description: str) -> Endpoint:
    """`ssl:8443:privateKey=k.pem`, `tcp:port=8000:interface=127.0.0.1`, ...
    (https://docs.twisted.org/en/stable/core/howto/endpoints.html)."""
    kind, *rest = _fields(description)
    positional = [f for f in rest if "=" not in f]
    named = dict(f.split("=", 1) for f in rest if "=" in f)
    port = named.get("port", positional[0] if positional else None)
    interface = named.get("interface", "")
    try:
        port = int(port) if port is not None else None
    except ValueError:
        port = None
    return Endpoint(kind.lower(), port, interface)


def daphne_argv(argv: list[str]) -> list[str] | None:
    """Daphne's arguments when `argv` is a Daphne command line (`daphne ...`,
    `python -m daphne ...`), else None."""
    if not argv:
        return None
    program = Path(argv[0])
    if program.name == "daphne" or (program.name == "__main__.py" and program.parent.name == "daphne"):
        return argv[1:]
    return None


def endpoints(argv: list[str]) -> list[Endpoint]:
    """Where Daphne started with these arguments listens, as Daphne's cli decides it."""
    args, _unknown = _PARSER.parse_known_args(argv)
    host, port = args.host, args.port
    if not any([host, port is not None, args.unix_socket, args.file_descriptor is not None, args.socket_strings]):
        host, port = DEFAULT_HOST, DEFAULT_PORT
    elif host and port is None:
        port = DEFAULT_PORT
    elif port is not None and not host:
        host = DEFAULT_HOST
    strings = args.socket_strings + build_endpoint_description_strings(
        host=host, port=port, unix_socket=args.unix_socket, file_descriptor=args.file_descriptor)
    return [parse_endpoint(s) for s in strings]


@functools.cache
def own_endpoints() -> tuple[Endpoint, ...]:
    """This process's endpoints; none when it is not Daphne (tests, runserver, manage.py)."""
    argv = daphne_argv(sys.argv)
    if argv is None:
        return ()
    try:
        return tuple(endpoints(argv))
    except (SystemExit, ValueError):  # not a command line Daphne would have started with
        return ()


def tls_ports() -> frozenset[int]:
    """The ports on which this Daphne terminates TLS itself."""
    return frozenset(e.port for e in own_endpoints() if e.kind == "ssl" and e.port is not None)


def is_loopback(interface: str) -> bool:
    if interface.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(interface.strip("[]")).is_loopback
    except ValueError:
        return False  # "" (every address) or a host name
