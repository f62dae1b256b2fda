"""Evaluation weights in centipawns, middlegame (``_MG``) and endgame (``_EG``).

Written by ``plies tune``: 279768 training positions, K 0.006791, score weight 1.0
(score K 0.007660), only SAFE_CHECK* tuned (the rest as given), 81 epochs, loss 0.019819
-> 0.019622.
The layout (which tables, their order and index meaning) is ``plies.core.layout``;
``core/evaluate.py`` compiles these numbers in, and ``core/trace.py`` counts how
often each is used. Fixed, not tuned: the king-attack danger (units squared,
capped), the endgame scale factors and the game-phase weights (``core/evaluate.py``).
"""

TEMPO = 12


# pawn, knight, bishop, rook, queen
MATERIAL_MG = (85, 325, 335, 470, 950)
MATERIAL_EG = (105, 300, 320, 520, 960)

# piece-square table, White's view, rank 8 first (a diagram)
PSQT_PAWN_MG = (
       0,    0,    0,    0,    0,    0,    0,    0,
      30,   35,   40,   45,   45,   40,   35,   30,
      10,   12,   18,   25,   25,   18,   12,   10,
       2,    4,    8,   18,   18,    8,    4,    2,
      -2,    0,    5,   14,   14,    3,    0,   -2,
      -2,    2,    2,    4,    4,   -2,    4,   -2,
      -4,    2,    0,   -8,   -8,    6,    8,   -4,
       0,    0,    0,    0,    0,    0,    0,    0,
)
PSQT_PAWN_EG = (
       0,    0,    0,    0,    0,    0,    0,    0,
      45,   45,   40,   35,   35,   40,   45,   45,
      25,   25,   20,   15,   15,   20,   25,   25,
      12,   12,    8,    5,    5,    8,   12,   12,
       4,    4,    2,    0,    0,    2,    4,    4,
       0,    0,    0,    0,    0,    0,    0,    0,
       0,    0,    0,    2,    2,    0,    0,    0,
       0,    0,    0,    0,    0,    0,    0,    0,
)

# piece-square table, White's view, rank 8 first (a diagram)
PSQT_KNIGHT_MG = (
     -60,  -35,  -25,  -20,  -20,  -25,  -35,  -60,
     -30,  -15,    0,    5,    5,    0,  -15,  -30,
     -20,    5,   15,   20,   20,   15,    5,  -20,
     -15,    5,   15,   25,   25,   15,    5,  -15,
     -15,    0,   12,   18,   18,   12,    0,  -15,
     -20,    0,   10,   10,   10,   10,    0,  -20,
     -30,  -15,    0,    2,    2,    0,  -15,  -30,
     -50,  -25,  -20,  -15,  -15,  -20,  -25,  -50,
)
PSQT_KNIGHT_EG = (
     -45,  -30,  -20,  -15,  -15,  -20,  -30,  -45,
     -25,  -10,   -5,    0,    0,   -5,  -10,  -25,
     -20,   -5,    5,   10,   10,    5,   -5,  -20,
     -15,    0,   10,   15,   15,   10,    0,  -15,
     -15,    0,   10,   15,   15,   10,    0,  -15,
     -20,   -5,    5,   10,   10,    5,   -5,  -20,
     -25,  -10,   -5,    0,    0,   -5,  -10,  -25,
     -45,  -30,  -20,  -15,  -15,  -20,  -30,  -45,
)

# piece-square table, White's view, rank 8 first (a diagram)
PSQT_BISHOP_MG = (
     -15,  -10,  -10,  -10,  -10,  -10,  -10,  -15,
     -10,    0,    0,    0,    0,    0,    0,  -10,
      -8,    4,    6,    8,    8,    6,    4,   -8,
      -6,    6,    6,   10,   10,    6,    6,   -6,
      -6,    4,   10,   10,   10,   10,    4,   -6,
      -4,   10,    8,    8,    8,    8,   10,   -4,
      -6,   12,    4,    2,    2,    4,   12,   -6,
     -15,   -6,  -10,   -8,   -8,  -10,   -6,  -15,
)
PSQT_BISHOP_EG = (
     -12,   -8,   -6,   -4,   -4,   -6,   -8,  -12,
      -8,   -2,    0,    2,    2,    0,   -2,   -8,
      -6,    0,    4,    6,    6,    4,    0,   -6,
      -4,    2,    6,    8,    8,    6,    2,   -4,
      -4,    2,    6,    8,    8,    6,    2,   -4,
      -6,    0,    4,    6,    6,    4,    0,   -6,
      -8,   -2,    0,    2,    2,    0,   -2,   -8,
     -12,   -8,   -6,   -4,   -4,   -6,   -8,  -12,
)

