"""The net file: its format, the checks a file must pass, reading and writing it (for the
engine and the trainer alike: ``read_net``, ``write_net``, one ``NetFileError``), and
quantising it for the core.

The contract with the trainer (``plies train``) is ``docs/nnue-spec.md``,
summarised here. The net is (768 -> H) x 2 perspectives -> SCReLU -> 1 of B output
buckets:

    feature(p, piece of colour c and kind k on square s)
        = (0 if c == p else 384) + (k - 1) * 64 + (s if p == WHITE else s ^ 56)
    acc_p = ft_bias + sum of ft_weight[feature(p, ...)] over the pieces
    b     = clamp((pieces on the board - 2) * B // 32, 0, B - 1)
    eval  = SCALE * (out_bias[b] + out_weight[b, :H] . screlu(acc_stm)
                                 + out_weight[b, H:] . screlu(acc_other)),
    screlu(x) = clamp(x, 0, 1)^2

B = 8 gives (pieces - 2) // 4: 32 pieces bucket 7, 2-5 pieces bucket 0. A file
of the first format version (``out_weight`` [2H], ``out_bias`` [1]) is B = 1.

The core runs it in exact integers (QA = 255, QB = 256): int16 accumulators
(``ft_* * QA``), int16 output weights (``* QB``) and int64 output biases
(``* QA * QB``). With every float weight in [-1.98, 1.98] (the file is refused
otherwise) an accumulator of 32 pieces stays below 1.98 * 255 * 33 < 2^15 and
the output sum fits int64 for any H.

A format-2 file also has king buckets: each perspective's 768 features are
offset by 768 times the bucket of its own king's square, and with ``king_mirror``
a king on files e-h sees the board mirrored left to right (``feature(p, ...)``
then adds ``kb * 768`` and mirrors the square with ``^ 7``); the core keeps this
as ``Net.king_map``.

A file's optional ``base`` entry says what its output is: the evaluation itself
(a pure net) or a correction to the classical evaluation (a residual net);
``plies.core.static_eval`` decides what the search does with either. Plain
Python and numpy: the compiled inference is ``plies.core.nnue``.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

QA = 255
"""Quantisation of the feature transformer (weights, biases, accumulators)."""
QB = 256
"""Quantisation of the output weights (64 cost a trained net about 10 cp of rounding)."""
SCALE = 400
"""Centipawns per unit of the net's raw output."""
FORMAT = 1
"""The file format without king buckets (the ``format`` entry)."""
FORMAT_KINGS = 2
"""The file format with king buckets (``king_buckets`` and ``king_mirror``)."""
MAX_KING_BUCKETS = 32
"""Most king buckets accepted (one per square of a mirrored half board)."""
KING_KEYS = ("king_buckets", "king_mirror")
"""The entries a format-2 file adds."""
NO_KING_MAP = np.zeros((0, 64), dtype=np.int64)
"""``Net.king_map`` of a net without king buckets."""
N_INPUTS = 768
"""Input features per perspective: 2 colours x 6 kinds x 64 squares."""
WEIGHT_LIMIT = np.float32(1.98)
"""Largest magnitude of any weight or bias (the trainer clips to it)."""
MAX_HIDDEN = 1024
"""Widest hidden layer accepted (its accumulators are copied with every position)."""
MAX_BUCKETS = 32
"""Most output buckets accepted (one per piece count of 2..33 at most)."""
BUCKET_SPAN = 32
"""Piece counts (from 2 up) that the B buckets split into equal parts."""
BASE_KEY = "base"
"""The optional file entry saying what the net's output is added to (absent: BASE_NONE)."""
BASE_NONE = 0
"""A pure net: its output is the evaluation."""
BASE_HCE = 1
"""A residual net: its output is a correction added to the classical evaluation."""

DEFAULT_NET = Path(__file__).resolve().parent / "nets" / "default.npz"
"""Where the packaged net lives (absent until one is trained and shipped)."""

_SHAPES = ("ft_weight", "ft_bias", "out_weight", "out_bias", "scale", "format")
"""Every entry a net file must hold."""


class NetShape:
    """H and B read off a net's arrays, for the core's quantised net and the trainer's."""

    ft_bias: np.ndarray
    out_bias: np.ndarray

    @property
    def hidden(self) -> int:
        """H, the width of one perspective's accumulator."""
        return int(self.ft_bias.shape[0])

    @property
    def buckets(self) -> int:
        """B, the number of output buckets (1: a single output)."""
        return int(self.out_bias.shape[0])


