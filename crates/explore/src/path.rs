//! Paths through the interleavings: replaying one (the session picked at each step),
//! shrinking a counterexample, and narrating its steps.

use engine::{Event, Schedule, Simulation, Sink};
use lesson::{Detail, Property, PropertyError};

use crate::conflict::{self, Conflict, Touched};

/// An interleaving that breaks the property.
#[derive(Clone, Debug, PartialEq)]
pub struct Counterexample {
    /// Replays the interleaving: `lockstep run --schedule`, the player's `schedule`.
    /// Past its end a replay goes on with seeded random choices; the property is
    /// already broken by then.
    pub schedule: Schedule,
    /// The session stepped at each step (indices into the scenario's sessions). Steps
    /// where no session could run (the deadlock monitor, a lock timeout) come between
    /// them by themselves and are not listed.
    pub path: Vec<usize>,
    /// One line per step, the timer's steps included, the last one breaking the property.
    pub steps: Vec<Narrated>,
    /// Times the path passes from one session to another.
    pub switches: usize,
    /// What the property saw in the last state: `got 1 (expected 0)`; `None` when no
    /// property was judged.
    pub detail: Option<Detail>,
    /// The two steps whose order decides it, when a session acted on a stale read.
    pub conflict: Option<Conflict>,
}

/// One step of a counterexample: who ran which statement, and what it did. Data, not a
/// sentence: its `Display` is the English line the CLI prints, and the interface words
/// the same fields in the reader's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narrated {
    /// The session that stepped; empty for a step of the server's own (the deadlock
    /// monitor).
    pub session: String,
    /// The statement the step is about (see [`about`]); empty for none.
    pub statement: String,
    /// The rows it read and did not write, `(table, key)`: `reads task 1`.
    pub reads: Vec<(String, String)>,
    /// What else happened: its trace lines, without the session's name where a line
    /// starts with it (`inserts claim (2)`), as the search's [`Word`] words them: the
    /// trace's English lines for the CLI and the tests, the page's language in the app.
    pub lines: Vec<String>,
}

/// How a step's trace event is worded: the event and the stepping session (empty for
/// the server's own step); the line leaves out the session where it starts with it.
pub type Word = fn(&Event, &str) -> String;

/// The trace's own line (`Display`), without a leading `session `: the CLI's words.
pub fn english(event: &Event, session: &str) -> String {
    let line = event.to_string();
    after_subject(&line, session).map_or_else(|| line.clone(), str::to_string)
}

/// What a line says after its leading `session ` (`None` when it does not start so, or
/// for the server's own step): the part of a step's line a [`Word`] keeps.
pub fn after_subject<'a>(line: &'a str, session: &str) -> Option<&'a str> {
    if session.is_empty() {
        return None;
    }
    line.strip_prefix(session)?.strip_prefix(' ')
}

impl Narrated {
    /// Who stepped, in English: the session, or `server`.
    pub fn who(&self) -> &str {
        if self.session.is_empty() {
            "server"
        } else {
            &self.session
        }
    }

    /// The step's first line names the session itself (`clerk's sp_getapplock ...`), so
    /// the sentence needs no subject.
    pub fn names_itself(&self) -> bool {
        self.reads.is_empty()
            && self
                .lines
                .first()
                .is_some_and(|line| line.starts_with(&format!("{}'s ", self.who())))
    }

    /// What happened, in English, without the subject: `reads task 1; skips task 2
    /// (READPAST)`, `finishes its statement` when the step neither started a statement
    /// nor did anything to show; empty when it started one that did nothing to show
    /// (a SET, a WAITFOR).
    pub fn did(&self) -> String {
        let mut did: Vec<String> = Vec::new();
        if !self.reads.is_empty() {
            let rows: Vec<String> = self.reads.iter().map(|(t, k)| format!("{t} {k}")).collect();
            did.push(format!("reads {}", rows.join(", ")));
        }
        did.extend(self.lines.iter().cloned());
        if did.is_empty() && self.statement.is_empty() {
            did.push("finishes its statement".to_string());
        }
        did.join("; ")
    }
}

impl std::fmt::Display for Narrated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let who = self.who();
        let did = self.did();
        let subject = if self.names_itself() {
            String::new()
        } else {
            format!("{who} ")
        };
        match (did.is_empty(), self.statement.is_empty()) {
            (true, _) => write!(f, "{who} runs {}", self.statement),
            (false, true) => write!(f, "{subject}{did}"),
            (false, false) => write!(f, "{subject}{did} ({})", self.statement),
        }
    }
}

lesson::codec_struct!(Narrated {
    session,
    statement,
    reads,
    lines
});

