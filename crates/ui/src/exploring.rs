//! The Explore button's job and its words: `explore::Search` over every interleaving of
//! the lesson's sessions, a few engine steps at a time (the worker, `worker.rs`, runs
//! it to the end; the page cancels it by terminating the worker), the [`Answer`] that
//! comes back to the page, and the sentences that report its progress and answer.

use engine::Schedule;
use explore::{Options, Progress, Report, Search};
use lesson::{Applied, Detail, Property};

use crate::present::group_digits as group;
use crate::t;

/// A search being run.
pub struct Exploring {
    search: Search,
}

impl Exploring {
    /// A search of `property` over `applied`'s interleavings from the setup run with
    /// `seed`, with the library's default bounds.
    pub fn new(applied: &Applied, seed: u64, property: Property) -> Result<Exploring, String> {
        Exploring::with_options(applied, seed, property, Options::default())
    }

    /// The same with other bounds.
    pub fn with_options(
        applied: &Applied,
        seed: u64,
        property: Property,
        options: Options,
    ) -> Result<Exploring, String> {
        Search::new(applied, seed, property, options)
            .map(|search| Exploring { search })
            .map_err(|e| e.to_string())
    }

    /// Works for about `steps` engine steps; the answer once the search is over.
    pub fn advance(&mut self, steps: usize) -> Option<Result<Report, String>> {
        match self.search.step(steps as u64) {
            Ok(true) => self.search.report().cloned().map(Ok),
            Ok(false) => None,
            Err(e) => Some(Err(e.to_string())),
        }
    }

    pub fn progress(&self) -> Progress {
        self.search.progress()
    }
}

/// What the page shows of a finished search: a [`Report`] without the engine's
/// footprints and the property's SQL, so it crosses from the worker in a few hundred
/// bytes (`wire.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The property's label.
    pub label: String,
    pub max_steps: usize,
    pub max_states: usize,
    pub progress: Progress,
    /// The counterexample, when the property broke.
    pub found: Option<Found>,
}

/// A counterexample as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// Replays it (`schedule=` in the player, the scheduler's URL).
    pub schedule: Schedule,
    /// Statements up to the violation.
    pub statements: usize,
    pub switches: usize,
    /// What broke ("got 1 (expected 0)"); `None` when no property was judged.
    pub detail: Option<Detail>,
    /// Each statement narrated ("worker1 reads task 1").
    pub steps: Vec<String>,
    pub conflict: Option<Conflict>,
}

/// The read and the write that make the race (indices into `steps`), in a sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct Conflict {
    pub read: usize,
    pub write: usize,
    pub summary: String,
}

impl From<&Report> for Answer {
    fn from(report: &Report) -> Answer {
        Answer {
            label: report.property.label.clone(),
            max_steps: report.options.max_steps,
            max_states: report.options.max_states,
            progress: report.progress,
            found: report.counterexample().map(|c| Found {
                schedule: c.schedule.clone(),
                statements: c.path.len(),
                switches: c.switches,
                detail: c.detail.clone(),
                steps: c.steps.iter().map(ToString::to_string).collect(),
                conflict: c.conflict.as_ref().map(|x| Conflict {
                    read: x.read,
                    write: x.write,
                    summary: x.summary.clone(),
                }),
            }),
        }
    }
}

/// `12,400 states explored, depth 16 (deepest 31), 41,000 states/s`.
pub fn progress_text(p: &Progress, elapsed_ms: f64) -> String {
    let rate = if elapsed_ms > 0.0 {
        t!(
            "explore-rate",
            rate = group(((p.states as f64) * 1000.0 / elapsed_ms) as u64)
        )
    } else {
        String::new()
    };
    t!(
        "explore-progress",
        states = group(p.states),
        depth = p.depth,
        deepest = p.max_depth,
        rate = rate
    )
}

/// The bounds a verdict covers, in words.
pub fn bounds_text(answer: &Answer) -> String {
    t!(
        "explore-bounds",
        steps = answer.max_steps,
        states = group(answer.max_states as u64)
    )
}

