//! `lockstep-parity [LESSONS_DIR]`: prints `<file name>\t<digest>` for every lesson
//! (`*.md` in the directory, `lessons` by default, README.md excepted), sorted by name:
//! the native half of `cargo xtask parity`; `e2e/parity.mjs` prints the wasm half.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "lessons".into()));
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(err) => {
            eprintln!("lockstep-parity: {}: {err}", dir.display());
            return ExitCode::FAILURE;
        }
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.ends_with(".md") && !name.eq_ignore_ascii_case("README.md"))
        .collect();
    names.sort();
    for name in names {
        match std::fs::read_to_string(dir.join(&name)) {
            Ok(text) => println!("{}", lockstep_parity::digest_line(&name, &text)),
            Err(err) => {
                eprintln!("lockstep-parity: {}: {err}", dir.join(&name).display());
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
