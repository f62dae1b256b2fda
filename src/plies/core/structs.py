"""The core's structref base, kept under its old name for the modules that import it here."""

from __future__ import annotations

from plies.jitstruct import CoreStruct, register

__all__ = ["CoreStruct", "register"]
