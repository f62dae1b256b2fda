"""Pictures where people look: the PNG bytes of Jupyter's rich display (``_repr_png_``)."""

from __future__ import annotations

import io

from PIL import Image


def png_bytes(picture: Image.Image) -> bytes:
    """Return ``picture`` encoded as PNG, as a ``_repr_png_`` hook hands it to Jupyter."""
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()
