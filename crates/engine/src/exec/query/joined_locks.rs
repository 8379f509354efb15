//! A row-lock clause over a join (`SELECT ... JOIN ... FOR UPDATE [OF t]`) where the
//! dialect locks only the rows a scan keeps: the join reads its tables without row
//! locks, carrying each named table's row slot through it, and the rows the query
//! returns are locked after ORDER BY, one output row at a time, until LIMIT has enough.
//! A row the join or WHERE drops is never locked or waited for; SKIP LOCKED drops an
//! output row whose row of any named table another transaction holds. (Where the dialect
//! locks as it scans, each table's scan takes its locks instead, as it does without a
//! join.)

use super::*;

/// A table of FROM that a row-lock clause names.
pub(super) struct RowLockTarget {
    /// How the join reads it: hints without the clause, its slot in a hidden column.
    pub(super) read: DmlJoin,
    /// The clause and its NOWAIT / SKIP LOCKED, as written.
    hints: Vec<TableHint>,
    mode: LockMode,
    skip_locked: bool,
    /// A transaction snapshot (REPEATABLE READ): a row changed since it is a conflict.
    snapshot: Option<u64>,
}

fn row_lock_clause(k: &HintKind) -> bool {
    matches!(
        k,
        HintKind::ForUpdate | HintKind::ForNoKeyUpdate | HintKind::ForShare | HintKind::ForKeyShare
    )
}

impl Exec<'_> {
    /// The base tables of `s`'s FROM that a row-lock clause names, with the table lock the
    /// clause takes on each; none where the dialect locks rows as it scans them.
    pub(super) fn row_lock_targets(
        &mut self,
        i: usize,
        s: &Select,
    ) -> Result<Vec<RowLockTarget>, Interrupt> {
        if !self.rules.lock_matching_rows_only() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for (k, tr) in s.from.iter().enumerate() {
            let joins = tr.joins.iter().enumerate();
            let factors =
                std::iter::once((None, &tr.factor)).chain(joins.map(|(n, j)| (Some(n), &j.factor)));
            for (n, f) in factors {
                let TableFactor::Table {
                    name, alias, hints, ..
                } = f
                else {
                    continue;
                };
                if !hints.iter().any(|h| row_lock_clause(&h.kind)) {
                    continue;
                }
                let Some(table) = self.base_table(name) else {
                    continue;
                };
                let lk = self.locking(i, hints, Purpose::Read, false)?;
                let Some(mode) = lk.row else {
                    continue;
                };
                let binding = alias
                    .as_ref()
                    .map_or_else(|| object_key(name), |a| a.value.to_ascii_lowercase());
                let read_hints = hints
                    .iter()
                    .filter(|h| {
                        !row_lock_clause(&h.kind)
                            && !matches!(h.kind, HintKind::ReadPast | HintKind::NoWait)
                    })
                    .cloned()
                    .collect();
                out.push(RowLockTarget {
                    read: DmlJoin {
                        at: (k, n),
                        table,
                        binding,
                        hints: read_hints,
                        purpose: Purpose::Read,
                        pred: None,
                    },
                    hints: hints.clone(),
                    mode,
                    skip_locked: lk.readpast,
                    snapshot: lk.snapshot,
                });
            }
        }
        // The clause's table locks come first, as the scans' intent locks do.
        for t in &out {
            let intent = match t.mode {
                LockMode::S | LockMode::ForKeyShare | LockMode::ForShare => LockMode::IS,
                _ => LockMode::IX,
            };
            let res = Resource::Object {
                table: t.read.table,
            };
            self.lock(i, res, intent, false)?;
        }
        Ok(out)
    }

    /// Locks the targets' rows of each output row in order (`projected`, sorted), keeping
    /// the rows locked until `limit` of them are; a row another transaction holds is
    /// waited for (the statement then runs again and re-reads), or dropped under SKIP
    /// LOCKED. Each output row's own source row carries the slots.
    pub(super) fn lock_joined(
        &mut self,
        i: usize,
        scope: &Scope,
        targets: &[RowLockTarget],
        projected: Vec<Projected>,
        limit: Option<usize>,
    ) -> Result<Vec<Projected>, Interrupt> {
        let slot_of: Vec<(usize, &RowLockTarget)> = targets
            .iter()
            .filter_map(|t| {
                let b = scope.bindings.iter().find(|b| {
                    b.name == t.read.binding && b.columns.last().is_some_and(|c| c == SLOT_COLUMN)
                })?;
                Some((b.offset + b.columns.len() - 1, t))
            })
            .collect();
        let mut kept = Vec::new();
        'rows: for p in projected {
            if limit.is_some_and(|n| kept.len() >= n) {
                break;
            }
            for &(at, t) in &slot_of {
                let Some(slot) = p.1[at].as_i64().map(|s| s as RowId) else {
                    continue;
                };
                let (tid, mode) = (t.read.table, t.mode);
                let res = self.key_resource(tid, slot);
                if t.skip_locked && self.skip_locked(i, tid, slot, &res, mode) {
                    continue 'rows;
                }
                self.nowait(i, &t.hints, |x| x.lock(i, res, mode, false))?;
                if let Some(seq) = t.snapshot {
                    if let Some(e) = self.changed_since(tid, slot, seq, true) {
                        return Err(e.into());
                    }
                }
            }
            kept.push(p);
        }
        Ok(kept)
    }
}
