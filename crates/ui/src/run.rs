//! One simulated run of a lesson, as the player shows it: the trace, the outcome and
//! checks, the timeline lanes, and where each engine step ended in the trace. Built
//! once per (lesson, settings, seed); the state at any playhead position comes from
//! [`ViewCursor`], which replays the same deterministic run to that step. Everything
//! here calls the engine and lesson crates; nothing re-implements them.

use std::collections::{BTreeSet, VecDeque};
use std::rc::Rc;

use engine::{timeline, Event, Lane, Outcome, Schedule, Simulation, Source, StateView, TraceEntry};
use lesson::{evaluate_checks, latest_anomaly, Anomaly, Applied, CheckResult, Lesson, Settings};

/// What a run is a function of (the engine is deterministic).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RunKey {
    pub lesson_id: String,
    pub settings: Settings,
    pub seed: u64,
    /// A schedule to replay (`schedule=`), else the seeded scheduler's choices.
    pub schedule: Option<Schedule>,
}

/// A finished run with everything the player needs to show any moment of it.
pub struct RunModel {
    pub key: RunKey,
    pub applied: Applied,
    pub trace: Vec<TraceEntry>,
    /// Trace length after `Simulation::new` (index 0) and after each step (index s):
    /// the events of step s are `bounds[s - 1]..bounds[s]`.
    pub bounds: Vec<usize>,
    pub sessions: Vec<String>,
    pub lanes: Vec<Lane>,
    pub summary: Rc<RunSummary>,
    /// What the lesson is about, where it happened, in trace order.
    pub anomalies: Vec<Anomaly>,
    /// Why the run's schedule could not be followed (the run stops there).
    pub schedule_problem: Option<engine::ScheduleError>,
    /// An untimed schedule's choices narrated, with the two steps whose order decides
    /// the run (Explore's counterexample, replayed); see [`crate::conflict`].
    /// With the language its steps are worded in: read it through
    /// [`RunModel::explained`], which words it again after a switch.
    explained: std::cell::RefCell<(crate::i18n::Lang, Option<Rc<explore::Counterexample>>)>,
    /// Clones of the simulation after some steps (step 0 first, ascending), so the
    /// state after any step is a clone and a few steps away: seeking never replays.
    snapshots: Vec<(usize, Simulation)>,
    /// Each anomaly's rows (`Anomaly::rows`, a walk of the trace), found the first time
    /// the tables ask, not while the run is built.
    anomaly_rows: std::cell::OnceCell<Vec<Vec<(String, String)>>>,
}

/// Steps between snapshots to begin with; doubled whenever there would be more than
/// [`MAX_SNAPSHOTS`]. A snapshot is cheap to take, but the live run then copies each
/// table it writes once (copy on write), so fewer, farther apart: a seek replays at
/// most this many steps (about half a millisecond in the claim race).
const SNAPSHOT_EVERY: usize = 256;
const MAX_SNAPSHOTS: usize = 64;

/// Keeps a clone of `sim` after `step` when it falls on the spacing `every`; past
/// [`MAX_SNAPSHOTS`], every other one goes and the spacing doubles, so memory stays
/// bounded and a replay from the nearest one stays short.
pub(crate) fn keep_snapshot(
    snapshots: &mut Vec<(usize, Simulation)>,
    every: &mut usize,
    step: usize,
    sim: &Simulation,
) {
    if step % *every == 0 {
        snapshots.push((step, sim.clone()));
        if snapshots.len() > MAX_SNAPSHOTS {
            *every *= 2;
            let spacing = *every;
            snapshots.retain(|(s, _)| s % spacing == 0);
        }
    }
}

/// A run being built, a few engine steps at a time: the browser builds long runs in
/// slices between frames (so the page answers input meanwhile), shows how far it got,
/// and cancels by dropping the builder. [`RunModel::from_applied`] is the same in one go.
pub struct RunBuilder {
    lesson_id: String,
    applied: Applied,
    seed: u64,
    sim: Simulation,
    trace: Vec<TraceEntry>,
    bounds: Vec<usize>,
    snapshots: Vec<(usize, Simulation)>,
    every: usize,
    done: bool,
    schedule: Option<Schedule>,
    schedule_problem: Option<engine::ScheduleError>,
}

