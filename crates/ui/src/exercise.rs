//! An exercise being solved: the learner's SQL per editable block, the hints shown,
//! the verdict of the last Check and the run to show when a goal failed. Pure state
//! and a reducer (tested natively); the exercise page owns it, its effects (running
//! Check after the "Checking…" frame has painted, saving progress) live at the edge in
//! `components/exercise.rs`. Check itself is the lesson crate's `check_exercise`.

use std::rc::Rc;

use lesson::{Applied, ExerciseCheck, ExerciseError, ExerciseReport, GoalReport, Lesson};
use yew::Reducible;

use crate::player::Shared;
use crate::progress::{Corrupt, Progress};
use crate::run::{RunBuilder, RunModel};
use crate::t;

/// One block the learner may rewrite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditableBlock {
    /// The editable id (`editable=ID`), under which the SQL is saved.
    pub id: String,
    /// Index into `Lesson::blocks` (and the narrative's block placeholders).
    pub index: usize,
    /// The text the exercise starts from (the block rendered with default toggles).
    pub starting: String,
    /// What the learner has typed.
    pub text: String,
}

/// The run shown under the verdict: where a goal failed, or one of the solution.
#[derive(Clone, Debug, PartialEq)]
pub struct ShownRun {
    /// The goal that failed on this seed; `None` when every goal held.
    pub failed_goal: Option<String>,
    pub seed: u64,
    pub run: Result<Shared<RunModel>, String>,
}

/// What Check said.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Report {
        report: Rc<ExerciseReport>,
        shown: Option<ShownRun>,
    },
    /// The learner's SQL does not parse, or is SQL the simulator does not model; the
    /// position is in their text (1-based line and character column).
    EditError {
        block: String,
        line: u32,
        col: u32,
        message: String,
    },
    /// The exercise cannot run at all (not the learner's doing).
    LessonError(String),
    /// The learner stopped Check with the Cancel button when it had got this far.
    Cancelled(CheckProgress),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ExerciseState {
    pub lesson: Shared<Lesson>,
    pub blocks: Vec<EditableBlock>,
    pub hints_shown: usize,
    /// Check has found every goal met on every seed (kept until the learner resets).
    pub solved: bool,
    /// Each goal's result at the last Check (name, met), saved with the progress so a
    /// reload shows them; empty when the last Check judged no goal.
    pub goals: Vec<(String, bool)>,
    /// A Check is on its way.
    pub checking: bool,
    /// How far it got, once it has taken long enough to say so.
    pub check_progress: Option<CheckProgress>,
    /// Counts Check requests; a verdict for an older request is dropped.
    pub request: u32,
    pub verdict: Option<Verdict>,
    /// The texts the verdict is about, to say when the SQL changed since.
    pub checked: Vec<String>,
    /// A message about saved progress (e.g. it could not be read).
    pub notice: Option<String>,
    /// The state before the last Reset, while Undo can still bring it back (until the
    /// learner edits, checks or asks for a hint).
    pub before_reset: Option<Box<ExerciseState>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExerciseAction {
    Edit {
        block: String,
        text: String,
    },
    ShowHint,
    Check,
    Checked {
        request: u32,
        verdict: Verdict,
    },
    /// Check (for `request`) is still running and has got this far.
    CheckProgress {
        request: u32,
        progress: CheckProgress,
    },
    /// Stop the Check that is running (the page's Cancel button).
    Cancel,
    /// Back to the starting SQL, no hints, not solved (the page clears the storage).
    Reset,
    /// Back to the state before the last Reset (a Reset is one click away from Check).
    UndoReset,
    DismissNotice,
}

impl ExerciseState {
    /// The state for `lesson` with what was saved (`Err` when the saved value was
    /// corrupt: the page starts afresh and says so).
    pub fn new(lesson: Rc<Lesson>, saved: Result<Option<Progress>, Corrupt>) -> ExerciseState {
        let settings = lesson.settings_default();
        let applied = lesson.apply(&settings).ok();
        let (progress, notice) = match saved {
            Ok(p) => (p.unwrap_or_default(), None),
            Err(Corrupt) => (Progress::default(), Some(crate::t!("progress-corrupt"))),
        };
        let blocks = lesson
            .blocks
            .iter()
            .enumerate()
            .filter_map(|(index, block)| {
                let id = block.editable.clone()?;
                let starting = applied
                    .as_ref()
                    .and_then(|a| a.blocks.iter().find(|b| b.block == index))
                    .map_or_else(|| block.source.clone(), |b| b.text.clone());
                let text = progress
                    .sql_for(&id)
                    .map_or_else(|| starting.clone(), str::to_string);
                Some(EditableBlock {
                    id,
                    index,
                    starting,
                    text,
                })
            })
            .collect();
        // A lesson edited since may have fewer hints than were shown.
        let hints_shown = progress
            .hints
            .min(lesson.exercise.as_ref().map_or(0, |e| e.hints.len()));
        ExerciseState {
            lesson: Shared(lesson),
            blocks,
            hints_shown,
            solved: progress.solved,
            goals: progress.goals,
            checking: false,
            check_progress: None,
            request: 0,
            verdict: None,
            checked: Vec::new(),
            notice,
            before_reset: None,
        }
    }

    pub fn hints(&self) -> &[String] {
        self.lesson
            .exercise
            .as_ref()
            .map_or(&[], |e| e.hints.as_slice())
    }

    /// The learner's SQL as `check_exercise` takes it.
    pub fn edits(&self) -> Vec<(String, String)> {
        self.blocks
            .iter()
            .map(|b| (b.id.clone(), b.text.clone()))
            .collect()
    }

    /// The SQL changed since the verdict shown was given.
    pub fn stale(&self) -> bool {
        self.verdict.is_some()
            && self.checked.len() == self.blocks.len()
            && self
                .blocks
                .iter()
                .zip(&self.checked)
                .any(|(b, c)| b.text != *c)
    }

    /// Solved once, but the last Check of the SQL as it is now did not solve it (the
    /// learner broke it since): the badge says "solved before", not "solved".
    pub fn solved_before(&self) -> bool {
        self.solved
            && match &self.verdict {
                Some(Verdict::Report { report, .. }) => !report.solved,
                Some(Verdict::EditError { .. } | Verdict::LessonError(_)) => true,
                Some(Verdict::Cancelled(_)) | None => false,
            }
    }

    /// What to save: solved, the goals' results, the hints shown, and the SQL of blocks
    /// the learner changed.
    pub fn progress(&self) -> Progress {
        Progress {
            solved: self.solved,
            goals: self.goals.clone(),
            hints: self.hints_shown,
            sql: self
                .blocks
                .iter()
                .filter(|b| b.text != b.starting)
                .map(|b| (b.id.clone(), b.text.clone()))
                .collect(),
        }
    }
}

/// A goal is met when it held on every seed and no run ended in an error: the
/// figures of a run that broke prove nothing, so such a run ticks no goal.
pub fn met(report: &ExerciseReport, goal: &GoalReport) -> bool {
    goal.passed_all_seeds && report.failed_run.is_none()
}

/// One goal as the page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalRow {
    pub name: String,
    /// `None` before any Check judged it.
    pub met: Option<bool>,
    /// It held, but a run ended in an error, so it does not count (`met` is false):
    /// shown as neither met nor failed.
    pub uncounted: bool,
    pub detail: String,
}

