"""Which evaluation the engine searches with: the ``EvalFile`` net, the default net, or none.

The default net is ``$PLIES_DEFAULT_NET`` or the net packaged with plies. A
default that cannot be loaded leaves the engine on the classical evaluation,
with the reason in ``notice``; a bad ``EvalFile`` is refused and changes nothing.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import plies.core as core

DEFAULT_NET_ENV = "PLIES_DEFAULT_NET"
"""Environment variable naming the net an engine uses by default instead of the packaged one."""


def default_net_file() -> Path | None:
    """The net an engine loads by default: ``$PLIES_DEFAULT_NET`` if set, else the packaged
    net (None when this install ships none)."""
    named = os.environ.get(DEFAULT_NET_ENV, "").strip()
    return Path(named) if named else core.default_net_path()


class NetChoice:
    """The net file in use, whether the search uses it, and the loaded net."""

    def __init__(self, default_net: Path | None) -> None:
        """Load ``default_net`` (None: no default); a bad one warns and leaves no net."""
        self.eval_file = ""
        """The net file set by ``EvalFile`` ("": the default net, if any)."""
        self.default_net = default_net
        """The net used while ``EvalFile`` is empty."""
        self._default_problem: str | None = None
        self.loaded: core.Net | None = None
        """The loaded net (in use only while ``use_net``)."""
        if default_net is not None:
            try:
                self.loaded = core.load_net(default_net)
            except ValueError as exc:
                self._default_problem = (
                    f"default net unusable, using the classical evaluation: {exc}"
                )
                warnings.warn(self._default_problem, RuntimeWarning, stacklevel=3)
        self.use_net = self.loaded is not None
        """Whether the search evaluates with the net (``UseNet``)."""

    @property
    def net(self) -> core.Net | None:
        """The net the search evaluates with (None: the classical evaluation)."""
        return self.loaded if self.use_net else None

    def _load(self, path: str) -> core.Net | None:
        """The net of ``path`` ("": the default, None if there is none)."""
        if path:
            return core.load_net(path)
        default = self.default_net
        return None if default is None else core.load_net(default)

    def set_eval_file(self, path: str) -> None:
        """Load the net file ``path`` ("": the default); a bad file raises ValueError and
        changes nothing."""
        path = path.strip()
        net = self._load(path) if self.use_net or path else None
        self.eval_file = path
        self.loaded = net

    def set_use_net(self, on: bool) -> None:
        """Evaluate with the net (loading it now if needed) or with the classical evaluation."""
        if on and self.loaded is None:
            self.loaded = self._load(self.eval_file)
        self.use_net = on

    def set_net(self, net: core.Net | None) -> None:
        """Use this loaded net (None: the classical evaluation)."""
        self.loaded = net
        self.use_net = net is not None

    @property
    def notice(self) -> str | None:
        """Why the classical evaluation runs although a net is wanted (None: no problem).

        Either the default net was named but could not be loaded (while ``EvalFile`` is
        empty), or ``UseNet`` is on with no net anywhere."""
        if self.loaded is not None:
            return None
        if self._default_problem is not None and not self.eval_file:
            return self._default_problem
        if self.use_net:
            return "UseNet: no net to use (EvalFile is empty and no default net is installed); " \
                   "using the classical evaluation"  # fmt: skip
        return None

    def name(self) -> str:
        """Which evaluation the search uses, for a user (the net's file and width, or classical)."""
        net = self.net
        return "classical evaluation" if net is None else net.describe()