/// How far a [`RunBuilder`] got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildProgress {
    pub steps: usize,
    pub events: usize,
    /// Virtual time reached.
    pub now_us: u64,
}

impl RunBuilder {
    /// Starts the simulation (setup runs here); an error is a sentence for the page.
    pub fn new(lesson_id: &str, applied: Applied, seed: u64) -> Result<RunBuilder, String> {
        let mut sim = Simulation::new(&applied.scenario, seed).map_err(|e| {
            applied
                .locate(e.block, e.line, e.col, &e.message)
                .to_string()
        })?;
        let trace = sim.take_events();
        let bounds = vec![trace.len()];
        let snapshots = vec![(0, sim.clone())];
        Ok(RunBuilder {
            lesson_id: lesson_id.to_string(),
            applied,
            seed,
            sim,
            trace,
            bounds,
            snapshots,
            every: SNAPSHOT_EVERY,
            done: false,
            schedule: None,
            schedule_problem: None,
        })
    }

    /// Replays `schedule` (its mode too: `u.…` runs untimed) instead of the seeded
    /// scheduler's choices. Call before the first [`RunBuilder::advance`].
    pub fn with_schedule(mut self, schedule: Option<&Schedule>) -> RunBuilder {
        if let Some(schedule) = schedule {
            self.sim.set_mode(schedule.mode);
            self.sim.set_schedule(schedule.policy());
            // Seeks clone the snapshots: the first must replay the schedule too.
            self.snapshots = vec![(0, self.sim.clone())];
            self.schedule = Some(schedule.clone());
        }
        self
    }

    /// Runs at most `max_steps` engine steps; true once the run has ended.
    pub fn advance(&mut self, max_steps: usize) -> bool {
        for _ in 0..max_steps {
            if self.done {
                break;
            }
            match self.sim.try_step() {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    break;
                }
                Err(e) => {
                    self.schedule_problem = Some(e);
                    self.done = true;
                    break;
                }
            }
            self.sim.append_events(&mut self.trace);
            self.bounds.push(self.trace.len());
            let step = self.bounds.len() - 1;
            keep_snapshot(&mut self.snapshots, &mut self.every, step, &self.sim);
        }
        self.done
    }

    pub fn progress(&self) -> BuildProgress {
        BuildProgress {
            steps: self.bounds.len() - 1,
            events: self.trace.len(),
            now_us: self.sim.now_us(),
        }
    }

    /// The finished run. Call once [`RunBuilder::advance`] has returned true.
    pub fn finish(self) -> RunModel {
        let RunBuilder {
            lesson_id,
            applied,
            seed,
            mut sim,
            trace,
            bounds,
            mut snapshots,
            schedule,
            schedule_problem,
            ..
        } = self;
        // The end is a snapshot too: jumping there is a clone.
        let last = bounds.len() - 1;
        if snapshots.last().is_some_and(|(s, _)| *s != last) {
            snapshots.push((last, sim.clone()));
        }
        let outcome = sim.outcome();
        let sessions = sim.session_names();
        let trace = engine::Trace { entries: trace };
        let lanes = timeline(&trace, &sessions);
        let trace = trace.entries;
        let checks = evaluate_checks(&applied.checks, &outcome, &mut |sql| sim.query(sql));
        let anomalies = lesson::run_anomalies(&applied.anomalies, &trace, &sim);
        let first_anomaly = anomalies.first().map(|a| a.event);
        let questions = applied
            .questions
            .iter()
            .map(|q| {
                let judged = q.judge(&outcome, &trace, first_anomaly, &mut |sql| sim.query(sql));
                (q.name.clone(), judged)
            })
            .collect();
        let explained = schedule
            .as_ref()
            .filter(|s| s.mode == engine::Mode::Untimed && schedule_problem.is_none())
            .and_then(|s| explore::explain(&applied, seed, s, crate::exploring::word).ok())
            .map(Rc::new);
        let end_us = trace.last().map_or(0, |e| e.at_us).max(outcome.end_us);
        let key = RunKey {
            lesson_id,
            settings: applied.settings.clone(),
            seed,
            schedule,
        };
        let summary = Rc::new(RunSummary {
            key: key.clone(),
            reads_name: applied.scenario.dialect.reads_name(),
            outcome,
            checks,
            questions,
            end_us,
            events: trace.len(),
            anomalies: anomalies.len(),
        });
        RunModel {
            key,
            applied,
            trace,
            bounds,
            sessions,
            lanes,
            summary,
            anomalies,
            schedule_problem,
            explained: std::cell::RefCell::new((crate::i18n::lang(), explained)),
            snapshots,
            anomaly_rows: std::cell::OnceCell::new(),
        }
    }
}

