"""Jobs on warm Ray workers: one actor per worker slot, lost jobs replayed elsewhere.

This layer knows nothing about chess.  A caller gives it a picklable factory
for a :class:`JobWorker` (an object that sets itself up once, then runs jobs
one at a time, keeping whatever it started warm between them) and a list of
keyed jobs; :meth:`WarmPool.run` yields one :class:`JobOutcome` per key as jobs
finish, in completion order.  The arena's match is one such caller
(:mod:`plies.arena.remote`); a self-play data generator can be another, with a
worker that owns its engines and returns positions instead of games.

Ray does the distribution (placement, transport, process supervision); this
module only hands each idle slot the next job and reacts to what comes back:

- a worker process that dies takes its job with it: the job is replayed on
  another slot and a fresh actor replaces the dead one;
- a worker may raise :class:`JobLost` (for instance when a process it drives
  died mid-job): the job is replayed, on another slot when there is one;
- a job is tried at most ``max_attempts`` times, so a job that kills its
  worker every time cannot loop forever;
- a worker whose ``setup`` fails (a missing engine binary, say) stops the
  run with a :class:`ClusterError` that names the worker's host and process.

Every key yields exactly once, however many attempts it took.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import time
import traceback
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

JobT = TypeVar("JobT")
ResultT = TypeVar("ResultT")
JobT_contra = TypeVar("JobT_contra", contravariant=True)
ResultT_co = TypeVar("ResultT_co", covariant=True)

# What ``--cluster`` takes to mean "start a private Ray instance on this machine".
LOCAL = "auto"

# Seconds a run may go without a single working slot before it gives up.
START_TIMEOUT_S = 120.0

# How long a cancelled job may take to wind down before its worker is killed.
STOP_GRACE_S = 5.0


class ClusterError(RuntimeError):
    """The cluster cannot run the jobs: no Ray, no connection, or a worker that cannot work."""


class JobLost(Exception):  # noqa: N818 - a signal, not a failure of the caller
    """Raised by a worker's ``run``: this attempt does not count; replay the job elsewhere.

    ``fallback`` is the result to report if the job has used up its attempts
    (for a game: the loss of the engine that kept dying), or None to give up.
    """

    def __init__(self, reason: str, fallback: object = None) -> None:
        """Say why the attempt was lost and what to report if no attempt is left."""
        super().__init__(reason)
        self.reason = reason
        self.fallback = fallback


class JobWorker(Protocol[JobT_contra, ResultT_co]):
    """What runs inside each worker slot: set up once, then one job at a time."""

    def setup(self) -> None:
        """Start whatever the jobs need (engines...); raise with a clear message if impossible."""

    def run(self, job: JobT_contra) -> ResultT_co:
        """Run one job and return its result, or raise :class:`JobLost`."""

    def stop(self) -> None:
        """Abandon the job in progress soon (called from another thread)."""

    def close(self) -> None:
        """Release everything ``setup`` and ``run`` started."""


@dataclass(frozen=True)
class WorkerInfo:
    """Where a worker slot runs: host name, node IP and the process id of its actor."""

    host: str
    ip: str
    pid: int

    def __str__(self) -> str:
        """``host (ip, pid N)``, as used in messages."""
        return f"{self.host} ({self.ip}, pid {self.pid})"


@dataclass(frozen=True)
class JobOutcome(Generic[ResultT]):
    """The end of one job: its result, or None and the reason it was given up."""

    key: int
    result: ResultT | None
    attempts: int
    error: str = ""


@dataclass(frozen=True)
class _Reply:
    """What a slot actor sends back from ``run``: a result, a lost attempt, or a bug."""

    result: Any = None
    lost: str = ""
    fallback: Any = None
    failed: str = ""


class _SlotActor:
    """The Ray actor behind one worker slot; wraps a JobWorker and reports, never raises."""

    def __init__(self, make_worker: Callable[[], JobWorker[Any, Any]]) -> None:
        """Keep the factory; the worker is built by :meth:`setup`."""
        self._make = make_worker
        self._worker: JobWorker[Any, Any] | None = None

    def setup(self) -> tuple[WorkerInfo, str]:
        """Build and set up the worker; return where it runs and an error text ('' if fine)."""
        try:
            ip = str(_ray().util.get_node_ip_address())
        except Exception:  # the address is only for messages
            ip = "?"
        info = WorkerInfo(socket.gethostname(), ip, os.getpid())
        try:
            worker = self._make()
            worker.setup()
        except Exception as exc:
            return info, str(exc) or type(exc).__name__
        self._worker = worker
        return info, ""

    def run(self, job: object) -> _Reply:
        """Run one job on the worker; a JobLost or any other error becomes a reply."""
        if self._worker is None:
            return _Reply(failed="worker used before setup")
        try:
            return _Reply(result=self._worker.run(job))
        except JobLost as exc:
            return _Reply(lost=exc.reason or "lost", fallback=exc.fallback)
        except Exception:
            return _Reply(failed=traceback.format_exc(limit=8))

    def stop(self) -> None:
        """Ask the worker to abandon its job (runs in the control thread)."""
        if self._worker is not None:
            self._worker.stop()

    def close(self) -> None:
        """Close the worker."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.close()


