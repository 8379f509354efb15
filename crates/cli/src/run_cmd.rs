//! `lockstep run`: one lesson, one settings choice, one seed.

use std::fmt::Write as _;

use engine::{Mode, ResultSet, Schedule};
use i18n::t;
use lesson::{ms, run_exercise, run_with, trace_line, Lesson, RunReport, Settings};

use crate::args::RunArgs;
use crate::json::{anomalies_json, run_json, QuestionJson};
use crate::svg::{timeline_svg, SvgRun};
use crate::table::table;

/// A check's detail in the language in effect; English as `Display` writes it, the
/// words the JSON and earlier output use.
pub(crate) fn detail_text(detail: &lesson::Detail) -> String {
    if i18n::lang() == i18n::Lang::En {
        detail.to_string()
    } else {
        i18n::detail(detail)
    }
}

/// The errors of SQL the simulator does not model, met as the run went: `(session,
/// error)`, each session's once.
pub(crate) fn not_simulated(outcome: &engine::Outcome) -> Vec<(&str, &engine::SqlErrorInfo)> {
    (outcome.sessions.iter())
        .filter_map(|s| {
            (s.errors.iter())
                .find(|e| e.is_not_simulated())
                .map(|e| (s.name.as_str(), e))
        })
        .collect()
}

/// Where a session's error is written in the lesson file: at the statement that raised
/// it (a procedure's, in setup), else at the session's block.
pub(crate) fn error_place(
    lesson: &Lesson,
    applied: &lesson::Applied,
    session: &str,
    e: &engine::SqlErrorInfo,
) -> (u32, u32) {
    let at = e.at.and_then(|at| {
        let block = at
            .session
            .map_or(engine::Block::Setup, engine::Block::Session);
        let placed = applied.locate(block, at.line, at.col, "");
        (placed.line > 1).then_some((placed.line, placed.col))
    });
    at.unwrap_or_else(|| {
        let line = (lesson.blocks.iter())
            .find(|b| matches!(&b.role, lesson::BlockRole::Session { name, .. } if name == session))
            .map_or(1, |b| b.line);
        (line, 1)
    })
}

pub fn command(args: &RunArgs) -> u8 {
    crate::finish(run_lesson(args))
}

