"""agent_contract.ray against the native CLI: a generated corpus (bench/corpus/generate.py) checked
by `agent-contract check sessions|rows --format jsonl` and by Ray Data pipelines (a local Ray of
two CPUs, then a simulated cluster of two one-CPU nodes) gives the same problems, row for row,
and the same totals. Ray runs offline and quietly (no usage stats, no dashboard), on 127.0.0.1,
and is always shut down."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
# Ray's own address lookup answers the loopback address (what it does on macOS and Windows),
# so that every process of the simulated cluster, and the driver, meet on 127.0.0.1.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

import numpy as np
import pandas as pd
import pyarrow as pa

import agent_contract
from agent_contract.ray import REPORT_COLUMNS, CheckChatRows, CheckSessions, read_corpus

ROOT = Path(__file__).resolve().parents[2]

# The three corpora of the generated tree: (folder, CLI arguments, class, its constructor kwargs).
KINDS = (
    ("sessions/seed", ["check", "sessions"], CheckSessions, {"dialect": "seed"}),
    ("sessions/pi", ["check", "sessions", "--dialect", "pi"], CheckSessions, {"dialect": "pi"}),
    ("rows", ["check", "rows"], CheckChatRows, {}),
)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ray-corpus") / "corpus"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "corpus" / "generate.py"),
            "--out", str(out),
            "--sessions", "10",
            "--session-kb", "30",
            "--rows", "600",
            "--rows-per-file", "150",
            "--fault-share", "0.4",
            "--gz-share", "0.3",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return out


@pytest.fixture(scope="module")
def cli() -> Path:
    """The native CLI, release build (a no-op when it is current); AGENT_CONTRACT_CLI names
    another build."""
    named = os.environ.get("AGENT_CONTRACT_CLI")
    if named:
        return Path(named)
    subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "agent-contract-cli"], cwd=ROOT, check=True)
    return ROOT / "target" / "release" / "agent-contract"


def key(row: dict[str, Any]) -> tuple[str, int, str, str]:
    return (row["path"], row["line"], row["code"], row["pointer"])


def cli_report(cli: Path, args: list[str], folder: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The CLI's problems as report rows (its `file` is `path`, its `path` is `pointer`, an
    absent `line` is 0) and its summary."""
    run = subprocess.run([str(cli), *args, "--format", "jsonl", str(folder)], capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    summary = lines.pop()["summary"]
    problems = [
        {"path": p["file"], "line": p.get("line", 0), "code": p["code"], "pointer": p["path"], "message": p["message"]}
        for p in lines
    ]
    return problems, summary


def ray_report(folder: Path, cls: type, kwargs: dict[str, Any], batch_format: str, concurrency: int) -> list[dict[str, Any]]:
    import ray.data

    ds = read_corpus(str(folder)).map_batches(
        cls,
        fn_constructor_kwargs=kwargs,
        batch_format=batch_format,
        batch_size=2,
        compute=ray.data.ActorPoolStrategy(size=concurrency),
    )
    return ds.take_all()


def assert_same(rows: list[dict[str, Any]], problems: list[dict[str, Any]], summary: dict[str, Any]) -> None:
    assert rows and all(set(r) == set(REPORT_COLUMNS) for r in rows)
    found = sorted(
        ({k: r[k] for k in ("path", "line", "code", "pointer", "message")} for r in rows if not r["ok"]), key=key
    )
    assert found == sorted(problems, key=key)
    # Per file, the problems in the CLI's order (line order, the core's within a line): a file's
    # rows are made by one call, and the dataset keeps a batch's order.
    fields = ("path", "line", "code", "pointer", "message")
    for path in {p["path"] for p in problems}:
        mine = [{k: r[k] for k in fields} for r in rows if r["path"] == path]
        assert mine == [p for p in problems if p["path"] == path]
    files = {r["path"] for r in rows}
    assert len(files) == summary["files"]
    assert len({r["path"] for r in rows if not r["ok"]}) == summary["filesWithProblems"]
    assert sum(r["checked"] for r in rows) == summary["checked"]
    assert sum(r["bytes"] for r in rows) == summary["bytes"]
    # A file with no problem has exactly one row, with ok set.
    for r in rows:
        if r["ok"]:
            assert [x for x in rows if x["path"] == r["path"]] == [r]


def manifest_codes(corpus: Path, folder: str) -> list[tuple[str, int, str]]:
    m = json.loads((corpus / "manifest.json").read_text())
    return [(str(corpus / f["path"]), f["line"], f["code"]) for f in m["faults"] if f["path"].startswith(folder + "/")]


@pytest.fixture
def local_ray() -> Iterator[Any]:
    import ray

    # A Ray of its own, even when another runs on this machine (ray.init would join that one).
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        _node_ip_address="127.0.0.1",
        log_to_driver=False,
        configure_logging=False,
    )
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.fixture
def two_nodes() -> Iterator[Any]:
    import ray
    from ray.cluster_utils import Cluster

    node = {"num_cpus": 1, "node_ip_address": "127.0.0.1", "include_dashboard": False}
    cluster = Cluster(initialize_head=True, connect=True, head_node_args=node)
    try:
        cluster.add_node(**{k: v for k, v in node.items() if k != "include_dashboard"})
        cluster.wait_for_nodes()
        yield ray
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_local_ray_matches_the_cli(corpus: Path, cli: Path, local_ray: Any) -> None:
    # Each corpus in another batch format: the classes read all three.
    for (folder, args, cls, kwargs), batch_format in zip(KINDS, ("pyarrow", "pandas", "numpy")):
        problems, summary = cli_report(cli, args, corpus / folder)
        # The generated faults are among the problems: the corpus is not clean by accident.
        assert problems and summary["problems"] == len(problems)
        rows = ray_report(corpus / folder, cls, kwargs, batch_format, concurrency=2)
        assert_same(rows, problems, summary)
        codes = {(p["path"], p["line"], p["code"]) for p in problems}
        for fault in manifest_codes(corpus, folder):
            assert fault in codes