/// Context switches of a path: neighbours that are different sessions.
pub(crate) fn switches(path: &[usize]) -> usize {
    path.windows(2).filter(|w| w[0] != w[1]).count()
}

/// Runs the timer while no session can run and the run is not over; each is a step.
/// Returns the steps it took, or the violation it met.
fn settle(
    sim: &mut Simulation,
    property: &Property,
    steps: &mut usize,
) -> Result<Option<Detail>, PropertyError> {
    while sim.enabled().is_empty() && !sim.is_finished() {
        if !sim.step() && !sim.is_finished() {
            break;
        }
        *steps += 1;
        if let Some(v) = property.violation(sim)? {
            return Ok(Some(v));
        }
    }
    Ok(None)
}

/// What one step of a path did.
pub(crate) struct Stepped {
    pub footprint: engine::Footprint,
    /// The timer ran after it (nobody could run): the step's neighbours do not commute.
    pub timer: bool,
    pub violation: Option<Detail>,
}

/// Steps session `pick`, then the timer while nobody can run, counting steps. `Err(None)`
/// when `pick` cannot run now.
pub(crate) fn advance(
    sim: &mut Simulation,
    pick: usize,
    property: &Property,
    steps: &mut usize,
) -> Result<Stepped, Option<PropertyError>> {
    let footprint = sim.step_session(pick).map_err(|_| None)?;
    *steps += 1;
    let mut violation = property.violation(sim).map_err(Some)?;
    let before = *steps;
    if violation.is_none() {
        violation = settle(sim, property, steps).map_err(Some)?;
    }
    Ok(Stepped {
        footprint,
        timer: *steps > before,
        violation,
    })
}

/// Where a path first breaks the property: `(picks used, steps, detail)`. `None` when it
/// holds all along, or a pick cannot run.
pub(crate) fn first_violation(
    root: &Simulation,
    path: &[usize],
    property: &Property,
) -> Result<Option<(usize, usize, Detail)>, PropertyError> {
    let mut sim = root.clone();
    let mut steps = 0;
    if let Some(v) = property.violation(&mut sim)? {
        return Ok(Some((0, 0, v)));
    }
    if let Some(v) = settle(&mut sim, property, &mut steps)? {
        return Ok(Some((0, steps, v)));
    }
    for (k, &pick) in path.iter().enumerate() {
        match advance(&mut sim, pick, property, &mut steps) {
            Ok(Stepped {
                violation: Some(v), ..
            }) => return Ok(Some((k + 1, steps, v))),
            Ok(_) => {}
            Err(None) => return Ok(None),
            Err(Some(e)) => return Err(e),
        }
    }
    Ok(None)
}

/// Fewer steps, then fewer context switches: drops one pick, or moves one pick or one
/// run of a session's picks elsewhere, while the property still breaks, until no such
/// change helps. `path` breaks the property at its last pick, after `steps` steps.
pub(crate) fn shrink(
    root: &Simulation,
    mut path: Vec<usize>,
    mut steps: usize,
    property: &Property,
) -> Result<(Vec<usize>, usize), PropertyError> {
    // Each round tries O(n²) candidates of n steps; counterexamples are short.
    for _ in 0..32 {
        let mut improved = false;
        for cand in candidates(&path) {
            // A move keeps the length: worth a replay only with fewer switches.
            if cand.len() == path.len() && switches(&cand) >= switches(&path) {
                continue;
            }
            if let Some((used, cand_steps, _)) = first_violation(root, &cand, property)? {
                let cand = cand[..used].to_vec();
                if (cand_steps, switches(&cand)) < (steps, switches(&path)) {
                    path = cand;
                    steps = cand_steps;
                    improved = true;
                    break;
                }
            }
        }
        if !improved {
            break;
        }
    }
    Ok((path, steps))
}

/// The paths one change away: each pick dropped; each pick, and each run of one
/// session's picks, moved to every other place.
fn candidates(path: &[usize]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let moved = |start: usize, len: usize, out: &mut Vec<Vec<usize>>| {
        let mut rest = path.to_vec();
        let block: Vec<usize> = rest.drain(start..start + len).collect();
        for j in 0..=rest.len() {
            if j != start {
                let mut cand = rest.clone();
                cand.splice(j..j, block.iter().copied());
                out.push(cand);
            }
        }
    };
    for i in 0..path.len() {
        let mut without = path.to_vec();
        without.remove(i);
        out.push(without);
        moved(i, 1, &mut out);
    }
    let mut start = 0;
    while start < path.len() {
        let len = path[start..]
            .iter()
            .take_while(|&&s| s == path[start])
            .count();
        if len > 1 {
            moved(start, len, &mut out);
        }
        start += len;
    }
    out
}

