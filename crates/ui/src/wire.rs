//! The messages between the page and its worker (`offload.rs` posts, `worker.rs`
//! answers): bytes in the lesson crate's codec (`lesson::codec`, the one the compiled
//! lessons use), sent as an `ArrayBuffer`. The page and the worker are one build, so
//! there is no versioning. Hand-written rather than serde: the page's wasm already
//! carries the codec's reader for the lessons, and serde would add its own machinery
//! to the lesson page's download for a handful of messages.

use engine::Schedule;
use explore::Progress;
use lesson::codec::{Codec, DecodeError, Reader, Writer};
use lesson::codec_struct;
use lesson::ExerciseReport;
use lesson::{Matrix, MatrixProgress};

use crate::exercise::{CheckProgress, Verdict};
use crate::exploring::{Answer, Found};

/// What the page asks of the worker.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Explore: search every interleaving for one that breaks `property`.
    Explore(ExploreRequest),
    /// Check: the learner's SQL on the exercise's seeds (default toggles).
    Check {
        lesson: String,
        edits: Vec<(String, String)>,
    },
    /// Panics on purpose (`#/debug/panic-worker`), for the browser test of the panel.
    Panic,
    /// The outcome matrix: every toggle combination of a lesson on these seeds.
    Matrix { lesson: String, seeds: Vec<u64> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct ExploreRequest {
    pub lesson: String,
    /// Toggle settings, as the page's URL has them.
    pub settings: Vec<(String, String)>,
    pub seed: u64,
    /// The property's name.
    pub property: String,
    pub max_steps: usize,
    pub max_states: usize,
    /// The page's language (`en`, `pl`, `ja`): the counterexample's steps are worded in it.
    pub lang: String,
}

codec_struct!(ExploreRequest {
    lesson,
    settings,
    seed,
    property,
    max_steps,
    max_states,
    lang
});

/// What the worker tells the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// The worker has started and reads requests from now on.
    Ready,
    /// A search's progress (after 150 ms, then every 100 ms).
    Searching(Progress),
    Explored(Result<Answer, String>),
    /// Check's progress over the seeds.
    Checking(CheckProgress),
    /// The seeds' report and the engine steps they took, or the verdict when the SQL
    /// could not run (`Verdict::EditError` or `Verdict::LessonError`).
    Checked(Result<(ExerciseReport, u64), Verdict>),
    /// The worker could not do what it was asked (a request it cannot read, a lesson it
    /// does not know) or could not start.
    Failed(String),
    /// The worker panicked with this message; it is dead.
    Panicked(String),
    /// The matrix's progress over its runs.
    Tabulating(MatrixProgress),
    /// The matrix, or why the lesson could not run.
    Tabulated(Result<Matrix, String>),
}

impl Request {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new();
        match self {
            Request::Explore(r) => {
                w.tag(0);
                r.put(&mut w);
            }
            Request::Check { lesson, edits } => {
                w.tag(1);
                lesson.put(&mut w);
                edits.put(&mut w);
            }
            Request::Panic => w.tag(2),
            Request::Matrix { lesson, seeds } => {
                w.tag(3);
                lesson.put(&mut w);
                seeds.put(&mut w);
            }
        }
        w.into_bytes()
    }

    pub fn decode(bytes: &[u8]) -> Result<Request, DecodeError> {
        let mut r = Reader::new(bytes);
        let request = match r.tag()? {
            0 => Request::Explore(Codec::get(&mut r)?),
            1 => Request::Check {
                lesson: Codec::get(&mut r)?,
                edits: Codec::get(&mut r)?,
            },
            2 => Request::Panic,
            3 => Request::Matrix {
                lesson: Codec::get(&mut r)?,
                seeds: Codec::get(&mut r)?,
            },
            _ => return r.bad_tag(),
        };
        r.finish()?;
        Ok(request)
    }
}

