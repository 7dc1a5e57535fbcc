//! `check sessions` and `check rows` over the generated corpus (bench/corpus/generate.py, small size): the same
//! report for any `--jobs`, for `.jsonl.gz` and plain files, for a glob and a directory; exactly
//! the injected faults found; a progress bar on a terminal only; exit codes 0 / 1 / 2. And the
//! generator itself: byte-identical output on every run, equal to the committed checksum.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The small corpus: every fault kind, seed and pi files, some of them gzipped.
const SMALL: &[&str] =
    &["--sessions", "40", "--rows", "100", "--rows-per-file", "50", "--session-kb", "8", "--fault-share", "0.25"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-contract-corpus-{}", std::process::id())).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn generate(name: &str, extra: &[&str]) -> PathBuf {
    let out = scratch(name);
    let status = Command::new("python3")
        .arg(root().join("bench/corpus/generate.py"))
        .arg("--out")
        .arg(&out)
        .args(SMALL)
        .args(extra)
        .stderr(Stdio::null())
        .status()
        .expect("python3 runs the generator");
    assert!(status.success(), "the generator failed");
    out
}

/// The corpus most tests read: a third of its files gzipped.
fn corpus() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| generate("mixed", &["--gz-share", "0.3"]))
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap()
}

fn check(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agent-contract")).current_dir(dir).args(args).output().expect("the binary runs")
}

/// `check sessions --dialect D` (`dialect` "seed" or "pi") or `check rows` (`dialect` "rows").
fn jsonl(dir: &Path, dialect: &str, jobs: &str, paths: &[&str]) -> Output {
    let mut args = vec!["--format", "jsonl", "check"];
    if dialect == "rows" {
        args.push("rows");
    } else {
        args.extend_from_slice(&["sessions", "--dialect", dialect]);
    }
    args.extend_from_slice(&["--jobs", jobs]);
    args.extend_from_slice(paths);
    check(dir, &args)
}

