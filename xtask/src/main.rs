//! `cargo xtask <command>`: Lockstep's build, serve and test automation, in Rust so it
//! needs nothing beyond cargo to start (the xtask pattern). See `cargo xtask help`.

mod bench;
mod fidelity;
mod fuzz;
mod parity;
mod report;
mod setup;
mod shell;
mod tidy;

use std::process::ExitCode;
use std::time::Instant;

use report::{Report, StepResult};
use shell::Shell;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  serve [--port N]    install what is missing, build the app (release) and serve it on
                      http://127.0.0.1:8080, rebuilding when sources change
  test                install what is missing (plus Chromium), then: fmt, clippy, native
                      tests, the engine's invariants and wasm32 build, native/wasm trace
                      parity, the fidelity suite (see fidelity), the release wasm build,
                      and the browser tests; ends with
                      `N passed, N failed`
  parity              only the native/wasm trace parity check: every lesson's default
                      run natively and in wasm (Node), compared by trace digest
  e2e [--filter TEXT] the release wasm build and the browser tests only
  fuzz [--time SECS] [--workers N] [--seed N]
                      fuzz the SQL parser, the lesson loader and the simulator for SECS
                      (default 60); failures are minimized into target/fuzz-findings/
  fidelity [--filter TEXT]
                      the pg-* lessons on a throwaway PostgreSQL cluster (Debian's
                      postgresql, installed when missing and possible; skipped, saying
                      why, when not) against the simulator: prints a table of figures,
                      writes target/fidelity/report.json, fails when a figure differs
  tidy                only the engine's invariants: no web dependencies, no clock or
                      OS entropy, no import cycles, dialect code only in dialect/
  setup [--browser]   only install what is missing
  bench [--rounds N] [--json FILE]
                      the release wasm build, then a browser benchmark of it (toggle
                      re-simulation, seeking, page load, wasm size, a runaway check);
                      prints a table of budgets and fails when one is exceeded
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shell = Shell::new();
    let (command, rest) = match args.split_first() {
        Some((command, rest)) => (command.as_str(), rest),
        None => ("help", &[][..]),
    };
    match command {
        "serve" => serve(&shell, rest),
        "test" => test(&shell, rest, true),
        "e2e" => test(&shell, rest, false),
        "bench" => bench::run(&shell, rest),
        "fuzz" => fuzz::run(&shell, rest),
        "fidelity" => fidelity::run(&shell, rest),
        "tidy" => match tidy::check_engine(&shell) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("xtask tidy: {err}");
                ExitCode::FAILURE
            }
        },
        "parity" => {
            let mut steps = Report::default();
            if steps.step("set-up", || setup::ensure_parity(&shell).into()) {
                steps.step(PARITY_STEP, || parity::check(&shell));
            }
            steps.finish()
        }
        "setup" => match setup::ensure_all(&shell, rest.iter().any(|a| a == "--browser")) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("xtask setup: {err}");
                ExitCode::FAILURE
            }
        },
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        other => {
            eprint!("xtask: unknown command `{other}`\n\n{USAGE}");
            ExitCode::FAILURE
        }
    }
}

const SERVE_DIST: &str = "target/serve";
const PARITY_STEP: &str = "trace parity, native vs wasm";
const FIDELITY_STEP: &str = "fidelity: pg-* lessons on a real PostgreSQL";

fn serve(shell: &Shell, args: &[String]) -> ExitCode {
    let started = Instant::now();
    if let Err(err) = setup::ensure_all(shell, false) {
        eprintln!("xtask serve: set-up failed: {err}");
        return ExitCode::FAILURE;
    }
    println!(
        "xtask serve: set-up done in {:.1}s; trunk builds (release) then serves",
        started.elapsed().as_secs_f64()
    );
    // trunk serve does the release build itself, serves it and rebuilds on change;
    // address and port come from Trunk.toml ([serve]), `--port` overrides. Its output
    // goes to target/serve, not dist/: it injects a live-reload script, and dist/ stays
    // the plain release build that `cargo xtask test` checks.
    let mut trunk = shell.cmd("trunk");
    trunk
        .args(["serve", "--release", "--dist", SERVE_DIST])
        .args(args);
    match shell.status(&mut trunk) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask serve: {err}");
            ExitCode::FAILURE
        }
    }
}

/// `full`: the whole check (`cargo xtask test`); otherwise only the wasm build and the
/// browser tests (`cargo xtask e2e`). Later steps still run after a failed one where
/// their result is independent, so one run reports as much as it can.
fn test(shell: &Shell, args: &[String], full: bool) -> ExitCode {
    let mut steps = Report::default();
    if !steps.step("set-up", || setup::ensure_all(shell, true).into()) {
        return steps.finish();
    }
    if full {
        steps.step("cargo fmt --all --check", || {
            shell
                .status(shell.cargo().args(["fmt", "--all", "--check"]))
                .into()
        });
        steps.step("cargo clippy", || {
            shell
                .status(shell.cargo().args([
                    "clippy",
                    "--workspace",
                    "--all-targets",
                    "--",
                    "-D",
                    "warnings",
                ]))
                .into()
        });
        steps.step("cargo test --workspace", || {
            let run = shell.status_capture(shell.cargo().args(["test", "--workspace"]));
            StepResult::from_tests(run, report::count_cargo_tests)
        });
        steps.step("engine invariants", || tidy::check_engine(shell).into());
        steps.step("engine for wasm32", || {
            shell
                .status(shell.cargo().args([
                    "build",
                    "-p",
                    "lockstep-engine",
                    "--target",
                    setup::WASM_TARGET,
                ]))
                .into()
        });
        steps.step(PARITY_STEP, || parity::check(shell));
        steps.step(FIDELITY_STEP, || fidelity::check(shell, &[]));
    }
    let built = steps.step("trunk build --release", || {
        let result = shell.status(shell.cmd("trunk").args(["build", "--release"]));
        if result.is_ok() {
            report::print_wasm_sizes(shell);
        }
        result.into()
    });
    if built {
        steps.step("browser tests (e2e/)", || {
            let run = shell.status_capture(shell.cmd("node").arg("e2e/run.mjs").args(args));
            StepResult::from_tests(run, report::count_e2e_tests)
        });
    } else {
        steps.skip("browser tests (e2e/)", "needs the wasm build");
    }
    steps.finish()
}
