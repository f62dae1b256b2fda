"""An HTTP server on the loopback address for the tests of HTTP minds."""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def serving(handler: type[http.server.BaseHTTPRequestHandler],
            release: threading.Event) -> Iterator[str]:
    """Serve ``handler`` on a free loopback port; yield the base URL. On leaving, ``release``
    is set (a handler holding a request waits on it) and the server is shut down."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        release.set()
        server.shutdown()
        server.server_close()
