"""The compiled chess core: plain numba functions over numpy arrays.

Nothing here is called per search node from Python: the Python layers call in a
few times per user action. See ``types`` for the move and position layouts.
"""
