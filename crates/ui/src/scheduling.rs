//! Be the scheduler: the learner picks which session runs its next statement, one
//! statement at a time, on the engine's untimed mode (every statement boundary is a
//! choice, as in PostgreSQL's isolationtester), until a property of the lesson breaks.
//! Pure state over the engine (tested natively); the page is `components/schedule.rs`.
//!
//! `#/lesson/<id>/schedule?<toggle>=<value>&...&seed=<n>&schedule=<u.…>&steps=<n>`:
//! the lesson's toggles and seed as in the player's route, the engine's schedule (the
//! picks at choice points, as `lockstep run --schedule` replays them) and the number of
//! statements run. The schedule alone cannot say how many statements a session ran
//! while it was the only one that could run (those steps are no choice), so `steps`
//! says where the learner stopped; without it the replay stops at the last choice.

use std::fmt;

use engine::{Mode, Schedule, SessionStatus, Simulation, Sink, Source, StateView, TraceEntry};
use lesson::{Applied, Detail, Property};

use crate::problem::{LinkProblem, PickError, ReplayProblem};
pub use crate::route::SCHEDULE_PARAM;
use crate::route::{split_query, LessonRoute, SEED_PARAM};
use crate::run::keep_snapshot;

pub const STEPS_PARAM: &str = "steps";

/// Rows per table in the scheduler's state view (its scenarios are small).
const VIEW_ROWS: usize = 40;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScheduleRoute {
    /// Lesson id, toggles and seed (a playhead, if given, is ignored).
    pub lesson: LessonRoute,
    /// The picks so far; `None` before the first choice.
    pub schedule: Option<Schedule>,
    /// Statements run, when given.
    pub steps: Option<usize>,
}

/// The scheduler of a lesson's toggles and seed, before any pick.
impl From<LessonRoute> for ScheduleRoute {
    fn from(lesson: LessonRoute) -> ScheduleRoute {
        ScheduleRoute {
            lesson,
            schedule: None,
            steps: None,
        }
    }
}

impl ScheduleRoute {
    /// Reads the query of `#/lesson/<id>/schedule?...`: `schedule` and `steps` here,
    /// the rest as a lesson route's. A bad value is explained like a bad `t`.
    pub fn parse(id: &str, query: &str) -> ScheduleRoute {
        let (own, rest) = split_query(query, &[SCHEDULE_PARAM, STEPS_PARAM]);
        let mut route = ScheduleRoute::from(LessonRoute::parse(id, &rest));
        for (name, value) in own {
            let read = if name == SCHEDULE_PARAM {
                untimed_schedule(value).map(|s| route.schedule = Some(s))
            } else {
                value
                    .parse::<usize>()
                    .map(|n| route.steps = Some(n))
                    .map_err(|_| LinkProblem::Steps {
                        value: value.to_owned(),
                    })
            };
            route.lesson.problems.extend(read.err());
        }
        route
    }

    /// The player's route with the same lesson, toggles and seed.
    pub fn player(&self) -> LessonRoute {
        let mut lesson = LessonRoute::new(&self.lesson.id);
        lesson.toggles = self.lesson.toggles.clone();
        lesson.seed = self.lesson.seed;
        lesson.schedule = self.schedule.clone();
        lesson
    }
}

impl fmt::Display for ScheduleRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/lesson/{}/schedule", self.lesson.id)?;
        let mut params: Vec<String> = self
            .lesson
            .toggles
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        if let Some(seed) = self.lesson.seed {
            params.push(format!("{SEED_PARAM}={seed}"));
        }
        if let Some(schedule) = self.schedule.as_ref().filter(|s| !s.choices.is_empty()) {
            params.push(format!("{SCHEDULE_PARAM}={schedule}"));
        }
        if let Some(steps) = self.steps.filter(|&n| n > 0) {
            params.push(format!("{STEPS_PARAM}={steps}"));
        }
        if !params.is_empty() {
            write!(f, "?{}", params.join("&"))?;
        }
        Ok(())
    }
}

/// A `schedule=` value: the scheduler's are untimed.
fn untimed_schedule(value: &str) -> Result<Schedule, LinkProblem> {
    let schedule: Schedule = value.parse().map_err(LinkProblem::Schedule)?;
    if schedule.mode != Mode::Untimed {
        return Err(LinkProblem::TimedSchedule {
            value: value.to_owned(),
        });
    }
    Ok(schedule)
}

