//! Exercises: lessons whose checks are goals and whose `editable` blocks the learner
//! rewrites. "Check" runs the learner's SQL on several seeds, because a race that
//! happens to go well on one seed is not fixed: a goal holds only when it holds on
//! every seed, and a failing goal names the first seed it failed on, so the player can
//! show that run.

use std::fmt;

use engine::{Outcome, ScenarioError, Simulation, Sink};

use crate::block::Solution;
use crate::source::offset_of;
use crate::{
    evaluate_checks, Applied, CheckKind, CheckResult, Detail, Figure, Lesson, LessonError,
    RunReport, Settings, SqlBlock,
};

/// What makes a lesson an exercise (`kind = "exercise"`); its goals are the lesson's
/// `checks`.
#[derive(Clone, Debug)]
pub struct Exercise {
    /// What the learner must achieve, in a sentence or two (`goal`).
    pub goal: String,
    /// Revealed one at a time, in this order (`[[hints]]`).
    pub hints: Vec<String>,
    /// The seeds Check runs, in order (`seeds`; by default the lesson's `seed` and the
    /// four after it).
    pub seeds: Vec<u64>,
    /// The author's answers, one per editable block at most, in file order. Never shown
    /// to learners; `lockstep check` verifies that they meet every goal on every seed.
    pub solutions: Vec<Solution>,
    /// File offset of `goal`, for messages about the exercise as a whole.
    pub(crate) goal_offset: usize,
}

impl Exercise {
    /// The solutions as edits for [`check_exercise`]: (editable id, SQL).
    pub fn solution_edits(&self) -> Vec<(&str, &str)> {
        self.solutions
            .iter()
            .map(|s| (s.block.as_str(), s.sql.as_str()))
            .collect()
    }
}

impl Lesson {
    /// An error at the exercise's `goal` in the file (for `lockstep check`'s verdicts on
    /// the exercise as a whole); at the start of the file for a plain lesson.
    pub fn error_at_goal(&self, message: String) -> LessonError {
        let at = self.exercise.as_ref().map_or(0, |e| e.goal_offset);
        self.source.error(at, message)
    }

    /// The blocks a learner may edit, in file order (each has `editable` set).
    pub fn editable_blocks(&self) -> impl Iterator<Item = &SqlBlock> {
        self.blocks.iter().filter(|b| b.editable.is_some())
    }

    /// As [`Lesson::apply`], with the learner's SQL in place of editable blocks.
    /// `edits` are (editable id, SQL); the SQL is taken as typed (toggle markers are an
    /// author's tool), and a later edit of the same block wins. Blocks not edited keep
    /// the file's text.
    pub fn apply_edits(
        &self,
        settings: &Settings,
        edits: &[(&str, &str)],
    ) -> Result<Applied, ExerciseError> {
        for (id, _) in edits {
            if !self
                .editable_blocks()
                .any(|b| b.editable.as_deref() == Some(*id))
            {
                return Err(ExerciseError::NotEditable {
                    block: (*id).to_string(),
                    editable: self
                        .editable_blocks()
                        .filter_map(|b| b.editable.clone())
                        .collect(),
                });
            }
        }
        // An empty block would run (a procedure never created, a session that does
        // nothing) and tick the goals that hold when nothing happens.
        if let Some((id, _)) = edits.iter().find(|(_, sql)| !self.dialect.holds_sql(sql)) {
            return Err(ExerciseError::Edit {
                block: (*id).to_string(),
                line: 1,
                col: 1,
                message: EMPTY_BLOCK.to_string(),
            });
        }
        crate::apply::apply(self, settings, edits).map_err(ExerciseError::Lesson)
    }
}

/// Check's answer to an editable block with no SQL in it.
pub const EMPTY_BLOCK: &str = "this block is empty: it holds no SQL to run";

