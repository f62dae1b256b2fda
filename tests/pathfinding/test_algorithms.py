"""Every algorithm against networkx: optimal costs, valid paths, "no path" answers."""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from typing import Any

import networkx as nx
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
    bidirectional_search,
    breadth_first_search,
    greedy_best_first_search,
    guarantees_optimal_cost,
    iterative_deepening_search,
    jump_point_search,
    random_grid,
    run_algorithm,
    uniform_cost_search,
    unsupported,
)
from plies.pathfinding.validate import (
    graph_path_cost,
    graph_path_problems,
    grid_path_cost,
    grid_path_problems,
)

Ref = Callable[..., Any]


@pytest.mark.parametrize(("name", "grid"), grid_cases(), ids=lambda v: v if isinstance(v, str)
                         else "")
def test_grid_algorithms_against_networkx(name: str, grid: Grid, reference_digraph: Ref) -> None:
    ref = reference_digraph(grid)
    for start, goal in endpoints(grid, zlib.crc32(name.encode()), 4):
        reachable = nx.has_path(ref, start, goal)
        best = nx.dijkstra_path_length(ref, start, goal) if reachable else None
        fewest = nx.shortest_path_length(ref, start, goal) if reachable else None
        problem = GridProblem(grid, start, goal)
        for alg in ALGORITHMS.values():
            if unsupported(alg, problem) is not None:
                continue
            result = run_algorithm(alg, problem)
            assert result.found == reachable, (alg.name, start, goal)
            if not reachable:
                assert result.status == "no path"
                continue
            assert result.path is not None
            assert grid_path_problems(grid, result.path, start, goal) == [], alg.name
            assert result.cost == pytest.approx(grid_path_cost(grid, result.path), abs=1e-9)
            assert best is not None
            assert result.cost >= best - 1e-9
            if guarantees_optimal_cost(alg, problem):
                assert result.cost == pytest.approx(best, abs=1e-9), (alg.name, start, goal)
            if alg.optimal == "steps":
                assert result.steps == fewest, alg.name
            assert result.expanded >= 0 and result.max_frontier >= 1
            assert len(result.expansion_order) <= max(result.expanded, 1)


def test_bfs_is_step_optimal_on_four_connected_grids(reference_digraph: Ref) -> None:
    for seed in range(15):
        grid = random_grid(16, 12, 0.3, seed=seed)
        ref = reference_digraph(grid)
        for start, goal in endpoints(grid, seed, 5):
            result = breadth_first_search(GridProblem(grid, start, goal))
            if nx.has_path(ref, start, goal):
                assert result.steps == nx.shortest_path_length(ref, start, goal)
                assert result.cost == result.steps
            else:
                assert not result.found


def test_jps_equals_astar_on_many_octile_grids() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(120):
        grid = random_grid(rng.randint(3, 24), rng.randint(3, 24), rng.choice([0.1, 0.3, 0.45]),
                           seed=seed, diagonal=True)
        for start, goal in endpoints(grid, seed, 3):
            problem = GridProblem(grid, start, goal)
            a, j = astar_search(problem), jump_point_search(problem)
            assert a.found == j.found
            if a.found:
                assert j.path is not None
                assert j.cost == pytest.approx(a.cost, abs=1e-9)
                assert grid_path_problems(grid, j.path, start, goal) == []
                assert j.expanded <= a.expanded + 1
                checked += 1
    assert checked > 200


def test_jps_refuses_four_connected_and_weighted_grids() -> None:
    with pytest.raises(PathfindingError, match="8-connected"):
        jump_point_search(GridProblem(Grid(3, 3), (0, 0), (2, 2)))
    weighted = Grid(3, 3, weights=[1, 2, 1, 1, 1, 1, 1, 1, 1], diagonal=True)
    with pytest.raises(PathfindingError, match="without cell weights"):
        jump_point_search(GridProblem(weighted, (0, 0), (2, 2)))


@pytest.mark.parametrize("heuristic", ["octile", "manhattan", "euclidean", "zero"])
@pytest.mark.parametrize("diagonal", [False, True])
def test_fast_kernel_expands_exactly_like_the_generic_search(heuristic: str, diagonal: bool
                                                             ) -> None:
    grid = random_grid(40, 30, 0.3, seed=9, diagonal=diagonal)
    cells = grid.free_cells()
    problem = GridProblem(grid, cells[0], cells[-1], heuristic)
    for search in (astar_search, uniform_cost_search, greedy_best_first_search):
        fast, generic = search(problem), search(problem, engine="python")
        assert fast.cost == generic.cost
        assert fast.expanded == generic.expanded
        assert fast.max_frontier == generic.max_frontier
        assert list(fast.expansion_order) == list(generic.expansion_order)
        assert sorted(fast.frontier) == sorted(generic.frontier)


def test_astar_with_manhattan_on_an_octile_grid_is_flagged_not_optimal() -> None:
    grid = random_grid(30, 30, 0.2, seed=4, diagonal=True)
    cells = grid.free_cells()
    problem = GridProblem(grid, cells[0], cells[-1], "manhattan")
    assert not problem.heuristic_admissible
    assert not guarantees_optimal_cost(ALGORITHMS["astar"], problem)
    assert astar_search(problem).cost >= uniform_cost_search(problem).cost - 1e-9


