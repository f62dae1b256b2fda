"""Colours shared by every picture, and the gradient that shades expansion order."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

RGB = tuple[int, int, int]

BACKGROUND: RGB = (255, 255, 255)
FREE: RGB = (250, 249, 245)
HEAVY: RGB = (214, 196, 160)  # free cell of the largest weight
WALL: RGB = (45, 49, 66)
FRONTIER: RGB = (120, 205, 140)
PATH: RGB = (21, 101, 192)
PATH_HALO: RGB = (255, 255, 255)
START: RGB = (27, 158, 75)
GOAL: RGB = (214, 40, 40)
TEXT: RGB = (33, 37, 41)
MUTED: RGB = (108, 117, 125)
EDGE: RGB = (190, 190, 190)
NODE_OUTLINE: RGB = (120, 120, 120)

# Expansion order runs light to dark: early cells pale yellow, late ones plum.
_STOPS = np.array(
    [
        (255, 240, 170),
        (252, 196, 120),
        (240, 140, 110),
        (200, 90, 130),
        (130, 70, 140),
    ],
    dtype=float,
)


def gradient(t: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Colours for positions ``t`` in [0, 1] along the expansion gradient (shape (..., 3))."""
    arr = np.clip(np.asarray(t, dtype=float), 0.0, 1.0)
    pos = arr * (len(_STOPS) - 1)
    lo = np.minimum(pos.astype(int), len(_STOPS) - 2)
    frac = (pos - lo)[..., None]
    out = _STOPS[lo] * (1.0 - frac) + _STOPS[lo + 1] * frac
    result: npt.NDArray[np.uint8] = np.rint(out).astype(np.uint8)
    return result


def gradient_rgb(t: float) -> RGB:
    """One colour of the expansion gradient."""
    r, g, b = (int(v) for v in gradient(t))
    return (r, g, b)


def hex_colour(rgb: RGB) -> str:
    """``#rrggbb`` form of a colour (for terminal styles)."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)
