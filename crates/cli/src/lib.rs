//! The `lockstep` command line: `run` a lesson headless (trace, outcome, checks, one
//! JSON object, an SVG timeline), `check` lesson files, `explore` a lesson's
//! interleavings for a property's counterexample, print a lesson's outcome `matrix`, list `exercises` and `prerender`
//! each lesson's first paint for the app. File reading lives here, not in the
//! lesson crate, which also builds for wasm32.

pub mod alloc;
mod args;
mod check_cmd;
mod exercises_cmd;
mod explore_cmd;
mod json;
mod lang;
mod matrix_cmd;
mod prerender_cmd;
mod run_cmd;
mod svg;
mod table;

use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

pub use args::{Cli, Command};

/// Exit codes (a contract, documented in `--help`).
pub mod exit {
    /// Everything ran and every check passed.
    pub const OK: u8 = 0;
    /// A check failed.
    pub const CHECK_FAILED: u8 = 1;
    /// Bad input: unreadable path, lesson errors, bad `--set`, SQL the engine refuses.
    pub const BAD_INPUT: u8 = 2;
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Run(args) => run_cmd::command(&args),
        Command::Check(args) => check_cmd::command(&args),
        Command::Exercises(args) => exercises_cmd::command(&args),
        Command::Explore(args) => explore_cmd::command(&args),
        Command::Matrix(args) => matrix_cmd::command(&args),
        Command::Prerender(args) => prerender_cmd::command(&args),
    };
    ExitCode::from(code)
}

/// Prints a command's output and returns its exit code: 0 when `ok`, 1 when not, 2 with
/// the messages of bad input.
fn finish(result: Result<(String, bool), Vec<String>>) -> u8 {
    match result {
        Ok((output, ok)) => {
            print!("{output}");
            if ok {
                exit::OK
            } else {
                exit::CHECK_FAILED
            }
        }
        Err(messages) => {
            for m in messages {
                eprintln!("{m}");
            }
            exit::BAD_INPUT
        }
    }
}

/// A lesson file's text, or the message to print when it cannot be read.
fn read_lesson(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| {
        // A lesson id (as the app's URLs name lessons) is not a file: name the file.
        let hint = [
            path.with_extension("md"),
            Path::new("lessons").join(path).with_extension("md"),
        ]
        .into_iter()
        .find(|p| p != path && p.is_file())
        .map(|p| format!("; did you mean {}?", p.display()))
        .unwrap_or_default();
        format!("{}: cannot read: {e}{hint}", path.display())
    })
}
