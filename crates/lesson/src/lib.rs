//! Lockstep's lesson files: TOML front matter, Markdown narrative, fenced `sql`
//! blocks with toggle markers, and checks. `lessons/README.md` documents the format
//! for authors; this crate parses and validates it, applies toggle settings, runs a
//! lesson on the engine and judges its checks. Exercises (a learner's SQL in place of
//! `editable` blocks, checked over several seeds) are in [`check_exercise`].
//!
//! No file system here (the crate builds for wasm32): callers pass the file's name and
//! text, and every problem comes back as a [`LessonError`] `file:line:col: message`.

mod anomaly;
mod apply;
mod block;
mod check;
pub mod codec;
mod compact;
mod detail;
mod error;
mod exercise;
#[cfg(feature = "parse")]
mod front;
#[cfg(feature = "parse")]
mod markdown;
mod matrix;
mod property;
mod question;
mod run;
mod source;
mod toggle;
mod trace;
mod translation;
mod value;

use std::sync::Arc;

pub use anomaly::{
    find_anomalies, latest_anomaly, rule_problems, values_text, writer, Anomaly, AnomalyKind,
    AnomalyRule, AnomalyRuleKind, Duplicate, Kept, Lost, RulePlaces, Unmatched, Writer,
};
pub use apply::{Applied, RenderedBlock, ToggledRange};
pub use block::{parse_duration_us, BlockRole, Solution, SqlBlock};
pub use check::{
    evaluate_checks, unexpected_errors, Bound, Check, CheckKind, CheckResult, Expectation,
    Expected, Figure,
};
pub use compact::{escape_html, Compiled, CompiledTranslation, DecodeError};
pub use detail::{plain_rows, Detail, Whose};
pub use error::{LessonError, SettingsError};
pub use exercise::{
    check_exercise, run_exercise, validate_exercise, CheckProgress, Exercise, ExerciseCheck,
    ExerciseError, ExerciseReport, ExerciseValidation, FailedAt, FailedRun, GoalReport,
    EMPTY_BLOCK, EXERCISE_LIMITS,
};
#[cfg(feature = "parse")]
pub use front::{DEFAULT_EXERCISE_SEEDS, MAX_EXERCISE_SEEDS};
#[cfg(feature = "parse")]
pub use markdown::{markdown_html, narrative_html};
pub use matrix::{
    all_settings, columns as matrix_columns, default_seeds as default_matrix_seeds, matrix_seeds,
    number_text, run_matrix, Cell, Column, ColumnMeasure, Matrix, MatrixProgress, MatrixRun,
    Reading, Row, DEFAULT_MATRIX_SEEDS, MISSING,
};
pub use property::{find_property, Builtin, Property, PropertyError, PropertyKind};
pub use question::{Choice, Judged, Measure, Question};
pub use run::{run, run_anomalies, run_with, RunError, RunReport};
pub use toggle::{
    Combinations, Condition, Settings, Toggle, COMBINATION_CAP, RESERVED_TOGGLE_NAMES,
};
pub use trace::{event_text, trace_line};
pub use translation::{
    AnomalyText, CheckText, QuestionText, ToggleText, Translation, TRANSLATION_LANGS,
};
pub use value::{ms, value_text};

use source::SourceFile;

/// What a lesson is for: reading along, or an exercise with goals (its checks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "parse", derive(serde::Deserialize))]
#[cfg_attr(feature = "parse", serde(rename_all = "lowercase"))]
pub enum Kind {
    #[default]
    Lesson,
    Exercise,
}

