//! `cargo xtask fuzz [--time SECS] [--workers N] [--seed N]`: builds `lockstep-fuzz`
//! (profile `fuzz`: optimised, overflow checks and debug assertions on) and runs it on
//! the parser, the lesson loader and the simulator for the given time. Failures are
//! saved, minimized, under `target/fuzz-findings/`; the exit code says whether any
//! were found. `cargo xtask test` runs a short fixed pass instead (`crates/fuzz/tests`).

use std::process::ExitCode;

use crate::shell::Shell;

pub fn run(shell: &Shell, args: &[String]) -> ExitCode {
    let built = shell.status(shell.cargo().args([
        "build",
        "--profile",
        "fuzz",
        "-p",
        "lockstep-fuzz",
        "--bin",
        "lockstep-fuzz",
    ]));
    let result = built.and_then(|()| {
        let exe = shell.root().join("target/fuzz/lockstep-fuzz");
        shell.status(shell.cmd(&exe).arg("run").args(args).args([
            "--lessons",
            "lessons",
            "--out",
            "target/fuzz-findings",
        ]))
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask fuzz: {err}");
            ExitCode::FAILURE
        }
    }
}
