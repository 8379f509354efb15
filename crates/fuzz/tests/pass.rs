//! A short, fixed fuzzing pass: the same inputs on every run, so a regression fails
//! here in `cargo test` (long runs: `cargo xtask fuzz --time 60`).

use lockstep_fuzz::{pass, Corpus, Input, Target};

fn corpus() -> Corpus {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../lessons");
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).expect("lessons directory").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") && name != "README.md" {
            let text = std::fs::read_to_string(e.path()).expect("lesson text");
            files.push((format!("lessons/{name}"), text));
        }
    }
    files.sort();
    Corpus::from_lessons(files)
}

fn check(target: Target, count: u64, min_behaviours: usize) {
    let c = corpus();
    assert!(
        c.lessons.len() >= 10 && c.sql.len() >= 40,
        "corpus: {} lessons",
        c.lessons.len()
    );
    let p = pass(&c, target, 7, 0, count);
    assert_eq!(p.inputs, count);
    assert!(p.panics.is_empty(), "{target}: {:?}", p.panics);
    // The generator reaches many behaviours, not one error over and over.
    assert!(
        p.behaviours >= min_behaviours,
        "{target}: only {} behaviours",
        p.behaviours
    );
}

#[test]
fn parser_inputs_never_panic() {
    check(Target::Parse, 4_000, 40);
}

#[test]
fn lesson_inputs_never_panic() {
    check(Target::Lesson, 300, 10);
}

#[test]
fn simulated_inputs_never_panic() {
    check(Target::Simulate, 300, 10);
}

#[test]
fn inputs_are_reproducible_and_read_back() {
    let c = corpus();
    for target in Target::ALL {
        for index in [0, 1, 99] {
            let a = lockstep_fuzz::input(&c, target, 3, index);
            assert_eq!(a, lockstep_fuzz::input(&c, target, 3, index));
            let back = Input::from_text(&a.to_string());
            assert_eq!(back.as_ref(), Some(&a), "{target} {index}");
        }
    }
}