@dataclass(frozen=True)
class Net(NetShape):
    """A quantised net, ready for the core (arrays C-contiguous, never written)."""

    ft_weight: np.ndarray
    """int16 [768, H]: feature-transformer weights times QA, one row per feature."""
    ft_bias: np.ndarray
    """int16 [H]: feature-transformer biases times QA."""
    out_weight: np.ndarray
    """int16 [B, 2H]: each bucket's output weights times QB (side to move's half first)."""
    out_bias: np.ndarray
    """int64 [B]: each bucket's output bias times QA * QB."""
    source: str
    """Where the net came from (its path)."""
    base: int = BASE_NONE
    """BASE_NONE (a pure net) or BASE_HCE (a correction to the classical evaluation)."""
    king_map: np.ndarray = field(default_factory=lambda: NO_KING_MAP)
    """int64 [2, 64] for a net with king buckets, by the square of a perspective's own
    king as that perspective sees it: row 0 the feature offset (bucket * 768), row 1 the
    file mirror (7 or 0); [0, 64] without king buckets."""

    @property
    def king_buckets(self) -> int:
        """K, the number of king buckets (1: none)."""
        return int(self.ft_weight.shape[0]) // N_INPUTS

    @property
    def residual(self) -> bool:
        """Whether the net corrects the classical evaluation (is added to it)."""
        return self.base == BASE_HCE

    def describe(self) -> str:
        """The net for a user: its file, width and kind."""
        kind = ", residual on the classical evaluation" if self.residual else ""
        buckets = f", {self.buckets} output buckets" if self.buckets > 1 else ""
        kings = ""
        if self.king_map.shape[0]:
            mirror = ", mirrored" if bool(np.any(self.king_map[1])) else ""
            kings = f", {self.king_buckets} king buckets{mirror}"
        return f"net {self.source} (hidden {self.hidden}{kings}{buckets}{kind})"


class NetFileError(ValueError):
    """A net file that cannot be used: one line, naming the file."""


def _refuse(source: str, reason: str) -> NetFileError:
    """The one-line error for a net file that cannot be used."""
    return NetFileError(f"net file {source!r}: {reason}")


def _float_array(arrays: dict[str, np.ndarray], name: str, shape: tuple[int, ...],
                 source: str) -> np.ndarray:  # fmt: skip
    """Entry ``name`` as float32 of exactly ``shape``, finite and within the weight limit."""
    raw = arrays[name]
    if raw.shape != shape:
        raise _refuse(source, f"{name} has shape {raw.shape}, expected {shape}")
    if raw.dtype.kind not in "fiu":
        raise _refuse(source, f"{name} has dtype {raw.dtype}, expected float32")
    values = raw.astype(np.float32)
    # NaN fails this comparison too.
    if not bool(np.all(np.abs(values) <= WEIGHT_LIMIT)):
        raise _refuse(source, f"{name} has values outside [-{WEIGHT_LIMIT}, {WEIGHT_LIMIT}]")
    return values


def _single(arrays: dict[str, np.ndarray], name: str, source: str) -> float:
    """The one number held by entry ``name``."""
    raw = arrays[name]
    if raw.size != 1 or raw.dtype.kind not in "fiu":
        raise _refuse(source, f"{name} must hold one number, got shape {raw.shape} {raw.dtype}")
    return float(raw.reshape(-1)[0])


@dataclass(frozen=True)
class NetArrays:
    """A net file's contents, checked against the spec: the float weights and their layout."""

    ft_weight: np.ndarray
    """float32 [K * 768, H]: feature-transformer weights (K king buckets, 1 without)."""
    ft_bias: np.ndarray
    """float32 [H]: feature-transformer biases."""
    out_weight: np.ndarray
    """float32 [B, 2H]: each output bucket's weights (side to move's half first)."""
    out_bias: np.ndarray
    """float32 [B]: each output bucket's bias."""
    base: int = BASE_NONE
    """BASE_NONE (a pure net) or BASE_HCE (a correction to the classical evaluation)."""
    king_buckets: np.ndarray | None = None
    """int64 [64]: the bucket of each own-king square (format 2); None: format 1."""
    king_mirror: int = 0
    """1: a perspective whose king stands on files e-h sees the board mirrored."""


