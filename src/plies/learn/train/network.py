"""The network's weights: start values, and the .npz file the core reads (format 1).

A net of B output buckets holds ``out_weight`` [B, 2H] and ``out_bias`` [B]; one of a
single output (B = 1) is written as the first version's ``out_weight`` [2H] and
``out_bias`` [1], which every reader of format 1 takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from plies.core.netfile import MAX_BUCKETS
from plies.learn.train.features import N_INPUTS

SCALE = 400.0
"""Centipawns per unit of the network's raw output."""
FORMAT = 1
"""The file format this writes; the core refuses any other."""
WEIGHT_LIMIT = 1.98
"""Every weight and bias stays within +-this, so the core's int16 quantisation cannot overflow."""
CLIP = float(np.nextafter(np.float32(WEIGHT_LIMIT), np.float32(0.0)))
"""What weights are clipped to: the largest float32 not above WEIGHT_LIMIT (float32(1.98)
itself is 1.98000002, which a strict range check of the file would refuse)."""
KEYS = ("ft_weight", "ft_bias", "out_weight", "out_bias", "scale", "format")
"""The keys every net file holds."""
BASE_KEY = "base"
"""The optional key saying what the net's output is added to (absent: BASE_NONE)."""
BASE_NONE = 0
"""A pure net: its output is the evaluation."""
BASE_HCE = 1
"""A residual net: its output is a correction added to the handcrafted evaluation."""
BASES = (BASE_NONE, BASE_HCE)
"""The base values a file may hold."""

_FT_INIT = 0.05
"""Std of the start feature weights: a 30-piece accumulator starts with a spread of about
0.3, across the screlu's live range (0, 1)."""


class NetFileError(ValueError):
    """A net file that cannot be read as format 1."""