/// An exercise's budgets: its runs stop after 100 000 steps (a lesson's after
/// [`engine::MAX_STEPS`]), so Check of a learner's loop that never ends answers in
/// seconds, not minutes: about 1 s for the seed, 3 s for the run to show in the browser.
/// The shipped exercises' runs, as shipped and solved, take at most about 4 200 steps;
/// a test keeps them under a fifth of the budget.
pub const EXERCISE_LIMITS: engine::Limits = engine::Limits {
    steps: 100_000,
    statements: engine::MAX_STATEMENTS_PER_SESSION,
};

/// Why an exercise could not be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExerciseError {
    /// The learner's SQL for editable block `block` does not parse, or is SQL the
    /// simulator does not model. `line` and `col` (1-based, characters) are in the
    /// learner's text.
    Edit {
        block: String,
        line: u32,
        col: u32,
        message: String,
    },
    /// An edit names a block that the learner may not edit.
    NotEditable {
        block: String,
        editable: Vec<String>,
    },
    /// The lesson itself cannot run with these settings (not the learner's doing).
    Lesson(LessonError),
}

impl fmt::Display for ExerciseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExerciseError::Edit {
                block,
                line,
                col,
                message,
            } => write!(f, "{block}:{line}:{col}: {message}"),
            ExerciseError::NotEditable { block, editable } if editable.is_empty() => {
                write!(
                    f,
                    "`{block}` is not editable: this lesson has no editable block"
                )
            }
            ExerciseError::NotEditable { block, editable } => write!(
                f,
                "`{block}` is not an editable block (editable: {})",
                editable.join(", ")
            ),
            ExerciseError::Lesson(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ExerciseError {}

/// One goal over all seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalReport {
    pub name: String,
    pub passed_all_seeds: bool,
    /// The first seed (in the order run) on which the goal failed.
    pub failing_seed: Option<u64>,
    /// Expected versus actual on the failing seed, or on the last seed when all passed.
    pub detail: Detail,
    /// Where the goal (its check's `name`) is written in the lesson file.
    pub line: u32,
    pub col: u32,
}

/// The verdict of Check: every goal, and whether all of them held on every seed.
#[derive(Clone, Debug, PartialEq)]
pub struct ExerciseReport {
    /// The goals that apply to the settings, in the lesson's order.
    pub goals: Vec<GoalReport>,
    /// Every goal held on every seed (and there was at least one goal and one seed), and
    /// no run ended in an error.
    pub solved: bool,
    /// The seeds run, in order.
    pub seeds: Vec<u64>,
    /// The first seed's run that ended in an error, if any: a page shows no goal as met
    /// then, since the figures of a broken run prove nothing.
    pub failed_run: Option<FailedRun>,
}

/// An error that ended a run of the learner's SQL: one no TRY block caught that a goal
/// of the exercise forbids (a failing `errors` goal of its session or of all sessions),
/// or the simulator stopping a session (its limits, SQL it does not simulate: number 0),
/// which no goal needs to forbid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedRun {
    pub seed: u64,
    pub session: String,
    pub number: u32,
    pub message: String,
    /// The statement that raised it, when it is in the learner's text.
    pub at: Option<FailedAt>,
}

/// A place in one of the learner's blocks: its editable id, 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedAt {
    pub block: String,
    pub line: u32,
    pub col: u32,
}

// Check runs in the browser's worker and its report crosses to the page.
crate::codec_struct!(GoalReport {
    name,
    passed_all_seeds,
    failing_seed,
    detail,
    line,
    col
});
crate::codec_struct!(ExerciseReport {
    goals,
    solved,
    seeds,
    failed_run
});
crate::codec_struct!(FailedRun {
    seed,
    session,
    number,
    message,
    at
});
crate::codec_struct!(FailedAt { block, line, col });

