"""The base of the core's compiled types (numba structrefs): fields of one fixed type each."""

from __future__ import annotations

from numba.core import types


class CoreStruct(types.StructRef):
    """A structref type whose fields never carry literal types.

    Without this, a field set from a literal (``ply=0``) would make a second,
    separately compiled type.
    """

    def preprocess_fields(
        self, fields: tuple[tuple[str, types.Type], ...]
    ) -> tuple[tuple[str, types.Type], ...]:
        """Drop literal types from the fields."""
        return tuple((name, types.unliteral(typ)) for name, typ in fields)