impl ExerciseState {
    /// The lesson's goals with what the verdict shown says of them, or else what the last
    /// Check said (saved, so after a reload), or that they are not checked yet.
    pub fn goal_rows(&self) -> Vec<GoalRow> {
        let report = match &self.verdict {
            Some(Verdict::Report { report, .. }) => Some(report),
            _ => None,
        };
        // While Check runs, the last verdict's words about the goals no longer hold.
        if self.checking {
            return (self.lesson.checks.iter())
                .map(|check| GoalRow {
                    name: check.name.clone(),
                    met: None,
                    uncounted: false,
                    detail: t!("goal-checking"),
                })
                .collect();
        }
        let unjudged = match &self.verdict {
            Some(Verdict::EditError { .. }) => t!("goal-unjudged-error"),
            Some(Verdict::Cancelled(_)) => t!("goal-unjudged-cancelled"),
            _ => t!("goal-unchecked"),
        };
        self.lesson
            .checks
            .iter()
            .map(|check| {
                let name = check.name.clone();
                let judged =
                    report.and_then(|r| Some((r, r.goals.iter().find(|g| g.name == name)?)));
                let (met, detail) = match judged {
                    Some((r, g)) => match (&r.failed_run, g.passed_all_seeds) {
                        (Some(failed), true) => (
                            Some(false),
                            t!("goal-not-counted", seed = failed.seed.to_string()),
                        ),
                        (_, true) => (Some(true), t!("goal-met-all", seeds = r.seeds.len())),
                        (_, false) => (
                            Some(false),
                            t!(
                                "goal-failed-on",
                                seed = g.failing_seed.unwrap_or_default().to_string(),
                                detail = i18n::detail(&g.detail)
                            ),
                        ),
                    },
                    // A goal the report does not judge: it does not apply to these settings.
                    None if report.is_some() => (None, t!("goal-unchecked")),
                    None => match self.goals.iter().find(|(g, _)| *g == name) {
                        Some((_, true)) => (Some(true), t!("goal-met-last")),
                        Some((_, false)) => (Some(false), t!("goal-not-met-last")),
                        None => (None, unjudged.clone()),
                    },
                };
                let uncounted =
                    matches!(judged, Some((r, g)) if r.failed_run.is_some() && g.passed_all_seeds);
                GoalRow {
                    name,
                    met,
                    uncounted,
                    detail,
                }
            })
            .collect()
    }
}

impl Reducible for ExerciseState {
    type Action = ExerciseAction;