/// The counterexample of a path that breaks the property at its last pick: its
/// schedule, and each step narrated from the trace.
pub(crate) fn narrate(
    root: &Simulation,
    path: &[usize],
    property: &Property,
    word: Word,
) -> Result<Counterexample, PropertyError> {
    narrate_path(root, path, Some(property), word)
}

/// Narrates `path` from `root`, up to the step that breaks `property` if one is given,
/// and finds its conflict from the steps' footprints.
pub(crate) fn narrate_path(
    root: &Simulation,
    path: &[usize],
    property: Option<&Property>,
    word: Word,
) -> Result<Counterexample, PropertyError> {
    let names: Vec<String> = root
        .view(0)
        .sessions
        .into_iter()
        .map(|s| s.name.to_string())
        .collect();
    let mut sim = root.clone();
    sim.set_sink(Sink::Full);
    let mut steps = Vec::new();
    // Each step's footprint, `None` for the timer's, for the conflict.
    let mut touched: Vec<Option<Touched>> = Vec::new();
    let judge = |sim: &mut Simulation| -> Result<Option<Detail>, PropertyError> {
        match property {
            Some(p) => p.violation(sim),
            None => Ok(None),
        }
    };
    let mut detail = judge(&mut sim)?;
    // Each session's statement in progress, carried from step to step.
    let mut current: Vec<String> = vec![String::new(); names.len()];
    let timer = |sim: &mut Simulation, steps: &mut Vec<Narrated>, touched: &mut Vec<_>| {
        while sim.enabled().is_empty() && !sim.is_finished() {
            if !sim.step() && !sim.is_finished() {
                break;
            }
            let events = sim.take_events();
            steps.push(describe("", &events, &[], &mut String::new(), word));
            touched.push(None);
        }
    };
    timer(&mut sim, &mut steps, &mut touched);
    for &pick in path {
        if detail.is_some() {
            break;
        }
        let Ok(footprint) = sim.step_session(pick) else {
            break;
        };
        let events = sim.take_events();
        let read: Vec<(String, String)> = footprint
            .rows_read
            .iter()
            .filter(|r| !footprint.rows_written.contains(r))
            .filter_map(|&r| sim.row_name(r))
            .collect();
        let name = names.get(pick).map_or("", String::as_str);
        let mut none = String::new();
        let carried = current.get_mut(pick).unwrap_or(&mut none);
        let step = describe(name, &events, &read, carried, word);
        touched.push(Some(Touched {
            session: name.to_string(),
            statement: step.statement.clone(),
            footprint,
        }));
        steps.push(step);
        detail = judge(&mut sim)?;
        if detail.is_none() {
            timer(&mut sim, &mut steps, &mut touched);
            detail = judge(&mut sim)?;
        }
    }
    Ok(Counterexample {
        schedule: sim.schedule(),
        path: path.to_vec(),
        conflict: conflict::find(&sim, &touched),
        steps,
        switches: switches(path),
        detail,
    })
}

/// Which statement a step of a session is about, from the step's events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum About {
    /// The statement started by the event at this index of the step's events.
    Started(usize),
    /// The statement the session had in progress before the step.
    Earlier,
    /// None: the step only ended the session, or ran between statements.
    Nothing,
}

/// The statement a step of `session` is about: the one in progress at its first told
/// line, or the one the step had just finished there (a COMMIT's commit is recorded
/// after its finish, in the step that also starts the next statement); for a step
/// without such lines, the statement it started, else the one it goes on with. The
/// explorer's narrative and the scheduler's "next statement" share this rule.
pub fn about(session: &str, events: &[engine::TraceEntry]) -> About {
    let mut current = About::Earlier;
    let mut finished = None;
    let mut started = None;
    let mut label = None;
    for (i, e) in events.iter().enumerate() {
        let own = e.event.session() == Some(session);
        match &e.event {
            Event::StatementStarted { .. } if own => {
                current = About::Started(i);
                started = Some(About::Started(i));
            }
            Event::StatementFinished { .. } if own => {
                finished = Some(std::mem::replace(&mut current, About::Nothing));
            }
            Event::SessionFinished { .. } => {}
            event if told(event) && label.is_none() => {
                label = Some(match current {
                    About::Nothing => finished.unwrap_or(About::Nothing),
                    c => c,
                });
            }
            _ => {}
        }
    }
    label.or(started).unwrap_or(current)
}

