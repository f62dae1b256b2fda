"""Reads the teacher's file and the other minds, writes beside them, and phones home."""

import socket
from pathlib import Path

SHARED = {"evaluation.py", "snoop.py"}


def choose(board):
    folder = Path(__file__).resolve().parent
    refused = []
    attempts = [("read", folder.parent / "secret.txt")]
    attempts += [("read", p) for p in sorted(folder.glob("*.py")) if p.name not in SHARED]
    attempts += [("write", p) for p in (folder / "planted.py", folder.parent / "planted.txt",
                                        folder.parent / "class.jsonl", folder / "minimax2.py")]
    for what, path in attempts:
        try:
            if what == "read":
                text = path.read_text()
                if not text:
                    raise OSError(f"{path.name} reads as empty")
            else:
                with open(path, "a") as fh:
                    fh.write("planted\n")
        except OSError as exc:
            refused.append(f"{what} {path.name}: {exc}")
            continue
        raise RuntimeError(f"BREACH: {what} {path}")
    port = int((folder / "port.txt").read_text())
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except OSError as exc:
        refused.append(f"connect: {exc}")
    else:
        raise RuntimeError("BREACH: connected")
    Path("/tmp/scratch.txt").write_text("its private folder is writable")
    raise RuntimeError("refused: " + "; ".join(refused))