impl Reply {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new();
        match self {
            Reply::Ready => w.tag(0),
            Reply::Searching(p) => {
                w.tag(1);
                put_progress(p, &mut w);
            }
            Reply::Explored(answer) => {
                w.tag(2);
                put_result(answer, &mut w);
            }
            Reply::Checking(p) => {
                w.tag(3);
                p.put(&mut w);
            }
            Reply::Checked(Ok((report, steps))) => {
                w.tag(4);
                report.put(&mut w);
                steps.put(&mut w);
            }
            Reply::Checked(Err(Verdict::EditError {
                block,
                line,
                col,
                message,
            })) => {
                w.tag(5);
                block.put(&mut w);
                line.put(&mut w);
                col.put(&mut w);
                message.put(&mut w);
            }
            Reply::Checked(Err(other)) => {
                w.tag(6);
                let message = match other {
                    Verdict::LessonError(m) => m.clone(),
                    other => format!("{other:?}"),
                };
                message.put(&mut w);
            }
            Reply::Failed(m) => {
                w.tag(7);
                m.put(&mut w);
            }
            Reply::Panicked(m) => {
                w.tag(8);
                m.put(&mut w);
            }
            Reply::Tabulating(p) => {
                w.tag(9);
                p.put(&mut w);
            }
            Reply::Tabulated(Ok(matrix)) => {
                w.tag(10);
                matrix.put(&mut w);
            }
            Reply::Tabulated(Err(m)) => {
                w.tag(11);
                m.put(&mut w);
            }
        }
        w.into_bytes()
    }

    pub fn decode(bytes: &[u8]) -> Result<Reply, DecodeError> {
        let mut r = Reader::new(bytes);
        let reply = match r.tag()? {
            0 => Reply::Ready,
            1 => Reply::Searching(get_progress(&mut r)?),
            2 => Reply::Explored(get_result(&mut r)?),
            3 => Reply::Checking(Codec::get(&mut r)?),
            4 => Reply::Checked(Ok((Codec::get(&mut r)?, Codec::get(&mut r)?))),
            5 => Reply::Checked(Err(Verdict::EditError {
                block: Codec::get(&mut r)?,
                line: Codec::get(&mut r)?,
                col: Codec::get(&mut r)?,
                message: Codec::get(&mut r)?,
            })),
            6 => Reply::Checked(Err(Verdict::LessonError(Codec::get(&mut r)?))),
            7 => Reply::Failed(Codec::get(&mut r)?),
            8 => Reply::Panicked(Codec::get(&mut r)?),
            9 => Reply::Tabulating(Codec::get(&mut r)?),
            10 => Reply::Tabulated(Ok(Codec::get(&mut r)?)),
            11 => Reply::Tabulated(Err(Codec::get(&mut r)?)),
            _ => return r.bad_tag(),
        };
        r.finish()?;
        Ok(reply)
    }
}

codec_struct!(CheckProgress {
    seeds_done,
    seeds,
    steps,
    now_us
});

impl Codec for Found {
    fn put(&self, w: &mut Writer) {
        let Found {
            schedule,
            statements,
            switches,
            detail,
            steps,
            conflict,
        } = self;
        schedule.to_string().put(w);
        statements.put(w);
        switches.put(w);
        detail.put(w);
        steps.put(w);
        conflict.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let schedule: String = Codec::get(r)?;
        let schedule: Schedule = schedule.parse().map_err(|_| r.error("not a schedule"))?;
        Ok(Found {
            schedule,
            statements: Codec::get(r)?,
            switches: Codec::get(r)?,
            detail: Codec::get(r)?,
            steps: Codec::get(r)?,
            conflict: Codec::get(r)?,
        })
    }
}

impl Codec for Answer {
    fn put(&self, w: &mut Writer) {
        let Answer {
            label,
            max_steps,
            max_states,
            progress,
            found,
        } = self;
        label.put(w);
        max_steps.put(w);
        max_states.put(w);
        put_progress(progress, w);
        found.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(Answer {
            label: Codec::get(r)?,
            max_steps: Codec::get(r)?,
            max_states: Codec::get(r)?,
            progress: get_progress(r)?,
            found: Codec::get(r)?,
        })
    }
}

/// `explore::Progress` is another crate's type, so not a `Codec` of this one.
fn put_progress(p: &Progress, w: &mut Writer) {
    let Progress {
        states,
        transitions,
        schedules,
        depth,
        max_depth,
        walks,
        exhaustive,
        done,
    } = p;
    states.put(w);
    transitions.put(w);
    schedules.put(w);
    depth.put(w);
    max_depth.put(w);
    walks.put(w);
    exhaustive.put(w);
    done.put(w);
}

fn get_progress(r: &mut Reader<'_>) -> Result<Progress, DecodeError> {
    Ok(Progress {
        states: Codec::get(r)?,
        transitions: Codec::get(r)?,
        schedules: Codec::get(r)?,
        depth: Codec::get(r)?,
        max_depth: Codec::get(r)?,
        walks: Codec::get(r)?,
        exhaustive: Codec::get(r)?,
        done: Codec::get(r)?,
    })
}

fn put_result(result: &Result<Answer, String>, w: &mut Writer) {
    match result {
        Ok(answer) => {
            w.tag(0);
            answer.put(w);
        }
        Err(e) => {
            w.tag(1);
            e.put(w);
        }
    }
}

