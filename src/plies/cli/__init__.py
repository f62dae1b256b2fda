"""Command-line front end: one module per subcommand, each declaring its ``COMMAND``."""
