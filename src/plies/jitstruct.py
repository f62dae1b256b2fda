"""The base of the compiled types (numba structrefs): fields of one fixed type each.

``register`` replaces ``numba.experimental.structref.register`` for the hot
types (the chess core's position, table, search stack and info block, the
path-finding kernels' terrain, sides and runs). It defines the same field
access, and also lets functions compiled with ``_nrt=False`` read every field
and write the scalar ones: such functions update no reference counts at all.
Why: numba's field read increfs the array it returns and decrefs it at the
end of the function, each an out-of-line atomic ``NRT_incref``/``NRT_decref``
call, which would be most of the cost of a make/unmake pair. A function compiled
without NRT may not allocate, and may only hold references that outlive it (the
position's arrays outlive every move).
"""

from __future__ import annotations

from typing import Any

from numba.core import cgutils, imputils, types
from numba.core.datamodel import default_manager, models
from numba.core.extending import infer_getattr, lower_getattr_generic, lower_setattr_generic
from numba.core.runtime.nrtdynmod import _meminfo_struct_type
from numba.core.typing.templates import AttributeTemplate

_MEMINFO_DATA = 3
"""Index of the data pointer in numba's MemInfo struct (refct, dtor, dtor_info, data, ...)."""


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


def _payload(context: Any, builder: Any, typ: Any, val: Any) -> Any:
    """A getter/setter proxy over the payload of structref ``val``, read without NRT calls."""
    ref = cgutils.create_struct_proxy(typ)(context, builder, value=val)
    mi = builder.bitcast(ref.meminfo, _meminfo_struct_type.as_pointer())
    data = builder.load(cgutils.gep(builder, mi, 0, _MEMINFO_DATA))
    model = context.data_model_manager[typ.get_data_type()]
    ptr = builder.bitcast(data, model.get_value_type().as_pointer())
    return cgutils.create_struct_proxy(typ.get_data_type())(context, builder, ref=ptr)


def register(struct_type: type[types.StructRef]) -> type[types.StructRef]:
    """Register a structref type whose fields also work in ``_nrt=False`` functions."""
    default_manager.register(struct_type, models.StructRefModel)

    @infer_getattr
    class _Attributes(AttributeTemplate):  # type: ignore[misc]
        """Field types of ``struct_type``."""

        key = struct_type

        def generic_resolve(self, typ: Any, attr: str) -> Any:
            """The type of field ``attr``."""
            return typ.field_dict.get(attr)

    @lower_getattr_generic(struct_type)
    def _get(context: Any, builder: Any, typ: Any, val: Any, attr: str) -> Any:
        """Read a field (a new reference only where NRT is on)."""
        ret = getattr(_payload(context, builder, typ, val), attr)
        return imputils.impl_ret_borrowed(context, builder, typ.field_dict[attr], ret)

    @lower_setattr_generic(struct_type)
    def _set(context: Any, builder: Any, sig: Any, args: Any, attr: str) -> None:
        """Write a field, keeping reference counts right where NRT is on."""
        inst_type, val_type = sig.args
        instance, val = args
        field_type = inst_type.field_dict[attr]
        payload = _payload(context, builder, inst_type, instance)
        casted = context.cast(builder, val, val_type, field_type)
        if context.enable_nrt:
            old = getattr(payload, attr)
            context.nrt.incref(builder, field_type, casted)
            context.nrt.decref(builder, field_type, old)
        elif context.data_model_manager[field_type].has_nrt_meminfo():
            raise TypeError(f"field {attr!r} holds a reference: set it only where NRT is on")
        setattr(payload, attr, casted)

    return struct_type

