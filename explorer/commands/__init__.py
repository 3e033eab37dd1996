"""Entry points: the command line and its subcommands."""