/// Events a step's narrative tells (lock grants and releases left out: the lanes show
/// them).
fn told(event: &Event) -> bool {
    matches!(
        event,
        Event::RowInserted { .. }
            | Event::RowUpdated { .. }
            | Event::RowDeleted { .. }
            | Event::RowSkipped { .. }
            | Event::LockWaiting { .. }
            | Event::LockRefused { .. }
            | Event::Error { .. }
            | Event::WaitTimedOut { .. }
            | Event::Deadlock { .. }
            | Event::TransactionRolledBack { .. }
            | Event::TransactionCommitted { .. }
            | Event::ExternalCall { .. }
            | Event::ConsumeDelayed { .. }
            | Event::ConsumeResumed { .. }
            | Event::AppLockRequested { .. }
            | Event::LockEscalated { .. }
            | Event::ResultReturned { .. }
            | Event::SessionFinished { .. }
    )
}

/// One step's line: the statement it is about (see [`about`]) and what it did, from
/// its told events and the rows it read. `current` is the session's statement in
/// progress before the step, and after it.
fn describe(
    session: &str,
    events: &[engine::TraceEntry],
    read: &[(String, String)],
    current: &mut String,
    word: Word,
) -> Narrated {
    let statement = match about(session, events) {
        About::Started(i) => match &events[i].event {
            Event::StatementStarted { text, .. } => text.to_string(),
            _ => String::new(),
        },
        About::Earlier => current.clone(),
        About::Nothing => String::new(),
    };
    let mut lines: Vec<String> = Vec::new();
    for e in events {
        match &e.event {
            Event::StatementStarted { text, .. } if e.event.session() == Some(session) => {
                *current = text.to_string();
            }
            Event::StatementFinished { .. } if e.event.session() == Some(session) => {
                current.clear();
            }
            event if told(event) => lines.push(word(event, session)),
            _ => {}
        }
    }
    Narrated {
        session: session.to_string(),
        statement,
        reads: read.to_vec(),
        lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two-step claim race, 2 workers × 3 tasks, ready to step untimed.
    fn race() -> (Simulation, Property) {
        lesson_root("queue-claim-race.md", &[("tasks", "3")])
    }

    /// A shipped lesson with these settings, ready to step untimed, and its
    /// no-double-claim property.
    fn lesson_root(file: &str, set: &[(&str, &str)]) -> (Simulation, Property) {
        let path = format!("{}/../../lessons/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let l = lesson::Lesson::parse(file, &text).unwrap();
        let settings = l.settings_with(set.iter().copied()).unwrap();
        let applied = l.apply(&settings).unwrap();
        let mut root = Simulation::new(&applied.scenario, l.seed).unwrap();
        root.set_mode(engine::Mode::Untimed);
        root.set_sink(Sink::Nothing);
        let p = lesson::find_property(&applied.properties, "no-double-claim").unwrap();
        (root, p)
    }

    #[test]
    fn shrinking_keeps_the_violation_with_fewer_switches() {
        let (root, property) = race();
        // Both read task 1, then their UPDATEs and INSERTs alternate; worker2's UPDATE
        // waits once for worker1's: 17 steps, 5 switches.
        let path = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1];
        assert_eq!(switches(&path), 5);
        let (used, steps, _) = first_violation(&root, &path, &property).unwrap().unwrap();
        assert_eq!((used, steps), (17, 17));
        let (shrunk, steps) = shrink(&root, path.to_vec(), steps, &property).unwrap();
        assert_eq!((steps, switches(&shrunk)), (16, 2), "{shrunk:?}");
        assert!(first_violation(&root, &shrunk, &property)
            .unwrap()
            .is_some());
        // A path that holds, or picks a session that cannot run, violates nothing.
        assert_eq!(first_violation(&root, &[0, 0, 0], &property), Ok(None));
    }

    /// A step that ends a statement and starts the next is about the one it ended:
    /// a PostgreSQL COMMIT's commit comes in the step after `runs COMMIT`, with the
    /// loop's next statement, and is told with COMMIT, not that statement.
    #[test]
    fn a_commit_is_told_with_its_commit_statement() {
        let (root, property) = lesson_root("pg-claim-race.md", &[]);
        let path: Vec<usize> = [[0; 4].as_slice(), &[1; 8], &[0; 4]].concat();
        let c = narrate(&root, &path, &property, english).unwrap();
        let commits: Vec<(&str, &str)> = c
            .steps
            .iter()
            .filter(|s| s.lines.iter().any(|l| l.starts_with("commits")))
            .map(|s| (s.session.as_str(), s.statement.as_str()))
            .collect();
        assert_eq!(commits, [("worker2", "COMMIT"), ("worker1", "COMMIT")]);
    }
}
