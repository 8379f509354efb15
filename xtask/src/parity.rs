//! Native and wasm produce the same trace: every lesson's default run (toggles at their
//! defaults, the lesson's seed) is digested by the native `lockstep-parity` binary and
//! by the same crate compiled to wasm32 and run in Node (`e2e/parity.mjs`); each lesson
//! whose two lines differ fails. Both sides print `<file name>\t<digest>` per lesson.
//!
//! Both builds use the release profile, as the app ships (opt-level "z", LTO, one
//! codegen unit, panic = "abort"; Trunk's `wasm-opt` aside). The crate's library is an
//! rlib, built as a cdylib only here (`cargo rustc --crate-type cdylib`): then every
//! dependency is compiled to bitcode only and the LTO link generates code just for what
//! the exports reach: on 2 cores that measured about as fast as a profile without LTO.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::report::{StepResult, TestCounts};
use crate::setup::WASM_TARGET;
use crate::shell::Shell;

const LESSONS: &str = "lessons";

pub fn check(shell: &Shell) -> StepResult {
    let wasm = shell.status(shell.cargo().args([
        "rustc",
        "-p",
        "lockstep-parity",
        "--lib",
        "--crate-type",
        "cdylib",
        "--target",
        WASM_TARGET,
        "--release",
    ]));
    if let Err(err) = wasm {
        return Err(err).into();
    }
    let module = target_dir(shell)
        .join(WASM_TARGET)
        .join("release")
        .join("lockstep_parity.wasm");
    let native = shell.read(shell.cargo().args([
        "run",
        "--quiet",
        "-p",
        "lockstep-parity",
        "--bin",
        "lockstep-parity",
        "--release",
        "--",
        LESSONS,
    ]));
    let native = match native {
        Ok(out) => out,
        Err(err) => return Err(err).into(),
    };
    let wasm = shell.read(
        shell
            .cmd("node")
            .arg("e2e/parity.mjs")
            .arg(&module)
            .arg(LESSONS),
    );
    let wasm = match wasm {
        Ok(out) => out,
        Err(err) => return Err(err).into(),
    };
    let lessons = compare(&native, &wasm);
    let mut counts = TestCounts::default();
    let mut differ = Vec::new();
    for (name, verdict) in &lessons {
        match verdict {
            Ok(digest) => {
                counts.passed += 1;
                println!("ok   {name}  {digest}");
            }
            Err(problem) => {
                counts.failed += 1;
                differ.push(name.as_str());
                println!("FAIL {name}: {problem}");
            }
        }
    }
    let result = if lessons.is_empty() {
        Err(format!("no lesson in {LESSONS}/"))
    } else if differ.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} of {} lessons differ between native and wasm: {}",
            differ.len(),
            lessons.len(),
            differ.join(", ")
        ))
    };
    StepResult::counted(result, counts)
}

/// Where cargo writes: `CARGO_TARGET_DIR` (or its config-variable spelling) if set,
/// relative to the repository root, else `target/`.
fn target_dir(shell: &Shell) -> PathBuf {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .or_else(|| std::env::var_os("CARGO_BUILD_TARGET_DIR"))
        .map_or_else(|| PathBuf::from("target"), PathBuf::from);
    shell.root().join(dir)
}

/// Per lesson (by file name, sorted): `Ok(digest)` when both sides printed the same
/// digest, else what differs. A lesson that failed to run fails even when both sides
/// agree, since then nothing was compared.
fn compare(native: &str, wasm: &str) -> BTreeMap<String, Result<String, String>> {
    let native = digests(native);
    let wasm = digests(wasm);
    let names: std::collections::BTreeSet<&str> =
        native.keys().chain(wasm.keys()).copied().collect();
    names
        .into_iter()
        .map(|name| {
            let verdict = match (native.get(name), wasm.get(name)) {
                (Some(n), Some(w)) if n == w && n.starts_with("error:") => {
                    Err(format!("did not run (native and wasm): {n}"))
                }
                (Some(n), Some(w)) if n == w => Ok((*n).to_owned()),
                (Some(n), Some(w)) => Err(format!("native {n}, wasm {w}")),
                (Some(_), None) => Err("no result from wasm".to_owned()),
                (None, _) => Err("no result from native".to_owned()),
            };
            (name.to_owned(), verdict)
        })
        .collect()
}

/// `<file name>\t<digest>` lines; other lines are ignored.
fn digests(output: &str) -> BTreeMap<&str, &str> {
    output
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .map(|(name, digest)| (name.trim(), digest.trim()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_per_lesson() {
        let native = "a.md\tevents=1 fnv1a64=01\nb.md\tevents=2 fnv1a64=02\nc.md\terror: x\nd.md\tevents=4\n";
        let wasm = "noise\nb.md\tevents=2 fnv1a64=ff\na.md\tevents=1 fnv1a64=01\nc.md\terror: x\ne.md\tevents=5\n";
        let got = compare(native, wasm);
        let names: Vec<&str> = got.keys().map(String::as_str).collect();
        assert_eq!(names, ["a.md", "b.md", "c.md", "d.md", "e.md"]);
        assert_eq!(got["a.md"], Ok("events=1 fnv1a64=01".to_owned()));
        assert_eq!(
            got["b.md"],
            Err("native events=2 fnv1a64=02, wasm events=2 fnv1a64=ff".to_owned())
        );
        assert!(got["c.md"]
            .as_ref()
            .is_err_and(|e| e.starts_with("did not run")));
        assert_eq!(got["d.md"], Err("no result from wasm".to_owned()));
        assert_eq!(got["e.md"], Err("no result from native".to_owned()));
    }
}