def test_two_node_cluster_matches_the_cli(corpus: Path, cli: Path, two_nodes: Any) -> None:
    ray = two_nodes
    assert sum(1 for n in ray.nodes() if n["Alive"]) == 2
    for folder, args, cls, kwargs in KINDS:
        problems, summary = cli_report(cli, args, corpus / folder)
        rows = ray_report(corpus / folder, cls, kwargs, "pyarrow", concurrency=2)
        assert_same(rows, problems, summary)


def ray_workers() -> int:
    """Ray's worker processes alive on this machine now: Linux gives each the title
    `ray::<task or actor>` (`ray::IDLE` between tasks); the node's own agents are left out."""
    count = 0
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                title = f.read().split(b"\0")[0]
        except OSError:
            continue
        count += title.startswith(b"ray::") and not title.endswith(b"Agent")
    return count


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="counts Ray's worker processes through /proc")
def test_reads_of_many_files_start_a_bounded_number_of_workers(tmp_path: Path, corpus: Path, local_ray: Any) -> None:
    # Reads that ask for no CPU are otherwise all started at once, one worker process each:
    # on a corpus of many files that exhausts the node (Ray loses objects and resubmits tasks).
    import threading

    import ray.data

    one = next((corpus / "sessions" / "seed").glob("*.jsonl")).read_bytes()
    for i in range(1000):
        (tmp_path / f"{i:04}.jsonl").write_bytes(one)
    peak, done = [0], threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], ray_workers())
            done.wait(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        ds = read_corpus(str(tmp_path)).map_batches(
            CheckSessions, fn_constructor_kwargs={"dialect": "seed"}, compute=ray.data.ActorPoolStrategy(size=2)
        )
        totals = ds.materialize().sum(["checked", "bytes"])
    finally:
        done.set()
        watcher.join()
    assert totals["sum(bytes)"] == 1000 * len(one)
    # Two checking actors, at most two reads (the CPUs), and Ray's own idle workers.
    assert 2 <= peak[0] <= 10, f"{peak[0]} Ray worker processes at once"


# The classes without Ray: what a worker does with one batch.


def one_batch(corpus: Path, folder: str) -> tuple[list[str], list[bytes]]:
    """A folder's files as read_binary_files gives them (a `.gz` file decompressed)."""
    paths = sorted(str(p) for p in (corpus / folder).iterdir())
    return paths, [gzip.decompress(Path(p).read_bytes()) if p.endswith(".gz") else Path(p).read_bytes() for p in paths]


@pytest.mark.parametrize("fmt", ["pyarrow", "pandas", "numpy", "lists"])
def test_every_batch_format_gives_the_same_table(corpus: Path, fmt: str) -> None:
    paths, contents = one_batch(corpus, "rows")
    batches = {
        "pyarrow": pa.table({"bytes": pa.array(contents, pa.binary()), "path": paths}),
        "pandas": pd.DataFrame({"bytes": contents, "path": paths}),
        "numpy": {"bytes": np.array(contents, dtype=object), "path": np.array(paths)},
        "lists": {"bytes": contents, "path": paths},
    }
    check = CheckChatRows()
    table = check(batches[fmt])
    assert table.column_names == list(REPORT_COLUMNS)
    assert table.equals(check(batches["pyarrow"]))
    # The rows' reports are the core's, line for line.
    expected = [
        (path, r["line"], p["code"], p["path"])
        for path, data in zip(paths, contents)
        for r in agent_contract.check_chat_rows_jsonl(data, {"maxIssues": 10_000})
        for p in r["problems"]
    ]
    got = [(r["path"], r["line"], r["code"], r["pointer"]) for r in table.to_pylist() if not r["ok"]]
    assert got == expected and expected


def test_sessions_report_the_core_verdict_per_file(corpus: Path) -> None:
    paths, contents = one_batch(corpus, "sessions/seed")
    rows = CheckSessions(dialect="seed")({"bytes": contents, "path": paths}).to_pylist()
    for path, data in zip(paths, contents):
        text = data
        report = agent_contract.check_session(text, {"dialect": "seed", "maxIssues": 10_000})
        mine = [r for r in rows if r["path"] == path]
        assert mine[0]["checked"] == report["entries"] and mine[0]["bytes"] == len(text)
        assert [(r["line"], r["code"], r["pointer"]) for r in mine if not r["ok"]] == sorted(
            ((p["line"], p["code"], p["path"]) for p in report["problems"]), key=lambda p: p[0]
        )
        assert mine[0]["ok"] == report["ok"]


def test_a_report_cut_at_max_issues_says_so_once() -> None:
    # Three entries without a header: more problems than maxIssues 1 lets through.
    text = b'{"type":"message"}\n{"type":"message"}\n{"type":"message"}\n'
    rows = CheckSessions(options={"maxIssues": 1})({"bytes": [text], "path": ["a.jsonl"]}).to_pylist()
    assert [(r["line"], r["code"]) for r in rows][0] == (0, "INPUT_TOO_LARGE")
    assert rows[0]["message"] == "more than 1 problems: the first 1 are listed"
    assert len(rows) == 2


def test_invalid_options_fail_in_the_constructor() -> None:
    with pytest.raises(agent_contract.ContractError) as e:
        CheckSessions(dialect="klingon")
    assert e.value.code == "OPTION_INVALID"
    with pytest.raises(agent_contract.ContractError) as e:
        CheckChatRows(options={"maxIssues": -1})
    assert e.value.code == "OPTION_INVALID"


def test_a_batch_without_paths_says_how_to_read_files() -> None:
    with pytest.raises(agent_contract.ContractError, match="include_paths=True") as e:
        CheckChatRows()({"bytes": [b"{}\n"]})
    assert (e.value.code, e.value.path) == ("FIELD_MISSING", "/path")


class _Raises:
    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(name)

    def __getitem__(self, key: Any) -> Any:
        raise RuntimeError(key)


class _RaisingList(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        raise RuntimeError("iter")


class _RaisingDict(dict):  # type: ignore[type-arg]
    def __len__(self) -> int:
        raise RuntimeError("len")

    def keys(self) -> Any:
        raise RuntimeError("keys")


def test_a_batch_that_is_not_files_is_a_contract_error() -> None:
    # The classes are public: a batch is the caller's value, and what reading it raises (a
    # value that is no batch, columns that raise, a path that is no string, content that is no
    # bytes) becomes a ContractError; before, bytes(5) made five zero bytes of "content".
    released = memoryview(b"{}")
    released.release()
    cases = [
        (5, "FIELD_TYPE", ""),
        (_Raises(), "FIELD_TYPE", ""),
        ({"path": ["a"], "bytes": _RaisingList([b""])}, "FIELD_TYPE", ""),
        ({"path": [5], "bytes": [b""]}, "FIELD_TYPE", "/path/0"),
        ({"path": ["a", "b"], "bytes": [b"", 5]}, "FIELD_TYPE", "/bytes/1"),
        ({"path": ["a"], "bytes": [None]}, "FIELD_TYPE", "/bytes/0"),
        ({"path": ["a"], "bytes": [released]}, "FIELD_TYPE", "/bytes/0"),
    ]
    for batch, code, path in cases:
        for cls in (CheckSessions, CheckChatRows):
            with pytest.raises(agent_contract.ContractError) as e:
                cls()(batch)
            assert (e.value.code, e.value.path) == (code, path), (batch, cls)
    # bytearray, memoryview and str contents are files as bytes are.
    for data in (bytearray(b"{}\n"), memoryview(b"{}\n"), "{}\n"):
        rows = CheckChatRows()({"path": ["a.jsonl"], "bytes": [data]}).to_pylist()
        assert [(r["line"], r["bytes"]) for r in rows][0] == (1, 3)


def test_a_path_or_pointer_with_a_lone_surrogate_is_escaped() -> None:
    # A file name the file system gave undecoded holds lone surrogates, which an arrow string
    # column cannot: the report writes them as escapes instead of failing on the name.
    rows = CheckChatRows()({"path": ["a\udcff.jsonl"], "bytes": [b'{"\xed\xa0\x80": 1}\n']}).to_pylist()
    assert rows[0]["path"] == "a\\udcff.jsonl"
    assert all(isinstance(r["pointer"], (str, type(None))) for r in rows)


def test_options_are_read_by_the_core() -> None:
    # The caller's options are copied by the core before the class merges its own settings.
    with pytest.raises(agent_contract.ContractError) as e:
        CheckChatRows(options=_RaisingDict(a=1))  # type: ignore[arg-type]
    assert e.value.code == "VALUE_NOT_JSON"
    with pytest.raises(agent_contract.ContractError) as e:
        CheckSessions(options=5)  # type: ignore[arg-type]
    assert (e.value.code, e.value.path) == ("OPTION_INVALID", "")


def test_the_package_never_imports_ray() -> None:
    # ray made unimportable: the package and this module still import, and a batch is checked.
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "import agent_contract, agent_contract.ray as r\n"
        "t = r.CheckChatRows()({'bytes': [b'{}\\n'], 'path': ['x.jsonl']})\n"
        "print(t.column('code').to_pylist())\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip().startswith("['ROW_")
