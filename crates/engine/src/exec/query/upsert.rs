//! `INSERT ... ON CONFLICT (...) DO UPDATE SET ... [WHERE ...]`: a proposed row that an
//! arbiter index already holds updates the row holding it. The arbiter check before it
//! has waited for an uncommitted holder of the key, so the row found is committed (or
//! this transaction's own); it is locked and written as an UPDATE writes, its new
//! values computed from the row (by the table's name or alias) and the proposed row
//! (`EXCLUDED`).

use super::*;

/// What one statement's DO UPDATE needs for each conflicting row.
pub(super) struct Upsert<'a> {
    pub update: &'a sql::ast::ConflictUpdate,
    /// The target's name in expressions: its alias, or the table's name.
    pub binding: String,
    pub hints: &'a [TableHint],
    /// Rows this statement already updated: a second hit is an error (21000).
    pub touched: Vec<RowId>,
    /// The table's first slot this statement's inserts may take: a row past it was
    /// inserted by this statement, and hitting it is that error too.
    pub first_new_slot: RowId,
}

impl Exec<'_> {
    /// Updates the row that `clash` (an arbiter's unique violation) names with the
    /// proposed row `proposed`; its new version when written, `None` when DO UPDATE's
    /// WHERE left it alone (still locked, as on the server).
    pub(super) fn conflict_update(
        &mut self,
        i: usize,
        tid: u32,
        up: &mut Upsert,
        clash: &SqlError,
        proposed: &[Value],
    ) -> Result<Option<Vec<Value>>, Interrupt> {
        let slot = self
            .holder_of_key(tid, clash, proposed)
            .ok_or_else(|| SqlError::not_simulated("ON CONFLICT DO UPDATE on this index"))?;
        if up.touched.contains(&slot) || slot >= up.first_new_slot {
            return Err(SqlError::generic(
                0,
                16,
                "ON CONFLICT DO UPDATE command cannot affect row a second time",
            )
            .with_sqlstate("21000")
            .into());
        }
        let old = self.w.db.tables[tid as usize].slots[slot]
            .latest()
            .cloned()
            .ok_or_else(|| SqlError::not_simulated("ON CONFLICT DO UPDATE of a deleted row"))?;
        // A transaction snapshot may not update a row changed since (40001).
        self.check_snapshot_writes(i, tid, &[(slot, old.clone(), None)])?;
        let mut scope = Scope::default();
        let columns = Rc::clone(&self.w.db.tables[tid as usize].column_names);
        let table = self.w.db.tables[tid as usize].name.to_ascii_lowercase();
        scope.push(up.binding.clone(), Some(table), Rc::clone(&columns));
        scope.push("excluded".into(), None, columns);
        let mut row = old.clone();
        row.extend(proposed.iter().cloned());
        let ctx = RowCtx {
            scope: &scope,
            row: &row,
            outer: None,
            group: None,
        };
        up.touched.push(slot);
        if let Some(w) = &up.update.where_clause {
            if !self.eval(i, w, Some(&ctx))?.is_true() {
                // Locked all the same: the server locks the row before it checks.
                let mode = self.rules.write_row_lock(false).unwrap_or(LockMode::X);
                let res = self.key_resource(tid, slot);
                self.nowait(i, up.hints, |x| x.lock(i, res, mode, false))?;
                return Ok(None);
            }
        }
        let targets = self.assignment_targets(tid, &up.update.assignments);
        let new = self.assigned_row(i, tid, &up.update.assignments, &targets, &ctx, &old)?;
        let cl_depth = self.cl_depth(tid);
        self.write_located(i, tid, slot, &old, Some(new.clone()), up.hints, cl_depth)?;
        Ok(Some(new))
    }

    /// The row of `tid` whose values in the clashing key's columns (as `clash` names
    /// them) equal `proposed`'s.
    fn holder_of_key(&self, tid: u32, clash: &SqlError, proposed: &[Value]) -> Option<RowId> {
        let t = &self.w.db.tables[tid as usize];
        let (names, _) = clash.key.as_deref()?;
        let cols: Vec<usize> = names
            .split(", ")
            .map(|n| {
                t.columns
                    .iter()
                    .position(|c| c.name.eq_ignore_ascii_case(n))
            })
            .collect::<Option<_>>()?;
        t.slots.iter().position(|s| {
            s.latest().is_some_and(|r| {
                cols.iter()
                    .all(|&c| compare(&r[c], &proposed[c]) == Some(Ordering::Equal))
            })
        })
    }
}
