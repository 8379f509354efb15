//! Why a counterexample breaks its property: the two steps of different sessions whose
//! order decides it, found from the steps' footprints, and a replay of a schedule that
//! narrates it again (the player's `schedule=`).

use engine::{Footprint, Schedule, Simulation, Sink};
use lesson::Applied;

use crate::path::{narrate_path, Counterexample, Word};
use crate::ExploreError;

/// The pair of steps whose order decides a counterexample. Data, not a sentence:
/// [`Conflict::summary`] is the English one the CLI prints, and the interface words the
/// same fields in the reader's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// Indices into [`Counterexample::steps`]: a session reads a row (`read`), then
    /// another session writes it (`write`), and the first session goes on to write the
    /// row too, acting on what it read before the write.
    pub read: usize,
    pub write: usize,
    /// The session that read the row, and the one that wrote it.
    pub reader: String,
    pub writer: String,
    /// The first word of the writing step's statement, in upper case (`UPDATE`); empty
    /// when that step started no statement.
    pub verb: String,
    /// The row, `(table, key)`; `None` when it has no name.
    pub row: Option<(String, String)>,
}

impl Conflict {
    /// `worker1 reads task 1 before worker2's UPDATE writes it; both go on to write it`.
    pub fn summary(&self) -> String {
        let row = self
            .row
            .as_ref()
            .map_or_else(|| "a row".to_string(), |(t, k)| format!("{t} {k}"));
        let verb = if self.verb.is_empty() {
            "WRITE"
        } else {
            &self.verb
        };
        format!(
            "{} reads {row} before {}'s {verb} writes it; both go on to write it",
            self.reader, self.writer
        )
    }
}

lesson::codec_struct!(Conflict {
    read,
    write,
    reader,
    writer,
    verb,
    row
});

/// A step a session took: its name and footprint (`None` for the timer's steps).
pub(crate) struct Touched {
    pub session: String,
    pub statement: String,
    pub footprint: Footprint,
}

/// The stale read that decides the path: among pairs (a read of row r by session A, a
/// later write of r by another session B, A writing r after that), the one with the
/// earliest write, then the latest read. Swapping that pair (B's write first) would
/// have shown A the written row. `None` when no session acts on a stale read.
pub(crate) fn find(sim: &Simulation, steps: &[Option<Touched>]) -> Option<Conflict> {
    let touched: Vec<(usize, &Touched)> = steps
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.as_ref().map(|t| (i, t)))
        .collect();
    for (wi, &(write, w)) in touched.iter().enumerate() {
        for &(read, r) in touched[..wi].iter().rev() {
            // `independent` is false for one session's own steps: not a conflict. A step
            // that writes nothing makes no read stale (and skips building lock sets).
            if r.footprint.session == w.footprint.session
                || w.footprint.rows_written.is_empty()
                || r.footprint.independent(&w.footprint)
            {
                continue;
            }
            let stale = r.footprint.rows_read.iter().find(|row| {
                !r.footprint.rows_written.contains(row)
                    && w.footprint.rows_written.contains(row)
                    && touched[wi + 1..].iter().any(|(_, later)| {
                        later.footprint.session == r.footprint.session
                            && later.footprint.rows_written.contains(row)
                    })
            });
            if let Some(&row) = stale {
                let verb = w.statement.split_whitespace().next().unwrap_or_default();
                return Some(Conflict {
                    read,
                    write,
                    reader: r.session.clone(),
                    writer: w.session.clone(),
                    verb: verb.to_uppercase(),
                    row: sim.row_name(row),
                });
            }
        }
    }
    None
}

/// Replays an untimed schedule's choices from the setup run with `seed` and narrates
/// them, with their conflict: what the player shows beside a counterexample it replays.
/// Steps where one session alone could run are taken while choices remain; the
/// replay stops at the last choice. `detail` is `None`: no property is judged. `word`
/// words the steps' events ([`crate::english`] for the trace's own lines).
pub fn explain(
    applied: &Applied,
    seed: u64,
    schedule: &Schedule,
    word: Word,
) -> Result<Counterexample, ExploreError> {
    let mut sim = Simulation::new(&applied.scenario, seed)
        .map_err(|e| ExploreError::Lesson(applied.locate(e.block, e.line, e.col, &e.message)))?;
    sim.set_mode(engine::Mode::Untimed);
    sim.set_sink(Sink::Nothing);
    // The path: each choice, with the forced steps between them.
    let mut probe = sim.clone();
    let mut path = Vec::new();
    let mut choices = schedule.choices.iter();
    let mut next = choices.next();
    while let Some(&pick) = next {
        let enabled = probe.enabled();
        let step = match enabled.as_slice() {
            [] if probe.is_finished() => break,
            [] => {
                if !probe.step() {
                    break;
                }
                continue;
            }
            [only] => *only,
            _ => {
                next = choices.next();
                pick
            }
        };
        if probe.step_session(step).is_err() {
            break;
        }
        path.push(step);
    }
    narrate_path(&sim, &path, None, word).map_err(ExploreError::Property)
}
