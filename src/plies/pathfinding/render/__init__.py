"""Pictures of searches: PNG, GIF, graph drawings and terminal text."""
