//! Lockstep's simulator: SQL Server sessions, a lock manager and tables on a virtual clock.
//!
//! Sans-IO and deterministic: the trace is a function of (scenario, seed, schedule). The
//! caller steps it; nothing here reads a clock, the OS's randomness or the network.
//!
//! Layers, each using only those below it (ARCHITECTURE.md has the map; `cargo xtask
//! test` checks that no file imports another in a circle):
//! `value`, `datepart`, `error`, `syntax` → `state` → `event`, `outcome` → `exec` (with its `Rules`
//! trait) → `dialect` → `sim` (the driver) → `scenario`, `view`, `fingerprint`,
//! `footprint`.

mod cost;
mod datepart;
mod dialect;
mod error;
mod event;
mod exec;
mod fingerprint;
mod footprint;
mod names;
mod outcome;
mod scenario;
mod schedule;
mod sim;
mod state;
mod syntax;
mod value;
mod view;

pub use dialect::Dialect;
pub use error::{
    error_code, AbortScope, ErrorAt, SqlError, SqlErrorInfo, FOREIGN_KEY_VIOLATION, NO_NUMBER,
    NO_SEVERITY, RW_DEPENDENCY_FAILURE, UNNUMBERED,
};
pub use event::{Access, Event, KeyAction, Queued, ReleaseReason, Source, Trace, TraceEntry};
pub use exec::Sink;
pub use footprint::{Footprint, RowRef};
pub use outcome::{Outcome, ResultSet, SessionOutcome};
pub use scenario::{
    check_query, Block, QueryError, Scenario, ScenarioError, SessionSpec, MAX_SCRIPT_BYTES,
};
pub use schedule::{Mode, ParseScheduleError, Schedule, ScheduleError, SchedulePolicy, Scheduler};
pub use sim::{Limits, Simulation, MAX_STEPS, MAX_VIRTUAL_US};
pub use state::MAX_STATEMENTS_PER_SESSION;
pub use state::{locks, pages};
pub use value::{format_datetime, parse_datetime, stamp_text, Stamp, Value, CLOCK_ZERO_US};
pub use view::{
    timeline, Lane, LaneState, LockBadge, LockView, Mark, MarkKind, RowView, Segment,
    SessionStatus, SessionView, StateView, TableView, WaitEdge,
};
