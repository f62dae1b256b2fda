"""Whole-game analysis: every move searched and judged, annotated PGN, summaries and a graph."""

from plies.analysis.annotate import annotate
from plies.analysis.game_review import GameAnalysis, MoveReport, PositionEval, analyse_game
from plies.analysis.judgement import Judgement, judge, winning_chances
from plies.analysis.pgnfile import PgnFileError, Problem, read_games
from plies.analysis.summary import PlayerSummary, summarise

__all__ = [
    "GameAnalysis",
    "Judgement",
    "MoveReport",
    "PgnFileError",
    "PlayerSummary",
    "PositionEval",
    "Problem",
    "analyse_game",
    "annotate",
    "judge",
    "read_games",
    "summarise",
    "winning_chances",
]
