"""Alpha-beta to depth 4 over material and piece-square tables, captures searched first.

Same answers as minimax at the same depth, for a fraction of the positions: a line
that is already worse than one found before is cut off.

Play it:  plies arena examples/minds/alphabeta4.py examples/minds/minimax2.py --games 4 --depth 1
"""

from evaluation import MATE, evaluate

DEPTH = 4
INFINITY = 2 * MATE


def ordered(board):
    """Legal moves, captures first: good moves early make more cut-offs."""
    return sorted(board.legal_moves, key=lambda move: not board.is_capture(move))


def alphabeta(board, depth, alpha, beta):
    """Negamax value of ``board`` within the window (alpha, beta)."""
    moves = ordered(board)
    if not moves and board.is_check():
        return -MATE - depth  # mated: the sooner (more depth left), the worse
    if depth == 0 or not moves:
        return evaluate(board)
    for move in moves:
        board.push(move)
        value = -alphabeta(board, depth - 1, -beta, -alpha)
        board.pop()
        if value >= beta:
            return value  # the opponent will never allow this line
        alpha = max(alpha, value)
    return alpha


def choose(board):
    """The move with the best alpha-beta value."""
    best_move, alpha = None, -INFINITY
    for move in ordered(board):
        board.push(move)
        value = -alphabeta(board, DEPTH - 1, -INFINITY, -alpha)
        board.pop()
        if value > alpha or best_move is None:
            best_move, alpha = move, value
    return best_move
