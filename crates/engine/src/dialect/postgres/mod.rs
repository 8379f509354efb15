//! PostgreSQL 15 (semantics.md Part C): multiversion reads that never lock (a snapshot
//! per statement in READ COMMITTED, per transaction in REPEATABLE READ and SERIALIZABLE,
//! both run as SNAPSHOT), the four row-lock clauses with their conflict table (UPDATE
//! takes FOR NO KEY UPDATE on the rows it changes, DELETE FOR UPDATE), no page locks.
//!
//! A waiter that wakes runs its statement again on the newest row versions, which is
//! what EvalPlanQual does in READ COMMITTED: a row that no longer matches is skipped
//! (`FOR UPDATE ... LIMIT 1` returns the next row, or none).

use sql::ast::IsolationLevel;

use crate::exec::Rules;
use crate::state::locks::LockMode;

/// PostgreSQL's rules.
pub(crate) struct Postgres;

impl Rules for Postgres {
    fn mode_name(&self, mode: LockMode) -> Option<&'static str> {
        match mode {
            LockMode::ForKeyShare => Some("FOR KEY SHARE"),
            LockMode::ForShare => Some("FOR SHARE"),
            LockMode::ForNoKeyUpdate => Some("FOR NO KEY UPDATE"),
            LockMode::ForUpdate => Some("FOR UPDATE"),
            _ => None,
        }
    }

    fn versioned_reads(&self) -> bool {
        true
    }

    fn isolation(&self, level: IsolationLevel) -> IsolationLevel {
        match level {
            // READ UNCOMMITTED behaves as READ COMMITTED (C3).
            IsolationLevel::ReadUncommitted | IsolationLevel::ReadCommitted => {
                IsolationLevel::ReadCommitted
            }
            IsolationLevel::RepeatableRead
            | IsolationLevel::Snapshot
            | IsolationLevel::Serializable => IsolationLevel::Snapshot,
        }
    }

    fn write_row_lock(&self, delete: bool) -> Option<LockMode> {
        Some(if delete {
            LockMode::ForUpdate
        } else {
            LockMode::ForNoKeyUpdate
        })
    }

    fn page_locks(&self) -> bool {
        false
    }
}