fn get_result(r: &mut Reader<'_>) -> Result<Result<Answer, String>, DecodeError> {
    match r.tag()? {
        0 => Ok(Ok(Codec::get(r)?)),
        1 => Ok(Err(Codec::get(r)?)),
        _ => r.bad_tag(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(reply: Reply) {
        let bytes = reply.encode();
        assert_eq!(Reply::decode(&bytes), Ok(reply));
    }

    #[test]
    fn requests_read_back_as_written() {
        let explore = Request::Explore(ExploreRequest {
            lesson: "queue-claim-race".into(),
            settings: vec![
                ("claim".into(), "two-step".into()),
                ("tasks".into(), "3".into()),
            ],
            seed: 1,
            property: "no-double-claim".into(),
            max_steps: 400,
            max_states: 200_000,
            lang: "ja".into(),
        });
        let check = Request::Check {
            lesson: "exercise-skip-locked".into(),
            edits: vec![("next_task".into(), "SELECT 1; -- é".into())],
        };
        let matrix = Request::Matrix {
            lesson: "queue-isolation".into(),
            seeds: vec![1, 2, 3],
        };
        for request in [explore, check, Request::Panic, matrix] {
            assert_eq!(Request::decode(&request.encode()), Ok(request));
        }
        // A byte too many, or too few, is an error, never a different request.
        let mut bytes = Request::Panic.encode();
        bytes.push(0);
        assert_eq!(
            Request::decode(&bytes).unwrap_err().message,
            "bytes left over"
        );
        assert!(Request::decode(&[1, 5]).is_err());
        assert!(Request::decode(&[9]).is_err());
    }

    #[test]
    fn replies_read_back_as_written() {
        let progress = Progress {
            states: 40_709,
            transitions: 90_000,
            schedules: 288,
            depth: 16,
            max_depth: 31,
            walks: 0,
            exhaustive: true,
            done: true,
        };
        round_trip(Reply::Ready);
        round_trip(Reply::Searching(progress));
        round_trip(Reply::Explored(Err("no such property".into())));
        round_trip(Reply::Explored(Ok(Answer {
            label: "No task is claimed twice".into(),
            max_steps: 400,
            max_states: 200_000,
            progress,
            found: Some(Box::new(Found {
                schedule: "u.0.1~3.0".parse().unwrap(),
                statements: 16,
                switches: 5,
                detail: Some(lesson::Detail::Scalar {
                    value: 1.0,
                    bound: lesson::Bound {
                        equals: Some(0.0),
                        ..Default::default()
                    },
                }),
                steps: vec![
                    explore::Narrated {
                        session: "worker1".into(),
                        statement: "SELECT TOP (1) @id = id FROM dbo.task …".into(),
                        reads: vec![("task".into(), "1".into())],
                        lines: Vec::new(),
                    },
                    explore::Narrated {
                        session: String::new(),
                        statement: String::new(),
                        reads: Vec::new(),
                        lines: vec!["deadlock: worker2 is the victim".into()],
                    },
                ],
                conflict: Some(explore::Conflict {
                    read: 4,
                    write: 12,
                    reader: "worker1".into(),
                    writer: "worker2".into(),
                    verb: "UPDATE".into(),
                    row: Some(("task".into(), "1".into())),
                }),
            })),
        })));
        round_trip(Reply::Checking(CheckProgress {
            seeds_done: 2,
            seeds: 5,
            steps: 120_000,
            now_us: 3_200_000,
        }));
        round_trip(Reply::Checked(Err(Verdict::EditError {
            block: "next_task".into(),
            line: 3,
            col: 9,
            message: "found 'WHERE'".into(),
        })));
        round_trip(Reply::Checked(Err(Verdict::LessonError("broken".into()))));
        round_trip(Reply::Failed("could not start".into()));
        round_trip(Reply::Panicked("deliberate".into()));
        round_trip(Reply::Tabulating(MatrixProgress {
            runs_done: 7,
            runs: 72,
            steps: 190_000,
        }));
        round_trip(Reply::Tabulated(Err("no lesson x".into())));
    }

    /// A real matrix (numbers, text, missing readings, every kind of column) crosses
    /// whole, and reads back with the same cells.
    #[test]
    fn a_matrix_crosses_whole() {
        let catalog = crate::catalog::catalog();
        let lesson = catalog.lesson("queue-isolation").unwrap();
        let matrix = lesson::run_matrix(lesson, &[1, 2]);
        assert_eq!(matrix.rows.len(), 20);
        let snapshot = &matrix.rows[12];
        assert_eq!(snapshot.settings[0].1, "snapshot");
        assert_eq!(snapshot.cells[0].text(), "650");
        round_trip(Reply::Tabulated(Ok(matrix)));
    }

    /// A real report, from the lesson crate's Check of an exercise's starting SQL.
    #[test]
    fn an_exercise_report_crosses_whole() {
        let catalog = crate::catalog::catalog();
        let lesson = catalog.lesson("exercise-skip-locked").unwrap();
        let state = crate::exercise::ExerciseState::new(std::rc::Rc::clone(lesson), Ok(None));
        let owned = state.edits();
        let edits: Vec<(&str, &str)> = owned
            .iter()
            .map(|(b, s)| (b.as_str(), s.as_str()))
            .collect();
        let seeds = lesson.exercise.as_ref().unwrap().seeds.clone();
        let report =
            lesson::check_exercise(lesson, &lesson.settings_default(), &edits, &seeds).unwrap();
        assert!(!report.solved && report.goals.len() == 5, "{report:?}");
        round_trip(Reply::Checked(Ok((report, 12_345))));
    }
}
