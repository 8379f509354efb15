//! Plain views of a simulation for players: the state at the current step (sessions,
//! table rows with their locks, the wait-for graph) and the timeline of a trace. Pure
//! functions of the simulation: no rendering, no UI logic.

use std::collections::BTreeMap;

use crate::event::Event;
pub use crate::event::Source;
use crate::event::Trace;
use crate::exec::lock::wait_words;
use crate::sim::Simulation;
use crate::state::locks::{LockInfo, LockMode, Resource};
use crate::state::session::State;
use crate::state::SETUP_SOURCE;
use crate::value::Value;

#[derive(Clone, Debug, PartialEq)]
pub enum SessionStatus {
    NotStarted,
    Running,
    Waiting {
        resource: String,
        mode: LockMode,
        holders: Vec<String>,
    },
    Sleeping {
        until_us: u64,
    },
    /// Teradata: a consume waiting for a row of an empty queue table.
    Delayed {
        table: String,
    },
    Finished,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SessionView {
    pub name: String,
    pub status: SessionStatus,
    /// The statement running or next to run: its script and byte range.
    pub statement: Option<(Source, usize, usize)>,
    pub tran_count: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LockBadge {
    pub session: String,
    pub mode: LockMode,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RowView {
    /// The clustered key as text (`42`).
    pub key: String,
    pub values: Vec<Value>,
    pub locks: Vec<LockBadge>,
    /// The session whose uncommitted change this is, if any.
    pub uncommitted_by: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableView {
    pub name: String,
    pub columns: Vec<String>,
    /// A window of the rows: every locked or uncommitted row and the first rows up to the
    /// limit, in key order.
    pub rows: Vec<RowView>,
    pub total_rows: usize,
    /// Table-level locks (OBJECT) other than intent locks of row lockers.
    pub table_locks: Vec<LockBadge>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LockView {
    pub resource: String,
    pub holders: Vec<LockBadge>,
    pub waiters: Vec<LockBadge>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WaitEdge {
    pub waiter: String,
    pub blocker: String,
    pub resource: String,
    pub mode: LockMode,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StateView {
    pub now_us: u64,
    pub sessions: Vec<SessionView>,
    pub tables: Vec<TableView>,
    /// Every lock that is not an intent lock, with holders and waiters (application locks
    /// included), in a stable order.
    pub locks: Vec<LockView>,
    pub waits: Vec<WaitEdge>,
}

impl Simulation {
    /// Steps until the trace holds at least `events` entries (or the run ends).
    /// Returns false when the run ended first.
    pub fn run_until_events(&mut self, events: usize) -> bool {
        while self.event_count() < events as u64 {
            if !self.step() {
                return false;
            }
        }
        true
    }

    /// Names of the sessions, in scenario order.
    pub fn session_names(&self) -> Vec<String> {
        self.world
            .sessions
            .iter()
            .map(|s| s.name.to_string())
            .collect()
    }

    /// The state now, with at most `max_rows` unlocked rows per table.
    pub fn view(&self, max_rows: usize) -> StateView {
        self.view_with(max_rows, &[])
    }

    /// [`Simulation::view`], with the rows `pinned` as `(table, key text)` shown too
    /// wherever they are (a player's highlighted rows stay inside a big table's window).
    pub fn view_with(&self, max_rows: usize, pinned: &[(String, String)]) -> StateView {
        crate::value::use_collation(self.rules.collation());
        let sessions = (0..self.world.sessions.len())
            .map(|i| self.session_view(i))
            .collect();
        let all = self.shown_locks();
        let tables = self.tables_view(&all, max_rows, pinned, |_| true);
        let mut locks: Vec<LockView> = Vec::new();
        for l in &all {
            if l.mode.is_intent() || matches!(l.resource, Resource::Page { .. }) {
                continue;
            }
            let name = self.world.resource_text(&l.resource);
            let badge = LockBadge {
                session: self.world.owner_name(l.owner),
                mode: l.mode,
            };
            match locks.iter_mut().find(|v| v.resource == name) {
                Some(v) => v.holders.push(badge),
                None => locks.push(LockView {
                    resource: name,
                    holders: vec![badge],
                    waiters: Vec::new(),
                }),
            }
        }
        let mut waits = Vec::new();
        for w in self.world.locks.all_waits() {
            let (name, mode) = wait_words(self.rules, &self.world, &w.resource, w.requested);
            // A wait the dialect names otherwise (a PostgreSQL writer's transaction): its
            // blockers hold that lock, as the server lists them, though the row lock
            // behind it is not shown.
            let renamed = mode != w.requested;
            let waiter = self.world.owner_name(w.owner);
            let at = match locks.iter().position(|v| v.resource == name) {
                Some(at) => at,
                None => {
                    locks.push(LockView {
                        resource: name.clone(),
                        holders: Vec::new(),
                        waiters: Vec::new(),
                    });
                    locks.len() - 1
                }
            };
            locks[at].waiters.push(LockBadge {
                session: waiter.clone(),
                mode,
            });
            for b in &w.blockers {
                let blocker = self.world.owner_name(*b);
                if renamed && !locks[at].holders.iter().any(|h| h.session == blocker) {
                    locks[at].holders.push(LockBadge {
                        session: blocker.clone(),
                        mode: w.requested,
                    });
                }
                waits.push(WaitEdge {
                    waiter: waiter.clone(),
                    blocker,
                    resource: name.clone(),
                    mode,
                });
            }
        }
        StateView {
            now_us: self.now_us(),
            sessions,
            tables,
            locks,
            waits,
        }
    }

    /// Every row of the tables `wanted` names (ignoring case), as [`Simulation::view`]
    /// shows them: what a pass over the final state needs, without the other tables'
    /// rows (anomalies watch one or two tables; the claim race's queue has hundreds).
    pub fn table_views(&self, wanted: &[&str]) -> Vec<TableView> {
        crate::value::use_collation(self.rules.collation());
        let all = self.shown_locks();
        self.tables_view(&all, usize::MAX, &[], |name| {
            wanted.iter().any(|w| w.eq_ignore_ascii_case(name))
        })
    }

    /// Every lock the dialect shows (`Rules::shows_lock`).
    fn shown_locks(&self) -> Vec<LockInfo> {
        let mut all = self.world.locks.all_locks();
        all.retain(|l| self.rules.shows_lock(&l.resource, l.mode));
        all
    }

    fn tables_view(
        &self,
        all: &[LockInfo],
        max_rows: usize,
        pinned: &[(String, String)],
        wanted: impl Fn(&str) -> bool,
    ) -> Vec<TableView> {
        let mut tables = Vec::new();
        for (tid, t) in self.world.db.tables.iter().enumerate() {
            if !wanted(&t.name)
                || self.world.db.names.get(&t.name.to_ascii_lowercase()) != Some(&(tid as u32))
            {
                continue;
            }
            // Key locks of this table by key text, so a row costs a lookup, and its key
            // text is built only for the rows shown.
            let mut key_locks: BTreeMap<&str, Vec<LockBadge>> = BTreeMap::new();
            for l in all {
                if let Resource::Key { table, key, .. } = &l.resource {
                    if *table == tid as u32 {
                        key_locks.entry(&**key).or_default().push(LockBadge {
                            session: self.world.owner_name(l.owner),
                            mode: l.mode,
                        });
                    }
                }
            }
            let pins: Vec<&str> = pinned
                .iter()
                .filter(|(table, _)| table.eq_ignore_ascii_case(&t.name))
                .map(|(_, key)| key.as_str())
                .collect();
            let mut rows = Vec::new();
            let mut total = 0;
            for slot in t.clustered_order() {
                let s = &t.slots[slot];
                let Some(data) = s.latest().or_else(|| s.latest_committed()) else {
                    continue;
                };
                total += 1;
                let key = (!key_locks.is_empty()
                    || !pins.is_empty()
                    || rows.len() < max_rows
                    || s.pending.is_some())
                .then(|| t.key_rc(slot));
                let pinned = key.as_deref().is_some_and(|k| pins.contains(&k));
                let locks = key
                    .as_deref()
                    .and_then(|k| key_locks.get(k))
                    .cloned()
                    .unwrap_or_default();
                let uncommitted_by = s
                    .pending
                    .as_ref()
                    .map(|(txn, _)| self.world.owner_name(*txn));
                if rows.len() < max_rows || !locks.is_empty() || uncommitted_by.is_some() || pinned
                {
                    rows.push(RowView {
                        key: key.map_or_else(|| t.key_text(slot), |k| k.to_string()),
                        values: data.clone(),
                        locks,
                        uncommitted_by,
                    });
                }
            }
            let table_locks = all
                .iter()
                .filter(|l| {
                    matches!(l.resource, Resource::Object { table } if table == tid as u32)
                        && !l.mode.is_intent()
                })
                .map(|l| LockBadge {
                    session: self.world.owner_name(l.owner),
                    mode: l.mode,
                })
                .collect();
            tables.push(TableView {
                name: t.name.to_string(),
                columns: t.columns.iter().map(|c| c.name.clone()).collect(),
                rows,
                total_rows: total,
                table_locks,
            });
        }
        tables
    }

    fn session_view(&self, i: usize) -> SessionView {
        let s = &self.world.sessions[i];
        let status = match &s.state {
            State::NotStarted => SessionStatus::NotStarted,
            State::Finished => SessionStatus::Finished,
            State::Ready => SessionStatus::Running,
            State::Busy { until, end } => {
                if end.is_none() && self.is_sleeping(i) {
                    SessionStatus::Sleeping {
                        until_us: until.saturating_sub(self.world.origin),
                    }
                } else {
                    SessionStatus::Running
                }
            }
            State::Delayed { table } => SessionStatus::Delayed {
                table: self
                    .world
                    .db
                    .tables
                    .get(*table as usize)
                    .map_or_else(String::new, |t| t.name.to_string()),
            },
            State::Blocked { .. } => {
                let wait = s.waiting_as.and_then(|o| self.world.locks.waiting(o));
                match wait {
                    Some((res, mode)) => {
                        let owner = s.waiting_as.unwrap_or(0);
                        let holders = self
                            .world
                            .locks
                            .blockers(owner)
                            .into_iter()
                            .map(|o| self.world.owner_name(o))
                            .collect();
                        SessionStatus::Waiting {
                            resource: self.world.resource_text(&res),
                            mode,
                            holders,
                        }
                    }
                    None => SessionStatus::Running,
                }
            }
        };
        // Running, sleeping or waiting: the statement doing so; otherwise the next one.
        let busy = matches!(
            s.state,
            State::Busy { .. } | State::Blocked { .. } | State::Delayed { .. }
        );
        let next = s.frames.last().and_then(|f| {
            let idx = f.pc.min(f.code.instrs.len().saturating_sub(1));
            let span = match f
                .code
                .instrs
                .get(if matches!(s.state, State::Blocked { .. }) {
                    f.pc
                } else {
                    idx.saturating_sub(0)
                }) {
                Some(crate::state::program::Instr::Run(stmt)) => Some(stmt.span.clone()),
                Some(crate::state::program::Instr::Test { span, .. }) => Some(span.clone()),
                _ => None,
            }?;
            let source = if f.source == SETUP_SOURCE {
                Source::Setup
            } else {
                Source::Session(f.source)
            };
            Some((source, span.start, span.end))
        });
        let statement = if busy { s.current.or(next) } else { next };
        SessionView {
            name: s.name.to_string(),
            status,
            statement,
            tran_count: s.tran_count,
        }
    }

    fn is_sleeping(&self, i: usize) -> bool {
        self.world.sessions[i]
            .sleeping_until
            .is_some_and(|until| until > self.world.now)
    }
}

/// What a session does during a stretch of the timeline.
#[derive(Clone, Debug, PartialEq)]
pub enum LaneState {
    Running,
    Waiting {
        resource: String,
        holders: Vec<String>,
    },
    Sleeping,
    /// Teradata: a consume in the delayed state on this queue table.
    Delayed {
        table: String,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    pub from_us: u64,
    pub to_us: u64,
    pub state: LaneState,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MarkKind {
    Error {
        number: u32,
        /// The SQLSTATE, in a dialect that numbers errors so: what the mark shows.
        sqlstate: Option<&'static str>,
    },
    Skipped,
    Deadlock,
    Result,
    Committed,
    RolledBack,
    /// A call to the simulated external system.
    ExternalCall,
}

/// A point event on a lane; `event` indexes the trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub at_us: u64,
    pub event: usize,
    pub kind: MarkKind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub session: String,
    pub segments: Vec<Segment>,
    pub marks: Vec<Mark>,
}

/// The lanes of a trace: per session, when it ran, waited (and for whom) or slept.
pub fn timeline(trace: &Trace, sessions: &[String]) -> Vec<Lane> {
    let mut lanes: Vec<Lane> = sessions
        .iter()
        .map(|s| Lane {
            session: s.clone(),
            segments: Vec::new(),
            marks: Vec::new(),
        })
        .collect();
    let end = trace.entries.last().map_or(0, |e| e.at_us);
    // Open segment per lane: (start, state).
    let mut open: Vec<Option<(u64, LaneState)>> = vec![None; sessions.len()];
    let lane_of = |name: &str| sessions.iter().position(|s| s == name);
    let close =
        |lanes: &mut Vec<Lane>, open: &mut Vec<Option<(u64, LaneState)>>, k: usize, at: u64| {
            if let Some((from, state)) = open[k].take() {
                if at > from || lanes[k].segments.is_empty() {
                    lanes[k].segments.push(Segment {
                        from_us: from,
                        to_us: at,
                        state,
                    });
                }
            }
        };
    for (idx, e) in trace.entries.iter().enumerate() {
        let t = e.at_us;
        let Some(k) = e.event.session().and_then(lane_of) else {
            continue;
        };
        match &e.event {
            Event::SessionStarted { .. } => open[k] = Some((t, LaneState::Running)),
            Event::SessionFinished { .. } => close(&mut lanes, &mut open, k, t),
            Event::LockWaiting {
                resource,
                holders,
                queued,
                ..
            } => {
                close(&mut lanes, &mut open, k, t);
                open[k] = Some((
                    t,
                    LaneState::Waiting {
                        resource: resource.clone(),
                        holders: holders
                            .iter()
                            .chain(queued.iter().flat_map(|q| &q.sessions))
                            .map(|h| h.0.clone())
                            .collect(),
                    },
                ));
            }
            Event::LockGranted {
                waited_us: Some(_), ..
            }
            | Event::WaitTimedOut { .. } => {
                close(&mut lanes, &mut open, k, t);
                open[k] = Some((t, LaneState::Running));
            }
            Event::ConsumeDelayed { table, .. } => {
                close(&mut lanes, &mut open, k, t);
                open[k] = Some((
                    t,
                    LaneState::Delayed {
                        table: table.to_string(),
                    },
                ));
            }
            Event::ConsumeResumed { .. } => {
                close(&mut lanes, &mut open, k, t);
                open[k] = Some((t, LaneState::Running));
            }
            Event::Sleeping { until_us, .. } => {
                close(&mut lanes, &mut open, k, t);
                lanes[k].segments.push(Segment {
                    from_us: t,
                    to_us: *until_us,
                    state: LaneState::Sleeping,
                });
                open[k] = Some((*until_us, LaneState::Running));
            }
            Event::Error {
                number, sqlstate, ..
            } => lanes[k].marks.push(Mark {
                at_us: t,
                event: idx,
                kind: MarkKind::Error {
                    number: *number,
                    sqlstate: *sqlstate,
                },
            }),
            Event::RowSkipped { .. } => lanes[k].marks.push(Mark {
                at_us: t,
                event: idx,
                kind: MarkKind::Skipped,
            }),
            Event::ResultReturned { .. } => lanes[k].marks.push(Mark {
                at_us: t,
                event: idx,
                kind: MarkKind::Result,
            }),
            Event::ExternalCall { .. } => lanes[k].marks.push(Mark {
                at_us: t,
                event: idx,
                kind: MarkKind::ExternalCall,
            }),
            Event::TransactionCommitted { .. } => lanes[k].marks.push(Mark {
                at_us: t,
                event: idx,
                kind: MarkKind::Committed,
            }),
            Event::TransactionRolledBack { .. } => lanes[k].marks.push(Mark {
                at_us: t,
                event: idx,
                kind: MarkKind::RolledBack,
            }),
            Event::Deadlock { .. } => {
                close(&mut lanes, &mut open, k, t);
                open[k] = Some((t, LaneState::Running));
                lanes[k].marks.push(Mark {
                    at_us: t,
                    event: idx,
                    kind: MarkKind::Deadlock,
                });
            }
            _ => {}
        }
    }
    for k in 0..lanes.len() {
        close(&mut lanes, &mut open, k, end);
    }
    lanes
}

impl Simulation {
    /// A row of a footprint as players name it: its table and clustered key (`task`,
    /// `1`), for narrating a step. `None` for a slot the table no longer has.
    pub fn row_name(&self, (table, slot): crate::footprint::RowRef) -> Option<(String, String)> {
        let t = self.world.db.tables.get(table as usize)?;
        (slot < t.slots.len()).then(|| (t.name.to_string(), t.key_text(slot)))
    }
}