/// The figures of a run that the outcome panel compares across toggles.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    pub key: RunKey,
    /// The `logical_reads` figure as the lesson's database names it.
    pub reads_name: &'static str,
    pub outcome: Outcome,
    pub checks: Vec<CheckResult>,
    /// The verdict on each question asked before this run (by name), or why it has none.
    pub questions: Vec<(String, Result<lesson::Judged, String>)>,
    /// Virtual time of the last event (or the outcome's end, if later).
    pub end_us: u64,
    pub events: usize,
    /// Anomalies the lesson's rules found (duplicate claims, unmatched calls, …).
    pub anomalies: usize,
}

/// Unlocked rows per table in a state view (locked and uncommitted rows always come
/// too): enough for small tables, a window of big ones, and small enough that many
/// views can be cached.
pub const VIEW_ROWS: usize = 12;

impl RunModel {
    /// The replayed schedule's narration in the language in effect: narrated again
    /// when the page has switched language since it was worded.
    pub fn explained(&self) -> Option<Rc<explore::Counterexample>> {
        let lang = crate::i18n::lang();
        let mut slot = self.explained.borrow_mut();
        if slot.0 != lang && slot.1.is_some() {
            let again = self.key.schedule.as_ref().and_then(|s| {
                explore::explain(&self.applied, self.key.seed, s, crate::exploring::word).ok()
            });
            *slot = (lang, again.map(Rc::new));
        }
        slot.1.clone()
    }

    /// Applies the settings and runs the lesson to the end. An error is a sentence for
    /// the page (`file:line:col: message` when it is in the lesson).
    pub fn build(lesson: &Lesson, settings: &Settings, seed: u64) -> Result<RunModel, String> {
        let applied = lesson.apply(settings).map_err(|e| e.to_string())?;
        RunModel::from_applied(&lesson.id, applied, seed)
    }

    /// Runs an applied lesson (the lesson's own SQL, or a learner's edit of it) to the end.
    pub fn from_applied(lesson_id: &str, applied: Applied, seed: u64) -> Result<RunModel, String> {
        let mut builder = RunBuilder::new(lesson_id, applied, seed)?;
        loop {
            if builder.advance(usize::MAX) {
                return Ok(builder.finish());
            }
        }
    }

    pub fn events(&self) -> usize {
        self.trace.len()
    }

    /// The anomaly the tables highlight after `events` events: the latest one shown.
    pub fn anomaly_at(&self, events: usize) -> Option<&Anomaly> {
        latest_anomaly(&self.anomalies, events)
    }

    /// Rows the tables highlight after `events` events: the latest anomaly's.
    pub fn highlighted_rows(&self, events: usize) -> Vec<(String, String)> {
        self.anomaly_at(events)
            .map(|a| a.rows(&self.trace))
            .unwrap_or_default()
    }

    /// Rows of the first `passed` anomalies, for the tables' highlight and their
    /// "with anomalies" filter: each duplicate's two rows and the rows its sessions
    /// wrote (the task claimed twice), so the filter finds every such task, not only
    /// the latest one's. Each anomaly's rows are found once (a duplicate's writers take
    /// a walk back through the trace), as the playhead passes anomalies many times.
    pub fn anomaly_rows(&self, passed: usize) -> BTreeSet<(String, String)> {
        let all = self
            .anomaly_rows
            .get_or_init(|| self.anomalies.iter().map(|a| a.rows(&self.trace)).collect());
        all[..passed.min(all.len())]
            .iter()
            .flatten()
            .cloned()
            .collect()
    }