/// The key that steps session `i`: `1`–`9`, then letters (not `u`, which undoes).
pub fn session_key(i: usize) -> Option<char> {
    const LETTERS: &str = "abcdefghijklmnopqrstvwxyz";
    match i {
        0..=8 => char::from_digit(i as u32 + 1, 10),
        _ => LETTERS.chars().nth(i - 9),
    }
}

/// The session a key steps (the inverse of [`session_key`]).
pub fn session_of_key(key: &str) -> Option<usize> {
    let mut chars = key.chars();
    let c = chars.next()?.to_ascii_lowercase();
    if chars.next().is_some() {
        return None;
    }
    (0..9 + 25).find(|&i| session_key(i) == Some(c))
}

/// One statement the learner ran (with the timer's steps that followed while nobody
/// could run: the deadlock monitor).
#[derive(Clone, Debug)]
pub struct Step {
    pub session: usize,
    pub events: Vec<TraceEntry>,
    /// Properties broken in the state after it: (name, detail).
    pub broken: Vec<(String, Detail)>,
}

/// A property that broke, and the first step after which it was broken.
#[derive(Clone, Debug, PartialEq)]
pub struct Broken {
    pub name: String,
    pub label: String,
    /// Statements run when it broke (0: broken from the start).
    pub step: usize,
    pub detail: Detail,
}

/// A session as the scheduler shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionNow {
    pub name: String,
    pub status: SessionStatus,
    /// Its next statement (first lines), and that statement's line in its block.
    pub next: Option<(String, usize)>,
    /// That statement is in a setup block (a procedure's), not the session's own SQL.
    pub in_setup: bool,
    /// It has started that statement and its next step goes on with it (after a wait,
    /// or a COMMIT whose work comes in the next step): not a statement to run again.
    pub continues: bool,
    /// It can run its next statement now.
    pub enabled: bool,
}

/// What a session's next step does, found by taking it on a clone.
enum Peek {
    /// Starts this statement (source, span).
    Starts((Source, usize, usize)),
    /// Goes on with the statement in progress.
    GoesOn,
    /// Neither can be told (no statement event in the step).
    Unknown,
}

/// The learner's interleaving of one lesson run.
pub struct Scheduling {
    pub applied: Applied,
    pub seed: u64,
    pub sessions: Vec<String>,
    sim: Simulation,
    /// Events of the setup and of the timer before the first statement.
    pub start_events: Vec<TraceEntry>,
    start_broken: Vec<(String, Detail)>,
    pub steps: Vec<Step>,
    /// Clones after some numbers of steps (0 first, ascending; spaced as the
    /// player's, `run::keep_snapshot`), for undo.
    snapshots: Vec<(usize, Simulation)>,
    every: usize,
    /// Why the URL's schedule could not be followed to its end.
    pub problem: Option<ReplayProblem>,
}

impl Scheduling {
    /// The state before any statement; an error is a sentence for the page.
    pub fn new(applied: Applied, seed: u64) -> Result<Scheduling, String> {
        let mut sim = Simulation::new(&applied.scenario, seed).map_err(|e| {
            applied
                .locate(e.block, e.line, e.col, &e.message)
                .to_string()
        })?;
        sim.set_mode(Mode::Untimed);
        sim.set_sink(Sink::Full);
        let mut start_events = sim.take_events();
        settle(&mut sim, &mut start_events);
        let sessions = sim.session_names();
        let mut scheduling = Scheduling {
            applied,
            seed,
            sessions,
            start_events,
            start_broken: Vec::new(),
            steps: Vec::new(),
            snapshots: Vec::new(),
            every: 1,
            problem: None,
            sim,
        };
        scheduling.start_broken = scheduling.broken_now()?;
        scheduling.snapshots.push((0, scheduling.sim.clone()));
        Ok(scheduling)
    }

