//! `cargo xtask fidelity [--filter TEXT]`: the `pg-*` lessons on a real PostgreSQL
//! server against the simulator (`crates/fidelity`). Installs Debian's `postgresql` when
//! it is missing and this is a root shell with apt-get; otherwise says it skipped, and
//! passes. The binary is built with the dev profile: the release profile aborts on a
//! panic, and the server's guard must run on drop.

use std::path::Path;
use std::process::ExitCode;

use crate::report::{StepResult, TestCounts};
use crate::shell::{Result, Shell};

/// Where Debian's `postgresql` puts each major version's binaries.
const DEBIAN_PG: &str = "/usr/lib/postgresql";

pub fn run(shell: &Shell, args: &[String]) -> ExitCode {
    let step = check(shell, args);
    match (&step.error, &step.note) {
        (Some(err), _) => {
            eprintln!("xtask fidelity: {err}");
            ExitCode::FAILURE
        }
        (None, Some(note)) => {
            println!("xtask fidelity: {note}");
            ExitCode::SUCCESS
        }
        (None, None) => ExitCode::SUCCESS,
    }
}

/// The suite as a step of `cargo xtask test`: each compared figure counts as a test.
pub fn check(shell: &Shell, args: &[String]) -> StepResult {
    let lessons = shell.root().join("lessons");
    let has_pg_lessons = std::fs::read_dir(&lessons).is_ok_and(|dir| {
        dir.flatten().any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("pg-") && name.ends_with(".md")
        })
    });
    if !has_pg_lessons {
        return StepResult::skipped("no pg-*.md lesson in lessons/");
    }
    if let Err(why) = ensure_postgres(shell) {
        println!("fidelity: skipped: {why}");
        return StepResult::skipped(&why);
    }
    let built = shell.status(shell.cargo().args(["build", "-p", "lockstep-fidelity"]));
    if let Err(err) = built {
        return Err(err).into();
    }
    let exe = shell.root().join("target/debug/lockstep-fidelity");
    let run = shell.status_capture(shell.cmd(&exe).args(args).args([
        "--out",
        "target/fidelity/report.json",
        "lessons",
    ]));
    match count_figures(&run.stdout) {
        Some(counts) => StepResult::counted(run.result, counts),
        None => run.result.and(Err("compared no figure".to_string())).into(),
    }
}

/// PostgreSQL's binaries, installed with apt-get when missing and possible; the error
/// says why the suite cannot run.
fn ensure_postgres(shell: &Shell) -> Result {
    if installed() {
        return Ok(());
    }
    if shell.probe(shell.cmd("id").arg("-u")).as_deref() != Some("0") {
        return Err(format!(
            "PostgreSQL is not installed ({DEBIAN_PG}/N/bin) and installing it needs root: \
             sudo apt-get install postgresql"
        ));
    }
    if shell.probe(shell.cmd("apt-get").arg("--version")).is_none() {
        return Err("PostgreSQL is not installed and there is no apt-get".to_string());
    }
    println!("fidelity: installing Debian's postgresql for the comparison with a real server");
    let install = |shell: &Shell| {
        shell.status(
            shell
                .cmd("apt-get")
                .args(["install", "-y", "--no-install-recommends", "postgresql"])
                .env("DEBIAN_FRONTEND", "noninteractive"),
        )
    };
    install(shell)
        .or_else(|_| {
            shell.status(shell.cmd("apt-get").arg("update"))?;
            install(shell)
        })
        .map_err(|e| format!("PostgreSQL could not be installed: {e}"))?;
    if installed() {
        Ok(())
    } else {
        Err(format!(
            "apt-get installed postgresql, but {DEBIAN_PG}/N/bin/pg_ctl is missing"
        ))
    }
}

fn installed() -> bool {
    std::fs::read_dir(DEBIAN_PG).is_ok_and(|dirs| {
        dirs.flatten()
            .any(|d| Path::new(&d.path()).join("bin/pg_ctl").is_file())
    })
}

/// The binary's closing `fidelity: N figures agree, M differ; ...` line.
fn count_figures(stdout: &str) -> Option<TestCounts> {
    let line = stdout.lines().rev().find(|l| l.starts_with("fidelity: "))?;
    let rest = line.strip_prefix("fidelity: ")?;
    let (agree, rest) = rest.split_once(" figures agree, ")?;
    let (differ, _) = rest.split_once(" differ")?;
    Some(TestCounts {
        passed: agree.parse().ok()?,
        failed: differ.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_closing_line() {
        let out = "fidelity: pg-isolation [isolation=serializable]\n| table |\n\
                   fidelity: 41 figures agree, 2 differ; report in target/fidelity/report.json\n";
        assert_eq!(
            count_figures(out),
            Some(TestCounts {
                passed: 41,
                failed: 2
            })
        );
        assert_eq!(
            count_figures("fidelity: pg-claim-race [claim=two-step]\n"),
            None
        );
    }
}
