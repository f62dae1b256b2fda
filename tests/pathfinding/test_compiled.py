"""The compiled grid kernels against the readable Python versions and the Moving AI answers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tests.pathfinding.cases import endpoints, grid_cases

from plies.pathfinding import (
    ALGORITHMS,
    Graph,
    GraphProblem,
    Grid,
    GridProblem,
    PathfindingError,
    astar_search,
    load_map,
    load_scenarios,
    random_grid,
    run_algorithm,
    unsupported,
)
from plies.pathfinding.compiled import (
    COMPILED_ALGORITHMS,
    GridSearcher,
    optimal_here,
    searcher_for,
)
from plies.pathfinding.validate import grid_path_cost, grid_path_problems

DATA = Path(__file__).resolve().parents[1] / "data" / "pathfinding"
MOVING_AI = ("rooms.map", "arena.map", "den312d.map")
GRID_CASES = grid_cases()


def same_search(compiled: object, readable: object) -> None:
    """Assert two SearchResults describe the same search step for step."""
    a, b = compiled, readable
    assert a.found == b.found  # type: ignore[attr-defined]
    assert a.cost == b.cost  # type: ignore[attr-defined]
    assert a.path == b.path  # type: ignore[attr-defined]
    assert a.expanded == b.expanded  # type: ignore[attr-defined]
    assert a.max_frontier == b.max_frontier  # type: ignore[attr-defined]
    assert list(a.expansion_order) == list(b.expansion_order)  # type: ignore[attr-defined]
    assert sorted(a.frontier) == sorted(b.frontier)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "grid"), GRID_CASES, ids=[n for n, _ in GRID_CASES])
def test_every_kernel_repeats_the_readable_search_on_every_grid(name: str, grid: Grid) -> None:
    for k, (start, goal) in enumerate(endpoints(grid, len(name) * 7919, 4)):
        for heuristic in ("auto", "euclidean", "zero", "manhattan", "octile"):
            problem = GridProblem(grid, start, goal, heuristic)
            for alg in ALGORITHMS.values():
                if alg.name not in COMPILED_ALGORITHMS or unsupported(alg, problem):
                    continue
                if heuristic != "auto" and alg.name not in ("astar", "greedy", "bidir-astar"):
                    continue
                fast = run_algorithm(alg, problem, engine="compiled")
                slow = run_algorithm(alg, problem, engine="python")
                try:
                    same_search(fast, slow)
                except AssertionError as exc:
                    raise AssertionError(f"{alg.name} {heuristic} {start}->{goal} #{k}") from exc


@pytest.mark.parametrize("map_name", MOVING_AI)
def test_every_moving_ai_scenario_is_solved_at_the_optimal_length(map_name: str) -> None:
    grid = load_map(DATA / map_name)
    scenarios = load_scenarios(DATA / f"{map_name}.scen")
    starts = [s.start for s in scenarios]
    goals = [s.goal for s in scenarios]
    optimal = np.array([s.optimal for s in scenarios])
    searcher = GridSearcher(grid)
    for algorithm in COMPILED_ALGORITHMS:
        result = searcher.batch(algorithm, starts, goals)
        assert result.seconds.shape == (len(scenarios),) and (result.seconds >= 0).all()
        if optimal_here(algorithm, grid):
            assert np.abs(result.costs - optimal).max() < 1e-6, algorithm
        else:
            assert (result.costs >= optimal - 1e-6).all(), algorithm
    jps = searcher.batch("jps", starts, goals)
    astar = searcher.batch("astar", starts, goals)
    assert (jps.expanded <= astar.expanded + 1).all()


@pytest.mark.parametrize("map_name", MOVING_AI)
def test_moving_ai_expansions_match_the_readable_versions(map_name: str) -> None:
    grid = load_map(DATA / map_name)
    scenarios = load_scenarios(DATA / f"{map_name}.scen")[::9]
    searcher = GridSearcher(grid)
    for algorithm in COMPILED_ALGORITHMS:
        batch = searcher.batch(algorithm, [s.start for s in scenarios],
                               [s.goal for s in scenarios])
        for i, s in enumerate(scenarios):
            slow = run_algorithm(algorithm, GridProblem(grid, s.start, s.goal), False, "python")
            assert batch.costs[i] == slow.cost, (algorithm, s.where())
            assert batch.expanded[i] == slow.expanded, (algorithm, s.where())


def test_paths_are_valid_and_recorded_runs_match_unrecorded_ones() -> None:
    grid = load_map(DATA / "den312d.map")
    searcher = searcher_for(grid)
    for start, goal in endpoints(grid, 3, 6):
        for algorithm in COMPILED_ALGORITHMS:
            seen = searcher.run(algorithm, start, goal, record=True)
            quiet = searcher.run(algorithm, start, goal, record=False)
            assert (seen.cost, seen.expanded, seen.path) == (quiet.cost, quiet.expanded,
                                                              quiet.path)
            assert len(seen.expansion_order) == seen.expanded and not quiet.expansion_order
            if seen.path is not None:
                assert grid_path_problems(grid, seen.path, start, goal) == []
                assert seen.cost == pytest.approx(grid_path_cost(grid, seen.path), abs=1e-9)


def test_a_tiny_open_list_grows_and_gives_the_same_answers() -> None:
    grid = random_grid(60, 45, 0.2, seed=3, diagonal=True)
    roomy, tight = GridSearcher(grid), GridSearcher(grid, queue_capacity=4)
    queries = endpoints(grid, 5, 12)
    starts, goals = [a for a, _ in queries], [b for _, b in queries]
    for algorithm in ("ucs", "astar", "bidirectional", "bidir-astar", "jps"):
        a, b = roomy.batch(algorithm, starts, goals), tight.batch(algorithm, starts, goals)
        assert (a.costs == b.costs).all() and (a.expanded == b.expanded).all()
        one = tight.run(algorithm, starts[0], goals[0])
        assert one.cost == a.costs[0]
    assert tight.queue_capacity > 4


def test_batch_agrees_with_single_queries_and_reuse_leaves_no_trace() -> None:
    grid = random_grid(80, 50, 0.3, seed=8)
    searcher = GridSearcher(grid)
    queries = endpoints(grid, 9, 25)
    starts, goals = [a for a, _ in queries], [b for _, b in queries]
    for algorithm in COMPILED_ALGORITHMS:
        if algorithm == "jps":
            continue
        batch = searcher.batch(algorithm, starts, goals)
        for i, (start, goal) in enumerate(queries):
            fresh = GridSearcher(grid).run(algorithm, start, goal, record=False)
            assert batch.costs[i] == fresh.cost and batch.expanded[i] == fresh.expanded
        assert batch.found.sum() == sum(c < float("inf") for c in batch.costs)


def test_default_api_runs_compiled_and_python_is_selectable() -> None:
    grid = random_grid(30, 20, 0.2, seed=1, diagonal=True)
    problem = GridProblem(grid, *endpoints(grid, 2, 1)[0])
    assert searcher_for(grid) is searcher_for(grid)
    same_search(astar_search(problem), astar_search(problem, engine="python"))
    with pytest.raises(PathfindingError, match="unknown engine"):
        astar_search(problem, engine="fast")
    graph = Graph()
    graph.add_edge("a", "b", 1.0)
    with pytest.raises(PathfindingError, match="grid problems only"):
        astar_search(GraphProblem(graph, "a", "b"), engine="compiled")
    assert astar_search(GraphProblem(graph, "a", "b")).cost == 1.0


def test_bad_requests_get_one_line_errors() -> None:
    grid = Grid.from_rows(["..#", "..."])
    searcher = GridSearcher(grid)
    with pytest.raises(PathfindingError, match="no compiled 'dfs'"):
        searcher.run("dfs", (0, 0), (1, 1))
    with pytest.raises(PathfindingError, match="8-connected"):
        searcher.run("jps", (0, 0), (1, 1))
    with pytest.raises(PathfindingError, match="goal 2,0 is on a wall"):
        searcher.batch("astar", [(0, 0)], [(2, 0)])
    with pytest.raises(PathfindingError, match="start 5,5 is off"):
        searcher.run("bfs", (5, 5), (1, 1))
    with pytest.raises(PathfindingError, match="2 starts but 1 goals"):
        searcher.batch("astar", [(0, 0), (1, 0)], [(1, 1)])
    with pytest.raises(PathfindingError, match="unknown heuristic"):
        searcher.run("astar", (0, 0), (1, 1), heuristic="chebyshev")