/// (file, line, code) of every problem line, and the summary.
fn problems(out: &Output) -> (BTreeSet<(String, u64, String)>, Value) {
    let text = String::from_utf8(out.stdout.clone()).expect("UTF-8 report");
    let mut lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    let summary = lines.pop().expect("a summary line");
    assert!(summary.get("summary").is_some(), "the last line is the summary: {summary}");
    let found = lines
        .iter()
        .map(|p| {
            (
                p["file"].as_str().unwrap().to_owned(),
                p["line"].as_u64().unwrap(),
                p["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (found, summary["summary"].clone())
}

fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((path.strip_prefix(dir).unwrap().to_owned(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_generator_rebuilds_byte_identical_files_and_the_committed_checksum() {
    let a = generate("rebuild-a", &["--gz-share", "0.3"]);
    let b = generate("rebuild-b", &["--gz-share", "0.3"]);
    let (fa, fb) = (files(&a), files(&b));
    assert!(fa.len() > 20, "{} files", fa.len());
    assert!(fa.iter().any(|(p, _)| p.to_string_lossy().ends_with(".jsonl.gz")));
    assert_eq!(fa, fb, "two runs with the same options differ");
    // The manifest holds the SHA-256 of every file's decompressed bytes: its own digest stands for
    // the whole corpus, whatever zlib compressed the `.gz` files.
    let digest: String =
        Sha256::digest(std::fs::read(a.join("manifest.json")).unwrap()).iter().map(|b| format!("{b:02x}")).collect();
    let committed = std::fs::read_to_string(root().join("bench/corpus/small.sha256")).unwrap();
    assert_eq!(digest, committed.split_whitespace().next().unwrap(), "bench/corpus/small.sha256");
}

#[test]
fn jobs_1_and_2_give_the_same_report_with_exactly_the_injected_faults() {
    let dir = corpus();
    let faults = manifest(dir)["faults"].as_array().unwrap().clone();
    for (sub, dialect) in [("sessions/seed", "seed"), ("sessions/pi", "pi"), ("rows", "rows")] {
        let one = jsonl(dir, dialect, "1", &[sub]);
        let two = jsonl(dir, dialect, "2", &[sub]);
        assert_eq!(one.status.code(), Some(1), "{}", String::from_utf8_lossy(&one.stderr));
        assert_eq!(one.stdout, two.stdout, "--jobs 1 and --jobs 2 differ on {sub}");
        let (found, summary) = problems(&one);
        let expected: BTreeSet<_> = faults
            .iter()
            .filter(|f| f["path"].as_str().unwrap().starts_with(sub))
            .map(|f| {
                (
                    f["path"].as_str().unwrap().to_owned(),
                    f["line"].as_u64().unwrap(),
                    f["code"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert!(!expected.is_empty(), "no fault in {sub}");
        assert_eq!(found, expected, "{sub}");
        assert_eq!(summary["problems"].as_u64(), Some(expected.len() as u64));
        let count = manifest(dir)["files"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["path"].as_str().unwrap().starts_with(sub))
            .count();
        assert_eq!(summary["files"].as_u64(), Some(count as u64));
        // Sorted by path, then line.
        let order: Vec<_> = String::from_utf8_lossy(&one.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v.get("file").is_some())
            .map(|v| (v["file"].as_str().unwrap().to_owned(), v["line"].as_u64().unwrap()))
            .collect();
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(order, sorted);
        // `--format json`: the same problems in one document.
        let mut args = vec!["--format", "json", "check"];
        if dialect == "rows" {
            args.push("rows");
        } else {
            args.extend_from_slice(&["sessions", "--dialect", dialect]);
        }
        args.push(sub);
        let document: Value = serde_json::from_slice(&check(dir, &args).stdout).expect("one JSON document");
        assert_eq!(document["ok"], Value::Bool(false));
        assert_eq!(document["problems"].as_array().map(Vec::len), Some(expected.len()));
    }
}

#[test]
fn gzipped_and_plain_files_give_the_same_report() {
    let plain = generate("plain", &["--gz-share", "0"]);
    let gz = generate("gz", &["--gz-share", "1"]);
    assert!(files(&gz)
        .iter()
        .filter(|(p, _)| p.starts_with("sessions"))
        .all(|(p, _)| p.to_string_lossy().ends_with(".gz")));
    for (sub, dialect) in [("sessions/seed", "seed"), ("sessions/pi", "pi"), ("rows", "rows")] {
        let a = jsonl(&plain, dialect, "2", &[sub]);
        let b = jsonl(&gz, dialect, "2", &[sub]);
        assert_eq!(a.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&a.stdout),
            String::from_utf8_lossy(&b.stdout).replace(".jsonl.gz", ".jsonl")
        );
    }
}

#[test]
fn a_glob_a_directory_and_standard_input() {
    let dir = corpus();
    let by_dir = jsonl(dir, "seed", "2", &["sessions/seed"]);
    let by_glob = jsonl(dir, "seed", "2", &["sessions/seed/*.jsonl*"]);
    assert_eq!(by_dir.stdout, by_glob.stdout);
    // A glob naming some files: only those, each once (a file named twice is checked once).
    let mut some: Vec<String> = std::fs::read_dir(dir.join("sessions/seed"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("00001"))
        .collect();
    some.sort();
    assert!(!some.is_empty());
    let again = format!("sessions/seed/{}", some[0]);
    let out = jsonl(dir, "seed", "1", &["sessions/seed/00001*", &again]);
    let (_, summary) = problems(&out);
    assert_eq!(summary["files"].as_u64(), Some(some.len() as u64));

    // Standard input: a faulty plain seed file's problems, named <stdin>.
    let faults = manifest(dir)["faults"].as_array().unwrap().clone();
    let fault = faults
        .iter()
        .find(|f| {
            let p = f["path"].as_str().unwrap();
            p.starts_with("sessions/seed") && p.ends_with(".jsonl")
        })
        .expect("a plain faulty seed file");
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent-contract"))
        .args(["--format", "jsonl", "check", "sessions", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&std::fs::read(dir.join(fault["path"].as_str().unwrap())).unwrap()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let (found, _) = problems(&out);
    let expected = ("<stdin>".to_owned(), fault["line"].as_u64().unwrap(), fault["code"].as_str().unwrap().to_owned());
    assert_eq!(found, BTreeSet::from([expected]));
}

#[test]
fn a_progress_bar_on_a_terminal_and_none_in_a_pipe() {
    let dir = corpus();
    let bin = env!("CARGO_BIN_EXE_agent-contract");
    let n = std::fs::read_dir(dir.join("sessions/seed")).unwrap().count();
    let bar = format!("{n}/{n} files, ");
    // `script` (util-linux) runs the command under a pseudo-terminal and copies what it writes.
    let out = Command::new("script")
        .current_dir(dir)
        .args(["-q", "-e", "-c", &format!("{bin} check sessions sessions/seed"), "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(shown.contains(&bar), "no progress bar on the terminal: {shown:?}");
    let piped = check(dir, &["check", "sessions", "sessions/seed"]);
    assert_eq!(piped.status.code(), Some(1));
    assert!(piped.stderr.is_empty(), "{}", String::from_utf8_lossy(&piped.stderr));
    assert!(!String::from_utf8_lossy(&piped.stdout).contains(&bar));
}

#[test]
fn exit_codes_0_1_2() {
    let dir = corpus();
    let m = manifest(dir);
    let faulty: BTreeSet<&str> = m["faults"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    let clean: Vec<&str> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .filter(|p| p.starts_with("sessions/seed") && !faulty.contains(p))
        .collect();
    assert!(clean.len() > 2);
    let out = check(dir, &[&["check", "sessions", "--jobs", "2"][..], &clean].concat());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with(&format!("ok ({} files, 0 with problems;", clean.len())));

    assert_eq!(check(dir, &["check", "sessions", "sessions/seed"]).status.code(), Some(1));
    for args in [
        &["check", "sessions", "no-such-dir"][..],
        &["check", "sessions", "sessions/seed/*.nothing"],
        &["check", "sessions", "--jobs", "0", "sessions/seed"],
        &["check", "sessions"],
    ] {
        let out = check(dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
    // A file that cannot be read to its end (a broken gzip stream): exit 2, and the other files
    // are still reported.
    let broken = scratch("broken");
    std::fs::write(broken.join("a.jsonl.gz"), b"\x1f\x8b\x08\x00not gzip").unwrap();
    let name = if clean[0].ends_with(".gz") { "b.jsonl.gz" } else { "b.jsonl" };
    std::fs::copy(dir.join(clean[0]), broken.join(name)).unwrap();
    let out = check(&broken, &["check", "sessions", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a.jsonl.gz"));
    // Not "ok": nothing is known of the file that could not be read.
    assert!(String::from_utf8_lossy(&out.stdout)
        .starts_with("no problems in the files read (2 files, 0 with problems, 1 unreadable;"));
}
