"""Ray Data over the core: session files and chat dataset files checked on every worker of a
cluster, one report row per problem, the rows the native `agent-contract check sessions|rows
--format jsonl` prints.

    import ray.data
    from agent_contract.ray import CheckSessions, read_corpus

    ds = read_corpus("s3://bucket/sessions/")          # read_binary_files(include_paths=True)
    problems = ds.map_batches(CheckSessions, fn_constructor_kwargs={"dialect": "seed"},
                              batch_format="pyarrow", compute=ray.data.ActorPoolStrategy(size=16))
    problems.filter(lambda row: not row["ok"]).write_parquet("out/")

The classes take batches of whole files (`bytes` and `path` columns: what
`ray.data.read_binary_files(..., include_paths=True)` gives) in any `batch_format` ("pyarrow",
"pandas", "numpy"), and answer a pyarrow table of `REPORT_COLUMNS`. A session is a whole file,
and a dataset row's line number is its line in its file, so files are never split into lines here:
each file crosses to the core once, as `check_session` (sessions) or `check_chat_rows_jsonl`
(rows: the core splits the lines and compiles each distinct tool schema once per file). Ray's
file reader decompresses a `.gz` file (by its name, as the CLI decides). No rule and no count
lives here.

The package never needs ray: this module imports nothing of it, and pyarrow only when a batch
arrives; `read_corpus` imports `ray.data` when it is called.
"""

from __future__ import annotations

from typing import Any, Optional

__all__ = ["CheckSessions", "CheckChatRows", "read_corpus", "REPORT_COLUMNS"]


# The report's columns, in order. One row per problem (`ok` false), or one row for a file with
# none (`ok` true, `code`, `pointer` and `message` null). `path` is the file (the CLI's `file`),
# `pointer` the JSON Pointer in the line (the CLI's `path`), `line` the 1-based line (0: the
# file as a whole; the CLI leaves `line` out then). `checked` (entries of a session, rows of a
# dataset file) and `bytes` (decompressed) are the file's on its first row and 0 on the others,
# so that their sums over a dataset are the corpus's totals, as in the CLI's summary.
REPORT_COLUMNS = ("path", "line", "ok", "code", "pointer", "message", "checked", "bytes")


def _schema() -> Any:
    import pyarrow as pa

    return pa.schema(
        [
            ("path", pa.string()),
            ("line", pa.int64()),
            ("ok", pa.bool_()),
            ("code", pa.string()),
            ("pointer", pa.string()),
            ("message", pa.string()),
            ("checked", pa.int64()),
            ("bytes", pa.int64()),
        ]
    )


def _refused(code: str, path: str, message: str) -> Exception:
    from . import ContractError

    return ContractError("contract", code, path, message, False)


_HOW = "read them with ray.data.read_binary_files(paths, include_paths=True)"


def _column(batch: Any, name: str) -> list[Any]:
    """One column of a batch as a list, whatever its format: a pyarrow Table, a pandas
    DataFrame, or a dict of numpy arrays (or of lists). The batch is the caller's value: what
    reading it raises (a missing column, a value that is no batch, one whose methods raise)
    becomes a ContractError."""
    try:
        if hasattr(batch, "column_names") and hasattr(batch, "column"):
            if name not in batch.column_names:
                raise KeyError(name)
            return list(batch.column(name).to_pylist())
        column = batch[name]
        if hasattr(column, "tolist"):
            return list(column.tolist())
        return list(column)
    except KeyError:
        raise _refused("FIELD_MISSING", "/" + name, "a batch of files needs the columns 'path' and 'bytes' (missing '%s'): %s" % (name, _HOW)) from None
    except Exception:
        raise _refused("FIELD_TYPE", "", "a batch of files is a pyarrow Table, a pandas DataFrame or a dict of the columns 'path' "
                       "and 'bytes': " + _HOW) from None


def _file(path: Any, data: Any, at: int) -> tuple[str, Any, int]:
    """One file of a batch: its path, its content as the core reads it (bytes, or a str) and
    its size in bytes. Ray gives `str` paths and `bytes` contents; a caller's batch may hold
    anything, so only those exact types (and bytearray, memoryview) are read."""
    if type(path) is not str:
        raise _refused("FIELD_TYPE", "/path/%d" % at, "a file's path must be a string: " + _HOW)
    if type(data) is bytes:
        return path, data, len(data)
    if type(data) is str:
        return path, data, len(data.encode("utf-8", "surrogatepass"))
    if type(data) in (bytearray, memoryview):
        try:
            copied = bytes(data)
        except ValueError:  # a released memoryview
            pass
        else:
            return path, copied, len(copied)
    raise _refused("FIELD_TYPE", "/bytes/%d" % at, "a file's content must be bytes: " + _HOW)


def _unicode(text: Optional[str]) -> Optional[str]:
    """`text` as an arrow string column holds it (UTF-8): lone surrogates (a file name the file
    system gave undecoded, a pointer to a key that held one) are written as `\\udcxx` escapes."""
    if text is None:
        return None
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