    fn reduce(self: Rc<Self>, action: ExerciseAction) -> Rc<Self> {
        let mut next = (*self).clone();
        // Work after a Reset is the learner's own: Undo would lose it.
        if matches!(
            action,
            ExerciseAction::Edit { .. } | ExerciseAction::ShowHint | ExerciseAction::Check
        ) {
            next.before_reset = None;
        }
        match action {
            ExerciseAction::Edit { block, text } => {
                match next.blocks.iter_mut().find(|b| b.id == block) {
                    Some(b) if b.text != text => b.text = text,
                    _ => return self,
                }
            }
            ExerciseAction::ShowHint => {
                if next.hints_shown >= next.hints().len() {
                    return self;
                }
                next.hints_shown += 1;
            }
            ExerciseAction::Check => {
                next.checking = true;
                next.check_progress = None;
                next.request += 1;
            }
            ExerciseAction::CheckProgress { request, progress } => {
                if request != next.request || !next.checking {
                    return self;
                }
                next.check_progress = Some(progress);
            }
            ExerciseAction::Cancel => {
                if !next.checking {
                    return self;
                }
                let progress = next.check_progress.take().unwrap_or_default();
                next.checking = false;
                next.goals.clear();
                next.request += 1; // the page drops the Check, and a late verdict
                next.checked = next.blocks.iter().map(|b| b.text.clone()).collect();
                next.verdict = Some(Verdict::Cancelled(progress));
            }
            ExerciseAction::Checked { request, verdict } => {
                if request != next.request {
                    return self;
                }
                next.goals = match &verdict {
                    Verdict::Report { report, .. } => {
                        next.solved |= report.solved;
                        report
                            .goals
                            .iter()
                            .map(|g| (g.name.clone(), met(report, g)))
                            .collect()
                    }
                    // No goal was judged.
                    _ => Vec::new(),
                };
                next.checking = false;
                next.check_progress = None;
                next.checked = next.blocks.iter().map(|b| b.text.clone()).collect();
                next.verdict = Some(verdict);
            }
            ExerciseAction::Reset => {
                let mut before = (*self).clone();
                before.before_reset = None;
                next.before_reset = Some(Box::new(before));
                for b in &mut next.blocks {
                    b.text.clone_from(&b.starting);
                }
                next.hints_shown = 0;
                next.solved = false;
                next.goals.clear();
                next.checking = false;
                next.check_progress = None;
                next.request += 1; // a Check still running is for SQL no longer there
                next.verdict = None;
                next.checked.clear();
                next.notice = None;
            }
            ExerciseAction::UndoReset => {
                let Some(before) = next.before_reset.take() else {
                    return self;
                };
                let request = next.request + 1; // nothing running belongs to it
                next = *before;
                next.request = request;
                next.checking = false;
                next.check_progress = None;
            }
            ExerciseAction::DismissNotice => next.notice = None,
        }
        Rc::new(next)
    }
}

/// Check: the learner's SQL on every seed of the exercise (default toggles), and the
/// run to show: the first seed where a goal failed, or the first seed when all held.
pub fn check(lesson: &Lesson, edits: &[(String, String)]) -> Verdict {
    match Checker::new(lesson, edits) {
        Err(verdict) => verdict,
        Ok(mut checker) => loop {
            if let Some(verdict) = checker.advance(usize::MAX) {
                return verdict;
            }
        },
    }
}

/// [`check`] a few engine steps at a time, for the page to run between frames: first
/// every seed (`lesson::ExerciseCheck`), then the run the player shows. Dropping it
/// cancels Check.
pub struct Checker {
    lesson_id: String,
    /// The seed to show when Check ran none.
    lesson_seed: u64,
    stage: Stage,
}

enum Stage {
    Seeds(SeedsCheck),
    Run(RunToShow, RunBuilder),
    Done,
}

/// The seeds' report and the run of it to show, once built.
struct RunToShow {
    report: Rc<ExerciseReport>,
    failed_goal: Option<String>,
    seed: u64,
    /// Engine steps the seeds took (for progress).
    seeds_steps: u64,
}

impl RunToShow {
    fn verdict(self, run: Result<Shared<RunModel>, String>) -> Verdict {
        Verdict::Report {
            report: self.report,
            shown: Some(ShownRun {
                failed_goal: self.failed_goal,
                seed: self.seed,
                run,
            }),
        }
    }
}

/// How far Check got, for the page to show while it runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckProgress {
    /// Seeds run to the end, of `seeds`.
    pub seeds_done: usize,
    pub seeds: usize,
    /// Engine steps so far (the seeds, then the run to show).
    pub steps: u64,
    /// Virtual time the current run has reached.
    pub now_us: u64,
}

impl Checker {
    /// Applies the learner's SQL; a verdict at once when it cannot apply.
    pub fn new(lesson: &Lesson, edits: &[(String, String)]) -> Result<Checker, Verdict> {
        Ok(Checker {
            lesson_id: lesson.id.clone(),
            lesson_seed: lesson.seed,
            stage: Stage::Seeds(seeds_check(lesson, edits)?),
        })
    }

    /// Check after its seeds ran elsewhere (the worker): only the run to show is left
    /// to build, from the same inputs and the seed the report names. `steps` are the
    /// engine steps the seeds took, for the progress.
    pub fn showing(
        lesson: &Lesson,
        edits: &[(String, String)],
        report: ExerciseReport,
        steps: u64,
    ) -> Result<Checker, Verdict> {
        let check = seeds_check(lesson, edits)?.0;
        let mut checker = Checker {
            lesson_id: lesson.id.clone(),
            lesson_seed: lesson.seed,
            stage: Stage::Done,
        };
        match checker.run_to_show(report, check.applied().clone(), steps) {
            Some(verdict) => Err(verdict),
            None => Ok(checker),
        }
    }