    /// Rows the state view after `step` keeps in its window: the highlighted ones, the
    /// ones its step skipped, and the latest changed, which the tables show as recently
    /// changed (a committed, unlocked row is otherwise only in the window when it is
    /// among the first).
    pub fn pinned_rows(&self, step: usize) -> Vec<(String, String)> {
        let events = self.bounds[step.min(self.bounds.len() - 1)];
        let mut rows = self.highlighted_rows(events);
        for e in &self.trace[self.marked_events(events)] {
            if let Event::RowSkipped { table, key, .. } = &e.event {
                rows.push((table.to_string(), key.clone()));
            }
        }
        let recent = crate::present::recent_changes(
            &self.trace[..events],
            crate::present::RECENT_PER_TABLE,
            crate::present::RECENT_LOOK_BACK,
        );
        rows.extend(recent.into_iter().map(|c| (c.table, c.key)));
        rows
    }

    /// The last snapshot at or before `step`.
    fn snapshot_before(&self, step: usize) -> Option<&(usize, Simulation)> {
        let k = self.snapshots.partition_point(|(s, _)| *s <= step);
        k.checked_sub(1).map(|k| &self.snapshots[k])
    }

    pub fn end_us(&self) -> u64 {
        self.summary.end_us
    }

    /// When session `i` starts in this run: its start time in the lesson, or, in an
    /// untimed replay (which ignores start times: the schedule decides), the moment it
    /// first ran, the run's end when it never did.
    pub fn session_start_us(&self, i: usize) -> u64 {
        let untimed = self
            .key
            .schedule
            .as_ref()
            .is_some_and(|s| s.mode == engine::Mode::Untimed);
        if untimed {
            let lane = self.lanes.get(i);
            lane.and_then(|l| l.segments.first().map(|s| s.from_us))
                .into_iter()
                .chain(lane.and_then(|l| l.marks.first().map(|m| m.at_us)))
                .min()
                .unwrap_or(self.end_us())
        } else {
            self.applied
                .scenario
                .sessions
                .get(i)
                .map_or(0, |s| s.start_us)
        }
    }

    /// The step whose end the state after `events` events shows: the step that
    /// produced event `events - 1` (step 0 is the setup, before any session runs).
    pub fn step_of(&self, events: usize) -> usize {
        self.bounds
            .partition_point(|&b| b < events)
            .min(self.bounds.len() - 1)
    }

    /// When the playhead is inside a step that has more events after it: the step's
    /// events, which happen at one instant. The state views show the state after the
    /// last of them (the engine's unit), so the page says so.
    pub fn instant_ahead(&self, events: usize) -> Option<Instant> {
        let step = self.step_of(events);
        let range = self.step_events(step);
        (step > 0 && range.end > events).then(|| Instant {
            first: range.start + 1,
            through: range.end,
            t_us: self.trace[range.end - 1].at_us,
        })
    }

    /// Trace indices of the events that step `step` produced.
    pub fn step_events(&self, step: usize) -> std::ops::Range<usize> {
        let start = if step == 0 { 0 } else { self.bounds[step - 1] };
        start..self.bounds[step]
    }

    /// The events whose marks the tables and graph show after `events` events: the
    /// step the state view is at, and everything else at that instant (a deadlock, say,
    /// and what its survivor does next).
    pub fn marked_events(&self, events: usize) -> std::ops::Range<usize> {
        let step = self.step_events(self.step_of(events));
        let instant = match events.checked_sub(1).and_then(|k| self.trace.get(k)) {
            Some(e) => self.trace.partition_point(|x| x.at_us < e.at_us),
            None => step.start,
        };
        instant.min(step.start)..step.end
    }

    /// How many events have happened by virtual time `us` (those at `us` included).
    pub fn events_by(&self, us: u64) -> usize {
        self.trace.partition_point(|e| e.at_us <= us)
    }

    /// Index of a session by name.
    pub fn session_index(&self, name: &str) -> Option<usize> {
        self.sessions.iter().position(|s| s == name)
    }