@dataclass
class _Job(Generic[JobT]):
    """A queued job: its key, payload, attempts so far and the slot it was lost on."""

    key: int
    job: JobT
    attempts: int = 0
    avoid: int | None = None
    fallback: Any = None


@dataclass
class _Slot:
    """One worker slot as the driver sees it: the actor, its state and its current job."""

    index: int
    actor: Any
    setup_ref: Any = None
    info: WorkerInfo | None = None
    ref: Any = None
    job: _Job[Any] | None = None

    @property
    def ready(self) -> bool:
        """Set up and alive."""
        return self.info is not None and self.setup_ref is None


def _ray() -> Any:
    """Import Ray, or explain how to get it."""
    try:
        import ray
    except ImportError:
        raise ClusterError("--cluster needs Ray: pip install 'plies[cluster]'") from None
    return ray


def require_ray() -> None:
    """Raise ClusterError now if Ray is missing (before a command does any other work)."""
    _ray()


# Ray Client's server starts a driver process per connection; on a busy machine that start
# can outlast the server's own wait, which the client reports as this, and a second
# connection then usually succeeds.
_CLIENT_INIT_FAILURE = "Initialization failure from server"
CLIENT_ATTEMPTS = 3


def _client_init(ray: Any, address: str) -> None:
    """Connect through Ray Client, again when its server failed to start our driver."""
    for attempt in range(1, CLIENT_ATTEMPTS + 1):
        try:
            # Ray Client forwards init options to the server, which rejects these.
            ray.init(address=address)
            return
        except Exception as exc:
            if _CLIENT_INIT_FAILURE not in str(exc) or attempt == CLIENT_ATTEMPTS:
                raise
            ray.shutdown()


@contextlib.contextmanager
def ray_session(address: str) -> Iterator[None]:
    """Connect to Ray for the duration (``auto``: a private local instance on all cores).

    A Ray connection the caller already made is used as it is and left open.
    """
    ray = _ray()
    if ray.is_initialized():
        yield
        return
    quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    try:
        with warnings.catch_warnings():
            # Ray Client warns before it raises; the error below says it in one line.
            warnings.simplefilter("ignore")
            if address == LOCAL:
                ray.init(address="local", num_cpus=os.cpu_count() or 1,
                         include_dashboard=False, **quiet)
            elif address.startswith("ray://"):
                _client_init(ray, address)
            else:
                ray.init(address=address, **quiet)
    except Exception as exc:
        text = str(exc).strip().splitlines()
        raise ClusterError(
            f"cannot connect to Ray at {address}: {text[0] if text else type(exc).__name__}"
        ) from None
    try:
        yield
    finally:
        ray.shutdown()