class _CheckFiles:
    """What both classes share: the options (validated by the core in the constructor, which
    also instantiates the core in the worker), the batch walk and the report table."""

    def __init__(self, options: Any, fixed: dict[str, Any]) -> None:
        # `options` is the caller's: the core copies it first (its ContractError for a value with
        # no JSON form), and a copy that is not an object goes to the core as it is, which
        # refuses it; the class's own settings are merged into an object.
        from . import _runtime
        from .mcp import _copy

        given = {} if options is None else _copy(options)
        # Every problem of a file, up to the core's ceiling, as the native CLI asks.
        every = {"maxIssues": _runtime.described()["ceilings"]["maxIssues"]}
        self._options = {**every, **given, **fixed} if type(given) is dict else given
        # An empty text: the options are read and validated by the core now (an invalid one
        # raises ContractError when the worker starts, not on its first file), and the core is
        # compiled and instantiated before the first batch.
        self._check(b"")

    def _check(self, text: Any) -> tuple[int, list[tuple[int, str, str, str]]]:
        raise NotImplementedError

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        paths = _column(batch, "path")
        contents = _column(batch, "bytes")
        out: dict[str, list[Any]] = {name: [] for name in REPORT_COLUMNS}
        for at, (path, data) in enumerate(zip(paths, contents)):
            path, text, size = _file(path, data, at)
            checked, problems = self._check(text)
            rows = problems or [(0, None, None, None)]
            for i, (line, code, pointer, message) in enumerate(rows):
                out["path"].append(_unicode(path))
                out["line"].append(line)
                out["ok"].append(code is None)
                out["code"].append(code)
                out["pointer"].append(_unicode(pointer))
                out["message"].append(_unicode(message))
                out["checked"].append(checked if i == 0 else 0)
                out["bytes"].append(size if i == 0 else 0)
        return pa.Table.from_pydict(out, schema=_schema())


class CheckSessions(_CheckFiles):
    """Session files (`check_session` on each whole file): `dialect` "seed" or "pi", `strict`,
    and any other session option (`options`, read by the core). Problems in line order (a
    file-level problem, line 0, first), as the CLI lists them."""

    def __init__(self, dialect: str = "seed", strict: bool = False, options: Optional[dict[str, Any]] = None) -> None:
        super().__init__(options, {"dialect": dialect, "strict": strict})

    def _check(self, text: Any) -> tuple[int, list[tuple[int, str, str, str]]]:
        from . import check_session

        report = check_session(text, self._options)  # type: ignore[arg-type]
        problems = [(p["line"], p["code"], p["path"], p["message"]) for p in report["problems"]]
        if report.get("truncated"):
            # The report stopped at maxIssues: said once, for the file, in the CLI's words.
            limit = self._options["maxIssues"]
            problems.append((0, "INPUT_TOO_LARGE", "", "more than %d problems: the first %d are listed" % (limit, limit)))
        problems.sort(key=lambda p: p[0])  # stable: the core's order within a line
        return report["entries"], problems


class CheckChatRows(_CheckFiles):
    """Chat dataset files (`check_chat_rows_jsonl` on each whole file: one report per line,
    its number the file's): `strict` and any other row option (`options`)."""

    def __init__(self, strict: bool = False, options: Optional[dict[str, Any]] = None) -> None:
        super().__init__(options, {"strict": strict})

    def _check(self, text: Any) -> tuple[int, list[tuple[int, str, str, str]]]:
        from . import check_chat_rows_jsonl

        reports = check_chat_rows_jsonl(text, self._options)  # type: ignore[arg-type]
        problems = [(r["line"], p["code"], p["path"], p["message"]) for r in reports for p in r["problems"]]
        return len(reports), problems


def read_corpus(paths: Any, **read_args: Any) -> Any:
    """`ray.data.read_binary_files` over `paths` (files, directories, any filesystem ray
    reads) with `include_paths=True`, taking from directories the files the CLI takes:
    `*.jsonl` and `*.jsonl.gz`. The reads ask for no CPU (`num_cpus=0`): they wait on storage,
    the checks are the work, and a pool of checking actors as large as the cluster's CPUs would
    otherwise leave Ray Data's resource budget no CPU for any read, and the pipeline would never
    start. Reads that ask for no CPU are bounded by count instead: at most as many at once as
    the cluster has CPUs (`concurrency`). Other keyword arguments go to `read_binary_files`."""
    import ray.data

    read_args.setdefault("file_extensions", ["jsonl", "jsonl.gz"])
    read_args.setdefault("num_cpus", 0)
    read_args.setdefault("concurrency", _read_concurrency())
    return ray.data.read_binary_files(paths, include_paths=True, **read_args)


def _read_concurrency() -> int:
    """The cluster's CPUs: a read that asks for no CPU is otherwise never held back, and Ray
    starts a worker process for every read task at once (on 4,000 files, 196 tasks and over 80
    worker processes on a 2-CPU node, whose memory and CPUs they exhaust: objects are lost and
    resubmitted, and the pipeline stalls)."""
    import ray

    return max(1, int(ray.cluster_resources().get("CPU", 1)))
