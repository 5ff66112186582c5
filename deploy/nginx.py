"""Write the nginx configuration for N app processes (``deploy/nginx.conf`` is its output for three).

    python deploy/nginx.py 8501 8502 8503 [--listen 80] [--host 127.0.0.1] > deploy/nginx.conf

Why a generator: sticky sessions in open-source nginx need one ``upstream`` block and two ``map`` lines per
app process (see :data:`TEMPLATE`'s comments), which are easy to get wrong by hand.  The tests that start a
real nginx write their configuration with the same function (tests/classroom/servers.py), and a test checks
that ``deploy/nginx.conf`` is this function's output.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

__all__ = ["TEMPLATE", "route_name", "config"]

TEMPLATE = """\
# NDCG Lab: several app processes behind Debian's nginx, one PostgreSQL (README, "Several app servers").
# Written by deploy/nginx.py ({ports}); edit the ports there and write this file again:
#   python deploy/nginx.py {args} > deploy/nginx.conf
#
# Every app process runs with the same database and trusts this proxy's address header:
#   NDCG_LAB_DB_URL=postgresql://lab@db/lab NDCG_LAB_TRUSTED_PROXIES=127.0.0.1 \\
#     streamlit run app.py --server.port {first} --server.address {host} --server.headless true
# (and each other port likewise), then:  nginx -c /path/to/this/nginx.conf
#
# Streamlit keeps a browser tab's session in the process that holds its websocket, and serves that tab's
# uploads and files (the QR image, the CSV download) from the same process, so a browser must keep reaching
# one process: sticky sessions.  Open-source nginx has no "sticky cookie"; this file does it by hand:
# * the route cookie names the process that served the browser's last request (nginx sets it on every
#   response from $upstream_addr, so it follows a failover);
# * each name has an upstream block of its own: that process first, the others as backups.  When a process
#   dies, its browsers' requests go to a backup, the answers move their cookie there, and they stay there
#   when the dead process comes back (their sessions, uploads and downloads live where they are now);
# * only the names below are honoured: any other cookie value (forged, or from an older configuration) is
#   ignored and the browser is sent to any live process, like a new one.

events {{
    worker_connections 4096;
}}

http {{
    server_tokens off;  # no nginx version in headers and error pages

    # The route cookie a browser sends -> the upstream block that serves it (unknown values: any process).
    map $cookie_ndcglab_route $ndcglab_pool {{
        default ndcg_lab;
{pool_map}
    }}

    # The process that answered (the last address nginx tried) -> the route cookie to send back.
    map $upstream_addr $ndcglab_served {{
        default "";
{served_map}
    }}

    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ""      close;
    }}

    # A browser without a (valid) route cookie: any live process.
    upstream ndcg_lab {{
{all_servers}
        keepalive 32;
    }}
{pinned}
    server {{
        listen {listen};
        client_max_body_size 100m;  # the app's upload cap (.streamlit/config.toml)

        # Streamlit's process metrics are for whoever runs the app, not for visitors.
        location = /_stcore/metrics {{
            return 404;
        }}

        location / {{
            proxy_pass http://$ndcglab_pool;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            # Appends the address nginx saw; the app believes it because it trusts this proxy's address
            # (NDCG_LAB_TRUSTED_PROXIES=127.0.0.1) and walks the header from the right.
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout 1h;  # a websocket stays open for the whole lecture
            proxy_send_timeout 1h;
            proxy_buffering off;
            proxy_next_upstream error timeout http_502 http_503;
            add_header Set-Cookie "ndcglab_route=$ndcglab_served; Path=/; Max-Age=86400; SameSite=Lax; HttpOnly" always;
            # Security headers: no address (a teacher's link) leaves in a Referer, no framing by other sites,
            # no content-type guessing.
            add_header Referrer-Policy "no-referrer" always;
            add_header X-Frame-Options "SAMEORIGIN" always;
            add_header Content-Security-Policy "frame-ancestors 'self'" always;
            add_header X-Content-Type-Options "nosniff" always;
        }}
    }}
}}
"""

_PINNED = """
    upstream {name} {{
{servers}
        keepalive 8;
    }}
"""


def route_name(port: int) -> str:
    """The route cookie value (and upstream block suffix) for the process on ``port``.

    >>> route_name(8501)
    's8501'
    """
    return f"s{int(port)}"


def config(ports: Sequence[int], *, listen: str = "80", host: str = "127.0.0.1") -> str:
    """nginx.conf for app processes on ``host`` at ``ports``, listening on ``listen``.

    >>> text = config([8501, 8502], listen="8080")
    >>> "s8502   ndcg_lab_s8502;" in text and "server 127.0.0.1:8501 backup;" in text
    True
    """
    ports = [int(p) for p in ports]
    if not ports or len(set(ports)) != len(ports) or not all(0 < p < 65536 for p in ports):
        raise ValueError(f"ports must be distinct TCP ports, got {ports[:10]}")
    if not re.fullmatch(r"[0-9A-Za-z.:\[\]-]{1,100}", host) or not re.fullmatch(r"[0-9A-Za-z.:\[\] ]{1,100}", listen):
        raise ValueError(f"host and listen must be an address and a port, got {host[:40]!r}, {listen[:40]!r}")
    escaped = re.escape(host)
    pool_map = "\n".join(f"        {route_name(p):<7} ndcg_lab_{route_name(p)};" for p in ports)
    served_map = "\n".join(f'        "~(^|, ){escaped}:{p}$" {route_name(p)};' for p in ports)
    all_servers = "\n".join(f"        server {host}:{p} max_fails=1 fail_timeout=5s;" for p in ports)
    pinned = ""
    for i, p in enumerate(ports):
        others = ports[i + 1:] + ports[:i]  # each process's browsers fall back on a different one first
        servers = [f"        server {host}:{p} max_fails=1 fail_timeout=5s;"]
        servers += [f"        server {host}:{o} backup;" for o in others]
        pinned += _PINNED.format(name=f"ndcg_lab_{route_name(p)}", servers="\n".join(servers))
    args = " ".join(map(str, ports)) + ("" if listen == "80" else f" --listen {listen}") + (
        "" if host == "127.0.0.1" else f" --host {host}")
    return TEMPLATE.format(ports=", ".join(map(str, ports)), args=args, first=ports[0],
                           host=host, pool_map=pool_map, served_map=served_map, all_servers=all_servers,
                           pinned=pinned, listen=listen)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ports", nargs="+", type=int, help="the app processes' ports")
    parser.add_argument("--listen", default="80", help="what nginx listens on (default 80)")
    parser.add_argument("--host", default="127.0.0.1", help="the app processes' address (default 127.0.0.1)")
    args = parser.parse_args(argv)
    sys.stdout.write(config(args.ports, listen=args.listen, host=args.host))


if __name__ == "__main__":
    main()
