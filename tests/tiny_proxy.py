"""A tiny authenticating reverse proxy for the login tests (run as a script).

``python tiny_proxy.py LISTEN_PORT UPSTREAM_PORT SOURCE_ADDRESS TOKEN=USER ...`` listens on
127.0.0.1:LISTEN_PORT and forwards every request to 127.0.0.1:UPSTREAM_PORT from
SOURCE_ADDRESS (e.g. 127.0.0.2, so the upstream sees the proxy's own address). Like a
real authenticating proxy it drops whatever X-Forwarded-User / X-Forwarded-For the client
sent, sets X-Forwarded-User when the client's ``Proxy-Authorization`` token is one it
knows, and appends the client's address to X-Forwarded-For.
"""

from __future__ import annotations

import http.client
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "x-forwarded-user",
    "x-forwarded-for",
}


def main() -> None:
    listen, upstream, source = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    users = dict(arg.split("=", 1) for arg in sys.argv[4:])

    class Handler(BaseHTTPRequestHandler):
        def forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            user = users.get(self.headers.get("Proxy-Authorization", ""))
            if user:
                headers["X-Forwarded-User"] = user
            headers["X-Forwarded-For"] = self.client_address[0]
            conn = http.client.HTTPConnection(
                "127.0.0.1", upstream, timeout=30, source_address=(source, 0)
            )
            conn.request(self.command, self.path, body=body, headers=headers)
            answer = conn.getresponse()
            data = answer.read()
            self.send_response(answer.status)
            for key, value in answer.getheaders():
                if key.lower() not in HOP_BY_HOP and key.lower() != "content-length":
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            conn.close()

        do_GET = do_POST = forward

        def log_message(self, format: str, *args: object) -> None:
            pass

    ThreadingHTTPServer(("127.0.0.1", listen), Handler).serve_forever()


if __name__ == "__main__":
    main()
