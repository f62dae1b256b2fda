"""Reading fields of a decoded JSON request, each with a one-line error when it is wrong."""

from __future__ import annotations

from typing import Any

from plies.web.errors import ApiError

#: Longest text field accepted (a FEN, a PGN of a long game, a Moving AI map).
MAX_TEXT = 400_000


def require_object(data: Any, what: str = "request") -> dict[str, Any]:
    """Return ``data`` if it is a JSON object, else raise ``ApiError``."""
    if not isinstance(data, dict):
        raise ApiError(f"{what} must be a JSON object")
    return data


def get_int(
    data: dict[str, Any], name: str, low: int, high: int, default: int | None = None
) -> int:
    """The integer field ``name`` within ``low..high`` (``default`` when absent)."""
    value = data.get(name, default)
    if value is None:
        raise ApiError(f"missing field {name!r}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(f"{name!r} must be an integer, not {type(value).__name__}")
    if not low <= value <= high:
        raise ApiError(f"{name!r} must be between {low} and {high}, got {value}")
    return value


def get_optional_int(data: dict[str, Any], name: str, low: int, high: int) -> int | None:
    """The integer field ``name`` within ``low..high``, or None when absent or null."""
    if data.get(name) is None:
        return None
    return get_int(data, name, low, high)


def get_str(
    data: dict[str, Any], name: str, default: str | None = None, max_len: int = MAX_TEXT
) -> str:
    """The string field ``name`` (``default`` when absent), at most ``max_len`` characters."""
    value = data.get(name, default)
    if value is None:
        raise ApiError(f"missing field {name!r}")
    if not isinstance(value, str):
        raise ApiError(f"{name!r} must be a string, not {type(value).__name__}")
    if len(value) > max_len:
        raise ApiError(f"{name!r} is too long ({len(value)} characters, at most {max_len})")
    return value


def get_bool(data: dict[str, Any], name: str, default: bool = False) -> bool:
    """The boolean field ``name`` (``default`` when absent)."""
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise ApiError(f"{name!r} must be true or false")
    return value


def get_choice(data: dict[str, Any], name: str, choices: tuple[str, ...], default: str) -> str:
    """The string field ``name``, which must be one of ``choices``."""
    value = get_str(data, name, default, max_len=64)
    if value not in choices:
        raise ApiError(f"{name!r} must be one of {', '.join(choices)}, got {value!r}")
    return value


def get_cell(data: dict[str, Any], name: str, width: int, height: int) -> tuple[int, int]:
    """The field ``name`` as an ``[x, y]`` cell inside a ``width`` x ``height`` grid."""
    value = data.get(name)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ApiError(f"{name!r} must be a cell [x, y]")
    x, y = value
    if not (0 <= x < width and 0 <= y < height):
        raise ApiError(f"{name!r} {x},{y} is outside the {width}x{height} grid")
    return x, y