# piece-square table, White's view, rank 8 first (a diagram)
PSQT_ROOK_MG = (
       5,    5,    8,   10,   10,    8,    5,    5,
      15,   20,   20,   20,   20,   20,   20,   15,
      -4,    0,    2,    4,    4,    2,    0,   -4,
      -6,   -2,    0,    2,    2,    0,   -2,   -6,
      -6,   -2,    0,    2,    2,    0,   -2,   -6,
      -6,   -2,    0,    2,    2,    0,   -2,   -6,
      -8,   -4,    0,    2,    2,    0,   -4,   -8,
      -4,   -2,    2,    6,    6,    4,   -2,   -4,
)
PSQT_ROOK_EG = (
       8,    8,    8,    8,    8,    8,    8,    8,
      12,   12,   12,   12,   12,   12,   12,   12,
       4,    4,    4,    4,    4,    4,    4,    4,
       2,    2,    2,    2,    2,    2,    2,    2,
       0,    0,    0,    0,    0,    0,    0,    0,
      -2,   -2,   -2,   -2,   -2,   -2,   -2,   -2,
      -4,   -4,   -4,   -4,   -4,   -4,   -4,   -4,
      -4,   -4,   -2,    0,    0,   -2,   -4,   -4,
)

# piece-square table, White's view, rank 8 first (a diagram)
PSQT_QUEEN_MG = (
     -15,  -10,   -5,   -2,   -2,   -5,  -10,  -15,
     -10,   -6,    0,    0,    0,    0,   -6,  -10,
      -6,    0,    4,    4,    4,    4,    0,   -6,
      -4,    0,    4,    6,    6,    4,    0,   -4,
      -4,    0,    4,    6,    6,    4,    0,   -4,
      -6,    2,    4,    4,    4,    4,    2,   -6,
     -10,   -4,    2,    2,    2,    0,   -4,  -10,
     -15,  -10,   -6,    0,   -4,   -6,  -10,  -15,
)
PSQT_QUEEN_EG = (
     -20,  -12,   -8,   -5,   -5,   -8,  -12,  -20,
     -12,   -4,    0,    2,    2,    0,   -4,  -12,
      -8,    0,    6,    8,    8,    6,    0,   -8,
      -5,    2,    8,   12,   12,    8,    2,   -5,
      -5,    2,    8,   12,   12,    8,    2,   -5,
      -8,    0,    6,    8,    8,    6,    0,   -8,
     -12,   -4,    0,    2,    2,    0,   -4,  -12,
     -20,  -12,   -8,   -5,   -5,   -8,  -12,  -20,
)

# piece-square table, White's view, rank 8 first (a diagram)
PSQT_KING_MG = (
     -50,  -55,  -60,  -70,  -70,  -60,  -55,  -50,
     -45,  -50,  -55,  -65,  -65,  -55,  -50,  -45,
     -40,  -45,  -50,  -60,  -60,  -50,  -45,  -40,
     -35,  -40,  -45,  -55,  -55,  -45,  -40,  -35,
     -25,  -30,  -35,  -45,  -45,  -35,  -30,  -25,
     -15,  -20,  -25,  -30,  -30,  -25,  -20,  -15,
       5,    5,  -10,  -20,  -20,  -10,    5,    5,
      15,   25,   10,  -10,    0,   -5,   30,   20,
)
PSQT_KING_EG = (
     -50,  -35,  -25,  -20,  -20,  -25,  -35,  -50,
     -30,  -10,    0,    5,    5,    0,  -10,  -30,
     -20,    5,   15,   20,   20,   15,    5,  -20,
     -20,    5,   20,   28,   28,   20,    5,  -20,
     -25,    0,   15,   25,   25,   15,    0,  -25,
     -30,   -5,    8,   15,   15,    8,   -5,  -30,
     -40,  -20,   -5,    0,    0,   -5,  -20,  -40,
     -60,  -40,  -30,  -25,  -25,  -30,  -40,  -60,
)

# per isolated pawn
ISOLATED_MG = -12
ISOLATED_EG = -16

# per pawn with a friendly pawn in front of it
DOUBLED_MG = -10
DOUBLED_EG = -22

# per pawn defended by or beside a pawn, by relative rank, index 0 = rank 1
CONNECTED_MG = (0, 0, 6, 8, 14, 24, 40, 0)
CONNECTED_EG = (0, 0, 3, 5, 10, 20, 30, 0)