/// A parsed, validated lesson file.
#[derive(Clone, Debug)]
pub struct Lesson {
    /// Equals the file stem; links and tests rely on it.
    pub id: String,
    pub title: String,
    pub dialect: engine::Dialect,
    pub summary: String,
    /// Scenario IDs of SCENARIOS.md the lesson reproduces (Q2, Q3).
    pub covers: Vec<String>,
    pub kind: Kind,
    /// Seed of a run unless the caller picks another.
    pub seed: u64,
    /// Goal, hints, seeds and solutions; present exactly when `kind` is `Exercise`.
    /// An exercise's goals are its `checks`.
    pub exercise: Option<Exercise>,
    pub toggles: Vec<Toggle>,
    pub checks: Vec<Check>,
    /// What the lesson is about, found in each run (`[[anomalies]]`); deadlock victims
    /// and uncaught errors are found without being declared.
    pub anomalies: Vec<AnomalyRule>,
    /// What must hold in every interleaving (`[[properties]]`), for explore mode.
    pub properties: Vec<Property>,
    /// What the player asks the learner to predict before a run (`[[questions]]`).
    pub questions: Vec<Question>,
    /// Every `sql` block, in file order (solution blocks excepted: see [`Exercise`]).
    pub blocks: Vec<SqlBlock>,
    /// The Markdown after the front matter, as written.
    pub body: String,
    body_offset: usize,
    source: Arc<SourceFile>,
}

impl Lesson {
    #[cfg(feature = "parse")]
    /// Parses and validates a lesson. `file_name` appears in errors and its stem must
    /// equal the lesson's `id`. Errors come sorted by position.
    pub fn parse(file_name: &str, text: &str) -> Result<Lesson, Vec<LessonError>> {
        let source = SourceFile::new(file_name, text);
        let mut errors = Vec::new();
        let lesson = parse_lesson(source, &mut errors);
        errors.sort_by_key(|e| (e.line, e.col));
        errors.dedup();
        match lesson {
            Some(lesson) if errors.is_empty() => Ok(lesson),
            _ => Err(errors),
        }
    }

    /// Every toggle at its default.
    pub fn settings_default(&self) -> Settings {
        Settings::defaults(&self.toggles)
    }

    /// The defaults with some toggles set, e.g. from `--set readpast=off` or a URL.
    pub fn settings_with<'a>(
        &self,
        choices: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Settings, SettingsError> {
        Settings::with(&self.toggles, choices)
    }

    /// Every combination of toggle values, defaults first, at most [`COMBINATION_CAP`];
    /// past the cap, a sample that still tries every value (see [`Combinations`]).
    pub fn all_combinations(&self) -> Combinations {
        toggle::combinations(&self.toggles, COMBINATION_CAP)
    }

    /// As [`Lesson::all_combinations`] with another cap.
    pub fn combinations(&self, cap: usize) -> Combinations {
        toggle::combinations(&self.toggles, cap)
    }

    /// The lesson with these settings: scenario, rendered blocks, narrative, checks.
    /// Fails when the settings leave no session, or two sessions of one name apply at
    /// once.
    pub fn apply(&self, settings: &Settings) -> Result<Applied, LessonError> {
        apply::apply(self, settings, &[])
    }

    /// The lesson file's name as given to [`Lesson::parse`].
    pub fn file_name(&self) -> &str {
        &self.source.name
    }

    /// An error at a check's position in the file (for reporting failed checks).
    pub fn error_at_check(&self, check: &CheckResult, message: String) -> LessonError {
        LessonError {
            file: self.source.name.clone(),
            line: check.line,
            col: check.col,
            message,
        }
    }
}

