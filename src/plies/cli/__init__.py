"""Command-line front end: one module per subcommand, each exposing ``register``."""