def test_astar_reopens_closed_nodes_for_an_inconsistent_heuristic() -> None:
    # Admissible but inconsistent: A* must still return the cheapest path.
    graph = Graph(directed=True)
    for u, v, w in [("s", "a", 1), ("s", "b", 4), ("a", "b", 1), ("b", "c", 1), ("c", "t", 5),
                    ("a", "t", 9)]:
        graph.add_edge(u, v, w)

    class Tricky(GraphProblem):
        """h(a) is far too optimistic compared with h(s)."""

        def heuristic(self, state: Any) -> float:
            return {"s": 7.0, "a": 0.0, "b": 6.0, "c": 5.0, "t": 0.0}[state]

    result = astar_search(Tricky(graph, "s", "t"))
    assert result.cost == 8.0
    assert result.path == ["s", "a", "b", "c", "t"]


def graph_cases() -> list[Graph]:
    """Random weighted graphs, directed and not, some with coordinates."""
    out = []
    rng = random.Random(7)
    for i in range(16):
        directed = i % 2 == 1
        g = Graph(directed)
        n = rng.randint(5, 40)
        pos = {k: (rng.uniform(0, 10), rng.uniform(0, 10)) for k in range(n)}
        for k in range(n):
            g.add_node(k, pos[k] if i % 4 < 2 else None)
        for _ in range(rng.randint(n, 3 * n)):
            u, v = rng.randrange(n), rng.randrange(n)
            if u != v:
                d = ((pos[u][0] - pos[v][0]) ** 2 + (pos[u][1] - pos[v][1]) ** 2) ** 0.5
                g.add_edge(u, v, round(d * rng.uniform(0.5, 2.0), 3))
        out.append(g)
    return out


@pytest.mark.parametrize("graph", graph_cases(), ids=lambda g: repr(g))
def test_graph_algorithms_against_networkx(graph: Graph, reference_graph: Ref) -> None:
    ref = reference_graph(graph)
    rng = random.Random(len(graph))
    nodes = graph.nodes
    for _ in range(6):
        start, goal = rng.choice(nodes), rng.choice(nodes)
        reachable = nx.has_path(ref, start, goal)
        problem = GraphProblem(graph, start, goal)
        for alg in ALGORITHMS.values():
            if unsupported(alg, problem) is not None:
                continue
            result = run_algorithm(alg, problem)
            assert result.found == reachable, alg.name
            if not reachable:
                continue
            assert result.path is not None
            assert graph_path_problems(graph, result.path, start, goal) == []
            assert result.cost == pytest.approx(graph_path_cost(graph, result.path))
            if guarantees_optimal_cost(alg, problem):
                assert result.cost == pytest.approx(
                    nx.dijkstra_path_length(ref, start, goal), abs=1e-9), alg.name
            if alg.optimal == "steps":
                assert result.steps == nx.shortest_path_length(ref, start, goal), alg.name


def test_scaled_euclidean_heuristic_is_consistent() -> None:
    for graph in graph_cases():
        if not graph.has_coordinates:
            continue
        problem = GraphProblem(graph, graph.nodes[0], graph.nodes[-1])
        assert 0.0 < problem.heuristic_scale <= 1.0
        for u, v, w in graph.edges():
            assert problem.heuristic(u) <= w + problem.heuristic(v) + 1e-9
            if not graph.directed:
                assert problem.heuristic(v) <= w + problem.heuristic(u) + 1e-9


def test_start_equal_to_goal() -> None:
    grid = Grid.from_rows(["...", "..."])
    problem = GridProblem(grid, (1, 1), (1, 1))
    for alg in ALGORITHMS.values():
        if unsupported(alg, problem) is None:
            result = run_algorithm(alg, problem)
            assert result.path == [(1, 1)] and result.cost == 0.0, alg.name


def test_iterative_deepening_gives_up_within_its_budget() -> None:
    grid = random_grid(30, 30, 0.1, seed=1)
    cells = grid.free_cells()
    result = iterative_deepening_search(GridProblem(grid, cells[0], cells[-1]),
                                        max_expansions=500)
    assert result.status == "gave up" and result.expanded == 500 and result.path is None


def test_bidirectional_on_a_directed_cycle() -> None:
    graph = Graph(directed=True)
    for u, v in [("s", "a"), ("a", "t"), ("t", "b"), ("b", "s")]:
        graph.add_edge(u, v, 1)
    assert bidirectional_search(GraphProblem(graph, "t", "a")).path == ["t", "b", "s", "a"]


def test_the_algorithms_live_on_the_shared_registry() -> None:
    """Names and aliases come from one plies.registry.Registry; the mapping is read-only."""
    from plies.pathfinding.algorithms.registry import PATH_ALGORITHMS, get_algorithm

    assert tuple(ALGORITHMS) == PATH_ALGORITHMS.builtin_names()
    assert get_algorithm("Dijkstra") is ALGORITHMS["ucs"]
    assert get_algorithm("a*").title == "A*"
    with pytest.raises(PathfindingError, match=r"unknown algorithm 'quantum' \(choose from dfs"):
        get_algorithm("quantum")
    with pytest.raises(TypeError):
        ALGORITHMS["new"] = ALGORITHMS["ucs"]  # type: ignore[index]
