"""Build ladder agents by name, e.g. ``alphabeta`` or ``alphabeta:depth=3,seed=7``."""

from __future__ import annotations

from collections.abc import Mapping

from plies.agents.base import Agent

AGENT_NAMES: tuple[str, ...] = ("random", "capture", "minimax", "alphabeta", "engine")

# Options each agent accepts, with the type their text is converted to.
_OPTIONS: dict[str, dict[str, type]] = {
    "random": {"seed": int},
    "capture": {"seed": int},
    "minimax": {"seed": int, "depth": int},
    "alphabeta": {"seed": int, "depth": int},
    "engine": {
        "seed": int,
        "depth": int,
        "nodes": int,
        "movetime": int,
        "hash": int,
        "level": int,
        "elo": int,
    },
}


def parse_options(text: str) -> dict[str, str]:
    """Parse ``key=value,key=value`` into a dict (keys stripped, values kept as text)."""
    options: dict[str, str] = {}
    if not text.strip():
        return options
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"bad option {item!r}: expected key=value")
        options[key] = value.strip()
    return options


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name[:key=value,...]`` into the name and its options."""
    name, _, rest = spec.partition(":")
    return name.strip().lower(), parse_options(rest)


def _convert(agent: str, key: str, value: str | int) -> int:
    """Convert one option value to the type the agent expects, with a clear error."""
    known = _OPTIONS[agent]
    if key not in known:
        raise ValueError(
            f"unknown option {key!r} for {agent} (known: {', '.join(sorted(known)) or 'none'})"
        )
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"option {key} of {agent} must be an integer, not {value!r}") from None
    if key != "seed" and number < 1:
        raise ValueError(f"option {key} of {agent} must be at least 1, not {number}")
    return number


def make_agent(
    name: str, options: Mapping[str, str | int] | None = None, seed: int | None = None
) -> Agent:
    """Create the agent called ``name`` with ``options``; an explicit seed option wins."""
    name = name.strip().lower()
    if name not in _OPTIONS:
        raise ValueError(f"unknown agent {name!r} (choose from {', '.join(AGENT_NAMES)})")
    opts = {k: _convert(name, k, v) for k, v in (options or {}).items()}
    agent_seed = opts.pop("seed", seed)
    if name == "random":
        from plies.agents.random_agent import RandomAgent

        return RandomAgent(seed=agent_seed)
    if name == "capture":
        from plies.agents.capture import CaptureAgent

        return CaptureAgent(seed=agent_seed)
    if name == "minimax":
        from plies.agents.minimax import MinimaxAgent

        return MinimaxAgent(depth=opts.get("depth", 2), seed=agent_seed)
    if name == "alphabeta":
        from plies.agents.alphabeta import AlphaBetaAgent

        return AlphaBetaAgent(depth=opts.get("depth", 4), seed=agent_seed)
    from plies.agents.engine_agent import EngineAgent

    return EngineAgent(
        depth=opts.get("depth"),
        nodes=opts.get("nodes"),
        movetime_ms=opts.get("movetime"),
        level=opts.get("level"),
        elo=opts.get("elo"),
        hash_mb=opts.get("hash", 16),
        seed=agent_seed,
    )


def agent_from_spec(spec: str, seed: int | None = None) -> Agent:
    """Create an agent from ``name[:key=value,...]``."""
    name, options = split_spec(spec)
    return make_agent(name, options, seed)


def agent_options(name: str) -> tuple[str, ...]:
    """The option names agent ``name`` accepts."""
    return tuple(sorted(_OPTIONS[name]))