    /// Follows a route's schedule: at each choice point the next pick, elsewhere the one
    /// session that can run, for `steps` statements (or up to the last pick). Where it
    /// cannot go on, [`Scheduling::problem`] says why and the state stays there.
    pub fn replay(&mut self, schedule: Option<&Schedule>, steps: Option<usize>) {
        let choices = schedule.map_or(&[][..], |s| &s.choices[..]);
        let mut next = 0;
        let mut run = 0;
        let mut finished = false;
        loop {
            if steps.is_some_and(|n| run >= n) || (steps.is_none() && next == choices.len()) {
                break;
            }
            let enabled = self.sim.enabled();
            let pick = match enabled.as_slice() {
                [] => {
                    if let Some(n) = steps {
                        self.problem = Some(ReplayProblem::Ended { run, asked: n });
                    }
                    finished = true;
                    break;
                }
                [only] => *only,
                _ => match choices.get(next) {
                    Some(&pick) => {
                        next += 1;
                        pick
                    }
                    None => {
                        self.problem = Some(ReplayProblem::OutOfChoices {
                            run,
                            asked: steps.unwrap_or(run),
                        });
                        break;
                    }
                },
            };
            if let Err(e) = self.pick(pick) {
                self.problem = Some(ReplayProblem::Pick {
                    choice: next,
                    error: e,
                });
                break;
            }
            run += 1;
        }
        if self.problem.is_none() && next < choices.len() {
            let (unused, total) = (choices.len() - next, choices.len());
            self.problem = Some(if finished {
                ReplayProblem::Finished { run, unused, total }
            } else {
                ReplayProblem::Unused { run, unused, total }
            });
        }
    }

    /// Runs session `i`'s next statement (then the timer while nobody can run).
    pub fn pick(&mut self, i: usize) -> Result<(), PickError> {
        if i >= self.sessions.len() {
            let known: Vec<String> = (self.sessions.iter().enumerate())
                .map(|(k, name)| format!("{name} ({k})"))
                .collect();
            return Err(PickError::NoSuchSession {
                session: i,
                known: known.join(", "),
            });
        }
        let enabled = self.sim.enabled();
        if !enabled.contains(&i) {
            return Err(PickError::CannotRun(self.sessions.get(i).cloned()));
        }
        self.sim.step_session(i).map_err(PickError::Schedule)?;
        let mut events = self.sim.take_events();
        settle(&mut self.sim, &mut events);
        let broken = self.broken_now().map_err(PickError::Property)?;
        self.steps.push(Step {
            session: i,
            events,
            broken,
        });
        keep_snapshot(
            &mut self.snapshots,
            &mut self.every,
            self.steps.len(),
            &self.sim,
        );
        Ok(())
    }