/// The text to print and whether every check passed, or the messages of bad input.
fn run_lesson(args: &RunArgs) -> Result<(String, bool), Vec<String>> {
    let (original, settings) = lesson_and_settings(&args.lesson, &args.set)?;
    // The text's and the SVG's own words follow --lang too.
    i18n::set_lang(i18n::Lang::parse(&args.lang).unwrap_or_default());
    let translation = crate::lang::translation(&args.lesson, &original, &args.lang)?;
    // The JSON is a contract, the same in every language: it comes from the original.
    // Text comes from the translated lesson, which runs the same SQL.
    let lesson = match &translation {
        Some(t) if !args.json => original.translated(t),
        _ => original.clone(),
    };
    let name = args.lesson.display().to_string();
    let seed = args.seed.unwrap_or(lesson.seed);
    let schedule = match (&args.schedule, args.untimed) {
        (Some(text), untimed) => {
            let s: Schedule = text
                .parse()
                .map_err(|e| vec![format!("error: --schedule: {e}")])?;
            if untimed && s.mode != Mode::Untimed {
                return Err(vec![format!(
                    "error: --untimed with a timed --schedule `{text}` (an untimed one starts `u.`)"
                )]);
            }
            Some(s)
        }
        (None, true) => Some(Schedule {
            mode: Mode::Untimed,
            choices: Vec::new(),
        }),
        (None, false) => None,
    };
    let run_applied = |applied: &lesson::Applied| {
        run_with(applied, seed, schedule.as_ref()).map_err(|e| match e {
            lesson::RunError::Schedule(e) => vec![format!("error: --schedule: {e}")],
            lesson::RunError::Lesson(e) => vec![e.to_string()],
        })
    };
    let (applied, mut report) = if args.solution {
        let Some(exercise) = &lesson.exercise else {
            return Err(vec![format!(
                "error: --solution: lesson `{}` is not an exercise",
                lesson.id
            )]);
        };
        let applied = lesson
            .apply_edits(&settings, &exercise.solution_edits())
            .map_err(|e| vec![e.to_string()])?;
        let report = if schedule.is_some() {
            run_applied(&applied)?
        } else {
            run_exercise(&applied, seed).map_err(|e| vec![format!("{name}: solution {e}")])?
        };
        (applied, report)
    } else {
        let applied = lesson.apply(&settings).map_err(|e| vec![e.to_string()])?;
        let report = run_applied(&applied)?;
        (applied, report)
    };
    // A schedule longer than the run's choice points would be ignored in part: say so.
    if let Some(given) = &schedule {
        let (given, made) = (given.choices.len(), report.schedule.choices.len());
        if made < given {
            let plural =
                |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
            let unreached = if given == made + 1 {
                format!("choice {given} is")
            } else {
                format!("choices {} to {given} are", made + 1)
            };
            return Err(vec![format!(
                "error: --schedule: the run ended after {}, but the schedule has {}; {unreached} never reached",
                plural(made, "choice point"),
                plural(given, "choice")
            )]);
        }
    }
    let mut queries: Vec<(String, ResultSet)> = Vec::new();
    for sql in &args.query {
        let rs = report.simulation.query(sql).map_err(|e| {
            vec![format!(
                "error: --query {sql:?} failed at {}:{}: {}",
                e.line, e.col, e.message
            )]
        })?;
        queries.push((sql.clone(), rs));
    }
    let questions = judge_questions(&applied, &mut report);
    if let Some(path) = &args.svg {
        let lanes = engine::timeline(&report.trace, &report.simulation.session_names());
        let mut checks = report.checks.clone();
        if let (Some(t), true) = (&translation, args.json) {
            for c in &mut checks {
                c.name = t.check_name(&c.name).to_string();
            }
        }
        let title = translation.as_ref().map_or(&original.title, |t| &t.title);
        let svg = timeline_svg(&SvgRun {
            title,
            lesson_id: &lesson.id,
            seed,
            settings: settings.to_string(),
            note: args.solution.then(|| t!("svg-solution-note")),
            lanes: &lanes,
            trace: &report.trace.entries,
            outcome: &report.outcome,
            reads_name: lesson.dialect.reads_name(),
            checks: &checks,
        });
        std::fs::write(path, svg)
            .map_err(|e| vec![format!("{}: cannot write: {e}", path.display())])?;
    }
    let output = if args.json {
        let mut json = run_json(
            &lesson.id,
            seed,
            &settings,
            &report.outcome,
            &report.checks,
            &queries,
            &report.schedule,
        );
        json.anomalies = anomalies_json(&report.anomalies, &report.trace.entries);
        json.questions = questions.iter().map(QuestionJson::from).collect();
        // Serializing plain structs of strings and numbers cannot fail.
        let mut s = serde_json::to_string_pretty(&json).unwrap_or_default();
        s.push('\n');
        s
    } else {
        text_report(
            &lesson,
            &settings,
            &report,
            &queries,
            &questions,
            args.full_trace,
        )
    };
    // SQL the simulator does not model is refused (exit 2), after the run it cut
    // short is shown.
    let refused: Vec<String> = not_simulated(&report.outcome)
        .into_iter()
        .map(|(session, e)| {
            let (line, col) = error_place(&lesson, &applied, session, e);
            format!("{name}:{line}:{col}: session {session}: {}", e.message)
        })
        .collect();
    if !refused.is_empty() {
        print!("{output}");
        return Err(refused);
    }
    Ok((output, report.all_passed()))
}

/// The lesson file, parsed, and the settings `--set` asks for; or the messages to print.
pub(crate) fn lesson_and_settings(
    path: &std::path::Path,
    set: &[String],
) -> Result<(Lesson, Settings), Vec<String>> {
    let text = crate::read_lesson(path).map_err(|m| vec![m])?;
    let lesson = Lesson::parse(&path.display().to_string(), &text)
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let settings = settings(&lesson, set).map_err(|m| vec![m])?;
    Ok((lesson, settings))
}

