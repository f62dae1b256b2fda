"""Adam (with optional decoupled weight decay, AdamW) and the weights clipped to the spec's
range after every step."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from plies.learn.train.network import CLIP, Network

BETA1 = 0.9
BETA2 = 0.999
EPSILON = 1e-8


@njit(cache=True, nogil=True)
def _step(
    w: np.ndarray,
    g: np.ndarray,
    m: np.ndarray,
    v: np.ndarray,
    lr: float,
    t: int,
    decay: float,
    limit: float,
) -> None:
    """One AdamW step of the flat arrays (in place), then clip ``w`` to +-limit."""
    c1 = 1.0 - BETA1**t
    c2 = 1.0 - BETA2**t
    rate = lr * math.sqrt(c2) / c1
    for i in range(len(w)):
        m[i] = BETA1 * m[i] + (1.0 - BETA1) * g[i]
        v[i] = BETA2 * v[i] + (1.0 - BETA2) * g[i] * g[i]
        x = w[i] * (1.0 - lr * decay) - rate * m[i] / (math.sqrt(v[i]) + EPSILON)
        w[i] = min(max(x, -limit), limit)


class Adam:
    """Adam's moment estimates for every weight of one network."""

    def __init__(self, net: Network, decay: float = 0.0) -> None:
        """Zero moments shaped like ``net``; ``decay`` shrinks every weight by lr * decay
        of itself per step (decoupled from the gradient, as AdamW)."""
        self.decay = decay
        self.m = [np.zeros(a.size, dtype=a.dtype) for a in net.arrays()]
        self.v = [np.zeros(a.size, dtype=a.dtype) for a in net.arrays()]
        self.t = 0

    def step(self, net: Network, grads: tuple[np.ndarray, ...], lr: float) -> None:
        """Move ``net`` one step against ``grads`` (shaped like its arrays) at rate ``lr``."""
        self.t += 1
        for w, g, m, v in zip(net.arrays(), grads, self.m, self.v, strict=True):
            _step(w.reshape(-1), g.reshape(-1), m, v, lr, self.t, self.decay, CLIP)
