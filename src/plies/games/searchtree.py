"""The tree a search walks, recorded and drawn: the textbook picture of minimax and alpha-beta.

:func:`search_tree` runs minimax or alpha-beta the textbook way, MAX (the player to move
at the root) against MIN, with every value from MAX's side, and keeps every node it
visits. Alpha-beta's window starts at [-1, +1] as in :func:`~plies.games.alphabeta.alphabeta`
(nothing beats a proven win), so the two visit the same nodes. Actions a cutoff skipped are
kept as pruned branches. The result draws itself as SVG in Jupyter: MAX nodes as
upward triangles, MIN nodes downward, ends as squares, each edge labelled with its
action and the value that came back along it, pruned branches grey and dashed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape

from plies.games.algorithms import SEARCHES
from plies.games.protocol import WIN, A, Game, S

#: The most nodes a recorded tree may hold (a bigger picture helps nobody).
MAX_NODES = 3000


@dataclass
class TreeNode:
    """One state the search visited (or, if ``pruned``, an action it skipped)."""

    #: The action from the parent, as text (None at the root).
    action: str | None
    #: Whether MAX (the root's player) moves here.
    maximizing: bool
    #: The value that came back, for MAX (None for a pruned branch).
    value: float | None = None
    #: Whether the game is over here.
    terminal: bool = False
    #: Whether the value came from the depth limit (a heuristic guess).
    horizon: bool = False
    #: Whether a cutoff skipped this action: nothing below it was searched.
    pruned: bool = False
    children: list[TreeNode] = field(default_factory=list)


@dataclass
class SearchTree:
    """A recorded search: its root, what it cost, and its picture."""

    root: TreeNode
    algorithm: str
    #: States visited (the same count as the library's search of the same name).
    nodes: int
    #: Branches a cutoff skipped (alpha-beta only).
    pruned: int

    @property
    def value(self) -> float:
        """The root's value for MAX."""
        assert self.root.value is not None
        return self.root.value

    def svg(self) -> str:
        """Return the tree as an SVG picture."""
        return tree_svg(self)

    def _repr_svg_(self) -> str:
        """The tree as SVG: how Jupyter shows a search."""
        return self.svg()


class _TooBigError(Exception):
    """The tree outgrew :data:`MAX_NODES`."""


def search_tree(
    game: Game[S, A],
    state: S,
    algorithm: str = "alphabeta",
    depth: int | None = None,
    max_nodes: int = MAX_NODES,
) -> SearchTree:
    """Search ``state`` by ``algorithm`` (one of the search algorithms with the trait
    ``tree``: minimax or alphabeta) and record every node.

    Beyond ``depth`` plies a state is scored by ``game.evaluate``. Raises ``ValueError``
    if the tree would hold more than ``max_nodes`` nodes (search a later state or less deep).
    """
    drawable = SEARCHES.with_trait("tree")
    algorithm = SEARCHES.key(algorithm)
    if algorithm not in drawable:
        raise ValueError(f"the tree of {algorithm} cannot be drawn: choose from "
                         f"{', '.join(drawable)}")
    me = game.to_move(state)
    text = getattr(game, "action_text", str)
    count = 0
    pruned = 0

    def visit(s: S, action: str | None, d: int, alpha: float, beta: float) -> TreeNode:
        """Search ``s`` within (alpha, beta) for MAX and return its recorded node."""
        nonlocal count, pruned
        count += 1
        if count > max_nodes:
            raise _TooBigError
        node = TreeNode(action, game.to_move(s) == me)
        if game.is_terminal(s):
            node.terminal, node.value = True, game.utility(s, me) + 0.0
            return node
        if d == 0:
            node.horizon, node.value = True, game.evaluate(s, me) + 0.0
            return node
        actions = list(game.actions(s))
        best = -math.inf if node.maximizing else math.inf
        for i, a in enumerate(actions):
            child = visit(game.result(s, a), str(text(a)), d - 1, alpha, beta)
            node.children.append(child)
            assert child.value is not None
            v = child.value
            if node.maximizing:
                best = max(best, v)
                alpha = max(alpha, best) if algorithm == "alphabeta" else alpha
            else:
                best = min(best, v)
                beta = min(beta, best) if algorithm == "alphabeta" else beta
            if algorithm == "alphabeta" and alpha >= beta:
                for rest in actions[i + 1 :]:
                    node.children.append(TreeNode(str(text(rest)), not node.maximizing,
                                                  pruned=True))
                    pruned += 1
                break
        node.value = best + 0.0
        return node

    try:
        root = visit(state, None, -1 if depth is None else depth, -WIN, WIN)
    except _TooBigError:
        raise ValueError(
            f"the tree has more than {max_nodes} nodes: draw a later state or search less deep"
        ) from None
    return SearchTree(root, algorithm, count, pruned)