/// The answer of a finished search, in one sentence.
pub fn verdict_text(answer: &Answer, elapsed_ms: f64) -> String {
    let p = &answer.progress;
    let took = group(elapsed_ms.round() as u64);
    match &answer.found {
        None if p.exhaustive => t!(
            "explore-holds",
            label = &answer.label,
            bounds = bounds_text(answer),
            states = group(p.states),
            schedules = group(p.schedules),
            took = took
        ),
        None => t!(
            "explore-held",
            label = &answer.label,
            bounds = bounds_text(answer),
            states = group(p.states),
            schedules = group(p.schedules),
            walks = p.walks,
            took = took
        ),
        Some(c) => t!(
            "explore-breaks",
            label = &answer.label,
            statements = c.statements,
            switches = c.switches,
            detail = c.detail.as_ref().map(i18n::detail).unwrap_or_default(),
            states = group(p.states),
            took = took
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheduling::{properties, Scheduling};
    use explore::Verdict;

    fn applied(claim: &str) -> Applied {
        let catalog = crate::catalog::catalog();
        let lesson = catalog.lesson("queue-claim-race").expect("lesson");
        let settings = lesson
            .settings_with([("claim", claim), ("tasks", "3"), ("workers", "2")])
            .expect("settings");
        lesson.apply(&settings).expect("applies")
    }

    fn explore(claim: &str) -> Report {
        let applied = applied(claim);
        let property = properties(&applied).remove(0);
        assert_eq!(property.name, "no-double-claim");
        let mut job = Exploring::new(&applied, 1, property).expect("starts");
        loop {
            if let Some(done) = job.advance(64) {
                return done.expect("no error");
            }
        }
    }

    #[test]
    fn the_two_step_claim_breaks_and_its_schedule_opens_in_the_scheduler() {
        let report = explore("two-step");
        let Verdict::Violated(c) = &report.verdict else {
            panic!("holds: {report:?}");
        };
        let answer = Answer::from(&report);
        assert_eq!(answer.found.as_ref().unwrap().statements, c.path.len());
        assert_eq!(answer.found.as_ref().unwrap().steps.len(), c.steps.len());
        let text = verdict_text(&answer, 12.5);
        assert!(
            text.starts_with("“No task is claimed twice” breaks after"),
            "{text}"
        );
        assert!(text.ends_with("in 13 ms."), "{text}");
        // The scheduler replays the counterexample into the same broken state.
        let mut s = Scheduling::new(applied("two-step"), 1).unwrap();
        s.replay(Some(&c.schedule), Some(c.path.len()));
        assert_eq!(s.problem, None);
        let broken = s.broken();
        assert_eq!(broken.len(), 1, "{broken:?}");
        assert_eq!(broken[0].step, c.path.len());

        // And in the player: the run replays it and claims a task twice.
        let builder = crate::run::RunBuilder::new("queue-claim-race", applied("two-step"), 1)
            .unwrap()
            .with_schedule(Some(&c.schedule));
        let mut job = Some(builder);
        let run = loop {
            if let Some(run) = crate::sliced::Job::advance(&mut job, 64) {
                break run;
            }
        };
        assert_eq!(run.schedule_problem, None);
        assert_eq!(run.key.schedule.as_ref(), Some(&c.schedule));
        assert!(!run.anomalies.is_empty(), "no duplicate in the replay");
        let bad: engine::Schedule = "u.7".parse().unwrap();
        let run = crate::run::RunBuilder::new("queue-claim-race", applied("two-step"), 1)
            .unwrap()
            .with_schedule(Some(&bad));
        let mut job = Some(run);
        let run = loop {
            if let Some(run) = crate::sliced::Job::advance(&mut job, 64) {
                break run;
            }
        };
        assert!(run
            .schedule_problem
            .unwrap()
            .contains("schedule choice 1 picks session 7"));
    }

    #[test]
    fn one_statement_holds_exhaustively() {
        let report = explore("one-statement");
        assert!(report.holds() && report.exhaustive(), "{report:?}");
        let text = verdict_text(&Answer::from(&report), 2000.0);
        assert!(
            text.contains(
                "holds for every interleaving up to 400 steps per interleaving and 200,000 states"
            ),
            "{text}"
        );
        assert!(text.contains("exhaustively, in 2,000 ms"), "{text}");
        assert!(report.progress.states > 10);
    }

    #[test]
    fn progress_reads_as_figures() {
        let p = Progress {
            states: 12_400,
            depth: 16,
            max_depth: 31,
            ..Progress::default()
        };
        assert_eq!(
            progress_text(&p, 500.0),
            "12,400 states explored, depth 16 (deepest 31), 24,800 states/s"
        );
    }
}