#[cfg(feature = "parse")]
fn parse_lesson(source: SourceFile, errors: &mut Vec<LessonError>) -> Option<Lesson> {
    let text = source.text.as_str();
    let (front_range, body_offset) = match split_front_matter(text) {
        Ok(split) => split,
        Err((at, message)) => {
            errors.push(source.error(at, message));
            return None;
        }
    };
    let mut front = front::parse_front(
        &source,
        &text[front_range.clone()],
        front_range.start,
        errors,
    )?;
    let body = text[body_offset..].to_string();
    let before = errors.len();
    let markdown::Scanned { blocks, solutions } =
        markdown::scan_blocks(&source, &body, body_offset, &front.toggles, errors);
    // A block that failed to parse is missing from `blocks`: rules about sessions would
    // only repeat its error in other words.
    let blocks_complete = errors.len() == before;
    validate(
        &source,
        &front,
        &blocks,
        body_offset,
        blocks_complete,
        errors,
    );
    if blocks_complete {
        validate_exercise_blocks(&source, &front, &blocks, &solutions, body_offset, errors);
    }
    let exercise = front.exercise.take().map(|e| Exercise {
        goal: e.goal,
        hints: e.hints,
        seeds: e.seeds,
        solutions,
        goal_offset: e.goal_offset,
    });
    // A use of a toggle whose declaration was refused is not a second mistake.
    for name in &front.rejected_toggles {
        let unknown = format!("unknown toggle `{name}` ");
        errors.retain(|e| !e.message.starts_with(&unknown));
    }
    let source = Arc::new(source);
    Some(Lesson {
        id: front.id,
        title: front.title,
        dialect: front.dialect,
        summary: front.summary,
        covers: front.covers,
        kind: front.kind,
        seed: front.seed,
        exercise,
        toggles: front.toggles,
        checks: front.checks,
        anomalies: front.anomalies,
        properties: front.properties,
        questions: front.questions,
        blocks,
        body,
        body_offset,
        source,
    })
}

#[cfg(feature = "parse")]
/// The rules of exercises that need the blocks: editable blocks and solutions belong
/// to exercises, ids are unique, each solution names an editable block.
fn validate_exercise_blocks(
    source: &SourceFile,
    front: &front::Front,
    blocks: &[SqlBlock],
    solutions: &[Solution],
    body_offset: usize,
    errors: &mut Vec<LessonError>,
) {
    if front.kind != Kind::Exercise {
        for b in blocks.iter().filter(|b| b.editable.is_some()) {
            errors.push(source.error(
                b.fence_offset,
                "`editable` belongs to exercises: add kind = \"exercise\" to the front matter",
            ));
        }
        for s in solutions {
            errors.push(source.error(
                s.fence_offset,
                "a solution block belongs to exercises: add kind = \"exercise\" to the front matter",
            ));
        }
        return;
    }
    let mut ids: Vec<(&str, u32)> = Vec::new();
    for b in blocks {
        let Some(id) = b.editable.as_deref() else {
            continue;
        };
        if let Some((_, line)) = ids.iter().find(|(x, _)| *x == id) {
            errors.push(source.error(
                b.fence_offset,
                format!("editable id `{id}` is used twice (first at line {line}); give one block `editable=OTHER`"),
            ));
        } else {
            ids.push((id, b.line));
        }
    }
    if ids.is_empty() {
        errors.push(source.error(
            body_offset,
            "an exercise needs a block the learner edits: mark a ```sql setup or session block `editable`",
        ));
        return;
    }
    if front.checks.is_empty() {
        errors.push(source.error(
            front.kind_offset,
            "an exercise's goals are its checks: add at least one [[checks]]",
        ));
    }
    let listed = || ids.iter().map(|(id, _)| *id).collect::<Vec<_>>().join(", ");
    let mut seen: Vec<(&str, u32)> = Vec::new();
    for s in solutions {
        if !ids.iter().any(|(id, _)| *id == s.block) {
            errors.push(source.error(
                s.fence_offset,
                format!(
                    "solution for `{}`, which is not an editable block (editable: {})",
                    s.block,
                    listed()
                ),
            ));
        } else if let Some((_, line)) = seen.iter().find(|(id, _)| *id == s.block) {
            errors.push(source.error(
                s.fence_offset,
                format!(
                    "a second solution for `{}` (the first is at line {line})",
                    s.block
                ),
            ));
        } else {
            seen.push((&s.block, s.line));
        }
    }
    if solutions.is_empty() {
        errors.push(source.error(
            body_offset,
            format!(
                "an exercise needs a solution, so that `lockstep check` can show its goals can be met: add ```sql solution=ID for an editable block ({})",
                listed()
            ),
        ));
    }
}

