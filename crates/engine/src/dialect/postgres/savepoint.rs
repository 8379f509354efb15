//! `SAVEPOINT name`, `ROLLBACK TO SAVEPOINT name` and `RELEASE SAVEPOINT name` inside a
//! transaction block. A savepoint is the transaction as it was (`Exec::mark`: its undo
//! log's length and its locks). Rolling back to one undoes the writes made since and
//! releases the locks taken since, as the server's subtransaction abort does, and keeps
//! the savepoint; releasing one forgets it and those after it. An error after a
//! savepoint aborts only what followed it (`Exec::raise`), so ROLLBACK TO SAVEPOINT
//! recovers the block from 25P02.

use std::rc::Rc;

use sql::ast::Ident;

use crate::cost::CostKind;
use crate::error::SqlError;
use crate::exec::{done, Exec, Flow, Interrupt};

/// A savepoint's name as the server compares it: unquoted names fold to lower case.
fn key(x: &Exec<'_>, i: usize, name: &Ident) -> Rc<str> {
    let source = x.w.frame_source(i);
    let quoted = source
        .get(name.span.clone())
        .is_some_and(|t| t.starts_with('"'));
    if quoted {
        name.value.as_str().into()
    } else {
        name.value.to_lowercase().into()
    }
}

/// 25P01 outside a transaction block. A block an error aborted is still one, though its
/// transaction has ended (no savepoint was set to keep it).
fn in_block(x: &Exec<'_>, i: usize, what: &str) -> Result<(), Interrupt> {
    let s = &x.w.sessions[i];
    if !s.failed_block && (s.tran_count == 0 || s.txn.is_none()) {
        return Err(SqlError::generic(
            0,
            16,
            format!("{what} can only be used in transaction blocks"),
        )
        .with_sqlstate("25P01")
        .into());
    }
    Ok(())
}

/// Where the newest savepoint of this name is, or 3B001.
fn find(x: &Exec<'_>, i: usize, name: &Ident) -> Result<usize, Interrupt> {
    let key = key(x, i, name);
    x.w.sessions[i]
        .txn
        .as_ref()
        .and_then(|t| t.savepoints.iter().rposition(|(n, _)| *n == key))
        .ok_or_else(|| {
            SqlError::generic(0, 16, format!("savepoint \"{key}\" does not exist"))
                .with_sqlstate("3B001")
                .into()
        })
}

pub(super) fn set(x: &mut Exec<'_>, i: usize, name: &Ident) -> Result<Flow, Interrupt> {
    in_block(x, i, "SAVEPOINT")?;
    let key = key(x, i, name);
    if let Some(sp) = x.mark(i) {
        if let Some(t) = x.w.sessions[i].txn.as_mut() {
            t.savepoints.push((key, sp));
        }
    }
    Ok(done(CostKind::Transaction))
}

pub(super) fn roll_back_to(x: &mut Exec<'_>, i: usize, name: &Ident) -> Result<Flow, Interrupt> {
    in_block(x, i, "ROLLBACK TO SAVEPOINT")?;
    let k = find(x, i, name)?;
    let Some(sp) = x.w.sessions[i]
        .txn
        .as_ref()
        .map(|t| Rc::clone(&t.savepoints[k].1))
    else {
        return Ok(done(CostKind::Transaction));
    };
    x.roll_back_block(i, &sp);
    if let Some(t) = x.w.sessions[i].txn.as_mut() {
        t.savepoints.truncate(k + 1);
    }
    x.w.sessions[i].failed_block = false;
    Ok(done(CostKind::Transaction))
}

pub(super) fn release(x: &mut Exec<'_>, i: usize, name: &Ident) -> Result<Flow, Interrupt> {
    in_block(x, i, "RELEASE SAVEPOINT")?;
    let k = find(x, i, name)?;
    if let Some(t) = x.w.sessions[i].txn.as_mut() {
        t.savepoints.truncate(k);
    }
    Ok(done(CostKind::Transaction))
}