def check(arrays: dict[str, np.ndarray], source: str = "<arrays>") -> NetArrays:
    """A net's entries checked against the spec (NetFileError, one line, if unfit)."""
    missing = [name for name in _SHAPES if name not in arrays]
    if missing:
        raise _refuse(source, f"missing {', '.join(missing)}")
    fmt = _single(arrays, "format", source)
    if fmt not in (FORMAT, FORMAT_KINGS):
        raise _refuse(source, f"format {fmt:g} is not a supported format ({FORMAT} or "
                              f"{FORMAT_KINGS})")  # fmt: skip
    table: np.ndarray | None = None
    mirror = 0
    inputs = N_INPUTS
    if fmt == FORMAT_KINGS:
        table, mirror, kings = _king_layout(arrays, source)
        inputs = N_INPUTS * kings
    else:
        extra = [name for name in KING_KEYS if name in arrays]
        if extra:
            raise _refuse(source, f"{', '.join(extra)} in a format-{FORMAT} file (king buckets "
                                  f"need format {FORMAT_KINGS})")  # fmt: skip
    scale = _single(arrays, "scale", source)
    if scale != SCALE:
        raise _refuse(source, f"scale {scale:g}, expected {SCALE}")
    ft_shape = arrays["ft_weight"].shape
    if len(ft_shape) != 2 or ft_shape[0] != inputs or not 1 <= ft_shape[1] <= MAX_HIDDEN:
        raise _refuse(source, f"ft_weight has shape {ft_shape}, expected ({inputs}, H) "
                              f"with 1 <= H <= {MAX_HIDDEN}")  # fmt: skip
    base = BASE_NONE
    if BASE_KEY in arrays:
        raw_base = arrays[BASE_KEY]
        if raw_base.size != 1 or raw_base.dtype.kind not in "iu":
            raise _refuse(source, f"base must hold one integer, got shape {raw_base.shape} "
                                  f"{raw_base.dtype}")  # fmt: skip
        base = int(raw_base.reshape(-1)[0])
        if base not in (BASE_NONE, BASE_HCE):
            raise _refuse(source, f"base {base} is unknown (0: a pure net, 1: residual on "
                                  f"the classical evaluation)")  # fmt: skip
    hidden = int(ft_shape[1])
    ft_weight = _float_array(arrays, "ft_weight", (inputs, hidden), source)
    ft_bias = _float_array(arrays, "ft_bias", (hidden,), source)
    out_shape = arrays["out_weight"].shape
    if len(out_shape) == 1:
        # The first version's single output: one bucket.
        out_weight = _float_array(arrays, "out_weight", (2 * hidden,), source).reshape(1, -1)
        out_bias = _float_array(arrays, "out_bias", (1,), source)
    else:
        buckets = int(out_shape[0]) if len(out_shape) == 2 else 0
        if len(out_shape) == 2 and out_shape[1] == 2 * hidden and buckets > MAX_BUCKETS:
            raise _refuse(source, f"{buckets} output buckets (out_weight {out_shape}), expected "
                                  f"1 <= B <= {MAX_BUCKETS}")  # fmt: skip
        if len(out_shape) != 2 or out_shape[1] != 2 * hidden or not 1 <= buckets <= MAX_BUCKETS:
            raise _refuse(source, f"out_weight has shape {out_shape}, expected ({2 * hidden},) "
                                  f"or (B, {2 * hidden}) with 1 <= B <= {MAX_BUCKETS}")  # fmt: skip
        out_weight = _float_array(arrays, "out_weight", (buckets, 2 * hidden), source)
        out_bias = _float_array(arrays, "out_bias", (buckets,), source)
    return NetArrays(ft_weight, ft_bias, out_weight, out_bias, base, table, mirror)


def quantise(arrays: dict[str, np.ndarray], source: str = "<arrays>") -> Net:
    """Check a net's float arrays against the spec and quantise them (NetFileError if unfit)."""
    return _quantised(check(arrays, source), source)


def _quantised(net: NetArrays, source: str) -> Net:
    """The core's integer net of checked arrays."""
    out_bias_q = np.rint(net.out_bias.astype(np.float64) * QA * QB).astype(np.int64)
    return Net(
        ft_weight=np.ascontiguousarray(np.rint(net.ft_weight * QA).astype(np.int16)),
        ft_bias=np.ascontiguousarray(np.rint(net.ft_bias * QA).astype(np.int16)),
        out_weight=np.ascontiguousarray(np.rint(net.out_weight * QB).astype(np.int16)),
        out_bias=np.ascontiguousarray(out_bias_q),
        source=source,
        base=net.base,
        king_map=NO_KING_MAP if net.king_buckets is None else king_map(net.king_buckets,
                                                                       net.king_mirror),
    )


def king_map(table: np.ndarray, mirror: int) -> np.ndarray:
    """``Net.king_map`` of a checked king-bucket table and mirror flag."""
    squares = np.arange(64)
    flips = np.where((squares % 8 >= 4) & (mirror == 1), 7, 0)
    used = table.astype(np.int64)[squares ^ flips]
    return np.ascontiguousarray(np.stack([used * N_INPUTS, flips]).astype(np.int64))


