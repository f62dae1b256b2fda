"""``plies train``: a small learnt evaluation (NNUE-style) fit to scored positions.

The network, its features, its file format and its training target are fixed by
the contract in ``docs/nnue-spec.md``; the compiled core reads what this writes.
"""
