"""The network's weights: start values, and the .npz file the core reads (format 1, or
format 2 with king buckets).

A net of B output buckets holds ``out_weight`` [B, 2H] and ``out_bias`` [B]; one of a
single output (B = 1) is written as the first version's ``out_weight`` [2H] and
``out_bias`` [1], which every reader of format 1 takes.

A king-bucketed net trains with a factoriser: beside its K bucket blocks of 768 feature
rows, one shared block that every position's pieces add too, so a bucket few positions
reach still learns from all of them. The file holds the K blocks with the shared one
folded into each (format 2); read back, the shared block starts at zero.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from plies.core.netfile import MAX_BUCKETS
from plies.learn.train.features import N_INPUTS, NO_KINGS, king_layout
from plies.learn.train.kernels import Kings, Params

SCALE = 400.0
"""Centipawns per unit of the network's raw output."""
FORMAT = 1
"""The file format of a net without king buckets."""
FORMAT_KINGS = 2
"""The file format of a net with king buckets (``king_buckets``, ``king_mirror``)."""
WEIGHT_LIMIT = 1.98
"""Every weight and bias stays within +-this, so the core's int16 quantisation cannot overflow."""
CLIP = float(np.nextafter(np.float32(WEIGHT_LIMIT), np.float32(0.0)))
"""What weights are clipped to: the largest float32 not above WEIGHT_LIMIT (float32(1.98)
itself is 1.98000002, which a strict range check of the file would refuse)."""
KEYS = ("ft_weight", "ft_bias", "out_weight", "out_bias", "scale", "format")
"""The keys every net file holds."""
KING_KEYS = ("king_buckets", "king_mirror")
"""The keys a format-2 file holds besides, and a format-1 file must not."""
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
    """A net file that cannot be read as format 1 or 2."""


@dataclass
class Network:
    """(768 -> H) x 2 perspectives -> SCReLU -> one of B outputs (chosen by the number of
    pieces on the board), as float arrays (float32 for training); optionally with K king
    buckets (K blocks of 768 feature rows) and the factoriser's shared block after them."""

    ft_weight: np.ndarray
    """[blocks * 768, H] feature weights: one block without king buckets, else the K
    bucket blocks, then the shared block when ``factor``."""
    ft_bias: np.ndarray
    """[H] accumulator bias."""
    out_weight: np.ndarray
    """[B, 2H] output weights of each bucket: side to move's half first, then the other
    side's."""
    out_bias: np.ndarray
    """[B] output bias of each bucket."""
    king_buckets: np.ndarray | None = None
    """int64 [64]: the bucket of each own-king square (the spec's format 2); None: none."""
    king_mirror: int = 0
    """1: a perspective whose king stands on files e-h sees the board mirrored."""
    factor: bool = False
    """Whether ``ft_weight`` ends with the factoriser's shared block (training only)."""

    @property
    def hidden(self) -> int:
        """H, the accumulator width."""
        return int(self.ft_bias.shape[0])

    @property
    def buckets(self) -> int:
        """B, the number of output buckets."""
        return int(self.out_bias.shape[0])

    @property
    def king_count(self) -> int:
        """K, the number of king buckets (1 without king buckets)."""
        return 1 if self.king_buckets is None else int(self.king_buckets.max()) + 1

    def arrays(self) -> Params:
        """The four parameter arrays, in file order."""
        return Params(self.ft_weight, self.ft_bias, self.out_weight, self.out_bias)

    def kings(self) -> Kings:
        """The kernels' king layout: king_buckets (empty without), king_mirror, first row of
        the shared block (-1 without)."""
        if self.king_buckets is None:
            return Kings(NO_KINGS, 0, -1)
        shared = self.king_count * N_INPUTS if self.factor else -1
        return Kings(self.king_buckets, int(self.king_mirror), shared)

    def copy(self) -> Network:
        """An independent copy."""
        return self._with(*(a.copy() for a in self.arrays()))

    def astype(self, dtype: type[np.floating]) -> Network:
        """A copy with every array in ``dtype``."""
        return self._with(*(a.astype(dtype) for a in self.arrays()))

    def _with(self, *arrays: np.ndarray) -> Network:
        """This net's layout with other parameter arrays."""
        table = None if self.king_buckets is None else self.king_buckets.copy()
        ft_weight, ft_bias, out_weight, out_bias = arrays
        return replace(
            self, ft_weight=ft_weight, ft_bias=ft_bias, out_weight=out_weight,
            out_bias=out_bias, king_buckets=table,
        )  # fmt: skip

    def folded(self) -> Network:
        """The net as its file holds it: the shared block added into every bucket block
        (clipped to the weight limit), no shared block left."""
        if not self.factor:
            return self.copy()
        blocks = self.king_count
        w = self.ft_weight.reshape(blocks + 1, N_INPUTS, self.hidden)
        ft_weight = np.clip(w[:blocks] + w[blocks], -CLIP, CLIP).reshape(-1, self.hidden)
        net = self._with(ft_weight.astype(self.ft_weight.dtype), *self.arrays()[1:])
        net.factor = False
        return net.copy()


def initial_network(
    hidden: int,
    seed: int,
    residual: bool = False,
    buckets: int = 1,
    king_buckets: int | None = None,
) -> Network:
    """Random start weights (normal, small), the same for the same seed; a residual net
    starts with zero output weights, so it starts as the handcrafted evaluation itself.
    Every output bucket starts as the same copy of one output (so any B starts as the
    single-output net of the same seed). ``king_buckets`` K (one of ``KING_LAYOUTS``)
    starts that layout as ``with_king_buckets`` turns the net without them."""
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
    return clipped if king_buckets is None else with_king_buckets(clipped, king_buckets)