    /// Goes back one statement: clones the nearest snapshot and runs the picks after
    /// it again. False when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        let Some(last) = self.steps.pop() else {
            return false;
        };
        drop(last);
        let target = self.steps.len();
        self.snapshots.retain(|(s, _)| *s <= target);
        let (at, snapshot) = self.snapshots.last().expect("step 0 is always kept");
        let mut sim = snapshot.clone();
        for step in &self.steps[*at..] {
            // The same picks from the same state: the engine repeats itself exactly.
            let _ = sim.step_session(step.session);
            let mut discard = sim.take_events();
            settle(&mut sim, &mut discard);
        }
        self.sim = sim;
        self.problem = None;
        true
    }

    /// The picks at choice points so far, as the URL and `lockstep run --schedule` have them.
    pub fn schedule(&self) -> Schedule {
        self.sim.schedule()
    }

    pub fn route(&self, lesson: &LessonRoute) -> ScheduleRoute {
        ScheduleRoute {
            lesson: LessonRoute {
                id: lesson.id.clone(),
                toggles: lesson.toggles.clone(),
                seed: lesson.seed,
                ..LessonRoute::default()
            },
            schedule: Some(self.schedule()),
            steps: Some(self.steps.len()),
        }
    }

    pub fn enabled(&self) -> Vec<usize> {
        self.sim.enabled()
    }

    pub fn is_finished(&self) -> bool {
        self.sim.is_finished()
    }

    pub fn view(&self) -> StateView {
        self.sim.view(VIEW_ROWS)
    }

    /// Events of the last step (the setup's before the first).
    pub fn last_events(&self) -> &[TraceEntry] {
        self.steps
            .last()
            .map_or(&self.start_events[..], |s| &s.events[..])
    }

    /// Each session: status, next statement, whether it can run. A session that can
    /// run is stepped on a clone to see which statement it starts (before its first
    /// statement, or at a control instruction, the state names none).
    pub fn sessions_now(&self, view: &StateView) -> Vec<SessionNow> {
        let enabled = self.sim.enabled();
        view.sessions
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let is_enabled = enabled.contains(&i);
                let (peeked, continues) = match is_enabled.then(|| self.peek(i)) {
                    Some(Peek::Starts(span)) => (Some(span), false),
                    Some(Peek::GoesOn) => (None, true),
                    Some(Peek::Unknown) => (None, false),
                    // Blocked: in the statement it waits in.
                    None => (None, s.statement.is_some()),
                };
                let continues = continues && !matches!(s.status, SessionStatus::Finished);
                let in_setup = matches!(peeked.or(s.statement), Some((Source::Setup, ..)));
                let next = match s.status {
                    SessionStatus::Finished => None,
                    _ => peeked
                        .or(s.statement)
                        .map(|(source, from, to)| match source {
                            // In the setup block that holds it, as the lesson shows it.
                            Source::Setup => match self.applied.setup_span(from..to) {
                                Some((k, r)) => {
                                    statement_text(&self.applied.blocks[k].text, r.start, r.end)
                                }
                                None => statement_text(&self.applied.scenario.setup, from, to),
                            },
                            Source::Session(k) => {
                                statement_text(&self.applied.scenario.sessions[k].sql, from, to)
                            }
                        }),
                };
                SessionNow {
                    name: s.name.clone(),
                    status: s.status.clone(),
                    next,
                    in_setup,
                    continues,
                    enabled: is_enabled,
                }
            })
            .collect()
    }

    /// What session `i`'s next step is about (`explore::about`): the statement it
    /// starts, or going on with the one in progress (after a wait, or a COMMIT whose
    /// commit comes in the next step with the loop's next statement).
    fn peek(&self, i: usize) -> Peek {
        let mut sim = self.sim.clone();
        let (Ok(_), Some(name)) = (sim.step_session(i), self.sessions.get(i)) else {
            return Peek::Unknown;
        };
        let events = sim.take_events();
        match explore::about(name, &events) {
            explore::About::Started(k) => match &events[k].event {
                engine::Event::StatementStarted { source, span, .. } => {
                    Peek::Starts((*source, span.0, span.1))
                }
                _ => Peek::Unknown,
            },
            explore::About::Earlier => Peek::GoesOn,
            explore::About::Nothing => Peek::Unknown,
        }
    }

    /// Properties broken so far, each with the first step it was broken after (a
    /// property that broke and mended again keeps its first step).
    pub fn broken(&self) -> Vec<Broken> {
        let mut out: Vec<Broken> = Vec::new();
        let states =
            std::iter::once(&self.start_broken).chain(self.steps.iter().map(|s| &s.broken));
        for (step, broken) in states.enumerate() {
            for (name, detail) in broken {
                if out.iter().any(|b| b.name == *name) {
                    continue;
                }
                let label = self
                    .properties()
                    .into_iter()
                    .find(|p| p.name == *name)
                    .map_or_else(|| name.clone(), |p| p.label);
                out.push(Broken {
                    name: name.clone(),
                    label,
                    step,
                    detail: detail.clone(),
                });
            }
        }
        out
    }

    /// The properties judged after each step: the lesson's for these settings, else
    /// the built-in ones (no errors, no deadlock).
    pub fn properties(&self) -> Vec<Property> {
        properties(&self.applied)
    }

    fn broken_now(&mut self) -> Result<Vec<(String, Detail)>, String> {
        let mut broken = Vec::new();
        for p in properties(&self.applied) {
            if let Some(detail) = p.violation(&mut self.sim).map_err(|e| e.to_string())? {
                broken.push((p.name.clone(), detail));
            }
        }
        Ok(broken)
    }
}

/// The properties a lesson's scheduler and search judge: its own for the settings,
/// else the built-in ones.
pub fn properties(applied: &Applied) -> Vec<Property> {
    if applied.properties.is_empty() {
        ["no-errors", "no-deadlock"]
            .iter()
            .filter_map(|n| lesson::find_property(&applied.properties, n))
            .collect()
    } else {
        applied.properties.clone()
    }
}

/// Runs the timer (the deadlock monitor) while no session can run and the run is not
/// over, as the search does after each step.
fn settle(sim: &mut Simulation, events: &mut Vec<TraceEntry>) {
    while sim.enabled().is_empty() && !sim.is_finished() {
        if !sim.step() {
            break;
        }
        events.append(&mut sim.take_events());
    }
}

