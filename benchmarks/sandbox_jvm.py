"""The memory bound a JVM needs to start in the sandbox, beside the address-space bound it needs.

The Java example mind (``examples/minds/java/CaptureMind.java``) is compiled into a
temporary folder, then:

- **ours**: the smallest ``--sandbox-memory`` (memory written, ``RLIMIT_DATA``) at which it
  starts in the sandbox and answers the start position, found by bisection in 8 MB steps,
  then checked ``--repeat`` times at that bound and one step above;
- **the peer**: the smallest address-space limit (``prlimit --as``, ``RLIMIT_AS``) at which
  it starts outside the sandbox, by the same bisection: what a sandbox bounding address
  space would need (a JVM reserves its largest heap and more up front);
- the JVM's own first and largest heap (``-XX:+PrintFlagsFinal``), which it sizes from the
  machine's memory (1/64 and 1/4 of it);
- the mind's start-up to its first answer, in the sandbox (default limits) and without it,
  ``--repeat`` times each in turn (medians).

Usage: python benchmarks/sandbox_jvm.py [--repeat N]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from harness import load_average, machine_line
from plies.sandbox import Limits, Sandbox, unavailable

JAVA_MIND = Path(__file__).resolve().parents[1] / "examples" / "minds" / "java"
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
ANSWER = "8,24"
"""What the mind answers to the start position (its seeded random move)."""
STEP_MB = 8


def answers(command: list[str], env: dict[str, str] | None, cwd: str) -> bool:
    """True if ``command``, run in ``cwd`` (where a JVM that fails to start leaves its crash
    log), starts and answers the start position as the mind does."""
    try:
        done = subprocess.run(command, env=env, input=START_FEN, capture_output=True, text=True,
                              timeout=120, cwd=cwd)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0 and done.stdout.strip() == ANSWER


def smallest(starts: Callable[[int], bool], low: int, high: int) -> int:
    """The smallest MB in ``(low, high]`` at which ``starts`` holds (to ``STEP_MB``)."""
    assert starts(high) and not starts(low), (low, high)
    while high - low > STEP_MB:
        middle = (low + high) // 2
        low, high = (low, middle) if starts(middle) else (middle, high)
    return high


def main() -> int:
    """Find both bounds and print them with the JVM's heap sizes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="checks at the bound (10)")
    args = parser.parse_args()
    java, javac = shutil.which("java"), shutil.which("javac")
    if java is None or javac is None or unavailable() is not None:
        print(f"needs java, javac and the sandbox ({unavailable() or 'no JDK'})")
        return 1
    print(machine_line(), flush=True)
    load_before = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp).chmod(0o755)  # as root, the sandbox runs the mind as a user of its own
        subprocess.run([javac, "-d", tmp, str(JAVA_MIND / "CaptureMind.java")], check=True)
        mind = [java, "-cp", tmp, "CaptureMind"]

        def in_sandbox(mb: int) -> bool:
            """The mind starts in the sandbox with ``mb`` MB of memory to write."""
            launch = Sandbox(limits=Limits(memory_mb=mb)).jail([tmp]).wrap(mind, None, tmp)
            return answers(launch.command, launch.env, tmp)

        def address_space(mb: int) -> bool:
            """The mind starts outside it with ``mb`` MB of address space."""
            return answers(["prlimit", f"--as={mb << 20}", "--", *mind], None, tmp)

        ours = smallest(in_sandbox, 64, 4096)
        peer = smallest(address_space, 256, 16384)
        at = sum(in_sandbox(ours) for _ in range(args.repeat))
        above = sum(in_sandbox(ours + STEP_MB) for _ in range(args.repeat))
        default = Sandbox().jail([tmp]).wrap(mind, None, tmp)
        starts: dict[str, list[float]] = {"sandboxed": [], "bare": []}
        for _ in range(args.repeat):
            for name, (command, env) in (("sandboxed", (default.command, default.env)),
                                         ("bare", (mind, None))):
                started = time.perf_counter()
                assert answers(command, env, tmp)
                starts[name].append(time.perf_counter() - started)
        flags = subprocess.run([java, "-XX:+PrintFlagsFinal", "-version"], capture_output=True,
                               text=True).stdout
    heap = {name: int(m.group(1)) >> 20 for name in ("InitialHeapSize", "MaxHeapSize")
            if (m := re.search(rf"\b{name}\s*=\s*(\d+)", flags))}
    print(f"load average {load_before:.2f} before, {load_average():.2f} after; "
          f"{Path(java).resolve()}")
    print(f"JVM heap: first {heap.get('InitialHeapSize')} MB, largest "
          f"{heap.get('MaxHeapSize')} MB (sized from this machine's memory)")
    print(f"ours: in the sandbox it starts from --sandbox-memory {ours} MB (memory written); "
          f"{at}/{args.repeat} starts at {ours} MB, {above}/{args.repeat} at "
          f"{ours + STEP_MB} MB")
    print(f"peer: outside it, an address-space limit must be at least {peer} MB "
          f"({peer / ours:.1f}x)")
    sandboxed, bare = (statistics.median(starts[n]) * 1e3 for n in ("sandboxed", "bare"))
    print(f"start to the first answer: {sandboxed:.0f} ms in the sandbox, {bare:.0f} ms "
          f"without ({sandboxed - bare:+.0f} ms; medians of {args.repeat})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
