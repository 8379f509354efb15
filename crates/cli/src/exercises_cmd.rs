//! `lockstep exercises`: the facilitator's list of exercises (goal, goals checked,
//! hints, which blocks the learner edits), as text or as printable Markdown.

use std::fmt::Write as _;

use lesson::{BlockRole, Condition, Lesson};

use crate::args::ExercisesArgs;
use crate::check_cmd::{lesson_files, PENDING_NOTE};
use crate::exit::{BAD_INPUT, OK};

/// Every lesson under `paths` that parses; problems (unreadable paths, lesson errors)
/// are printed as they come, and the flag says whether there were any.
pub(crate) fn parse_lessons(paths: &[std::path::PathBuf]) -> (Vec<Lesson>, bool) {
    let mut bad = false;
    let mut lessons = Vec::new();
    for path in paths {
        let found = match lesson_files(path) {
            Ok(found) => found,
            Err(message) => {
                eprintln!("{message}");
                bad = true;
                continue;
            }
        };
        for dir in &found.skipped {
            eprintln!("{}: note: {PENDING_NOTE}", dir.display());
        }
        for file in &found.files {
            let text = match crate::read_lesson(file) {
                Ok(text) => text,
                Err(message) => {
                    eprintln!("{message}");
                    bad = true;
                    continue;
                }
            };
            match Lesson::parse(&file.display().to_string(), &text) {
                Ok(lesson) => lessons.push(lesson),
                Err(errors) => {
                    for e in &errors {
                        eprintln!("{e}");
                    }
                    bad = true;
                }
            }
        }
    }
    (lessons, bad)
}

pub fn command(args: &ExercisesArgs) -> u8 {
    let (lessons, bad) = parse_lessons(&args.paths);
    let exercises: Vec<Lesson> = lessons
        .into_iter()
        .filter(|l| l.exercise.is_some())
        .collect();
    let out = if args.markdown {
        markdown(&exercises, args.solutions)
    } else {
        text(&exercises, args.solutions)
    };
    print!("{out}");
    if bad {
        BAD_INPUT
    } else {
        OK
    }
}

/// `workers=4`, `claim=two-step|conditional`, joined by spaces.
fn conditions(when: &[Condition]) -> String {
    when.iter()
        .map(|c| format!("{}={}", c.toggle, c.values.join("|")))
        .collect::<Vec<_>>()
        .join(" ")
}

fn seeds(lesson: &Lesson) -> String {
    lesson
        .exercise
        .as_ref()
        .map(|e| {
            e.seeds
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

/// Each editable block: its id and `setup block, line 58`.
fn editable(lesson: &Lesson) -> Vec<(String, String)> {
    lesson
        .editable_blocks()
        .map(|b| {
            let what = match &b.role {
                BlockRole::Setup => "setup block".to_string(),
                BlockRole::Session { name, .. } => format!("session {name}"),
                BlockRole::Show => "shown block".to_string(),
            };
            (
                b.editable.clone().unwrap_or_default(),
                format!("{what}, line {}", b.line),
            )
        })
        .collect()
}

fn text(exercises: &[Lesson], solutions: bool) -> String {
    let mut out = String::new();
    if exercises.is_empty() {
        out.push_str("no exercises found\n");
    }
    for (i, lesson) in exercises.iter().enumerate() {
        let Some(exercise) = &lesson.exercise else {
            continue;
        };
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "{}  {}", lesson.id, lesson.title);
        let _ = writeln!(out, "  file: {}", lesson.file_name());
        let _ = writeln!(out, "  goal: {}", exercise.goal);
        let edits: Vec<String> = editable(lesson)
            .iter()
            .map(|(id, what)| format!("{id} ({what})"))
            .collect();
        let _ = writeln!(out, "  edits: {}", edits.join(", "));
        let _ = writeln!(out, "  goals, each on every seed ({}):", seeds(lesson));
        for c in &lesson.checks {
            let when = if c.when.is_empty() {
                String::new()
            } else {
                format!(" (when {})", conditions(&c.when))
            };
            let _ = writeln!(out, "    - {}{when}", c.name);
        }
        let _ = writeln!(out, "  hints:");
        for (k, hint) in exercise.hints.iter().enumerate() {
            let _ = writeln!(out, "    {}. {hint}", k + 1);
        }
        if solutions {
            for s in &exercise.solutions {
                let _ = writeln!(out, "  solution for {}:", s.block);
                for line in s.sql.lines() {
                    let _ = writeln!(out, "    {line}");
                }
            }
        }
    }
    out
}

fn markdown(exercises: &[Lesson], solutions: bool) -> String {
    let mut out = String::from("# Lockstep exercises\n\n");
    if exercises.is_empty() {
        out.push_str("No exercises found.\n");
        return out;
    }
    out.push_str(
        "Each exercise gives the learner SQL to change. **Check** runs it on several seeds \
         (the seeds vary statement timings, as real runs do); a goal counts only when it \
         holds on every seed.\n\n",
    );
    out.push_str("| exercise | id | goals |\n|---|---|---|\n");
    for lesson in exercises {
        let _ = writeln!(
            out,
            "| {} | `{}` | {} |",
            cell(&lesson.title),
            lesson.id,
            lesson.checks.len()
        );
    }
    for lesson in exercises {
        let Some(exercise) = &lesson.exercise else {
            continue;
        };
        let _ = writeln!(out, "\n## {} (`{}`)\n", lesson.title, lesson.id);
        let _ = writeln!(out, "**Goal.** {}\n", exercise.goal);
        let _ = writeln!(
            out,
            "**The learner edits** {}.\n",
            editable(lesson)
                .iter()
                .map(|(id, what)| format!("`{id}` ({what})"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _ = writeln!(out, "**Goals**, each on seeds {}:\n", seeds(lesson));
        for c in &lesson.checks {
            let when = if c.when.is_empty() {
                String::new()
            } else {
                format!(" (when `{}`)", conditions(&c.when))
            };
            let _ = writeln!(out, "- [ ] {}{when}", inline(&c.name));
        }
        if !exercise.hints.is_empty() {
            out.push_str("\n**Hints**, to reveal one at a time:\n\n");
            for (k, hint) in exercise.hints.iter().enumerate() {
                let _ = writeln!(out, "{}. {}", k + 1, inline(hint));
            }
        }
        if solutions {
            for s in &exercise.solutions {
                let _ = writeln!(out, "\n**Solution for `{}`:**\n", s.block);
                let fence = fence_for(&s.sql);
                let _ = writeln!(out, "{fence}sql\n{}{fence}", with_newline(&s.sql));
            }
        }
    }
    out
}

/// Text for one line of Markdown: line breaks would end the list item.
fn inline(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text for a table cell: `|` would end it.
fn cell(text: &str) -> String {
    inline(text).replace('|', "\\|")
}

/// A fence longer than any run of backticks in the code.
fn fence_for(code: &str) -> String {
    let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

fn with_newline(text: &str) -> String {
    if text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    }
}
