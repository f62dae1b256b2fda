"""Fonts for picture captions: Pillow's bundled scalable font, with a bitmap fallback."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=16)
def font(size: int) -> Font:
    """A font of about ``size`` pixels (Pillow's default; bitmap when FreeType is missing)."""
    try:
        return ImageFont.load_default(size=size)
    except (OSError, ImportError, TypeError):
        return ImageFont.load_default()


def text_size(text: str, size: int) -> tuple[int, int]:
    """Width and height in pixels of ``text`` drawn at ``size``."""
    left, top, right, bottom = font(size).getbbox(text)
    return int(right - left), int(bottom - top)