@dataclass
class Network:
    """(768 -> H) x 2 perspectives -> SCReLU -> one of B outputs (chosen by the number of
    pieces on the board), as float arrays (float32 for training)."""

    ft_weight: np.ndarray
    """[768, H] feature weights."""
    ft_bias: np.ndarray
    """[H] accumulator bias."""
    out_weight: np.ndarray
    """[B, 2H] output weights of each bucket: side to move's half first, then the other
    side's."""
    out_bias: np.ndarray
    """[B] output bias of each bucket."""

    @property
    def hidden(self) -> int:
        """H, the accumulator width."""
        return int(self.ft_bias.shape[0])

    @property
    def buckets(self) -> int:
        """B, the number of output buckets."""
        return int(self.out_bias.shape[0])

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The four parameter arrays, in file order."""
        return self.ft_weight, self.ft_bias, self.out_weight, self.out_bias

    def copy(self) -> Network:
        """An independent copy."""
        return Network(*(a.copy() for a in self.arrays()))

    def astype(self, dtype: type[np.floating]) -> Network:
        """A copy with every array in ``dtype``."""
        return Network(*(a.astype(dtype) for a in self.arrays()))


def initial_network(hidden: int, seed: int, residual: bool = False, buckets: int = 1) -> Network:
    """Random start weights (normal, small), the same for the same seed; a residual net
    starts with zero output weights, so it starts as the handcrafted evaluation itself.
    Every output bucket starts as the same copy of one output (so any B starts as the
    single-output net of the same seed)."""
    if not 1 <= buckets <= MAX_BUCKETS:
        raise ValueError(f"buckets {buckets} is not between 1 and {MAX_BUCKETS}")
    rng = np.random.default_rng(seed)
    ft_weight = rng.normal(0.0, _FT_INIT, size=(N_INPUTS, hidden))
    out_weight = rng.normal(0.0, 1.0 / np.sqrt(2 * hidden), size=2 * hidden)
    if residual:
        out_weight[:] = 0.0
    out = np.tile(out_weight, (buckets, 1))
    net = Network(ft_weight, np.zeros(hidden), out, np.zeros(buckets))
    clipped = net.astype(np.float32)
    for a in clipped.arrays():
        np.clip(a, -CLIP, CLIP, out=a)
    return clipped


def save_network(path: str | Path, net: Network, base: int = BASE_NONE) -> None:
    """Write ``net`` as the spec's .npz (float32 weights, scale 400, format 1; a residual
    net also gets ``base``; a single output in the first version's shapes), whole: through
    a temporary file beside it, so an interrupted write leaves no half net."""
    if base not in BASES:
        raise ValueError(f"base {base} is not one of {BASES}")
    out_weight = net.out_weight.astype(np.float32).reshape(net.buckets, 2 * net.hidden)
    out_bias = net.out_bias.astype(np.float32).reshape(net.buckets)
    # Any: numpy's stubs match ** keywords against savez's own bool parameter too.
    arrays: dict[str, Any] = {
        "ft_weight": net.ft_weight.astype(np.float32),
        "ft_bias": net.ft_bias.astype(np.float32),
        "out_weight": out_weight[0] if net.buckets == 1 else out_weight,
        "out_bias": out_bias,
        "scale": np.array([SCALE], dtype=np.float32),
        "format": np.array([FORMAT], dtype=np.int64),
    }
    if base != BASE_NONE:
        arrays[BASE_KEY] = np.array([base], dtype=np.int64)
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    with tmp.open("wb") as handle:
        np.savez(handle, **arrays)
    tmp.replace(target)


def load_base(path: str | Path) -> int:
    """The ``base`` of a net file (BASE_NONE when the key is absent); NetFileError if unknown."""
    try:
        with np.load(path) as data:
            if BASE_KEY not in data.files:
                return BASE_NONE
            raw = np.asarray(data[BASE_KEY])
    except (OSError, ValueError) as exc:
        raise NetFileError(f"{path}: cannot read ({exc})") from None
    if raw.shape != (1,) or raw.dtype.kind not in "iu" or int(raw[0]) not in BASES:
        raise NetFileError(f"{path}: base {raw!r}, expected one of {BASES}")
    return int(raw[0])


def load_network(path: str | Path) -> Network:
    """Read a format-1 net file (for a warm start or a check); NetFileError if it is not one."""
    try:
        with np.load(path) as data:
            arrays = {key: np.asarray(data[key]) for key in KEYS}
    except OSError as exc:
        raise NetFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except (KeyError, ValueError) as exc:
        raise NetFileError(f"{path}: not a net file ({exc})") from None
    if arrays["format"].shape != (1,) or int(arrays["format"][0]) != FORMAT:
        raise NetFileError(f"{path}: format {arrays['format']!r}, expected [{FORMAT}]")
    if arrays["scale"].shape != (1,) or float(arrays["scale"][0]) != SCALE:
        raise NetFileError(f"{path}: scale {arrays['scale']!r}, expected [{SCALE:g}]")
    ft_weight = arrays["ft_weight"]
    if ft_weight.ndim != 2 or ft_weight.shape[0] != N_INPUTS:
        raise NetFileError(f"{path}: ft_weight has shape {ft_weight.shape}, expected (768, H)")
    hidden = ft_weight.shape[1]
    out_shape = arrays["out_weight"].shape
    buckets = out_shape[0] if len(out_shape) == 2 else 1
    if not 1 <= buckets <= MAX_BUCKETS:
        raise NetFileError(f"{path}: {buckets} output buckets, expected 1 to {MAX_BUCKETS}")
    single = len(out_shape) == 1
    shapes = {
        "ft_bias": (hidden,),
        "out_weight": (2 * hidden,) if single else (buckets, 2 * hidden),
        "out_bias": (buckets,),
    }
    for key, shape in shapes.items():
        if arrays[key].shape != shape:
            raise NetFileError(f"{path}: {key} has shape {arrays[key].shape}, expected {shape}")
    out_weight = arrays["out_weight"].reshape(buckets, 2 * hidden)
    net = Network(ft_weight, arrays["ft_bias"], out_weight, arrays["out_bias"])
    return net.astype(np.float32)
