//! SQL Server: the executor's own behaviour, so nearly every rule keeps its default. Its
//! statements (sp_getapplock, READPAST, OUTPUT, TRY/CATCH, ...) are the executor's
//! common ground, which other dialects share where they behave the same. Its own:
//! `SAVE TRANSACTION name`, whose savepoint `ROLLBACK TRANSACTION name` goes back to.

use sql::ast::{Stmt, StmtKind};

use crate::cost::CostKind;
use crate::error::{Count, SqlError};
use crate::exec::{done, Exec, Flow, Interrupt, Rules};
use crate::state::locks::LockMode;

/// SQL Server's rules.
pub(crate) struct TSql;

impl Rules for TSql {
    fn exec_statement(
        &self,
        x: &mut Exec<'_>,
        i: usize,
        stmt: &Stmt,
    ) -> Option<Result<Flow, Interrupt>> {
        match &stmt.kind {
            StmtKind::Savepoint(name) => Some(save(x, i, &name.value)),
            _ => None,
        }
    }

    /// The server's catalog and DMVs (`sys.dm_tran_locks`, `INFORMATION_SCHEMA.TABLES`)
    /// exist there: not simulated here, not "invalid object name".
    fn number_error(&self, e: SqlError) -> SqlError {
        if e.number == 208 {
            let name = crate::error::quoted_after(&e.message, "name '")
                .unwrap_or("")
                .to_ascii_lowercase();
            if name.starts_with("sys.") || name.starts_with("information_schema.") {
                return SqlError::not_simulated(&format!(
                    "the system view {name} (the state view shows sessions and locks)"
                ));
            }
        }
        e
    }

    /// A key-range lock's mode as `sys.dm_tran_locks` lists it: a reader's range and key
    /// (RangeS-S), UPDLOCK's or a MERGE's (RangeS-U), an INSERT's test of the range its
    /// key goes in (RangeI-N).
    fn range_mode_name(&self, mode: LockMode) -> Option<&'static str> {
        match mode {
            LockMode::S => Some("RangeS-S"),
            LockMode::U => Some("RangeS-U"),
            LockMode::X => Some("RangeI-N"),
            _ => None,
        }
    }

    /// "The first couple of lock waits after a deadlock has been detected immediately
    /// trigger a deadlock search rather than waiting for the next deadlock detection
    /// interval" (semantics A8): a second deadlock soon after a first is broken as it
    /// forms, not up to 5 s later.
    fn eager_deadlock_searches(&self) -> u8 {
        2
    }

    fn escalates_locks(&self) -> bool {
        true
    }

    fn all_null_coalesce(&self) -> Option<SqlError> {
        Some(SqlError::untyped_coalesce())
    }

    /// An uncorrelated subquery is one input of the plan (the outer side of a join, or
    /// a spool), read once however many rows the statement checks.
    fn subquery_once(&self) -> bool {
        true
    }

    /// A seek through an index that covers the query reads no data page.
    fn covering_indexes(&self) -> bool {
        true
    }

    /// `TOP (2.5)` or a FETCH of a decimal is refused (Msg 1060, the server's words),
    /// not cut to 2 as a CAST would.
    fn fractional_row_count(&self, what: Count) -> Option<SqlError> {
        matches!(what, Count::Top | Count::Fetch).then(SqlError::fractional_row_count)
    }
}

/// `SAVE TRANSACTION name` (names are case-sensitive; one may repeat, and ROLLBACK finds
/// the newest): 628 outside a transaction.
fn save(x: &mut Exec<'_>, i: usize, name: &str) -> Result<Flow, Interrupt> {
    if x.w.sessions[i].tran_count == 0 {
        return Err(SqlError::generic(
            628,
            16,
            "Cannot issue SAVE TRANSACTION when there is no active transaction.",
        )
        .into());
    }
    if let Some(sp) = x.mark(i) {
        if let Some(t) = x.w.sessions[i].txn.as_mut() {
            t.savepoints.push((name.into(), sp));
        }
    }
    Ok(done(CostKind::Transaction))
}
