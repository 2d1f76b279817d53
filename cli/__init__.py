"""The `combat` command: a thin typer shell over the eventlog and projections."""