    /// The statement `session` is running (or ran last) after `events` events, from the
    /// trace: its script, byte range and procedure. Looks back a bounded way.
    pub fn statement_at(&self, session: &str, events: usize) -> Option<Statement> {
        self.trace[..events.min(self.trace.len())]
            .iter()
            .rev()
            .take(20_000)
            .find_map(|e| match &e.event {
                Event::StatementStarted {
                    session: s,
                    source,
                    span,
                    in_proc,
                    ..
                } if &**s == session => Some(Statement {
                    source: *source,
                    range: span.0..span.1,
                    procedure: in_proc.as_deref().map(String::from),
                }),
                _ => None,
            })
    }
}

/// The events of one engine step, seen from a playhead inside it (see
/// [`RunModel::instant_ahead`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instant {
    /// The step's first event (counted from 1, as the page counts them).
    pub first: usize,
    /// Its last: the state views show the state after this many events.
    pub through: usize,
    /// Their virtual time.
    pub t_us: u64,
}

/// Where a session is in its SQL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub source: Source,
    pub range: std::ops::Range<usize>,
    pub procedure: Option<String>,
}

/// Gives the state view after any step of a run. It keeps one live simulation and
/// moves it forward (cheap while playing); to go back, or far ahead, it clones the
/// run's nearest snapshot at or before the target and steps from there. Views of the
/// steps just before the target are cached on the way, so stepping back costs nothing.
#[derive(Default)]
pub struct ViewCursor {
    run: Option<Rc<RunModel>>,
    sim: Option<(Simulation, usize)>,
    cache: VecDeque<(usize, Rc<StateView>)>,
    /// Unlocked rows per table in its views: [`VIEW_ROWS`] unless set.
    rows: Option<usize>,
}

/// Views kept (each holds a window of every table).
const CACHED_VIEWS: usize = 512;
/// Views saved on the way when starting from a snapshot (stepping back from the target
/// then costs nothing for a while).
const PREFETCH_VIEWS: usize = 24;

impl ViewCursor {
    fn reset_for(&mut self, run: &Rc<RunModel>) {
        if !self.run.as_ref().is_some_and(|r| Rc::ptr_eq(r, run)) {
            *self = ViewCursor {
                run: Some(Rc::clone(run)),
                rows: self.rows,
                ..ViewCursor::default()
            };
        }
    }

    /// The view if it is ready without simulating.
    pub fn cached(&self, run: &Rc<RunModel>, step: usize) -> Option<Rc<StateView>> {
        if !self.run.as_ref().is_some_and(|r| Rc::ptr_eq(r, run)) {
            return None;
        }
        self.cache
            .iter()
            .find(|(s, _)| *s == step)
            .map(|(_, v)| Rc::clone(v))
    }

    /// How many engine steps reaching `step` would take.
    pub fn cost(&self, run: &Rc<RunModel>, step: usize) -> usize {
        if self.cached(run, step).is_some() {
            return 0;
        }
        let from_snapshot = step - run.snapshot_before(step).map_or(0, |(s, _)| *s);
        match &self.sim {
            Some((_, at))
                if self.run.as_ref().is_some_and(|r| Rc::ptr_eq(r, run)) && *at <= step =>
            {
                (step - at).min(from_snapshot)
            }
            _ => from_snapshot,
        }
    }

    /// A cursor whose views hold up to `rows` unlocked rows per table (every row, for
    /// searching a big table).
    pub fn with_rows(rows: usize) -> ViewCursor {
        ViewCursor {
            rows: Some(rows),
            ..ViewCursor::default()
        }
    }