impl FailedRun {
    /// The first error of `outcome` that ends the run, given the checks and their results.
    fn find(
        seed: u64,
        applied: &Applied,
        results: &[CheckResult],
        outcome: &Outcome,
    ) -> Option<FailedRun> {
        let checks = &applied.checks;
        // In the learner's text: an editable block holds the statement.
        let learners = |at: &engine::ErrorAt| {
            let script = at
                .session
                .map_or(engine::Block::Setup, engine::Block::Session);
            let (i, line) = applied.script_block(script, at.line)?;
            let block = applied.blocks[i].edited.clone()?;
            Some(FailedAt {
                block,
                line,
                col: at.col,
            })
        };
        let forbidden = |session: &str| {
            checks.iter().zip(results).any(|(check, result)| {
                !result.passed
                    && matches!(&check.kind, CheckKind::Figure { session: s, figure: Figure::Errors, .. }
                        if s.as_deref().is_none_or(|s| s == session))
            })
        };
        // The first session's, unless another's is in the learner's text: the
        // simulator's step limit stops every session, and the one looping in the
        // learner's SQL is the one to point at.
        let uncaught = |simulator: bool| {
            let mut found = outcome.sessions.iter().filter_map(|s| {
                s.errors
                    .iter()
                    .filter(|e| !e.caught)
                    .find(|e| {
                        if simulator {
                            e.number == 0
                        } else {
                            forbidden(&s.name)
                        }
                    })
                    .map(|e| FailedRun {
                        seed,
                        session: s.name.clone(),
                        number: e.number,
                        message: e.message.clone(),
                        at: e.at.as_ref().and_then(learners),
                    })
            });
            let first = found.next()?;
            if first.at.is_some() {
                return Some(first);
            }
            Some(found.find(|f| f.at.is_some()).unwrap_or(first))
        };
        uncaught(true).or_else(|| uncaught(false))
    }
}

/// `seed 3, session B: error 8134: Divide by zero error encountered. (at B:1:1)`.
impl fmt::Display for FailedRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.number {
            0 => write!(
                f,
                "seed {}, session {}: {}",
                self.seed, self.session, self.message
            )?,
            n => write!(
                f,
                "seed {}, session {}: error {n}: {}",
                self.seed, self.session, self.message
            )?,
        }
        match &self.at {
            Some(at) => write!(f, " (at {}:{}:{})", at.block, at.line, at.col),
            None => Ok(()),
        }
    }
}

/// Runs an applied lesson (usually from [`Lesson::apply_edits`]) like [`crate::run`];
/// an error in the learner's SQL comes back as [`ExerciseError::Edit`], placed in their
/// text, and an error in the lesson's own SQL as [`ExerciseError::Lesson`].
pub fn run_exercise(applied: &Applied, seed: u64) -> Result<RunReport, ExerciseError> {
    let simulation = Simulation::new(&applied.scenario, seed).map_err(|e| place(applied, &e))?;
    // The default random scheduler always picks an enabled session.
    crate::run::finish(applied, seed, simulation).map_err(|e| {
        ExerciseError::Lesson(applied.locate(engine::Block::Setup, 1, 1, &e.to_string()))
    })
}

/// Where an engine error belongs: the learner's text or the lesson file.
fn place(applied: &Applied, e: &ScenarioError) -> ExerciseError {
    let edited = |i: usize| applied.blocks[i].edited.clone();
    match applied.script_block(e.block, e.line) {
        Some((i, line)) => match edited(i) {
            Some(block) => ExerciseError::Edit {
                block,
                line,
                col: e.col,
                message: e.message.clone(),
            },
            None => {
                // The lesson's own setup passes `lockstep check`, so when the joined setup
                // fails with a learner's block in it (a run-time error in setup has no
                // position: the engine says line 1), the learner's block is the cause.
                let learner_setup = (e.block == engine::Block::Setup)
                    .then(|| {
                        applied
                            .blocks
                            .iter()
                            .filter(|b| b.engine_block == Some(engine::Block::Setup))
                            .find_map(|b| b.edited.clone())
                    })
                    .flatten();
                match learner_setup {
                    Some(block) => ExerciseError::Edit {
                        block,
                        line: 1,
                        col: 1,
                        message: e.message.clone(),
                    },
                    None => {
                        ExerciseError::Lesson(applied.locate(e.block, e.line, e.col, &e.message))
                    }
                }
            }
        },
        None => ExerciseError::Lesson(applied.locate(e.block, e.line, e.col, &e.message)),
    }
}

