"""Generic game search: a ``Game`` protocol, minimax / alpha-beta / MCTS, and games to play.

Any two-player, zero-sum, perfect-information game that implements
:class:`~plies.games.protocol.Game` can be searched by every algorithm here and played
by every player. Tic-tac-toe (any m x n, k in a row) and connect four come with it;
chess plugs in through :mod:`plies.games.chessgame`.
"""

from __future__ import annotations

from plies.games.algorithms import SEARCHES, make_player
from plies.games.alphabeta import alphabeta
from plies.games.census import Census, census
from plies.games.connect4 import Connect4, Connect4State
from plies.games.deepening import iterative_deepening
from plies.games.guarantee import WorstCase, worst_case
from plies.games.match import play_match
from plies.games.mcts import mcts
from plies.games.minimax import minimax
from plies.games.negamax import negamax
from plies.games.protocol import WIN, BaseGame, Game, Ordering, Player, TextGame
from plies.games.search_players import (
    AlphaBetaPlayer,
    DeepeningPlayer,
    MCTSPlayer,
    MinimaxPlayer,
    NegamaxPlayer,
    PerfectPlayer,
    RandomPlayer,
    SearchPlayer,
)
from plies.games.solver import Solver
from plies.games.tictactoe import TicTacToe, TicTacToeState
from plies.games.ttable import TranspositionTable

__all__ = [
    "SEARCHES",
    "WIN",
    "AlphaBetaPlayer",
    "BaseGame",
    "Census",
    "Connect4",
    "Connect4State",
    "DeepeningPlayer",
    "Game",
    "MCTSPlayer",
    "MinimaxPlayer",
    "NegamaxPlayer",
    "Ordering",
    "PerfectPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "Solver",
    "TextGame",
    "TicTacToe",
    "TicTacToeState",
    "TranspositionTable",
    "WorstCase",
    "alphabeta",
    "census",
    "iterative_deepening",
    "make_player",
    "mcts",
    "minimax",
    "negamax",
    "play_match",
    "worst_case",
]