/// A statement's text (whitespace trimmed) and its 1-based line in its block.
fn statement_text(text: &str, from: usize, to: usize) -> (String, usize) {
    let from = from.min(text.len());
    let to = to.clamp(from, text.len());
    let line = text[..from].matches('\n').count() + 1;
    (text[from..to].trim().to_string(), line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::Route;

    fn applied(id: &str, settings: &[(&str, &str)]) -> Applied {
        let catalog = crate::catalog::catalog();
        let lesson = catalog.lesson(id).expect("lesson");
        let settings = lesson
            .settings_with(settings.iter().copied())
            .expect("settings");
        lesson.apply(&settings).expect("applies")
    }

    fn claim_race() -> Scheduling {
        let applied = applied(
            "queue-claim-race",
            &[("claim", "two-step"), ("tasks", "3"), ("workers", "2")],
        );
        let seed = 1;
        Scheduling::new(applied, seed).expect("starts")
    }

    #[test]
    fn routes_round_trip() {
        let hash = "#/lesson/queue-claim-race/schedule?tasks=3&seed=2&schedule=u.0~2.1&steps=5";
        let Route::Schedule(route) = Route::parse(hash) else {
            panic!("not a schedule route: {:?}", Route::parse(hash));
        };
        assert_eq!(route.lesson.id, "queue-claim-race");
        assert_eq!(route.lesson.toggles, [("tasks".to_owned(), "3".to_owned())]);
        assert_eq!(route.lesson.seed, Some(2));
        assert_eq!(
            route.schedule.as_ref().map(|s| s.choices.clone()),
            Some(vec![0, 0, 1])
        );
        assert_eq!(route.steps, Some(5));
        assert_eq!(Route::Schedule(route.clone()).href(), hash);
        assert_eq!(
            route.player().to_string(),
            "/lesson/queue-claim-race?tasks=3&seed=2&schedule=u.0~2.1"
        );

        let Route::Schedule(bad) = Route::parse("#/lesson/x/schedule?schedule=0.1&steps=no") else {
            panic!()
        };
        assert_eq!(bad.schedule, None);
        assert_eq!(bad.lesson.problems.len(), 2, "{:?}", bad.lesson.problems);
        assert!(bad.lesson.problems[0].contains("start `u.`"));
    }

    #[test]
    fn keys_name_sessions() {
        assert_eq!(session_key(0), Some('1'));
        assert_eq!(session_key(8), Some('9'));
        assert_eq!(session_key(9), Some('a'));
        assert_eq!(session_key(9 + 20), Some('v'), "u is undo");
        assert_eq!(session_of_key("2"), Some(1));
        assert_eq!(session_of_key("B"), Some(10));
        assert_eq!(session_of_key("u"), None);
        assert_eq!(session_of_key("Enter"), None);
    }

    /// Both workers read before either writes: the claim race's duplicate, by picks.
    fn race(s: &mut Scheduling) {
        // Alternate: each runs a statement in turn, so both read task 1 before either
        // claims it.
        while s.broken().is_empty() && !s.is_finished() {
            let enabled = s.enabled();
            let next = s.steps.len() % 2;
            let pick = if enabled.contains(&next) {
                next
            } else {
                enabled[0]
            };
            s.pick(pick).expect("enabled");
        }
    }

    /// A worker's own SQL is one EXEC; the statements after it are its procedure's, in
    /// a setup block, and say so, at their line in that block.
    #[test]
    fn a_procedures_statement_is_named_in_its_setup_block() {
        let mut s = claim_race();
        let now = s.sessions_now(&s.view());
        assert!(!now[0].in_setup, "{now:?}");
        assert_eq!(now[0].next.as_ref().map(|n| n.1), Some(1));
        s.pick(0).expect("enabled");
        s.pick(0).expect("enabled");
        let now = s.sessions_now(&s.view());
        let (text, line) = now[0].next.clone().expect("a next statement");
        assert!(now[0].in_setup, "{now:?}");
        let block = s.applied.blocks.iter().find(|b| {
            b.text
                .lines()
                .nth(line - 1)
                .is_some_and(|l| l.contains(text.lines().next().unwrap()))
        });
        assert!(
            block.is_some(),
            "line {line} of a setup block holds {text:?}"
        );
    }

    /// After `runs COMMIT`, PostgreSQL's commit comes in the session's next step, with
    /// the loop's next statement: the card names COMMIT, what that step does, not the
    /// statement it starts afterwards (that one runs in the same step, so the card
    /// then names the one after it).
    #[test]
    fn the_next_statement_after_a_commit_is_the_commit() {
        let applied = applied("pg-claim-race", &[]);
        let mut s = Scheduling::new(applied, 1).expect("starts");
        let next = |s: &Scheduling| {
            let now = s.sessions_now(&s.view());
            now[0]
                .next
                .clone()
                .map(|(text, _)| text)
                .unwrap_or_default()
        };
        let continues = |s: &Scheduling| s.sessions_now(&s.view())[0].continues;
        while !next(&s).starts_with("COMMIT") {
            assert!(s.steps.len() < 20, "no COMMIT in 20 steps");
            s.pick(0).expect("enabled");
        }
        // Not started yet: the card says "Next statement".
        assert!(!continues(&s));
        s.pick(0).expect("enabled");
        assert!(
            s.last_events()
                .iter()
                .any(|e| e.event.to_string().contains("runs work line 16: COMMIT")),
            "{:?}",
            s.last_events()
        );
        assert_eq!(next(&s), "COMMIT");
        // Started: the card says it goes on with it, not that it runs it again.
        assert!(continues(&s));
        s.pick(0).expect("enabled");
        assert!(s
            .last_events()
            .iter()
            .any(|e| e.event.to_string().starts_with("worker1 commits")));
        assert!(next(&s).starts_with("SELECT id INTO v_id"), "{}", next(&s));
    }

    #[test]
    fn alternating_workers_claim_a_task_twice() {
        let mut s = claim_race();
        assert_eq!(s.sessions, ["worker1", "worker2"]);
        let now = s.sessions_now(&s.view());
        assert!(now.iter().all(|n| n.enabled), "{now:?}");
        let (text, line) = now[0].next.clone().expect("a next statement");
        assert!(line >= 1);
        assert!(!text.is_empty());
        race(&mut s);
        let broken = s.broken();
        assert_eq!(broken.len(), 1, "{broken:?}");
        assert_eq!(broken[0].name, "no-double-claim");
        assert_eq!(broken[0].step, s.steps.len());
        assert_eq!(broken[0].detail.to_string(), "got 1 (expected 0)");
        assert!(s.steps.len() <= 20, "{} steps", s.steps.len());
    }

    #[test]
    fn the_route_replays_the_same_state_and_undo_goes_back_one_step() {
        let mut s = claim_race();
        race(&mut s);
        let lesson = LessonRoute::new("queue-claim-race");
        let route = s.route(&lesson);
        let fingerprint = s.sim.fingerprint();

        let mut again = claim_race();
        again.replay(route.schedule.as_ref(), route.steps);
        assert_eq!(again.problem, None);
        assert_eq!(again.steps.len(), s.steps.len());
        assert_eq!(again.sim.fingerprint(), fingerprint);
        assert_eq!(again.broken(), s.broken());

        // Undo from well past the first snapshot's spacing, then the same pick again.
        let before = s.steps.len();
        let last = s.steps.last().map(|st| st.session).unwrap();
        let mut one_back = claim_race();
        one_back.replay(route.schedule.as_ref(), Some(before - 1));
        assert!(s.undo());
        assert_eq!(s.steps.len(), before - 1);
        assert_eq!(s.sim.fingerprint(), one_back.sim.fingerprint());
        assert!(
            s.broken().is_empty(),
            "the duplicate came with the last step"
        );
        s.pick(last).unwrap();
        assert_eq!(s.sim.fingerprint(), fingerprint);

        while s.undo() {}
        assert_eq!(s.steps.len(), 0);
        assert!(!s.undo());
        assert_eq!(
            s.route(&lesson).to_string(),
            "/lesson/queue-claim-race/schedule"
        );
    }

    #[test]
    fn a_pick_that_cannot_run_is_refused_and_a_bad_link_says_why() {
        let mut s = claim_race();
        let first = s.sessions[0].clone();
        let pick = s.pick(7).unwrap_err().to_string();
        assert!(pick.starts_with("there is no session 7"), "{pick}");
        assert!(pick.contains(&format!("{first} (0)")), "{pick}");
        let schedule: Schedule = "u.5".parse().unwrap();
        s.replay(Some(&schedule), None);
        let problem = s.problem.as_ref().map(|p| p.to_string());
        assert_eq!(
            problem
                .as_deref()
                .map(|p| p.starts_with("choice 1: there is no session 5")),
            Some(true),
            "{problem:?}"
        );
        assert_eq!(s.steps.len(), 0);
    }
}