    /// Goes on to the run to show of `report`; a verdict at once when it cannot be built.
    fn run_to_show(
        &mut self,
        report: ExerciseReport,
        applied: Applied,
        seeds_steps: u64,
    ) -> Option<Verdict> {
        let failed = report.goals.iter().find(|g| !g.passed_all_seeds);
        let (failed_goal, seed) = match failed {
            Some(goal) => (
                Some(goal.name.clone()),
                goal.failing_seed.unwrap_or(self.lesson_seed),
            ),
            None => (
                None,
                report.seeds.first().copied().unwrap_or(self.lesson_seed),
            ),
        };
        let show = RunToShow {
            report: Rc::new(report),
            failed_goal,
            seed,
            seeds_steps,
        };
        match RunBuilder::new(&self.lesson_id, applied, seed) {
            Ok(builder) => {
                self.stage = Stage::Run(show, builder);
                None
            }
            Err(error) => Some(show.verdict(Err(error))),
        }
    }

    /// Runs at most about `max_steps` engine steps; the verdict once Check is done.
    pub fn advance(&mut self, max_steps: usize) -> Option<Verdict> {
        match std::mem::replace(&mut self.stage, Stage::Done) {
            Stage::Seeds(mut check) => match check.advance(max_steps) {
                None => {
                    self.stage = Stage::Seeds(check);
                    None
                }
                Some(Err(verdict)) => Some(verdict),
                Some(Ok(report)) => {
                    let steps = check.progress().steps;
                    self.run_to_show(report, check.0.applied().clone(), steps)
                }
            },
            Stage::Run(show, mut builder) => {
                if builder.advance(max_steps) {
                    Some(show.verdict(Ok(Shared::new(builder.finish()))))
                } else {
                    self.stage = Stage::Run(show, builder);
                    None
                }
            }
            Stage::Done => None,
        }
    }

    pub fn progress(&self) -> CheckProgress {
        match &self.stage {
            Stage::Seeds(check) => check.progress(),
            Stage::Run(show, builder) => {
                let p = builder.progress();
                CheckProgress {
                    seeds_done: show.report.seeds.len(),
                    seeds: show.report.seeds.len(),
                    steps: show.seeds_steps + p.steps as u64,
                    now_us: p.now_us,
                }
            }
            Stage::Done => CheckProgress::default(),
        }
    }
}

/// Check's seeds alone, without the run to show: the part of Check the worker runs.
pub struct SeedsCheck(ExerciseCheck);

/// Applies the learner's SQL to the exercise (default toggles) for its seeds; a
/// verdict at once when it cannot apply.
pub fn seeds_check(lesson: &Lesson, edits: &[(String, String)]) -> Result<SeedsCheck, Verdict> {
    let settings = lesson.settings_default();
    let seeds = lesson
        .exercise
        .as_ref()
        .map_or_else(|| vec![lesson.seed], |e| e.seeds.clone());
    let edits: Vec<(&str, &str)> = edits
        .iter()
        .map(|(b, s)| (b.as_str(), s.as_str()))
        .collect();
    ExerciseCheck::new(lesson, &settings, &edits, &seeds)
        .map(SeedsCheck)
        .map_err(verdict_of)
}

impl SeedsCheck {
    /// Runs at most about `max_steps` engine steps; the report once every seed ran.
    pub fn advance(&mut self, max_steps: usize) -> Option<Result<ExerciseReport, Verdict>> {
        self.0
            .advance(max_steps as u64)
            .map_err(verdict_of)
            .transpose()
    }

    pub fn progress(&self) -> CheckProgress {
        let p = self.0.progress();
        CheckProgress {
            seeds_done: p.seeds_done,
            seeds: p.seeds,
            steps: p.steps,
            now_us: p.now_us,
        }
    }
}

/// How the engine words the errors of its runaway limits (statements per session,
/// instructions per step, virtual time): the page tells a run stopped by a limit from
/// one the learner cancelled.
const ENGINE_LIMIT: &str = "simulation stopped";

/// The engine's message when its limits stopped a session of the run shown, e.g. a
/// learner's loop that never ends.
pub fn stopped_by_limit(verdict: &Verdict) -> Option<String> {
    let Verdict::Report {
        shown: Some(ShownRun { run: Ok(run), .. }),
        ..
    } = verdict
    else {
        return None;
    };
    run.summary
        .outcome
        .sessions
        .iter()
        .flat_map(|s| &s.errors)
        .find(|e| e.message.starts_with(ENGINE_LIMIT))
        .map(|e| e.message.clone())
}

fn verdict_of(error: ExerciseError) -> Verdict {
    match error {
        ExerciseError::Edit {
            block,
            line,
            col,
            message,
        } => Verdict::EditError {
            block,
            line,
            col,
            message,
        },
        other => Verdict::LessonError(other.to_string()),
    }
}

/// Where `line:col` (1-based, characters) of `text` is: the line's text and the
/// character column to put a caret under, for showing an error in the learner's SQL.
pub fn error_line(text: &str, line: u32, col: u32) -> Option<(String, usize)> {
    let line_text = text.lines().nth((line as usize).checked_sub(1)?)?;
    let col = (col as usize)
        .saturating_sub(1)
        .min(line_text.chars().count());
    Some((line_text.to_string(), col))
}