# --- drawing ---------------------------------------------------------------------------

_DX = 46  # horizontal room per leaf
_DY = 74  # vertical room per level
_R = 9  # node size
_PAD = 24


def tree_svg(tree: SearchTree) -> str:
    """Lay out and draw ``tree``: leaves side by side, each parent over its children."""
    positions: dict[int, tuple[float, float]] = {}
    next_leaf = [0]

    def place(node: TreeNode, level: int) -> float:
        """Give ``node`` and its subtree positions; return the node's x."""
        if not node.children:
            x: float = _PAD + next_leaf[0] * _DX
            next_leaf[0] += 1
        else:
            xs = [place(child, level + 1) for child in node.children]
            x = (xs[0] + xs[-1]) / 2
        positions[id(node)] = (x, _PAD + 16 + level * _DY)
        return x

    place(tree.root, 0)
    width = _PAD * 2 + max(0, next_leaf[0] - 1) * _DX
    height = max(y for _, y in positions.values()) + _PAD + 10
    edges: list[str] = []
    shapes: list[str] = []

    def draw(node: TreeNode) -> None:
        """Draw ``node``'s edges to its children, then the children, then the node."""
        x, y = positions[id(node)]
        for child in node.children:
            cx, cy = positions[id(child)]
            grey = child.pruned
            colour = "#bbbbbb" if grey else "#555555"
            dash = ' stroke-dasharray="4 3"' if grey else ""
            edges.append(
                f'<line x1="{x:.1f}" y1="{y + _R:.1f}" x2="{cx:.1f}" y2="{cy - _R:.1f}" '
                f'stroke="{colour}" stroke-width="1.2"{dash}/>'
            )
            mx, my = (x + cx) / 2, (y + cy) / 2
            label = escape(child.action or "")
            edges.append(
                f'<text x="{mx:.1f}" y="{my - 2:.1f}" font-size="10" fill="{colour}" '
                f'text-anchor="middle" font-family="sans-serif">{label}</text>'
            )
            if not grey:
                edges.append(
                    f'<text x="{mx:.1f}" y="{my + 10:.1f}" font-size="11" font-weight="bold" '
                    f'fill="#1f4fa8" text-anchor="middle" font-family="sans-serif">'
                    f"{_value(child)}</text>"
                )
            draw(child)
        shapes.append(_shape(node, x, y))

    draw(tree.root)
    root_x, root_y = positions[id(tree.root)]
    title = (
        f'<text x="{root_x:.1f}" y="{root_y - _R - 6:.1f}" font-size="11" font-weight="bold" '
        f'fill="#1f4fa8" text-anchor="middle" font-family="sans-serif">{_value(tree.root)}</text>'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}"><rect width="100%" height="100%" fill="white"/>'
        + "".join(edges) + "".join(shapes) + title + "</svg>"
    )


def _value(node: TreeNode) -> str:
    """Return a value as the picture writes it: whole numbers plain, guesses to 2 places."""
    value = node.value
    if value is None:
        return ""
    if value == int(value):
        return f"{int(value):+d}" if value else "0"
    return f"{value:+.2f}"


def _shape(node: TreeNode, x: float, y: float) -> str:
    """Return the node's mark: a triangle up (MAX), down (MIN), a square at the end."""
    if node.pruned:
        fill, stroke = "#eeeeee", "#bbbbbb"
    elif node.terminal:
        fill, stroke = "#f3f3f3", "#333333"
    else:
        fill, stroke = ("#dbe7fb" if node.maximizing else "#fbe0dc"), "#333333"
    style = f'fill="{fill}" stroke="{stroke}" stroke-width="1.2"'
    r = _R
    if node.terminal or node.horizon or node.pruned:
        side = r * 1.6
        return (
            f'<rect x="{x - side / 2:.1f}" y="{y - side / 2:.1f}" width="{side:.1f}" '
            f'height="{side:.1f}" {style}/>'
        )
    if node.maximizing:
        points = f"{x:.1f},{y - r:.1f} {x - r:.1f},{y + r:.1f} {x + r:.1f},{y + r:.1f}"
    else:
        points = f"{x:.1f},{y + r:.1f} {x - r:.1f},{y - r:.1f} {x + r:.1f},{y - r:.1f}"
    return f'<polygon points="{points}" {style}/>'
