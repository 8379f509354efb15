//! What a run produced: each session's results, errors, waits and reads.

use crate::error::SqlErrorInfo;
use crate::value::Value;

#[derive(Clone, Debug, PartialEq)]
pub struct ResultSet {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SessionOutcome {
    pub name: String,
    /// Total time blocked on locks.
    pub wait_us: u64,
    pub statements: u64,
    pub errors: Vec<SqlErrorInfo>,
    pub results: Vec<ResultSet>,
    pub logical_reads: u64,
    /// From connecting to finishing its script: the session's own elapsed time.
    pub elapsed_us: u64,
    /// Time a consume spent in the delayed state waiting for a row of a queue table.
    pub delayed_us: u64,
    /// Its script ended with a transaction open, which the server rolled back as the
    /// session ended (no COMMIT or ROLLBACK of its own).
    pub open_at_end: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub end_us: u64,
    pub sessions: Vec<SessionOutcome>,
}
