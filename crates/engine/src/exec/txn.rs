//! Transactions: begun implicitly or explicitly, committed (publishing their rows and
//! releasing their locks) or rolled back with their undo log.

use super::Exec;
use crate::event::{Event, ReleaseReason};
use crate::state::locks::OwnerId;
use crate::state::session::Txn;
use crate::state::storage::TxnId;

impl Exec<'_> {
    /// The transaction the session's work belongs to, begun (autocommit) if there is none.
    pub(crate) fn ensure_txn(&mut self, i: usize) -> TxnId {
        if let Some(t) = &self.w.sessions[i].txn {
            return t.id;
        }
        let id = self.w.alloc_owner();
        self.w.owners.insert(id, i);
        // Chained transactions (ANSI session mode): it lasts until COMMIT or ROLLBACK (T5).
        let ansi = self.w.tracing && self.w.sessions[i].chained_txns;
        self.w.sessions[i].txn = Some(Txn {
            id,
            explicit: ansi,
            snapshot_seq: None,
            ssi: None,
            saved_options: None,
            options_at_start: None,
            batch: self.w.sessions[i].batch,
            undo: Vec::new(),
            rows_written: 0,
            began_explicit: ansi,
            consumes: 0,
            began_at: self.w.sessions[i].statement_at,
            doomed: false,
            queried: false,
            savepoints: Vec::new(),
            escalated: false,
        });
        if ansi {
            self.w.sessions[i].tran_count = 1;
        }
        self.w.sessions[i].undo_mark = 0;
        id
    }

    pub(crate) fn begin_explicit(&mut self, i: usize) {
        if self.w.sessions[i].txn.is_none() {
            let id = self.w.alloc_owner();
            self.w.owners.insert(id, i);
            self.w.sessions[i].txn = Some(Txn {
                id,
                explicit: true,
                snapshot_seq: None,
                ssi: None,
                saved_options: None,
                options_at_start: None,
                batch: self.w.sessions[i].batch,
                undo: Vec::new(),
                rows_written: 0,
                began_explicit: true,
                consumes: 0,
                began_at: self.w.sessions[i].statement_at,
                doomed: false,
                queried: false,
                savepoints: Vec::new(),
                escalated: false,
            });
            let name = self.w.sessions[i].name.clone();
            self.push(Event::TransactionBegan {
                session: name,
                explicit: true,
            });
        } else if let Some(t) = self.w.sessions[i].txn.as_mut() {
            t.explicit = true;
            t.began_explicit = true;
        }
        self.w.sessions[i].tran_count += 1;
    }

    pub(crate) fn commit(&mut self, i: usize) {
        let Some(mut txn) = self.w.sessions[i].txn.take() else {
            return;
        };
        self.w.sessions[i].tran_count = 0;
        if let Some(o) = txn.saved_options.take() {
            self.w.sessions[i].options = *o;
        }
        if let Some(t) = &mut self.out.touched {
            t.written.extend(
                txn.undo
                    .iter()
                    .filter(|u| u.is_row())
                    .map(|u| (u.table, u.slot)),
            );
        }
        // Rows this commit adds to queue tables (T3: they wake delayed consumers).
        let mut arrived: Vec<(u32, bool)> = Vec::new();
        if let Some(me) = txn.ssi {
            if let Some(t) = &mut self.out.touched {
                t.ssi = true;
            }
            let seq = (!txn.undo.is_empty()).then_some(self.w.db.commit_seq + 1);
            self.w.ssi.commit(me, seq);
        }
        if !txn.undo.is_empty() {
            self.w.db.commit_seq += 1;
            let seq = self.w.db.commit_seq;
            // A row written twice is listed twice: its second commit_slot finds no
            // uncommitted version left and does nothing, so no set of seen rows is needed.
            for u in txn.undo.iter().filter(|u| u.is_row()) {
                if let Some(t) = self.w.db.tables.get_mut(u.table as usize) {
                    if let Some(inserted) = t.commit_slot(u.slot, seq) {
                        // Only rows that arrive in a queue count (`rows_by_table`).
                        if t.queue && inserted {
                            arrived.push((u.table, true));
                        }
                    }
                }
            }
        }
        // The commit is announced before its releases wake the waiters.
        if txn.began_explicit {
            let name = self.w.sessions[i].name.clone();
            let (locks_released, intent_locks) = self.lock_counts(i, txn.id);
            self.push(Event::TransactionCommitted {
                session: name,
                locks_released,
                intent_locks,
                pages: true,
            });
        }
        self.release_owner(i, txn.id, ReleaseReason::Commit);
        let rules = self.rules;
        for (table, rows) in rows_by_table(&arrived) {
            rules.rows_arrived(self, table, rows);
        }
    }

    pub(crate) fn rollback(&mut self, i: usize, why: &str) {
        if self.w.sessions[i].txn.is_none() {
            return;
        }
        // Rows a rollback puts back into queue tables (T5: consumed rows return).
        let returned: Vec<(u32, bool)> = self.w.sessions[i]
            .txn
            .as_ref()
            .map(|t| {
                t.undo
                    .iter()
                    .filter(|u| u.is_row() && u.prev.is_none())
                    .map(|u| {
                        // A slot a later TRUNCATE or DROP removed is no row to return.
                        let table = &self.w.db.tables[u.table as usize];
                        let returns = table.slots.get(u.slot).is_some_and(|slot| {
                            slot.latest_committed().is_some()
                                && matches!(slot.pending, Some((_, None)))
                        });
                        (u.table, table.queue && returns)
                    })
                    .collect()
            })
            .unwrap_or_default();
        if let (Some(t), Some(txn)) = (&mut self.out.touched, &self.w.sessions[i].txn) {
            t.written.extend(
                txn.undo
                    .iter()
                    .filter(|u| u.is_row())
                    .map(|u| (u.table, u.slot)),
            );
        }
        self.undo_to(i, 0);
        let Some(mut txn) = self.w.sessions[i].txn.take() else {
            return;
        };
        if let Some(me) = txn.ssi {
            if let Some(t) = &mut self.out.touched {
                t.ssi = true;
            }
            self.w.ssi.rollback(me);
        }
        self.w.sessions[i].tran_count = 0;
        if let Some(o) = txn.saved_options.take() {
            self.w.sessions[i].options = *o;
        }
        if let Some(o) = txn.options_at_start.take() {
            self.w.sessions[i].options = *o;
        }
        let name = self.w.sessions[i].name.clone();
        let (locks_released, intent_locks) = self.lock_counts(i, txn.id);
        self.push(Event::TransactionRolledBack {
            session: name,
            locks_released,
            intent_locks,
            why: why.to_string(),
            pages: true,
        });
        self.release_owner(i, txn.id, ReleaseReason::Rollback);
        let rules = self.rules;
        for (table, rows) in rows_by_table(&returned) {
            rules.rows_arrived(self, table, rows);
        }
    }

    /// The locks session `i`'s transaction `owner` releases as it ends, and how many of
    /// them are intent locks (on tables and pages), which `release_owner` does not list.
    /// A statement's transient locks, granted and released without events, are not
    /// counted, nor are the locks the dialect does not show (`Rules::shows_lock`).
    fn lock_counts(&self, i: usize, owner: OwnerId) -> (usize, usize) {
        let transient = &self.w.sessions[i].statement_locks;
        let locks = self.w.locks.locks_of(owner);
        let shown = locks
            .iter()
            .filter(|(res, mode)| !transient.contains(res) && self.rules.shows_lock(res, *mode));
        let (mut all, mut intent) = (0, 0);
        for (_, mode) in shown {
            all += 1;
            intent += mode.is_intent() as usize;
        }
        (all, intent)
    }

    pub(crate) fn release_owner(&mut self, i: usize, owner: OwnerId, reason: ReleaseReason) {
        if self.recording() {
            let name = self.w.sessions[i].name.clone();
            // A statement's transient locks (a unique check's S on the clashing key)
            // were granted without an event; an error that ends the transaction before
            // the statement ends must not show their release either.
            for (res, mode) in &self.w.locks.locks_of(owner) {
                let transient = self.w.sessions[i].statement_locks.contains(res);
                if !mode.is_intent() && !transient && self.rules.shows_lock(res, *mode) {
                    let resource = self.w.resource_text(res);
                    self.push(Event::LockReleased {
                        session: name.clone(),
                        resource,
                        mode: *mode,
                        reason,
                        mode_name: None,
                    });
                }
            }
        }
        let grants = self.w.locks.release_all(owner, |_| true);
        self.w.owners.remove(&owner);
        self.w.sessions[i].statement_locks.clear();
        self.wake(grants);
    }

    /// The current statement is over (or waits): its transient locks go.
    pub(crate) fn release_statement_locks(&mut self, i: usize) {
        let mut list = std::mem::take(&mut self.w.sessions[i].statement_locks);
        if let Some(owner) = self.w.sessions[i].txn.as_ref().map(|t| t.id) {
            for res in list.drain(..) {
                let grants = self.w.locks.release(owner, &res);
                self.wake(grants);
            }
        }
        // The emptied list goes back, so the next statement's locks reuse its buffer.
        list.clear();
        let s = &mut self.w.sessions[i];
        if s.statement_locks.is_empty() {
            s.statement_locks = list;
        }
    }
}

/// Rows per queue table that a transaction's undo log shows as inserted (for waking
/// delayed consumers at commit) or as consumed (for waking them at rollback).
fn rows_by_table(entries: &[(u32, bool)]) -> Vec<(u32, usize)> {
    let mut out: Vec<(u32, usize)> = Vec::new();
    for (t, counts) in entries {
        if !counts {
            continue;
        }
        match out.iter_mut().find(|(x, _)| x == t) {
            Some((_, n)) => *n += 1,
            None => out.push((*t, 1)),
        }
    }
    out
}
