"""Matches between agents and outside engines: games, clocks, openings, Elo and SPRT, PGN.

- ``players``: what plays (a plies agent, a UCI engine process) from a spec;
- ``referee``, ``clock``, ``openings``: one game under a time control from an opening;
- ``match``: a schedule of paired games on worker threads; ``runner.run_match`` runs
  it here or, through ``remote`` and ``cluster``, on a Ray cluster;
- ``stats``, ``pairs``, ``pentanomial``, ``gsprt``, ``sprtlog``: Elo, game pairs, the one
  SPRT of ``plies arena --sprt`` and ``plies sprt``, and its log;
- ``rating``, ``standings``, ``league``: joint maximum-likelihood ratings of a pool, league
  standings with a crosstable (terminal, Markdown, HTML, Jupyter), and the league file
  that keeps every result so a league grows and resumes;
- ``pgn``, ``report``: the one writer of game records (PGN, for the arena, the terminal
  and the web) and the lines a match prints;
- ``builds``: other versions of plies checked out to play against.
"""
