"""The capacity model of a club's deployment (docs/operations.md, "Figures
and capacity"): the CPU a fleet of `combat serve` processes and its
PostgreSQL spend, fitted on bench_fleet.py's runs and checked by each of
them (bench_fleet prints the model's figure beside the measured one).

A table is 6 players and a TV: 0.6 declarations a second and 7 streams;
the proxy hashes each table to one server. CPU, in cores (CPU seconds a
second), while the tables declare:

    servers    = n * SERVER[0] + n * T * SERVER[1] + D * SERVER[2]
    PostgreSQL = n * PG[0]     + n * T * PG[1]     + D * PG[2]

n servers, T tables, D declarations a second. The first term is what a
server costs doing nothing (its looks for changes, 20 a second); the
second what it costs per table of the store whether or not it serves it
(its look at every encounter's head, every 2 s); the third a declaration:
its decision, its append, its fold and its 7 stream messages.
"""
from __future__ import annotations

import math

# Fitted (least squares) on the runs in docs/operations.md: cores, cores
# per table, core-seconds per declaration.
SERVER = (0.0187, 0.000127, 0.00291)
PG = (0.0174, 0.000106, 0.00065)

TABLE_DECLARATIONS_S = 0.6
STREAMS_PER_TABLE = 7
TABLES_PER_PROCESS = 500   # uvicorn's limit_concurrency 4096: streams and requests
CORE_PER_PROCESS = 0.6     # one Python process: its event loop and the GIL
SHARD_TABLES = 1_000       # tables a store (a PostgreSQL database) holds, at most


def cores(tables: int, servers: float, declarations_s: float | None = None) -> dict:
    """The model's servers' and PostgreSQL's cores for this load."""
    d = TABLE_DECLARATIONS_S * tables if declarations_s is None else declarations_s
    served = servers * SERVER[0] + servers * tables * SERVER[1] + d * SERVER[2]
    stored = servers * PG[0] + servers * tables * PG[1] + d * PG[2]
    return {"servers": served, "postgres": stored}


def plan(tables: int) -> dict:
    """What `tables` tables want: stores (shards of SHARD_TABLES tables at
    most: each server pays for every table of its store), server processes
    in all (one spare a store, for a kill), their cores, PostgreSQL's cores
    and commits a second, streams and stream messages a second."""
    shards = max(math.ceil(tables / SHARD_TABLES), 1)
    each = tables / shards
    d = TABLE_DECLARATIONS_S * each
    n = max(math.ceil(each / TABLES_PER_PROCESS), 1)
    while cores(round(each), n, d)["servers"] / n > CORE_PER_PROCESS:
        n += 1
    n += 1  # (a spare: a killed server's tables move to the others)
    use = cores(round(each), n, d)
    return {"tables": tables, "stores": shards, "declarations_s": d * shards,
            "servers": n * shards, "server_cores": use["servers"] * shards,
            "postgres_cores": use["postgres"] * shards, "commits_s": d * shards,
            "streams": STREAMS_PER_TABLE * tables,
            "messages_s": STREAMS_PER_TABLE * d * shards}


if __name__ == "__main__":
    print(f"{'tables':>7} {'stores':>6} {'decl/s':>7} {'servers':>7} {'srv cores':>9} "
          f"{'PG cores':>8} {'streams':>8} {'msgs/s':>7}")
    for t in (100, 1_000, 10_000):
        p = plan(t)
        print(f"{t:>7,} {p['stores']:>6} {p['declarations_s']:>7,.0f} {p['servers']:>7} "
              f"{p['server_cores']:>9.1f} {p['postgres_cores']:>8.1f} {p['streams']:>8,} "
              f"{p['messages_s']:>7,.0f}")