/// The first line of a text report: `lesson ID  seed N  SETTINGS`.
pub(crate) fn heading(lesson: &Lesson, seed: u64, settings: &Settings) -> String {
    let shown = if settings.is_empty() {
        t!("run-no-toggles")
    } else {
        settings.to_string()
    };
    let heading = t!(
        "run-heading",
        id = &lesson.id,
        seed = seed.to_string(),
        settings = shown
    );
    format!("{heading}\n")
}

fn settings(lesson: &Lesson, set: &[String]) -> Result<Settings, String> {
    let mut pairs = Vec::new();
    for s in set {
        let Some(pair) = s.split_once('=') else {
            return Err(format!("error: --set expects NAME=VALUE, got `{s}`"));
        };
        // A repeat that disagrees is a mistake in the command, not a choice: say so
        // rather than let the last one win unseen.
        if let Some((_, earlier)) = pairs.iter().find(|(n, v)| *n == pair.0 && *v != pair.1) {
            return Err(format!(
                "error: --set {name} given twice, as {earlier} and as {value}",
                name = pair.0,
                value = pair.1
            ));
        }
        pairs.push(pair);
    }
    lesson
        .settings_with(pairs)
        .map_err(|e| format!("error: --set: {e}"))
}

/// A question the lesson asks at these settings, and the run's answer to it.
pub(crate) struct QuestionRun {
    pub name: String,
    /// The labels of the choices that hold (exactly one in a sound lesson).
    pub right: Vec<String>,
    /// The figure behind the answer (`A logical_reads = 9`), or why it has none.
    pub detail: String,
    /// The figure could be measured (else `detail` says why not, and nothing is right).
    pub measured: bool,
}

/// Each question that applies, judged on the finished run as the player judges it.
pub(crate) fn judge_questions(
    applied: &lesson::Applied,
    report: &mut RunReport,
) -> Vec<QuestionRun> {
    let first_anomaly = report.anomalies.first().map(|a| a.event);
    (applied.questions.iter())
        .map(|q| {
            let judged = q.judge(
                &report.outcome,
                &report.trace.entries,
                first_anomaly,
                &mut |sql| report.simulation.query(sql),
            );
            let (right, detail, measured) = match judged {
                Ok(j) => (
                    (j.right.iter())
                        .map(|&i| q.choices[i].label.clone())
                        .collect(),
                    j.detail,
                    true,
                ),
                Err(e) => (Vec::new(), e, false),
            };
            QuestionRun {
                name: q.name.clone(),
                right,
                detail,
                measured,
            }
        })
        .collect()
}

/// A text trace longer than this shows its first [`TRACE_HEAD`] and last [`TRACE_TAIL`]
/// events (a runaway loop's million lines would bury the outcome) unless --full-trace.
const TRACE_SHOWN: usize = 100_000;
const TRACE_HEAD: usize = 50_000;
const TRACE_TAIL: usize = 1_000;

/// How many of a trace's `len` events the text shows from its start and from its end.
fn trace_cut(len: usize, full_trace: bool) -> (usize, usize) {
    if full_trace || len <= TRACE_SHOWN {
        (len, 0)
    } else {
        (TRACE_HEAD, TRACE_TAIL)
    }
}

