//! `lockstep check`: validate lesson files, running every toggle combination.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use lesson::{run, validate_exercise, Lesson, LessonError, Translation, TRANSLATION_LANGS};

use crate::args::CheckArgs;
use crate::exit::{BAD_INPUT, CHECK_FAILED, OK};

#[derive(Default)]
struct Tally {
    lessons: usize,
    /// Translations checked against their originals (and found in order).
    translations: usize,
    runs: usize,
    passed: usize,
    failed: usize,
    /// Problems of input: unreadable paths, lesson errors, SQL the engine refuses.
    errors: usize,
}

pub fn command(args: &CheckArgs) -> u8 {
    let mut tally = Tally::default();
    let mut files = Vec::new();
    let mut translations = Vec::new();
    for path in &args.paths {
        match lesson_files(path) {
            Ok(found) => {
                for dir in &found.skipped {
                    println!("{}: note: {PENDING_NOTE}", dir.display());
                }
                if found.files.is_empty() && found.translations.is_empty() {
                    eprintln!("{}: no lesson files (*.md) here", path.display());
                    tally.errors += 1;
                }
                files.extend(found.files);
                translations.extend(found.translations);
            }
            Err(message) => {
                eprintln!("{message}");
                tally.errors += 1;
            }
        }
    }
    let mut parsed: BTreeMap<PathBuf, Option<Lesson>> = BTreeMap::new();
    for file in &files {
        let lesson = check_file(file, args.seed, &args.lang, &mut tally);
        parsed.insert(file.clone(), lesson);
    }
    for file in &translations {
        check_translation(file, &parsed, &mut tally);
    }
    untranslated(&files);
    let translated = if translations.is_empty() {
        String::new()
    } else {
        format!(", {}", count(tally.translations, "translation"))
    };
    println!(
        "checked {}{translated}, {}, {}: {} passed, {} failed; {}",
        count(tally.lessons, "lesson"),
        count(tally.runs, "run"),
        count(tally.passed + tally.failed, "check"),
        tally.passed,
        tally.failed,
        count(tally.errors, "error")
    );
    if tally.errors > 0 {
        BAD_INPUT
    } else if tally.failed > 0 {
        CHECK_FAILED
    } else {
        OK
    }
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Checks a translation against its original (parsed with this run's lessons when it
/// is one of them, else read now). Nothing runs: a translation's SQL is its original's.
fn check_translation(file: &Path, parsed: &BTreeMap<PathBuf, Option<Lesson>>, tally: &mut Tally) {
    let dir = file
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new(""));
    let original_path = dir.join(file.file_name().unwrap_or_default());
    let name = file.display().to_string();
    let original = match parsed.get(&original_path) {
        Some(Some(lesson)) => lesson.clone(),
        // Its errors are reported already; a translation of a broken lesson waits.
        Some(None) => return,
        None => {
            let Ok(text) = std::fs::read_to_string(&original_path) else {
                eprintln!(
                    "{name}:1:1: a translation of {}, which does not exist (a translation's file name is its original's)",
                    original_path.display()
                );
                tally.errors += 1;
                return;
            };
            match Lesson::parse(&original_path.display().to_string(), &text) {
                Ok(lesson) => lesson,
                Err(errors) => {
                    for e in &errors {
                        eprintln!("{e}");
                    }
                    tally.errors += errors.len();
                    return;
                }
            }
        }
    };
    let text = match crate::read_lesson(file) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("{message}");
            tally.errors += 1;
            return;
        }
    };
    match Translation::parse(&name, &text, &original) {
        Ok(_) => tally.translations += 1,
        Err(errors) => {
            for e in &errors {
                eprintln!("{e}");
            }
            tally.errors += errors.len();
        }
    }
}