/// Check: applies the learner's `edits` (editable id, SQL), runs every seed in order and
/// judges the goals (the checks that apply to `settings`). Pass `exercise.seeds` as
/// `seeds` unless the player lets the learner pick. An edit that does not parse is an
/// [`ExerciseError::Edit`], before any seed runs.
pub fn check_exercise(
    lesson: &Lesson,
    settings: &Settings,
    edits: &[(&str, &str)],
    seeds: &[u64],
) -> Result<ExerciseReport, ExerciseError> {
    let mut check = ExerciseCheck::new(lesson, settings, edits, seeds)?;
    loop {
        if let Some(report) = check.advance(u64::MAX)? {
            return Ok(report);
        }
    }
}

/// [`check_exercise`] a few engine steps at a time: the caller decides how much work
/// each call does, so the browser can run a long check (a learner's loop that never
/// ends runs until the engine's limits) in slices between frames, show how far it got,
/// and cancel it by dropping it.
pub struct ExerciseCheck {
    applied: Applied,
    seeds: Vec<u64>,
    goals: Vec<GoalReport>,
    /// The seed being run (an index in `seeds`) and its simulation, once started.
    seed_index: usize,
    simulation: Option<Simulation>,
    steps: u64,
    failed_run: Option<FailedRun>,
}

/// How far an [`ExerciseCheck`] got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckProgress {
    /// Seeds finished, of `seeds`.
    pub seeds_done: usize,
    pub seeds: usize,
    /// Engine steps so far, over every seed.
    pub steps: u64,
    /// Virtual time of the seed being run.
    pub now_us: u64,
}

impl ExerciseCheck {
    /// Applies the edits; no seed runs yet.
    pub fn new(
        lesson: &Lesson,
        settings: &Settings,
        edits: &[(&str, &str)],
        seeds: &[u64],
    ) -> Result<ExerciseCheck, ExerciseError> {
        let applied = lesson.apply_edits(settings, edits)?;
        let goals = applied
            .checks
            .iter()
            .map(|c| GoalReport {
                name: c.name.clone(),
                passed_all_seeds: !seeds.is_empty(),
                failing_seed: None,
                detail: Detail::NoSeedRun,
                line: c.line,
                col: c.col,
            })
            .collect();
        Ok(ExerciseCheck {
            applied,
            seeds: seeds.to_vec(),
            goals,
            seed_index: 0,
            simulation: None,
            steps: 0,
            failed_run: None,
        })
    }