# per passed pawn, by relative rank, index 0 = rank 1
PASSED_MG = (0, 4, 6, 12, 24, 45, 70, 0)
PASSED_EG = (0, 10, 14, 28, 50, 85, 130, 0)

# subtracted per blocked passed pawn, by relative rank, index 0 = rank 1
PASSED_BLOCKED_MG = (0, 0, 0, 0, 0, 0, 0, 0)
PASSED_BLOCKED_EG = (0, 5, 7, 14, 25, 42, 65, 0)

# per step, their king to the stop square, by relative rank, index 0 = rank 1
PASSED_THEIR_KING_MG = (0, 0, 0, 0, 0, 0, 0, 0)
PASSED_THEIR_KING_EG = (0, 0, 0, 5, 10, 20, 30, 0)

# per step, our king to the stop square, by relative rank, index 0 = rank 1
PASSED_OUR_KING_MG = (0, 0, 0, 0, 0, 0, 0, 0)
PASSED_OUR_KING_EG = (0, 0, 0, -2, -4, -8, -12, 0)

# by number of safe squares reached
MOBILITY_KNIGHT_MG = (-30, -18, -8, -2, 3, 8, 12, 15, 18)
MOBILITY_KNIGHT_EG = (-35, -22, -12, -4, 2, 8, 12, 15, 16)

# by number of safe squares reached
MOBILITY_BISHOP_MG = (
     -30,  -20,  -10,   -4,    2,    7,   12,   16,   19,   22,
      24,   26,   28,   30,
)
MOBILITY_BISHOP_EG = (
     -40,  -26,  -14,   -6,    0,    6,   11,   16,   20,   23,
      26,   28,   30,   32,
)

# by number of safe squares reached
MOBILITY_ROOK_MG = (
     -20,  -14,   -9,   -5,   -2,    0,    2,    4,    6,    8,
      10,   11,   12,   13,   14,
)
MOBILITY_ROOK_EG = (
     -40,  -28,  -18,  -10,   -3,    3,    9,   15,   20,   25,
      29,   32,   35,   37,   39,
)

# by number of safe squares reached
MOBILITY_QUEEN_MG = (
     -20,  -15,  -11,   -8,   -5,   -3,   -1,    1,    3,    5,
       6,    7,    8,    9,   10,   11,   12,   13,   14,   15,
      16,   16,   17,   17,   18,   18,   19,   19,
)
MOBILITY_QUEEN_EG = (
     -35,  -28,  -22,  -17,  -12,   -8,   -4,    0,    3,    6,
       9,   12,   15,   18,   20,   22,   24,   26,   28,   30,
      32,   33,   34,   35,   36,   37,   38,   39,
)

# per own pawn one rank in front of the king
SHIELD_NEAR_MG = 14
SHIELD_NEAR_EG = 0

# per own pawn two ranks in front of the king
SHIELD_FAR_MG = 7
SHIELD_FAR_EG = 0

# per king-side file without own pawns
KING_SEMI_OPEN_FILE_MG = -14
KING_SEMI_OPEN_FILE_EG = 0

# per king-side file without any pawns
KING_OPEN_FILE_MG = -10
KING_OPEN_FILE_EG = 0

# two or more bishops
BISHOP_PAIR_MG = 30
BISHOP_PAIR_EG = 50

# per rook on a file without pawns
ROOK_OPEN_MG = 28
ROOK_OPEN_EG = 10

# per rook on a file without own pawns
ROOK_SEMI_OPEN_MG = 12
ROOK_SEMI_OPEN_EG = 8

# per enemy piece attacked by a pawn
THREAT_BY_PAWN_MG = 55
THREAT_BY_PAWN_EG = 35

# per enemy rook or queen attacked by a minor
THREAT_BY_MINOR_MG = 35
THREAT_BY_MINOR_EG = 25

# per enemy queen attacked by a rook
THREAT_BY_ROOK_MG = 30
THREAT_BY_ROOK_EG = 15

# per enemy piece attacked and not defended
HANGING_MG = 30
HANGING_EG = 20

# per square not defended by them that checks their king, reached by a knight
SAFE_CHECK_KNIGHT_MG = 48
SAFE_CHECK_KNIGHT_EG = 5

# per square not defended by them that checks their king, reached by a bishop
SAFE_CHECK_BISHOP_MG = 12
SAFE_CHECK_BISHOP_EG = 16

# per square not defended by them that checks their king, reached by a rook
SAFE_CHECK_ROOK_MG = 35
SAFE_CHECK_ROOK_EG = 10

# per square not defended by them that checks their king, reached by a queen
SAFE_CHECK_QUEEN_MG = 26
SAFE_CHECK_QUEEN_EG = 20