/// For each directory of lessons being translated (it has `pl/` or `ja/`), a line per
/// language naming the lessons that language lacks: information, not a failure.
fn untranslated(files: &[PathBuf]) {
    let dirs: BTreeSet<&Path> = files
        .iter()
        .map(|f| f.parent().unwrap_or(Path::new("")))
        .collect();
    for dir in &dirs {
        for lang in TRANSLATION_LANGS {
            if !dir.join(lang).is_dir() {
                continue;
            }
            let missing: Vec<String> = files
                .iter()
                .filter(|f| f.parent().unwrap_or(Path::new("")) == *dir)
                .filter(|f| !crate::lang::translation_path(f, lang).is_file())
                .filter_map(|f| f.file_stem()?.to_str().map(String::from))
                .collect();
            let list = if missing.is_empty() {
                "none".to_string()
            } else {
                missing.join(", ")
            };
            let prefix = if dirs.len() > 1 {
                format!("{}: ", dir.display())
            } else {
                String::new()
            };
            println!("{prefix}untranslated ({lang}): {list}");
        }
    }
}

/// Checks one lesson; returns it parsed (in English), or `None` when it has errors.
fn check_file(file: &Path, seed: Option<u64>, lang: &str, tally: &mut Tally) -> Option<Lesson> {
    let text = match crate::read_lesson(file) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("{message}");
            tally.errors += 1;
            return None;
        }
    };
    let name = file.display().to_string();
    let original = match Lesson::parse(&name, &text) {
        Ok(lesson) => lesson,
        Err(errors) => {
            for e in &errors {
                eprintln!("{e}");
            }
            tally.errors += errors.len();
            return None;
        }
    };
    tally.lessons += 1;
    // Check names in `lang`: the translated lesson runs the same SQL. A translation's
    // own errors are reported when it is checked against this lesson.
    let lesson = match crate::lang::read_translation(file, &original, lang) {
        Some(Ok(t)) => original.translated(&t),
        _ => original.clone(),
    };
    check_lesson(&lesson, &name, seed, tally);
    Some(original)
}