    /// Runs at most `max_steps` engine steps (a new seed's setup counts as none); the
    /// report once every seed has run. An edit the engine refuses is an error at once.
    pub fn advance(&mut self, max_steps: u64) -> Result<Option<ExerciseReport>, ExerciseError> {
        let mut budget = max_steps;
        while let Some(&seed) = self.seeds.get(self.seed_index) {
            let applied = &self.applied;
            let simulation = match &mut self.simulation {
                Some(simulation) => simulation,
                None => {
                    let mut simulation =
                        Simulation::new(&applied.scenario, seed).map_err(|e| place(applied, &e))?;
                    // Check judges outcomes and final states; the state never depends
                    // on the sink, and building no events is faster.
                    simulation.set_sink(Sink::Nothing);
                    self.simulation.insert(simulation)
                }
            };
            loop {
                if budget == 0 {
                    return Ok(None);
                }
                budget -= 1;
                self.steps += 1;
                // The default random scheduler always picks an enabled session.
                let stepped = simulation.try_step().map_err(|e| {
                    ExerciseError::Lesson(applied.locate(
                        engine::Block::Setup,
                        1,
                        1,
                        &e.to_string(),
                    ))
                })?;
                if !stepped {
                    break;
                }
            }
            let outcome = simulation.outcome();
            let checks =
                evaluate_checks(&applied.checks, &outcome, &mut |sql| simulation.query(sql));
            if self.failed_run.is_none() {
                self.failed_run = FailedRun::find(seed, applied, &checks, &outcome);
            }
            for (goal, result) in self.goals.iter_mut().zip(&checks) {
                if goal.failing_seed.is_some() {
                    continue;
                }
                goal.detail.clone_from(&result.detail);
                if !result.passed {
                    goal.passed_all_seeds = false;
                    goal.failing_seed = Some(seed);
                }
            }
            self.simulation = None;
            self.seed_index += 1;
            // A run the simulator itself stopped (a limit, SQL it does not model) stops
            // Check: the verdict names it, and the other seeds would only repeat it, a
            // runaway loop for seconds each.
            if (self.failed_run.as_ref()).is_some_and(|f| f.seed == seed && f.number == 0) {
                self.seed_index = self.seeds.len();
            }
        }
        let goals = std::mem::take(&mut self.goals);
        let failed_run = self.failed_run.take();
        let solved =
            !goals.is_empty() && goals.iter().all(|g| g.passed_all_seeds) && failed_run.is_none();
        Ok(Some(ExerciseReport {
            goals,
            solved,
            seeds: self.seeds.clone(),
            failed_run,
        }))
    }

    pub fn progress(&self) -> CheckProgress {
        CheckProgress {
            seeds_done: self.seed_index,
            seeds: self.seeds.len(),
            steps: self.steps,
            now_us: self.simulation.as_ref().map_or(0, Simulation::now_us),
        }
    }

    /// The lesson with the learner's SQL, as the seeds run it.
    pub fn applied(&self) -> &Applied {
        &self.applied
    }
}

/// What `lockstep check` verifies of an exercise under one settings combination: the
/// SQL as shipped should fail some goal on some seed (else there is nothing to fix),
/// and the solutions must meet every goal on every seed.
#[derive(Clone, Debug, PartialEq)]
pub struct ExerciseValidation {
    pub starting: ExerciseReport,
    pub solution: ExerciseReport,
}

/// Runs an exercise as shipped and with its solutions on `seeds` (normally
/// `exercise.seeds`). An error in a solution block is placed in the lesson file, like
/// any other lesson error. A lesson that is not an exercise has nothing to validate:
/// an error says so.
pub fn validate_exercise(
    lesson: &Lesson,
    settings: &Settings,
    seeds: &[u64],
) -> Result<ExerciseValidation, LessonError> {
    let Some(exercise) = &lesson.exercise else {
        return Err(lesson
            .source
            .error(0, format!("lesson `{}` is not an exercise", lesson.id)));
    };
    let in_file = |e: ExerciseError| match e {
        ExerciseError::Lesson(e) => e,
        ExerciseError::Edit {
            block,
            line,
            col,
            message,
        } => match exercise.solutions.iter().find(|s| s.block == block) {
            Some(s) => lesson.source.error(
                s.source_map.map(offset_of(&s.sql, line, col)),
                format!("in the solution: {message}"),
            ),
            None => lesson.source.error(0, message),
        },
        // Parsing checked that every solution names an editable block.
        e @ ExerciseError::NotEditable { .. } => lesson.source.error(0, e.to_string()),
    };
    let starting = check_exercise(lesson, settings, &[], seeds).map_err(in_file)?;
    let solution =
        check_exercise(lesson, settings, &exercise.solution_edits(), seeds).map_err(in_file)?;
    Ok(ExerciseValidation { starting, solution })
}