/// An error's excerpt: the line with a caret under column `caret` (0-based, in
/// characters). Without its indentation when `strip_indent`; cut to 40 characters before
/// the caret and 20 after (`…` where cut), so the caret is in sight in a narrow panel;
/// the caret's line keeps the tabs before it, so the caret lines up whatever a tab's width.
pub fn excerpt(line_text: &str, caret: usize, strip_indent: bool) -> String {
    const BEFORE: usize = 40;
    const AFTER: usize = 20;
    let chars: Vec<char> = line_text.chars().collect();
    let caret = caret.min(chars.len());
    let indent = chars.iter().take_while(|c| c.is_whitespace()).count();
    let mut from = if strip_indent { indent.min(caret) } else { 0 };
    let lead = if caret - from > BEFORE {
        from = caret - BEFORE;
        "…"
    } else {
        ""
    };
    let (to, tail) = if chars.len() > caret + AFTER + 1 {
        (caret + AFTER, "…")
    } else {
        (chars.len(), "")
    };
    let shown: String = chars[from..to].iter().collect();
    let pad: String = (lead.chars().map(|_| ' '))
        .chain(
            chars[from..caret]
                .iter()
                .map(|&c| if c == '\t' { '\t' } else { ' ' }),
        )
        .collect();
    format!("{lead}{shown}{tail}\n{pad}^")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    #[test]
    fn an_excerpt_keeps_its_caret_under_the_column() {
        assert_eq!(
            excerpt("SELECT 1 ,;", 10, false),
            "SELECT 1 ,;\n          ^"
        );
        // Tabs stay tabs on the caret's line, so the caret is under `;` at any tab width.
        assert_eq!(
            excerpt("SELECT\t1\t,\t;", 11, false),
            "SELECT\t1\t,\t;\n      \t \t \t^"
        );
        assert_eq!(excerpt("    SELEC 1", 4, true), "SELEC 1\n^");
        // A long line is cut around the caret.
        let long = format!(
            "SELECT {}x FROM t WHERE {}1",
            "a, ".repeat(40),
            "b = 1 AND ".repeat(5)
        );
        let caret = long.find('x').unwrap();
        let shown = excerpt(&long, caret, false);
        let (line, marks) = shown.split_once('\n').unwrap();
        assert!(line.starts_with('…') && line.ends_with('…'), "{line}");
        assert_eq!(
            line.chars().nth(marks.chars().count() - 1),
            Some('x'),
            "{shown}"
        );
    }

    fn lesson(id: &str) -> Rc<Lesson> {
        Rc::clone(catalog().lesson(id).unwrap())
    }

    fn reduce(
        state: ExerciseState,
        actions: impl IntoIterator<Item = ExerciseAction>,
    ) -> ExerciseState {
        let mut state = Rc::new(state);
        for action in actions {
            state = state.reduce(action);
        }
        Rc::unwrap_or_clone(state)
    }

    fn solution(lesson: &Lesson) -> Vec<(String, String)> {
        lesson
            .exercise
            .as_ref()
            .unwrap()
            .solution_edits()
            .into_iter()
            .map(|(b, s)| (b.to_string(), s.to_string()))
            .collect()
    }

    #[test]
    fn every_exercise_starts_from_its_editable_blocks() {
        let catalog = catalog();
        let exercises: Vec<_> = catalog
            .entries
            .iter()
            .map(|e| &e.lesson)
            .filter(|l| l.kind == lesson::Kind::Exercise)
            .collect();
        assert!(exercises.len() >= 4, "{} exercises", exercises.len());
        for lesson in exercises {
            let state = ExerciseState::new(Rc::clone(lesson), Ok(None));
            assert!(!state.blocks.is_empty(), "{}", lesson.id);
            for b in &state.blocks {
                assert_eq!(b.text, b.starting);
                assert!(
                    !b.starting.contains("{{"),
                    "{}: markers rendered",
                    lesson.id
                );
            }
            assert!(!state.hints().is_empty(), "{}", lesson.id);
        }
    }

    #[test]
    fn the_starting_sql_fails_and_shows_the_failing_run() {
        let lesson = lesson("exercise-skip-locked");
        let state = ExerciseState::new(Rc::clone(&lesson), Ok(None));
        let Verdict::Report { report, shown } = check(&lesson, &state.edits()) else {
            panic!("not a report");
        };
        assert!(!report.solved);
        let goal = report.goals.iter().find(|g| !g.passed_all_seeds).unwrap();
        let shown = shown.unwrap();
        assert_eq!(shown.failed_goal.as_deref(), Some(goal.name.as_str()));
        assert_eq!(Some(shown.seed), goal.failing_seed);
        let run = shown.run.unwrap();
        assert_eq!(run.key.seed, shown.seed);
        let b = run
            .summary
            .outcome
            .sessions
            .iter()
            .find(|s| s.name == "B")
            .unwrap();
        assert!(b.wait_us > 1_000_000, "B waited {} us", b.wait_us);
        assert!(run.summary.checks.iter().any(|c| !c.passed));
    }

    #[test]
    fn the_solution_solves_it_and_the_state_remembers() {
        let lesson = lesson("exercise-skip-locked");
        let [(block, sql)] = solution(&lesson).try_into().unwrap();
        let state = ExerciseState::new(Rc::clone(&lesson), Ok(None));
        let state = reduce(
            state,
            [
                ExerciseAction::Edit {
                    block: block.clone(),
                    text: sql.clone(),
                },
                ExerciseAction::Check,
            ],
        );
        assert!(state.checking);
        let verdict = check(&lesson, &state.edits());
        let Verdict::Report { report, shown } = &verdict else {
            panic!()
        };
        assert!(report.solved, "{report:?}");
        assert_eq!(shown.as_ref().unwrap().failed_goal, None);
        let state = reduce(
            state,
            [ExerciseAction::Checked {
                request: 1,
                verdict,
            }],
        );
        assert!(state.solved && !state.checking && !state.stale());
        assert!(!state.solved_before());
        let progress = state.progress();
        assert_eq!(progress.sql, [(block.clone(), sql.clone())]);
        assert!(progress.solved);

        // Broken again and checked: still solved once, but not as it is now.
        let broken = reduce(
            state.clone(),
            [
                ExerciseAction::Edit {
                    block: block.clone(),
                    text: "SELEC 1;".into(),
                },
                ExerciseAction::Check,
            ],
        );
        let verdict = check(&lesson, &broken.edits());
        let broken = reduce(
            broken,
            [ExerciseAction::Checked {
                request: 2,
                verdict,
            }],
        );
        assert!(
            broken.solved && broken.solved_before(),
            "{:?}",
            broken.verdict
        );

        // A reload restores it from what was saved.
        let saved = Progress::decode(&progress.encode()).map(Some);
        let again = ExerciseState::new(Rc::clone(&lesson), saved);
        assert!(again.solved);
        assert_eq!(again.blocks[0].text, sql);

        // Editing after a check makes the verdict stale; reset forgets everything.
        let state = reduce(
            state,
            [ExerciseAction::Edit {
                block,
                text: "-- nothing".into(),
            }],
        );
        assert!(state.stale() && state.solved);
        let state = reduce(state, [ExerciseAction::ShowHint, ExerciseAction::Reset]);
        assert!(!state.solved && state.verdict.is_none() && state.hints_shown == 0);
        assert!(state.progress().is_empty());
        // Undo brings back what Reset forgot; an edit after a Reset ends the chance.
        let undone = reduce(state.clone(), [ExerciseAction::UndoReset]);
        assert_eq!(undone.hints_shown, 1);
        assert!(undone.before_reset.is_none());
        let edited = reduce(
            state,
            [
                ExerciseAction::Edit {
                    block: undone.blocks[0].id.clone(),
                    text: "SELECT 1;".into(),
                },
                ExerciseAction::UndoReset,
            ],
        );
        assert_eq!(edited.hints_shown, 0);
        assert_eq!(edited.blocks[0].text, "SELECT 1;");
    }

    #[test]
    fn a_late_verdict_is_dropped_and_hints_stop_at_the_last() {
        let lesson = lesson("exercise-skip-locked");
        let n = lesson.exercise.as_ref().unwrap().hints.len();
        let state = ExerciseState::new(Rc::clone(&lesson), Ok(None));
        let state = reduce(state, (0..n + 3).map(|_| ExerciseAction::ShowHint));
        assert_eq!(state.hints_shown, n);
        // A reload shows the hints that were shown; a saved count past the lesson's
        // hints (the lesson lost one since) shows them all.
        let reloaded = |hints| {
            let saved = Progress {
                hints,
                ..Progress::default()
            };
            let saved = Progress::decode(&saved.encode()).map(Some);
            ExerciseState::new(Rc::clone(&lesson), saved).hints_shown
        };
        assert_eq!(reloaded(2), 2);
        assert_eq!(reloaded(n + 5), n);
        let state = reduce(
            state,
            [
                ExerciseAction::Check,
                ExerciseAction::Reset,
                ExerciseAction::Checked {
                    request: 1,
                    verdict: Verdict::LessonError("late".into()),
                },
            ],
        );
        assert_eq!(state.verdict, None);
        assert!(!state.checking);
    }

    #[test]
    fn an_error_in_the_learners_sql_is_placed_in_their_text() {
        let lesson = lesson("exercise-skip-locked");
        let state = ExerciseState::new(Rc::clone(&lesson), Ok(None));
        let broken = state.blocks[0]
            .text
            .replace("WITH (UPDLOCK, ROWLOCK)", "WITH (UPDLOCK, ROWLOCK");
        let verdict = check(&lesson, &[(state.blocks[0].id.clone(), broken.clone())]);
        let Verdict::EditError {
            block, line, col, ..
        } = verdict
        else {
            panic!("{verdict:?}")
        };
        assert_eq!(block, "next_task");
        // The parser stops at the token after the missing `)`.
        let (text, caret) = error_line(&broken, line, col).unwrap();
        let at: String = text.chars().skip(caret).collect();
        assert!(at.starts_with("WHERE"), "{line}:{col} {text}");
        assert_eq!(error_line("a", 3, 1), None);
        assert_eq!(error_line("ab", 1, 9), Some(("ab".into(), 2)));
    }

    /// A run that ended in an error ticks no goal, though "A claims task 1" held in it;
    /// the shipped SQL (no error) has its goals judged one by one.
    #[test]
    fn a_run_that_ended_in_an_error_ticks_no_goal() {
        let lesson = lesson("exercise-skip-locked");
        let state = ExerciseState::new(Rc::clone(&lesson), Ok(None));
        let block = state.blocks[0].clone();
        let broken = block.text.replace(
            "SET NOCOUNT ON;",
            "SET NOCOUNT ON;\n    DECLARE @oops int = 1 / 0;",
        );
        let verdict = check(&lesson, &[(block.id.clone(), broken.clone())]);
        let Verdict::Report { report, .. } = &verdict else {
            panic!("{verdict:?}")
        };
        let failed = report
            .failed_run
            .as_ref()
            .expect("the run ended in an error");
        assert_eq!((failed.session.as_str(), failed.number), ("A", 8134));
        // Placed in the learner's block, where the DECLARE begins.
        let line = broken.lines().position(|l| l.contains("@oops")).unwrap() + 1;
        let col = broken
            .lines()
            .nth(line - 1)
            .unwrap()
            .find("DECLARE")
            .unwrap()
            + 1;
        assert_eq!(
            failed.at,
            Some(lesson::FailedAt {
                block: block.id.clone(),
                line: line as u32,
                col: col as u32
            })
        );
        let claims = report
            .goals
            .iter()
            .find(|g| g.name == "A claims task 1")
            .unwrap();
        assert!(claims.passed_all_seeds, "the figure held");
        let state = reduce(
            state,
            [
                ExerciseAction::Edit {
                    block: block.id.clone(),
                    text: broken,
                },
                ExerciseAction::Check,
                ExerciseAction::Checked {
                    request: 1,
                    verdict,
                },
            ],
        );
        let rows = state.goal_rows();
        assert_eq!(rows.len(), 5);
        assert!(rows.iter().all(|r| r.met == Some(false)), "{rows:?}");
        let row = rows.iter().find(|r| r.name == "A claims task 1").unwrap();
        assert!(row.detail.contains("ended in an error"), "{}", row.detail);
        assert!(state.goals.iter().all(|(_, met)| !met) && !state.solved);

        let verdict = check(&lesson, &[(block.id.clone(), block.starting.clone())]);
        let state = reduce(
            state,
            [
                ExerciseAction::Edit {
                    block: block.id,
                    text: block.starting,
                },
                ExerciseAction::Check,
                ExerciseAction::Checked {
                    request: 2,
                    verdict,
                },
            ],
        );
        let met: Vec<_> = state.goal_rows().iter().map(|r| r.met).collect();
        assert_eq!(
            met,
            [Some(false), Some(true), Some(true), Some(true), Some(true)]
        );
    }

    /// exercise-skip-locked after one Check of its SQL as shipped (goals not yet judged
    /// before it).
    fn checked_once() -> (Rc<Lesson>, ExerciseState) {
        let lesson = lesson("exercise-skip-locked");
        let state = ExerciseState::new(Rc::clone(&lesson), Ok(None));
        assert!(state.goal_rows().iter().all(|r| r.met.is_none()));
        let verdict = check(&lesson, &state.edits());
        let state = reduce(
            state,
            [
                ExerciseAction::Check,
                ExerciseAction::Checked {
                    request: 1,
                    verdict,
                },
            ],
        );
        (lesson, state)
    }

    /// While Check runs the goals say so, not what the last verdict said of them.
    #[test]
    fn goals_say_they_are_being_checked_while_check_runs() {
        let (_, state) = checked_once();
        assert!(state.goal_rows().iter().any(|r| r.met.is_some()));
        let state = reduce(state, [ExerciseAction::Check]);
        assert!(state.checking);
        let rows = state.goal_rows();
        assert!(!rows.is_empty());
        for row in rows {
            assert_eq!((row.met, row.detail.as_str()), (None, "being checked…"));
        }
    }

    /// The goals' results are saved with the progress: a reload lists them as the last
    /// Check left them; an error in the SQL, Cancel and Reset judge none.
    #[test]
    fn goal_results_survive_a_reload() {
        let (lesson, state) = checked_once();
        let judged: Vec<_> = state.goal_rows().iter().map(|r| r.met).collect();
        let saved = Progress::decode(&state.progress().encode()).map(Some);
        let again = ExerciseState::new(Rc::clone(&lesson), saved);
        let rows = again.goal_rows();
        assert_eq!(rows.iter().map(|r| r.met).collect::<Vec<_>>(), judged);
        assert!(
            rows.iter().all(|r| r.detail.contains("at your last Check")),
            "{rows:?}"
        );

        let edit_error = Verdict::EditError {
            block: "next_task".into(),
            line: 1,
            col: 1,
            message: "no".into(),
        };
        let after = reduce(
            again.clone(),
            [
                ExerciseAction::Check,
                ExerciseAction::Checked {
                    request: 1,
                    verdict: edit_error,
                },
            ],
        );
        assert!(after.goals.is_empty() && after.goal_rows().iter().all(|r| r.met.is_none()));
        assert_eq!(
            after.goal_rows()[0].detail,
            "not judged: your SQL has an error"
        );
        let after = reduce(
            again.clone(),
            [ExerciseAction::Check, ExerciseAction::Cancel],
        );
        assert!(after.goals.is_empty());
        let after = reduce(again, [ExerciseAction::Reset]);
        assert!(after.goals.is_empty() && after.progress().is_empty());
    }

    #[test]
    fn a_corrupt_save_starts_afresh_with_a_notice() {
        let lesson = lesson("exercise-skip-locked");
        let state = ExerciseState::new(Rc::clone(&lesson), Err(Corrupt));
        assert_eq!(state.notice, Some(crate::t!("progress-corrupt")));
        assert!(!state.solved);
        assert!(state.blocks.iter().all(|b| b.text == b.starting));
        let state = reduce(state, [ExerciseAction::DismissNotice]);
        assert_eq!(state.notice, None);
    }

    /// Cancel ends Check with a verdict that says so; a verdict arriving later for
    /// the cancelled request is dropped.
    #[test]
    fn cancel_ends_check_and_drops_its_late_verdict() {
        let lesson = lesson("exercise-claim-fix");
        let state = ExerciseState::new(Rc::clone(&lesson), Ok(None));
        let state = reduce(state, [ExerciseAction::Check]);
        let request = state.request;
        let progress = CheckProgress {
            seeds_done: 1,
            seeds: 5,
            steps: 1234,
            now_us: 99,
        };
        let state = reduce(
            state,
            [
                ExerciseAction::CheckProgress { request, progress },
                ExerciseAction::Cancel,
            ],
        );
        assert!(!state.checking);
        assert_eq!(state.verdict, Some(Verdict::Cancelled(progress)));
        let verdict = check(&lesson, &state.edits());
        let state = reduce(state, [ExerciseAction::Checked { request, verdict }]);
        assert_eq!(state.verdict, Some(Verdict::Cancelled(progress)));
        assert!(stopped_by_limit(state.verdict.as_ref().unwrap()).is_none());
    }

    /// A learner's loop that never ends: the engine's limit stops it, and the page
    /// can say so.
    #[test]
    fn a_loop_that_never_ends_is_stopped_by_the_engine_and_said_so() {
        let lesson = lesson("exercise-skip-locked");
        let block = ExerciseState::new(Rc::clone(&lesson), Ok(None)).blocks[0].clone();
        let forever = format!("{}\nWHILE 1 = 1 SET NOCOUNT ON;", block.text);
        let verdict = check(&lesson, &[(block.id, forever)]);
        let message = stopped_by_limit(&verdict).expect("stopped by a limit");
        assert!(message.contains("a loop that never ends"), "{message}");
    }

    /// Check split as the page runs it, the seeds (in the worker) then the run to show
    /// (on the page), gives the verdict Check gives in one go.
    #[test]
    fn the_seeds_then_the_run_to_show_is_check() {
        let lesson = lesson("exercise-skip-locked");
        let edits = ExerciseState::new(Rc::clone(&lesson), Ok(None)).edits();
        let mut seeds = seeds_check(&lesson, &edits).expect("applies");
        let report = loop {
            if let Some(done) = seeds.advance(64) {
                break done.expect("runs");
            }
        };
        let steps = seeds.progress().steps;
        assert_eq!(seeds.progress().seeds_done, report.seeds.len());
        let mut checker = Checker::showing(&lesson, &edits, report, steps).expect("builds");
        assert_eq!(
            checker.progress().steps,
            steps,
            "the run to show starts from the seeds' steps"
        );
        let split = loop {
            if let Some(verdict) = checker.advance(64) {
                break verdict;
            }
        };
        let whole = check(&lesson, &edits);
        let (
            Verdict::Report {
                report: a,
                shown: Some(x),
            },
            Verdict::Report {
                report: b,
                shown: Some(y),
            },
        ) = (&split, &whole)
        else {
            panic!("{split:?} {whole:?}");
        };
        assert_eq!(a, b);
        assert!(!a.solved);
        assert_eq!((&x.failed_goal, x.seed), (&y.failed_goal, y.seed));
        let (x, y) = (x.run.as_ref().unwrap(), y.run.as_ref().unwrap());
        assert_eq!(x.key.seed, y.key.seed);
        assert_eq!(x.trace.len(), y.trace.len());

        // SQL that does not parse comes back from the seeds placed in the learner's text.
        let broken = vec![(edits[0].0.clone(), "SELECT (".to_string())];
        let verdict = match seeds_check(&lesson, &broken) {
            Err(verdict) => verdict,
            Ok(mut seeds) => loop {
                if let Some(done) = seeds.advance(64) {
                    break done.expect_err("does not parse");
                }
            },
        };
        assert!(
            matches!(verdict, Verdict::EditError { line: 1, .. }),
            "{verdict:?}"
        );
    }

    #[test]
    fn every_exercise_solution_solves_it() {
        for id in [
            "exercise-claim-fix",
            "exercise-skip-locked",
            "exercise-send-applock",
            "exercise-teradata-rollback",
        ] {
            let lesson = lesson(id);
            let Verdict::Report { report, .. } = check(&lesson, &solution(&lesson)) else {
                panic!("{id}")
            };
            assert!(report.solved, "{id}: {report:?}");
        }
    }
}