fn check_lesson(lesson: &Lesson, name: &str, seed: Option<u64>, tally: &mut Tally) {
    let name = name.to_string();
    let combos = lesson.all_combinations();
    if combos.capped {
        println!(
            "{name}: note: {} toggle combinations; checking {} of them (every value at least once)",
            combos.total,
            combos.settings.len()
        );
    }
    if lesson.exercise.is_some() {
        check_exercise(lesson, &name, &combos.settings, seed, tally);
        return;
    }
    // The same SQL error usually repeats under every setting: report it once.
    let mut reported: BTreeSet<String> = BTreeSet::new();
    // Errors the lesson's text gives under some settings (a marker's value that does not
    // parse), with the settings: named after the run unless every setting has it.
    let mut broken: Vec<(String, Vec<&lesson::Settings>)> = Vec::new();
    for settings in &combos.settings {
        let seed = seed.unwrap_or(lesson.seed);
        // The lesson applied once per setting: the run, its properties, checks, questions
        // and the places of its errors all come from it.
        let ran = lesson.apply(settings).and_then(|applied| {
            let report = run(&applied, seed)?;
            Ok((applied, report))
        });
        let (applied, report) = match ran {
            Ok(ran) => ran,
            Err(e) => {
                let e = e.to_string();
                match broken.iter_mut().find(|(b, _)| *b == e) {
                    Some((_, under)) => under.push(settings),
                    None => broken.push((e, vec![settings])),
                }
                continue;
            }
        };
        tally.runs += 1;
        // A rule that watches a table or column the run lacks would find nothing, quietly.
        for ((line, col), message) in lesson::rule_problems(
            &lesson.anomalies,
            &report.simulation.view(usize::MAX).tables,
        ) {
            if reported.insert(message.clone()) {
                eprintln!("{name}:{line}:{col}: {message}");
                tally.errors += 1;
            }
        }
        // A property's SQL must run (whether it holds is the search's question, not
        // this run's): checked once on the final state, reported at its name.
        let mut report = report;
        for p in &applied.properties {
            if let Err(e) = p.violation(&mut report.simulation) {
                if reported.insert(e.to_string()) {
                    eprintln!("{name}:{}:{}: {e}", p.line, p.col);
                    tally.errors += 1;
                }
            }
        }
        let with = if settings.is_empty() {
            String::new()
        } else {
            format!("{settings}, ")
        };
        // SQL the simulator does not model, met as it ran: refused, as a parse would
        // refuse it, whatever the checks say.
        for (session, e) in crate::run_cmd::not_simulated(&report.outcome) {
            if reported.insert(e.message.clone()) {
                let (line, col) = crate::run_cmd::error_place(lesson, &applied, session, e);
                eprintln!(
                    "{name}:{line}:{col}: session {session}: {} ({with}seed {seed})",
                    e.message
                );
                tally.errors += 1;
            }
        }
        // An error nobody handled and no check expects is a mistake in the lesson.
        let mut seen_errors: BTreeSet<(String, u32)> = BTreeSet::new();
        for (session, e) in lesson::unexpected_errors(&applied.checks, &report.outcome) {
            if e.is_not_simulated() || !seen_errors.insert((session.to_string(), e.number)) {
                continue;
            }
            tally.failed += 1;
            let (line, col) = crate::run_cmd::error_place(lesson, &applied, session, e);
            // PostgreSQL's errors are checked by count: no number stands for a SQLSTATE.
            let advice = if e.sqlstate.is_some() {
                "handle it, or add a check that expects it (figure = \"errors\")"
            } else {
                "handle it, or add a check with figure = \"error_number\""
            };
            eprintln!(
                "{name}:{line}:{col}: session {session} ends with error {} that no {} block catches and no check expects ({with}seed {seed}): {}; {advice}",
                e.code(),
                if e.sqlstate.is_some() { "EXCEPTION" } else { "TRY" },
                e.message
            );
        }
        // A question must have exactly one right answer in the run it is asked before.
        let judged = crate::run_cmd::judge_questions(&applied, &mut report);
        for (q, j) in applied.questions.iter().zip(judged) {
            let with = if settings.is_empty() {
                String::new()
            } else {
                format!("{settings}, ")
            };
            let problem = match j.right.as_slice() {
                _ if !j.measured => Some(format!("{} ({with}seed {seed})", j.detail)),
                [_] => None,
                [] => Some(format!("no choice holds ({with}seed {seed}): {}", j.detail)),
                many => Some(format!(
                    "{} choices hold ({with}seed {seed}: {}): {}",
                    many.len(),
                    j.detail,
                    many.join(", ")
                )),
            };
            match problem {
                None => tally.passed += 1,
                Some(problem) => {
                    tally.failed += 1;
                    eprintln!(
                        "{name}:{}:{}: question `{}`: {problem}",
                        q.line, q.col, q.name
                    );
                }
            }
        }
        for c in &report.checks {
            if let lesson::Detail::QueryFailed { .. } = &c.detail {
                // SQL that cannot run (a table or column the run lacks) is a mistake in
                // the lesson, as a syntax error is: an error, once, not a failed check
                // under every setting.
                let message = format!("check `{}`: {}", c.name, c.detail);
                if reported.insert(message.clone()) {
                    eprintln!("{}", lesson.error_at_check(c, message));
                    tally.errors += 1;
                }
            } else if c.passed {
                tally.passed += 1;
            } else {
                tally.failed += 1;
                let with = if settings.is_empty() {
                    String::new()
                } else {
                    format!("{settings}, ")
                };
                let message = format!(
                    "check `{}` failed ({with}seed {seed}): {}",
                    c.name, c.detail
                );
                eprintln!("{}", lesson.error_at_check(c, message));
            }
        }
    }
    for (e, under) in broken {
        tally.errors += 1;
        if under.len() == combos.settings.len() {
            eprintln!("{e}");
        } else {
            eprintln!("{e} (with {})", which_settings(&combos.settings, &under));
        }
    }
}