#[cfg(feature = "parse")]
/// The front matter sits between a first line `+++` and the next line `+++`.
/// Returns its byte range and where the body starts.
fn split_front_matter(text: &str) -> Result<(std::ops::Range<usize>, usize), (usize, String)> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut lines = text[start..].split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "+++" {
        return Err((
            start,
            "a lesson starts with TOML front matter between two `+++` lines".to_string(),
        ));
    }
    let front_start = start + first.len();
    let mut pos = front_start;
    for line in lines {
        if line.trim_end() == "+++" {
            return Ok((front_start..pos, pos + line.len()));
        }
        pos += line.len();
    }
    Err((
        start,
        "front matter opened here is never closed by a `+++` line".to_string(),
    ))
}

#[cfg(feature = "parse")]
/// Rules that need both the front matter and the blocks.
fn validate(
    source: &SourceFile,
    front: &front::Front,
    blocks: &[SqlBlock],
    body_offset: usize,
    blocks_complete: bool,
    errors: &mut Vec<LessonError>,
) {
    let sessions: Vec<&SqlBlock> = blocks
        .iter()
        .filter(|b| b.session_name().is_some())
        .collect();
    if !blocks_complete {
        return;
    }
    if sessions.is_empty() {
        errors.push(source.error(
            body_offset,
            "the lesson has no session: add a block ```sql session=NAME",
        ));
        return;
    }
    // Blocks without `when` always apply, so two of them clash under every setting;
    // clashes between conditional blocks show up in `apply` (and `lockstep check`).
    let unconditional = |b: &&&SqlBlock| b.when.is_empty();
    for (i, b) in sessions
        .iter()
        .enumerate()
        .filter(|(_, b)| unconditional(b))
    {
        if let Some(first) = sessions[..i]
            .iter()
            .filter(unconditional)
            .find(|f| f.session_name() == b.session_name())
        {
            errors.push(source.error(
                b.fence_offset,
                format!(
                    "duplicate session name `{}` (first defined at line {}); give one block a `when`",
                    b.session_name().unwrap_or_default(),
                    first.line
                ),
            ));
        }
    }
    for (at, name) in &front.question_sessions {
        if !sessions
            .iter()
            .any(|b| b.session_name() == Some(name.as_str()))
        {
            errors.push(source.error(
                *at,
                format!("a question names session `{name}`, which no block defines"),
            ));
        }
    }
    for (check, session) in front.checks.iter().zip(&front.check_sessions) {
        if let Some((at, name)) = session {
            if !sessions
                .iter()
                .any(|b| b.session_name() == Some(name.as_str()))
            {
                let mut names: Vec<&str> =
                    sessions.iter().filter_map(|b| b.session_name()).collect();
                names.dedup();
                errors.push(source.error(
                    *at,
                    format!(
                        "check `{}` names session `{name}`, which no block defines (sessions: {})",
                        check.name,
                        names.join(", ")
                    ),
                ));
            }
        }
    }
    for (toggle, at) in front.toggles.iter().zip(&front.toggle_offsets) {
        let used = blocks.iter().any(|b| {
            b.when.iter().any(|c| c.toggle == toggle.name)
                || b.pieces.iter().any(|p| match p {
                    block::Piece::Value { toggle: t, .. }
                    | block::Piece::Choice { toggle: t, .. } => *t == toggle.name,
                    block::Piece::Literal(_) => false,
                })
        }) || front
            .checks
            .iter()
            .any(|c| c.when.iter().any(|c| c.toggle == toggle.name));
        if !used {
            errors.push(source.error(
                *at,
                format!(
                    "toggle `{}` switches nothing: no marker, block `when` or check `when` uses it",
                    toggle.name
                ),
            ));
        }
    }
}