def cluster_cpus() -> int:
    """CPUs the connected cluster offers (at least 1)."""
    return max(1, int(_ray().cluster_resources().get("CPU", 1)))


class WarmPool(Generic[JobT, ResultT]):
    """Worker slots (Ray actors) that stay up between jobs; use inside :func:`ray_session`."""

    def __init__(
        self,
        make_worker: Callable[[], JobWorker[JobT, ResultT]],
        slots: int,
        max_attempts: int = 3,
        start_timeout_s: float = START_TIMEOUT_S,
    ) -> None:
        """Start ``slots`` actors (each asks for one CPU); jobs run once :meth:`run` is called."""
        if slots < 1 or max_attempts < 1:
            raise ValueError("a pool needs at least one slot and one attempt per job")
        self._ray = _ray()
        self._make = make_worker
        self.max_attempts = max_attempts
        self.start_timeout_s = start_timeout_s
        self.replays = 0
        self.respawns = 0
        self._max_respawns = 3 * slots + 3
        self._cancelled = False
        self._actor_class = self._ray.remote(
            num_cpus=1, max_restarts=0, concurrency_groups={"control": 1}
        )(_SlotActor)
        self.slots = [self._spawn(i) for i in range(slots)]

    def _spawn(self, index: int) -> _Slot:
        """Create the actor for slot ``index`` and ask it to set up."""
        actor = self._actor_class.options(scheduling_strategy="SPREAD").remote(self._make)
        return _Slot(index, actor, setup_ref=actor.setup.remote())

    @property
    def busy(self) -> int:
        """Slots with a job in progress (at an early stop: the jobs about to be cancelled)."""
        return sum(1 for s in self.slots if s.job is not None)

    @property
    def workers(self) -> list[WorkerInfo]:
        """Where the slots that are set up run."""
        return [s.info for s in self.slots if s.info is not None]

    def run(
        self, jobs: Sequence[tuple[int, JobT]], should_stop: Callable[[], bool] = lambda: False
    ) -> Iterator[JobOutcome[ResultT]]:
        """Run every job; yield one outcome per key as each finishes (or is given up).

        ``should_stop`` is asked between polls; once it answers True the run ends early.
        """
        queue: deque[_Job[JobT]] = deque(_Job(k, j) for k, j in jobs)
        last_working = time.monotonic()
        while (
            (queue or any(s.job is not None for s in self.slots))
            and not self._cancelled
            and not should_stop()
        ):
            self._dispatch(queue)
            refs = [r for s in self.slots for r in (s.setup_ref, s.ref) if r is not None]
            if any(s.ready for s in self.slots):
                last_working = time.monotonic()
            elif time.monotonic() - last_working > self.start_timeout_s:
                raise ClusterError(
                    f"no worker could start within {self.start_timeout_s:g}s "
                    "(not enough free CPUs on the cluster?)"
                )
            if not refs:
                time.sleep(0.1)
                continue
            done, _ = self._ray.wait(refs, num_returns=1, timeout=0.5)
            for ref in done:
                outcome = self._settle(ref, queue)
                if outcome is not None:
                    yield outcome

    def _dispatch(self, queue: deque[_Job[JobT]]) -> None:
        """Hand queued jobs to idle slots, keeping a replayed job off the slot that lost it."""
        others_ready = sum(1 for s in self.slots if s.ready) > 1
        for slot in self.slots:
            if not queue or not slot.ready or slot.job is not None:
                continue
            pick = next((j for j in queue if j.avoid != slot.index or not others_ready), None)
            if pick is None:
                continue
            queue.remove(pick)
            pick.attempts += 1
            slot.job = pick
            slot.ref = slot.actor.run.remote(pick.job)

    def _settle(self, ref: Any, queue: deque[_Job[JobT]]) -> JobOutcome[ResultT] | None:
        """Handle one finished remote call; return an outcome if a job ended."""
        ray = self._ray
        # Ray Client hands back new reference objects: match them by id, not identity.
        key = ref.hex()
        slot = next(s for s in self.slots if key in (_hex(s.setup_ref), _hex(s.ref)))
        if key == _hex(slot.setup_ref):
            try:
                info, error = ray.get(ref)
            except ray.exceptions.RayError as exc:
                self._replace(slot, queue, f"worker died while starting: {_first_line(exc)}")
                return None
            slot.setup_ref = None
            slot.info = info
            if error:
                raise ClusterError(f"worker {info}: {error}")
            return None
        job = slot.job
        assert job is not None
        slot.job = None
        slot.ref = None
        try:
            reply: _Reply = ray.get(ref)
        except ray.exceptions.RayError as exc:  # the actor's process died, or its node
            return self._replace(slot, queue, f"worker {slot.info} died: {_first_line(exc)}", job)
        if reply.failed:
            raise ClusterError(f"worker {slot.info}: job {job.key} failed:\n{reply.failed}")
        if reply.lost:
            job.avoid = slot.index
            job.fallback = reply.fallback
            return self._retry(job, queue, reply.lost)
        return JobOutcome(job.key, reply.result, job.attempts)

    def _replace(
        self, slot: _Slot, queue: deque[_Job[JobT]], reason: str, job: _Job[JobT] | None = None
    ) -> JobOutcome[ResultT] | None:
        """A slot's actor died: start a new one in its place and replay its job."""
        self.respawns += 1
        if self.respawns > self._max_respawns:
            raise ClusterError(f"workers keep dying ({self.respawns} lost); last: {reason}")
        with contextlib.suppress(Exception):
            self._ray.kill(slot.actor, no_restart=True)
        self.slots[slot.index] = self._spawn(slot.index)
        if job is None:
            return None
        job.fallback = None
        return self._retry(job, queue, reason)

    def _retry(
        self, job: _Job[JobT], queue: deque[_Job[JobT]], reason: str
    ) -> JobOutcome[ResultT] | None:
        """Queue a lost job again at the front, or give it up after its last attempt."""
        if self._cancelled:
            return None
        if job.attempts >= self.max_attempts:
            if job.fallback is not None:
                return JobOutcome(job.key, job.fallback, job.attempts)
            return JobOutcome(job.key, None, job.attempts, reason)
        self.replays += 1
        queue.appendleft(job)
        return None

    def cancel(self) -> None:
        """Stop handing out jobs and ask the busy workers to abandon theirs."""
        self._cancelled = True
        for slot in self.slots:
            if slot.job is not None:
                with contextlib.suppress(Exception):
                    slot.actor.stop.options(concurrency_group="control").remote()

    def close(self) -> None:
        """Cancel what is left, let each worker close its processes, then end the actors."""
        self.cancel()
        ray = self._ray
        pending = [s.ref for s in self.slots if s.ref is not None]
        if pending:
            ray.wait(pending, num_returns=len(pending), timeout=STOP_GRACE_S)
        closing = [s.actor.close.remote() for s in self.slots if s.ready]
        if closing:
            ray.wait(closing, num_returns=len(closing), timeout=STOP_GRACE_S)
        for slot in self.slots:
            with contextlib.suppress(Exception):
                ray.kill(slot.actor, no_restart=True)

    def __enter__(self) -> WarmPool[JobT, ResultT]:
        """Use as a context manager that closes the pool."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the pool."""
        self.close()


def _hex(ref: Any) -> str | None:
    """The id of an object reference (None for no reference)."""
    return None if ref is None else str(ref.hex())


def _first_line(exc: BaseException) -> str:
    """The first non-empty line of an exception's text."""
    for line in str(exc).splitlines():
        if line.strip():
            return line.strip()
    return type(exc).__name__