/// The settings among `all` that `under` are, in few words: the toggles' values they
/// share (`index=filtered`, `mode=a or b`) when exactly those settings have them, else
/// the first few of them.
fn which_settings(all: &[lesson::Settings], under: &[&lesson::Settings]) -> String {
    let values = |of: &mut dyn Iterator<Item = &lesson::Settings>, name: &str| {
        let mut seen: Vec<String> = Vec::new();
        for v in of.filter_map(|s| s.get(name)) {
            if !seen.iter().any(|x| x == v) {
                seen.push(v.to_string());
            }
        }
        seen
    };
    let names: Vec<&str> = under
        .first()
        .map_or(Vec::new(), |s| s.iter().map(|(n, _)| n).collect());
    let narrowed: Vec<(&str, Vec<String>)> = names
        .iter()
        .map(|&n| (n, values(&mut under.iter().copied(), n)))
        .filter(|(n, vs)| vs.len() < values(&mut all.iter(), n).len())
        .collect();
    let exact = all
        .iter()
        .filter(|s| {
            narrowed
                .iter()
                .all(|(n, vs)| s.get(n).is_some_and(|v| vs.iter().any(|x| x == v)))
        })
        .count()
        == under.len();
    if exact && !narrowed.is_empty() {
        let parts: Vec<String> = narrowed
            .iter()
            .map(|(n, vs)| format!("{n}={}", vs.join(" or ")))
            .collect();
        return parts.join(", ");
    }
    let shown: Vec<String> = under.iter().take(3).map(|s| s.to_string()).collect();
    match under.len() - shown.len() {
        0 => shown.join("; "),
        more => format!("{} and {more} more settings", shown.join("; ")),
    }
}

/// An exercise's checks are goals that its SQL as shipped should fail: `check` runs it
/// on the exercise's seeds expecting some goal to fail somewhere (else there is nothing
/// to fix), and runs its solutions expecting every goal to hold on every seed.
fn check_exercise(
    lesson: &Lesson,
    name: &str,
    combos: &[lesson::Settings],
    seed: Option<u64>,
    tally: &mut Tally,
) {
    let Some(exercise) = &lesson.exercise else {
        return;
    };
    let seeds: Vec<u64> = seed.map_or_else(|| exercise.seeds.clone(), |s| vec![s]);
    let mut reported: BTreeSet<String> = BTreeSet::new();
    let mut something_to_fix = false;
    let mut validated = 0usize;
    let mut starting_failures = 0usize;
    for settings in combos {
        let v = match validate_exercise(lesson, settings, &seeds) {
            Ok(v) => v,
            Err(e) => {
                if reported.insert(e.to_string()) {
                    eprintln!("{e}");
                    tally.errors += 1;
                }
                continue;
            }
        };
        validated += 1;
        tally.runs += 2 * seeds.len();
        something_to_fix |= !v.starting.solved;
        starting_failures += v
            .starting
            .goals
            .iter()
            .filter(|g| !g.passed_all_seeds)
            .count();
        let with = if settings.is_empty() {
            String::new()
        } else {
            format!("{settings}, ")
        };
        for goal in &v.solution.goals {
            if goal.passed_all_seeds {
                tally.passed += 1;
                continue;
            }
            tally.failed += 1;
            let error = LessonError {
                file: name.to_string(),
                line: goal.line,
                col: goal.col,
                message: format!(
                    "the solution fails goal `{}` ({with}seed {}): {}",
                    goal.name,
                    goal.failing_seed.unwrap_or_default(),
                    goal.detail
                ),
            };
            eprintln!("{error}");
        }
    }
    if validated == 0 {
        return;
    }
    if something_to_fix {
        tally.passed += 1;
        println!(
            "{name}: exercise: as shipped it fails {} on seeds {}; the solution meets every goal",
            count(starting_failures, "goal"),
            seeds_text(&seeds)
        );
    } else {
        tally.failed += 1;
        let error = lesson.error_at_goal(format!(
            "the exercise as shipped already meets every goal on seeds {}: there is nothing to fix",
            seeds_text(&seeds)
        ));
        eprintln!("{error}");
    }
}

