//! Embeds the lesson files: lists `lessons/*.md` (README.md excepted) and writes
//! `$OUT_DIR/lessons.rs`, a table of (file name, `include_str!` of the file). The app
//! has no network at run time, so lessons reach it at build time; listing the directory
//! (rather than a fixed list) lets a new lesson appear without touching the UI.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let manifest =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let dir = manifest.join("../../lessons");
    // The directory's own entry changes when a file is added, removed or renamed.
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.eq_ignore_ascii_case("README.md"))
            })
            .collect(),
        // No lessons directory: the app shows an empty list instead of failing to build.
        Err(_) => Vec::new(),
    };
    files.sort();
    let mut out = String::from(
        "/// Every `lessons/*.md` at build time: (file name, text), sorted by name.\n\
         pub const LESSON_FILES: &[(&str, &str)] = &[\n",
    );
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("lesson file names are UTF-8");
        let full = path.canonicalize().expect("lesson file path");
        writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            full.display().to_string()
        )
        .expect("write to a String");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("lessons.rs");
    std::fs::write(dest, out).expect("write lessons.rs");
}
