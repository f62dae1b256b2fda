"""Learning the evaluation from games: the data, its making and the two learners.

- ``lines``: the training-line format (``FEN | [score |] result``) and its one reader,
  compiled, used by both learners;
- ``split``: the game-aware validation split both learners use;
- ``epochs``: what a learner reports after each epoch;
- ``datagen``: seeded self-play that writes training lines (``plies datagen``);
- ``tune``: the Texel tuner of the classical evaluation's weights (``plies tune``);
- ``train``: the NNUE-style net trainer (``plies train``).
"""
