"""Texel tuning of the evaluation: positions with results in, a weights module out.

``dataset`` reads datagen (or EPD) lines and traces them into a sparse count
matrix once; ``fit`` fits the sigmoid scale K and then the weights (Adam, or damped
Gauss-Newton steps, on the mean squared error); ``weights_file`` writes and reads
``core/weights.py``.
"""

OPTIMIZERS = ("adam", "newton")
"""The optimisers ``plies tune`` offers (see ``plies.learn.tune.fit.Settings.optimizer``)."""