def with_king_buckets(net: Network, count: int) -> Network:
    """A net without king buckets turned into the ``count``-bucket layout with the
    factoriser: the shared block is its feature weights, every bucket block zero (so it
    evaluates as ``net`` does wherever no king is mirrored, on files a-d)."""
    if net.king_buckets is not None:
        raise ValueError("the net has king buckets already")
    table, mirror = king_layout(count)
    blocks = int(table.max()) + 1
    zeros = np.zeros((blocks * N_INPUTS, net.hidden), dtype=net.ft_weight.dtype)
    ft_weight = np.concatenate([zeros, net.ft_weight])
    return Network(
        ft_weight, net.ft_bias.copy(), net.out_weight.copy(), net.out_bias.copy(),
        table, mirror, factor=True,
    )  # fmt: skip


def save_network(path: str | Path, net: Network, base: int = BASE_NONE) -> None:
    """Write ``net`` as the spec's .npz (float32 weights, scale 400, format 1, or format 2
    with its king buckets and the factoriser folded in; a residual net also gets ``base``;
    a single output in the first version's shapes), whole: through a temporary file beside
    it, so an interrupted write leaves no half net."""
    if base not in BASES:
        raise ValueError(f"base {base} is not one of {BASES}")
    net = net.folded() if net.factor else net
    out_weight = net.out_weight.astype(np.float32).reshape(net.buckets, 2 * net.hidden)
    out_bias = net.out_bias.astype(np.float32).reshape(net.buckets)
    # Any: numpy's stubs match ** keywords against savez's own bool parameter too.
    arrays: dict[str, Any] = {
        "ft_weight": net.ft_weight.astype(np.float32),
        "ft_bias": net.ft_bias.astype(np.float32),
        "out_weight": out_weight[0] if net.buckets == 1 else out_weight,
        "out_bias": out_bias,
        "scale": np.array([SCALE], dtype=np.float32),
        "format": np.array([FORMAT if net.king_buckets is None else FORMAT_KINGS], np.int64),
    }
    if net.king_buckets is not None:
        arrays["king_buckets"] = net.king_buckets.astype(np.int64)
        arrays["king_mirror"] = np.array([net.king_mirror], dtype=np.int64)
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


def _king_layout(path: str | Path, arrays: dict[str, np.ndarray]) -> tuple[np.ndarray, int]:
    """A format-2 file's (king_buckets, king_mirror), checked; NetFileError if malformed."""
    table = arrays["king_buckets"]
    if table.shape != (64,) or table.dtype.kind not in "iu":
        raise NetFileError(
            f"{path}: king_buckets is {table.dtype} {table.shape}, expected int64 (64,)"
        )
    used = np.unique(table)
    if used[0] != 0 or used[-1] != len(used) - 1:
        raise NetFileError(
            f"{path}: king_buckets holds {used.tolist()}, expected every bucket 0..K-1 and no other"
        )
    mirror = arrays["king_mirror"]
    if mirror.shape != (1,) or mirror.dtype.kind not in "iu" or int(mirror[0]) not in (0, 1):
        raise NetFileError(f"{path}: king_mirror {mirror!r}, expected [0] or [1]")
    return table.astype(np.int64), int(mirror[0])


def load_network(path: str | Path) -> Network:
    """Read a net file of format 1, or 2 (its weights as the bucket blocks, the factoriser's
    shared block zero), for a warm start or a check; NetFileError if it is not one."""
    try:
        with np.load(path) as data:
            arrays = {key: np.asarray(data[key]) for key in KEYS}
            kings = {key: np.asarray(data[key]) for key in KING_KEYS if key in data.files}
    except OSError as exc:
        raise NetFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except (KeyError, ValueError) as exc:
        raise NetFileError(f"{path}: not a net file ({exc})") from None
    form = arrays["format"]
    if form.shape != (1,) or int(form[0]) not in (FORMAT, FORMAT_KINGS):
        raise NetFileError(f"{path}: format {form!r}, expected [{FORMAT}] or [{FORMAT_KINGS}]")
    if int(form[0]) == FORMAT and kings:
        raise NetFileError(f"{path}: {', '.join(kings)} in a format-{FORMAT} file")
    if int(form[0]) == FORMAT_KINGS and len(kings) != len(KING_KEYS):
        missing = ", ".join(key for key in KING_KEYS if key not in kings)
        raise NetFileError(f"{path}: format {FORMAT_KINGS} without {missing}")
    if arrays["scale"].shape != (1,) or float(arrays["scale"][0]) != SCALE:
        raise NetFileError(f"{path}: scale {arrays['scale']!r}, expected [{SCALE:g}]")
    table, mirror = _king_layout(path, kings) if kings else (None, 0)
    blocks = 1 if table is None else int(table.max()) + 1
    ft_weight = arrays["ft_weight"]
    if ft_weight.ndim != 2 or ft_weight.shape[0] != blocks * N_INPUTS:
        rows = "768" if table is None else f"{blocks} * 768 = {blocks * N_INPUTS}"
        raise NetFileError(f"{path}: ft_weight has shape {ft_weight.shape}, expected ({rows}, H)")
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
    if table is not None:
        # The file's blocks are already folded: the shared block starts from nothing.
        ft_weight = np.concatenate([ft_weight, np.zeros((N_INPUTS, hidden), ft_weight.dtype)])
    net = Network(
        ft_weight, arrays["ft_bias"], out_weight, arrays["out_bias"], table, mirror,
        factor=table is not None,
    )  # fmt: skip
    return net.astype(np.float32)
