"""The terminal game: a human against an agent, drawn and played at the prompt."""