    pub fn view(&mut self, run: &Rc<RunModel>, step: usize) -> Rc<StateView> {
        self.reset_for(run);
        let rows = self.rows.unwrap_or(VIEW_ROWS);
        if let Some(view) = self.cached(run, step) {
            return view;
        }
        let live = match &self.sim {
            Some((_, at)) if *at <= step => Some(*at),
            _ => None,
        };
        let snapshot = run.snapshot_before(step);
        let restart = match (live, snapshot) {
            (Some(at), Some((s, _))) => *s > at,
            (None, _) => true,
            (Some(_), None) => false,
        };
        if restart {
            self.sim = snapshot.map(|(s, sim)| {
                let mut sim = sim.clone();
                // Views need the state, not the events.
                sim.set_sink(engine::Sink::Nothing);
                (sim, *s)
            });
        }
        let prefetch_from = if restart {
            step.saturating_sub(PREFETCH_VIEWS)
        } else {
            step
        };
        let mut saved = Vec::new();
        let view = match self.sim.as_mut() {
            Some((sim, at)) => {
                loop {
                    if *at >= prefetch_from && *at < step {
                        saved.push((*at, Rc::new(sim.view_with(rows, &run.pinned_rows(*at)))));
                    }
                    if *at >= step || !sim.step() {
                        break;
                    }
                    *at += 1;
                }
                Rc::new(sim.view_with(rows, &run.pinned_rows(step)))
            }
            None => Rc::new(StateView {
                now_us: 0,
                sessions: Vec::new(),
                tables: Vec::new(),
                locks: Vec::new(),
                waits: Vec::new(),
            }),
        };
        saved.push((step, Rc::clone(&view)));
        for (s, v) in saved {
            if self.cache.iter().all(|(c, _)| *c != s) {
                if self.cache.len() == CACHED_VIEWS {
                    self.cache.pop_front();
                }
                self.cache.push_back((s, v));
            }
        }
        view
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    fn build(id: &str, pairs: &[(&str, &str)]) -> RunModel {
        let catalog = catalog();
        let lesson = catalog.lesson(id).unwrap();
        let settings = lesson.settings_with(pairs.iter().copied()).unwrap();
        RunModel::build(lesson, &settings, lesson.seed).unwrap()
    }

    /// An untimed replay ignores the lesson's start times: B, which starts at 1.5 s in
    /// the lesson, starts when the schedule first picks it, and the lanes and the
    /// session cards say that time, not 1.5 s.
    #[test]
    fn an_untimed_replay_starts_sessions_when_the_schedule_picks_them() {
        let catalog = catalog();
        let lesson = catalog.lesson("queue-wait-or-skip").unwrap();
        let settings = lesson.settings_with([("readpast", "off")]).unwrap();
        let timed = build("queue-wait-or-skip", &[("readpast", "off")]);
        assert_eq!(timed.session_start_us(1), 1_500_000);
        let schedule: Schedule = "u.0~2.1~3.0~4".parse().unwrap();
        let applied = lesson.apply(&settings).unwrap();
        let mut builder = RunBuilder::new(&lesson.id, applied, lesson.seed)
            .unwrap()
            .with_schedule(Some(&schedule));
        while !builder.advance(usize::MAX) {}
        let run = builder.finish();
        assert_eq!(run.schedule_problem, None);
        let b = run.session_start_us(1);
        let first_b = run.lanes[1].segments[0].from_us;
        assert_eq!(b, first_b);
        assert!(b < 1_000, "B starts at {b} us, when it is first picked");
    }

    /// A later producer changes no wait but how long the consumers run and how long a
    /// consume is delayed: "what the last toggle changed" lists both.
    #[test]
    fn a_toggle_that_moves_time_shows_the_sessions_times_changed() {
        let pairs = |delay| [("end", "rollback"), ("producer_delay_ms", delay)];
        let before = build("teradata-consume", &pairs("1000"));
        let after = build("teradata-consume", &pairs("3000"));
        let lines: Vec<(String, String, String)> =
            crate::present::changes(&before.summary, &after.summary)
                .into_iter()
                .map(|c| (c.what, c.before, c.after))
                .collect();
        let row = |what: &str| {
            lines
                .iter()
                .find(|(w, _, _)| w == what)
                .unwrap_or_else(|| panic!("no {what} in {lines:?}"))
        };
        assert_ne!(row("consumer1 ran for").1, row("consumer1 ran for").2);
        assert_ne!(
            row("consumer2 delayed, waiting for a row").1,
            row("consumer2 delayed, waiting for a row").2
        );
    }

    /// The "with anomalies" filter after the whole claim race finds every task claimed
    /// twice (the outcome's count of duplicates) and both claims of each.
    #[test]
    fn the_anomaly_filter_finds_every_task_claimed_twice() {
        let run = build("queue-claim-race", &[("claim", "two-step")]);
        let duplicates = run.anomalies.len();
        assert!(duplicates > 400, "{duplicates}");
        let rows = run.anomaly_rows(duplicates);
        let in_table = |t: &str| rows.iter().filter(|(table, _)| table == t).count();
        assert_eq!(in_table("task"), duplicates);
        assert_eq!(in_table("claim"), 2 * duplicates);
    }

    /// The page's note on a playhead inside a step ("events 37–42 happen together at
    /// T") holds for every lesson's default run: a step's events share their time.
    #[test]
    fn a_step_is_one_instant_and_the_note_names_its_end() {
        let catalog = catalog();
        for id in catalog.ids() {
            let lesson = catalog.lesson(id).unwrap();
            let settings = lesson.settings_with(std::iter::empty()).unwrap();
            let run = RunModel::build(lesson, &settings, lesson.seed).unwrap();
            for step in 1..run.bounds.len() {
                let range = run.step_events(step);
                let Some(first) = run.trace.get(range.start) else {
                    continue;
                };
                assert!(
                    run.trace[range.clone()]
                        .iter()
                        .all(|e| e.at_us == first.at_us),
                    "{id}: step {step}'s events {range:?} are not at one instant"
                );
                for k in range.start + 1..=range.end {
                    let note = run.instant_ahead(k);
                    if k == range.end {
                        assert_eq!(note, None, "{id}: event {k} ends its step");
                    } else {
                        assert_eq!(
                            note,
                            Some(Instant {
                                first: range.start + 1,
                                through: range.end,
                                t_us: first.at_us
                            }),
                            "{id}: event {k}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn steps_partition_the_trace() {
        let run = build("queue-wait-or-skip", &[("readpast", "off")]);
        assert_eq!(*run.bounds.last().unwrap(), run.events());
        assert_eq!(run.step_of(0), 0);
        assert_eq!(run.step_of(1), 0, "the setup event belongs to step 0");
        for k in 1..=run.events() {
            let s = run.step_of(k);
            assert!(
                run.step_events(s).contains(&(k - 1)),
                "event {} not in step {s}",
                k - 1
            );
        }
        let b_wait = run
            .summary
            .outcome
            .sessions
            .iter()
            .find(|s| s.name == "B")
            .unwrap()
            .wait_us;
        assert!(
            (2_450_000..=2_550_000).contains(&b_wait),
            "B waited {b_wait} us"
        );
    }

    #[test]
    fn the_cursor_replays_any_step_exactly() {
        let run = Rc::new(build("queue-wait-or-skip", &[]));
        let mut cursor = ViewCursor::default();
        let last = run.bounds.len() - 1;
        let forward: Vec<_> = (0..=last).map(|s| cursor.view(&run, s)).collect();
        let mut fresh = ViewCursor::default();
        for s in (0..=last).rev() {
            assert_eq!(*fresh.view(&run, s), *forward[s], "step {s}");
        }
        assert_eq!(forward[last].now_us, run.trace.last().unwrap().at_us);
    }

    #[test]
    fn seeks_start_from_the_nearest_snapshot_and_cache_the_steps_before() {
        let run = Rc::new(build("queue-wait-or-skip", &[]));
        let mut cursor = ViewCursor::default();
        let last = run.bounds.len() - 1;
        assert!(last > 4, "{last}");
        // The end is a snapshot: no step to run.
        assert_eq!(cursor.cost(&run, last), 0);
        // Short of it, the nearest snapshot is the start.
        let target = last - 1;
        assert_eq!(cursor.cost(&run, target), target);
        cursor.view(&run, target);
        for s in target.saturating_sub(PREFETCH_VIEWS)..target {
            assert!(cursor.cached(&run, s).is_some(), "step {s} not cached");
        }
        assert_eq!(cursor.cost(&run, target - 1), 0);
    }

    /// In a table far bigger than its window, the rows changed lately are in the view
    /// at every step, so the tables show them beside the first rows (pg-partial-index
    /// changes task 20003 of 20,040, committed at once and unlocked).
    #[test]
    fn the_latest_changed_rows_are_in_the_view() {
        let run = Rc::new(build("pg-partial-index", &[]));
        let mut cursor = ViewCursor::default();
        let mut far = 0;
        for step in 1..run.bounds.len() {
            let recent = crate::present::recent_changes(
                &run.trace[..run.bounds[step]],
                crate::present::RECENT_PER_TABLE,
                crate::present::RECENT_LOOK_BACK,
            );
            let view = cursor.view(&run, step);
            for c in recent {
                let Some(t) = view.tables.iter().find(|t| t.name == c.table) else {
                    continue;
                };
                let row = t.rows.iter().position(|r| r.key == c.key);
                if t.total_rows > 1000 && row.is_some_and(|k| k >= 10) {
                    far += 1;
                }
                assert!(
                    row.is_some() || c.text.contains(" deletes "),
                    "step {step}: {} ({}) is not in the view",
                    c.table,
                    c.key
                );
            }
        }
        assert!(far > 0, "no row changed beyond the first ten");
    }

    #[test]
    fn statements_come_from_the_trace() {
        let run = build("queue-wait-or-skip", &[("readpast", "off")]);
        // Sleeping in WAITFOR: the statement is the WAITFOR, not the COMMIT after it.
        let k = run.events_by(1_000_000);
        let st = run.statement_at("A", k).unwrap();
        let text = &run.applied.scenario.sessions[0].sql[st.range.clone()];
        assert!(text.starts_with("WAITFOR"), "{text}");
        assert_eq!(st.source, Source::Session(0));
        let st = run.statement_at("B", run.events_by(2_000_000)).unwrap();
        assert_eq!(st.source, Source::Setup);
        assert_eq!(st.procedure.as_deref(), Some("next_task"));
    }

    /// A run built a few steps at a time is the run built in one go.
    #[test]
    fn a_run_built_in_slices_equals_one_built_at_once() {
        let catalog = catalog();
        let lesson = catalog.lesson("queue-wait-or-skip").unwrap();
        let settings = lesson.settings_default();
        let whole = RunModel::build(lesson, &settings, 3).unwrap();
        let applied = lesson.apply(&settings).unwrap();
        let mut builder = RunBuilder::new(&lesson.id, applied, 3).unwrap();
        let mut last = builder.progress();
        while !builder.advance(2) {
            let now = builder.progress();
            assert_eq!(now.steps, last.steps + 2);
            assert!(now.events >= last.events && now.now_us >= last.now_us);
            last = now;
        }
        let sliced = builder.finish();
        assert_eq!(sliced.trace, whole.trace);
        assert_eq!(sliced.bounds, whole.bounds);
        assert_eq!(sliced.summary, whole.summary);
    }

    #[test]
    fn a_deadlock_shows_its_cycle_and_victim() {
        // Not a published lesson: two sessions update two rows in opposite order.
        let text = include_str!("../tests-data/deadlock-demo.md");
        let lesson = Lesson::parse("deadlock-demo.md", text).unwrap();
        let run = Rc::new(RunModel::build(&lesson, &lesson.settings_default(), 0).unwrap());
        let at = run
            .trace
            .iter()
            .position(|e| matches!(e.event, Event::Deadlock { .. }))
            .expect("a deadlock");
        let step = run.step_of(at + 1);
        let marks = crate::present::StepMarks::of(&run.trace[run.step_events(step)]);
        let deadlock = Some(("B".to_string(), vec!["A".to_string(), "B".to_string()]));
        assert_eq!(marks.deadlock, deadlock);
        // Later events at the same instant still show it.
        let same_instant = run.events_by(run.trace[at].at_us);
        assert!(same_instant > at + 1);
        let marks = crate::present::StepMarks::of(&run.trace[run.marked_events(same_instant)]);
        assert_eq!(marks.deadlock, deadlock);
        // Just before, both wait for each other: the cycle the graph draws.
        let mut cursor = ViewCursor::default();
        let before = cursor.view(&run, step - 1);
        let mut edges: Vec<(&str, &str)> = before
            .waits
            .iter()
            .map(|w| (w.waiter.as_str(), w.blocker.as_str()))
            .collect();
        edges.sort();
        assert_eq!(edges, [("A", "B"), ("B", "A")]);
    }

    #[test]
    fn a_broken_setting_is_an_error_not_a_panic() {
        let catalog = catalog();
        let lesson = catalog.lesson("queue-priority").unwrap();
        let settings = lesson.settings_default();
        let run = RunModel::build(lesson, &settings, 1).unwrap();
        assert!(run.summary.checks.iter().all(|c| c.passed));
    }
}