fn text_report(
    lesson: &Lesson,
    settings: &Settings,
    report: &RunReport,
    queries: &[(String, ResultSet)],
    questions: &[QuestionRun],
    full_trace: bool,
) -> String {
    let mut out = heading(lesson, report.seed, settings);
    let _ = writeln!(out, "{}", lesson.title);
    let _ = writeln!(
        out,
        "{}",
        t!("run-schedule", schedule = report.schedule.to_string())
    );
    let _ = writeln!(out, "\n{}", t!("run-trace"));
    let entries = &report.trace.entries;
    let (head, tail) = trace_cut(entries.len(), full_trace);
    for entry in &entries[..head] {
        let _ = writeln!(out, "{}", trace_line(entry));
    }
    if tail > 0 {
        let left = (entries.len() - head - tail).to_string();
        let _ = writeln!(out, "  {}", t!("run-trace-cut", count = left));
        for entry in &entries[entries.len() - tail..] {
            let _ = writeln!(out, "{}", trace_line(entry));
        }
    }
    let outcome = &report.outcome;
    let end = ms(outcome.end_us).to_string();
    let _ = writeln!(out, "\n{}", t!("run-outcome", end = end));
    for s in &outcome.sessions {
        let caught = s.errors.iter().filter(|e| e.caught).count();
        let session = t!(
            "run-session",
            session = &s.name,
            wait = ms(s.wait_us).to_string(),
            // Shown as text (no digit grouping); the numbers pick the plural.
            statements = s.statements.to_string(),
            statements_n = s.statements,
            errors = (s.errors.len() - caught).to_string(),
            errors_n = s.errors.len() - caught,
            caught = if caught > 0 {
                t!("run-caught", count = caught.to_string())
            } else {
                String::new()
            },
            reads = s.logical_reads.to_string(),
            reads_name = i18n::reads_label(lesson.dialect.reads_name()),
            ran = ms(s.elapsed_us).to_string(),
            delayed = if s.delayed_us > 0 {
                t!("run-delayed", ms = ms(s.delayed_us).to_string())
            } else {
                String::new()
            }
        );
        let _ = writeln!(out, "  {session}");
        for e in &s.errors {
            let (number, message) = (e.code(), &e.message);
            let error = if e.caught {
                t!("run-error-caught", number = number, message = message)
            } else {
                t!("run-error", number = number, message = message)
            };
            let _ = writeln!(out, "    {error}");
        }
        for (i, rs) in s.results.iter().enumerate() {
            let result = t!(
                "run-result",
                number = (i + 1).to_string(),
                rows = rs.rows.len().to_string(),
                rows_n = rs.rows.len()
            );
            let _ = writeln!(out, "    {result}");
            out.push_str(&table(rs, "      "));
        }
    }
    let passed = report.checks.iter().filter(|c| c.passed).count();
    let failed = report.checks.len() - passed;
    let _ = writeln!(
        out,
        "\n{}",
        t!(
            "run-checks",
            passed = passed.to_string(),
            failed = failed.to_string()
        )
    );
    for c in &report.checks {
        let _ = writeln!(
            out,
            "  {} {}: {}{}",
            if c.passed {
                t!("run-pass")
            } else {
                t!("run-fail")
            },
            c.name,
            detail_text(&c.detail),
            if c.bug && c.passed {
                t!("run-bug-reproduced")
            } else {
                String::new()
            }
        );
    }
    if !questions.is_empty() {
        let count = questions.len().to_string();
        let _ = writeln!(out, "\n{}", t!("run-questions", count = count));
        for q in questions {
            let answer = match q.right.as_slice() {
                [] => t!("run-question-none"),
                [one] => one.clone(),
                many => t!("run-question-many", choices = many.join(" | ")),
            };
            let _ = writeln!(out, "  {}: {answer} ({})", q.name, q.detail);
        }
    }
    let count = report.anomalies.len().to_string();
    let _ = writeln!(out, "\n{}", t!("run-anomalies", count = count));
    for a in &report.anomalies {
        let _ = writeln!(
            out,
            "{:>10.3} ms  event {}  {}  {a}",
            ms(a.at_us),
            a.event,
            a.kind.name()
        );
    }
    for (sql, rs) in queries {
        let _ = writeln!(out, "\n{}", t!("run-query", sql = sql));
        out.push_str(&table(rs, "  "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::trace_cut;

    #[test]
    fn a_runaway_trace_shows_its_start_and_end_unless_asked_for_all() {
        assert_eq!(trace_cut(20_000, false), (20_000, 0));
        assert_eq!(trace_cut(100_000, false), (100_000, 0));
        assert_eq!(trace_cut(1_000_019, false), (50_000, 1_000));
        assert_eq!(trace_cut(1_000_019, true), (1_000_019, 0));
    }
}
