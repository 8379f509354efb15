//! Compiles the lessons: parses and validates every `lessons/*.md` (README.md excepted),
//! renders its Markdown to HTML and writes `$OUT_DIR/lessons.bin`, the compact form of
//! `lesson::Compiled` that `catalog.rs` embeds. The app has no network at run time, so
//! lessons reach it at build time; compiling them here keeps the TOML and Markdown
//! parsers out of the wasm, and a lesson with an error fails the build with its
//! `file:line:col` instead of shipping a broken page. Listing the directory (rather than
//! a fixed list) lets a new lesson appear without touching the UI. Translations
//! (`lessons/pl/<id>.md`, `lessons/ja/<id>.md`) are checked against their originals and
//! compiled with them: a drifted one fails the build the same way.

use std::path::PathBuf;

use lesson::{Compiled, Lesson, Translation, TRANSLATION_LANGS};

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
    let mut compiled = Vec::new();
    let mut errors = Vec::new();
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("lesson file names are UTF-8");
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|err| panic!("reading {}: {err}", path.display()));
        match Lesson::parse(name, &text) {
            Ok(lesson) => compiled.push(Compiled::new(lesson)),
            Err(errs) => errors.extend(errs.iter().map(|e| format!("lessons/{e}"))),
        }
    }
    for lang in TRANSLATION_LANGS {
        let lang_dir = dir.join(lang);
        println!("cargo:rerun-if-changed={}", lang_dir.display());
        let Ok(entries) = std::fs::read_dir(&lang_dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "md"))
            .collect();
        paths.sort();
        for path in &paths {
            println!("cargo:rerun-if-changed={}", path.display());
            let name = format!(
                "{lang}/{}",
                path.file_name()
                    .and_then(|n| n.to_str())
                    .expect("lesson file names are UTF-8")
            );
            let text = std::fs::read_to_string(path)
                .unwrap_or_else(|err| panic!("reading {}: {err}", path.display()));
            let stem = name
                .trim_start_matches(&format!("{lang}/"))
                .trim_end_matches(".md");
            let Some(original) = compiled.iter_mut().find(|c| c.lesson.id == stem) else {
                // An original with errors has them reported above.
                if !files
                    .iter()
                    .any(|f| f.file_stem().is_some_and(|s| s == stem))
                {
                    errors.push(format!(
                        "lessons/{name}:1:1: a translation of lessons/{stem}.md, which does not exist"
                    ));
                }
                continue;
            };
            match Translation::parse(&name, &text, &original.lesson) {
                Ok(t) => original.add_translation(t),
                Err(errs) => errors.extend(errs.iter().map(|e| format!("lessons/{e}"))),
            }
        }
    }
    if !errors.is_empty() {
        for e in &errors {
            eprintln!("{e}");
        }
        eprintln!(
            "error: {} problem(s) in lessons/*.md and their translations, which the app embeds compiled",
            errors.len()
        );
        std::process::exit(1);
    }
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("lessons.bin");
    std::fs::write(dest, Compiled::encode_all(&compiled)).expect("write lessons.bin");
}