fn seeds_text(seeds: &[u64]) -> String {
    let list: Vec<String> = seeds.iter().map(u64::to_string).collect();
    list.join(", ")
}

/// Subdirectories with this name hold lessons that wait for an engine feature
/// (`lessons/pending/README.md`): a directory walk skips them, naming one checks it.
const PENDING_DIR: &str = "pending";

pub(crate) const PENDING_NOTE: &str =
    "skipped (lessons waiting for an engine feature; name it to check it)";

/// Lesson files found under a path, translations apart, and the `pending/`
/// directories left out.
pub(crate) struct Found {
    pub files: Vec<PathBuf>,
    /// Files in a language's directory (`lessons/pl/<id>.md`).
    pub translations: Vec<PathBuf>,
    pub skipped: Vec<PathBuf>,
}

/// The path itself if it is a file; the *.md files under it (sorted, README.md left
/// out, `pending/` subdirectories skipped) if it is a directory. Files in `pl/` or
/// `ja/` are translations, listed apart.
pub(crate) fn lesson_files(path: &Path) -> Result<Found, String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if !meta.is_dir() {
        let file = vec![path.to_path_buf()];
        let (files, translations) = if crate::lang::is_translation(path) {
            (Vec::new(), file)
        } else {
            (file, Vec::new())
        };
        return Ok(Found {
            files,
            translations,
            skipped: Vec::new(),
        });
    }
    let mut found = Vec::new();
    let mut skipped = Vec::new();
    let mut pending = vec![path.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
            let p = entry.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == PENDING_DIR) {
                    skipped.push(p);
                } else {
                    pending.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "md")
                && !p
                    .file_name()
                    .is_some_and(|n| n.eq_ignore_ascii_case("README.md"))
            {
                found.push(p);
            }
        }
    }
    skipped.sort();
    found.sort();
    let (translations, files) = found
        .into_iter()
        .partition(|p| crate::lang::is_translation(p));
    Ok(Found {
        files,
        translations,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::which_settings;

    /// Settings no toggle value singles out are listed, the first three of them.
    #[test]
    fn settings_are_named_by_the_values_they_share_else_listed() {
        let text = "+++\nid = \"s\"\ntitle = \"S\"\ndialect = \"tsql\"\nsummary = \"S.\"\n\n\
            [[toggles]]\nname = \"a\"\nlabel = \"A\"\nvalues = [\"1\", \"2\", \"3\"]\n\n\
            [[toggles]]\nname = \"b\"\nlabel = \"B\"\nvalues = [\"x\", \"y\"]\n+++\n\n\
            ```sql session=A\nSELECT {{a: 1=1| 2=2| 3=3}} + {{b: x=1| y=2}};\n```\n";
        let lesson = lesson::Lesson::parse("s.md", text).expect("lesson");
        let all = lesson.all_combinations().settings;
        let pick = |f: &dyn Fn(&str, &str) -> bool| -> Vec<&lesson::Settings> {
            (all.iter())
                .filter(|s| f(s.get("a").unwrap(), s.get("b").unwrap()))
                .collect()
        };
        let named = |f: &dyn Fn(&str, &str) -> bool| which_settings(&all, &pick(f));
        assert_eq!(named(&|_, b| b == "y"), "b=y");
        assert_eq!(named(&|a, _| a != "2"), "a=1 or 3");
        assert_eq!(named(&|a, b| a == "3" && b == "x"), "a=3, b=x");
        assert_eq!(
            named(&|a, b| (a == "1") == (b == "x")),
            "a=1 b=x; a=2 b=y; a=3 b=y"
        );
        assert_eq!(
            named(&|a, b| a != "1" || b == "x"),
            "a=1 b=x; a=2 b=x; a=2 b=y and 2 more settings"
        );
    }
}