def _king_layout(arrays: dict[str, np.ndarray], source: str) -> tuple[np.ndarray, int, int]:
    """A format-2 file's ``king_buckets`` (int64) and ``king_mirror``, checked, and the
    number of buckets."""
    missing = [name for name in KING_KEYS if name not in arrays]
    if missing:
        raise _refuse(source, f"format {FORMAT_KINGS} without {', '.join(missing)}")
    table = arrays["king_buckets"]
    if table.shape != (64,) or table.dtype.kind not in "iu":
        raise _refuse(source, f"king_buckets has shape {table.shape} {table.dtype}, "
                              f"expected (64,) integers")  # fmt: skip
    mirror_raw = arrays["king_mirror"]
    if mirror_raw.size != 1 or mirror_raw.dtype.kind not in "iu":
        raise _refuse(source, "king_mirror must hold one integer (0 or 1)")
    mirror = int(mirror_raw.reshape(-1)[0])
    if mirror not in (0, 1):
        raise _refuse(source, f"king_mirror {mirror}, expected 0 or 1")
    squares = np.arange(64)
    flips = np.where((squares % 8 >= 4) & (mirror == 1), 7, 0)
    # The buckets are those a king can read (with the mirror, files a-d's entries); the
    # spec keeps every entry among them, so the file reads the same for the trainer.
    used = table.astype(np.int64)[squares ^ flips]
    kings = int(used.max()) + 1
    if int(table.min()) < 0 or int(table.max()) >= min(kings, MAX_KING_BUCKETS):
        raise _refuse(source, f"king_buckets holds values outside 0..{kings - 1} (at most "
                              f"{MAX_KING_BUCKETS} buckets)")  # fmt: skip
    if len(set(used.tolist())) != kings:
        raise _refuse(source, f"king_buckets uses buckets {sorted(set(used.tolist()))}: it "
                              f"does not use every bucket 0..{kings - 1}")  # fmt: skip
    return table.astype(np.int64), mirror, kings


def read_net(path: str | os.PathLike[str]) -> NetArrays:
    """Read and check a ``.npz`` net file; a one-line NetFileError if it is unusable."""
    source = str(path)
    if not source:
        raise NetFileError("net file: no path given")
    if not os.path.isfile(source):
        raise _refuse(source, "no such file")
    try:
        data = np.load(source, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise _refuse(source, "not an .npz archive (a single array)")
        with data:
            arrays = {name: np.asarray(data[name]) for name in data.files}
    except (OSError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise _refuse(source, f"not a readable .npz archive ({type(exc).__name__})") from None
    except ValueError as exc:
        if str(exc).startswith("net file"):
            raise
        raise _refuse(source, "not a readable .npz archive (pickled or corrupt data)") from None
    return check(arrays, source)


def load_net(path: str | os.PathLike[str]) -> Net:
    """Read and quantise a ``.npz`` net file; a one-line NetFileError if it is unusable."""
    return _quantised(read_net(path), str(path))


def write_net(path: str | os.PathLike[str], net: NetArrays) -> None:
    """Write ``net`` as the spec's .npz (float32, scale 400; format 2 with king buckets; a
    single output bucket in the first version's shapes; ``base`` only for a residual net),
    whole: through a temporary file beside it, so an interrupted write leaves no half net."""
    buckets = net.out_weight.shape[0]
    out_weight = net.out_weight.astype(np.float32)
    # Any: numpy's stubs match ** keywords against savez's own bool parameter too.
    arrays: dict[str, Any] = {
        "ft_weight": net.ft_weight.astype(np.float32),
        "ft_bias": net.ft_bias.astype(np.float32),
        "out_weight": out_weight[0] if buckets == 1 else out_weight,
        "out_bias": net.out_bias.astype(np.float32).reshape(buckets),
        "scale": np.array([SCALE], dtype=np.float32),
        "format": np.array([FORMAT if net.king_buckets is None else FORMAT_KINGS], np.int64),
    }
    if net.king_buckets is not None:
        arrays["king_buckets"] = net.king_buckets.astype(np.int64)
        arrays["king_mirror"] = np.array([net.king_mirror], dtype=np.int64)
    if net.base != BASE_NONE:
        arrays[BASE_KEY] = np.array([net.base], dtype=np.int64)
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    with tmp.open("wb") as handle:
        np.savez(handle, **arrays)
    tmp.replace(target)


def default_net_path() -> Path | None:
    """The packaged net, if this install ships one."""
    return DEFAULT_NET if DEFAULT_NET.is_file() else None
