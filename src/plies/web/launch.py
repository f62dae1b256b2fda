"""Start ``plies serve`` in a subprocess and wait until its engine is ready (scripts, notebooks)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request


def start_serve(poll_s: float = 0.2) -> tuple[subprocess.Popen[str], str]:
    """Start ``plies serve --port 0``; return it and its address once the engine is ready."""
    process = subprocess.Popen(
        [sys.executable, "-m", "plies", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=None,  # the server's log and warnings go where the caller's stderr goes
        text=True,
    )
    assert process.stdout is not None
    match = None
    while match is None:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("plies serve did not start")
        match = re.search(r"(http://\S+/)", line)
    url = match.group(1)
    while json.loads(urllib.request.urlopen(url + "api/status").read())["engine"] == "compiling":
        time.sleep(poll_s)
    return process, url
