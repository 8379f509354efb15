//! `cargo xtask bench`: the browser benchmark. Installs what is missing (Chromium
//! included), builds dist/ like `cargo xtask test` (`trunk build --release`, then the
//! wasm sizes), and runs `node e2e/bench.mjs`, which prints the figures and a table of
//! budgets (download size, first paint, run on screen, longest task and Cancel during a
//! runaway check). It fails when a figure is over its budget or something cannot run.
//! Not part of `cargo xtask test`: timings on a shared machine are no test.

use std::path::Path;
use std::process::ExitCode;

use crate::report;
use crate::setup;
use crate::shell::Shell;

/// `args` go to e2e/bench.mjs (`--rounds N`, `--json FILE`).
pub fn run(shell: &Shell, args: &[String]) -> ExitCode {
    let result = setup::ensure_all(shell, true)
        .map_err(|err| format!("set-up failed: {err}"))
        .and_then(|()| {
            let built = shell.status(shell.cmd("trunk").args(["build", "--release"]));
            if built.is_ok() {
                report::print_wasm_sizes(shell);
            }
            built
        })
        .and_then(|()| shell.status(shell.cmd("node").arg("e2e/bench.mjs").args(from_here(args))));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask bench: {err}");
            ExitCode::FAILURE
        }
    }
}

/// The node script runs from the repository root: a relative `--json FILE` is made
/// relative to where `cargo xtask bench` was started instead.
fn from_here(args: &[String]) -> Vec<String> {
    let cwd = std::env::current_dir().ok();
    let mut out = Vec::with_capacity(args.len());
    let mut after_json = false;
    for arg in args {
        let path = Path::new(arg);
        match &cwd {
            Some(cwd) if after_json && path.is_relative() => {
                out.push(cwd.join(path).to_string_lossy().into_owned());
            }
            _ => out.push(arg.clone()),
        }
        after_json = arg == "--json";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_json_path_is_made_absolute() {
        let args: Vec<String> = ["--rounds", "3", "--json", "out.json"]
            .map(String::from)
            .to_vec();
        let out = from_here(&args);
        assert_eq!(out[..3], args[..3]);
        assert!(Path::new(&out[3]).is_absolute(), "{}", out[3]);
        assert!(out[3].ends_with("out.json"));
        let absolute = ["--json".to_string(), "/tmp/b.json".to_string()];
        assert_eq!(from_here(&absolute), absolute);
    }
}
