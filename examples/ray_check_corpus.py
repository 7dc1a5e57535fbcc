#!/usr/bin/env python3
"""Checks a directory of JSON Lines files with Ray Data and writes the problems as Parquet.

    python examples/ray_check_corpus.py sessions|rows DIR OUT [--dialect seed|pi] [--strict]
        [--address auto] [--concurrency N]

DIR's `*.jsonl` and `*.jsonl.gz` files (any filesystem Ray reads: a local folder, s3://...) are
read whole (`read_binary_files`), checked on every worker (`agent_contract.ray`), and OUT gets
one Parquet row per problem (path, line, code, pointer, message), the rows
`agent-contract check sessions|rows --format jsonl` prints. Without --address, a local Ray of
this machine's CPUs is started; `--address auto` joins a running cluster.
"""

import argparse
import os

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import ray

from agent_contract.ray import CheckChatRows, CheckSessions, read_corpus


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("kind", choices=["sessions", "rows"])
    p.add_argument("dir")
    p.add_argument("out")
    p.add_argument("--dialect", choices=["seed", "pi"], default="seed")
    p.add_argument("--strict", action="store_true")
    p.add_argument("--address", default=None)
    p.add_argument("--concurrency", type=int, default=None, help="workers (default: one per CPU)")
    a = p.parse_args()

    ray.init(address=a.address, include_dashboard=False, log_to_driver=False)
    try:
        concurrency = a.concurrency or max(1, int(ray.cluster_resources().get("CPU", 1)))
        if a.kind == "sessions":
            cls, kwargs = CheckSessions, {"dialect": a.dialect, "strict": a.strict}
        else:
            cls, kwargs = CheckChatRows, {"strict": a.strict}
        report = read_corpus(a.dir).map_batches(
            cls, fn_constructor_kwargs=kwargs, batch_format="pyarrow",
            compute=ray.data.ActorPoolStrategy(size=concurrency),
        )
        # Materialized once: the totals and the problems come from the same run.
        report = report.materialize()
        totals = report.sum(["checked", "bytes"])
        problems = report.filter(lambda row: not row["ok"]).drop_columns(["ok", "checked", "bytes"])
        problems.write_parquet(a.out)
        print(
            "%d problems in %s %s (%.1f MB) -> %s"
            % (problems.count(), totals["sum(checked)"], a.kind, totals["sum(bytes)"] / 1e6, a.out)
        )
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
