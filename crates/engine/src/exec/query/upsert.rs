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

/// A row an upsert updated: its version before and after.
type Replaced = (Vec<Value>, Vec<Value>);

impl Exec<'_> {
    /// DO NOTHING: the proposed row is left out, but a transaction snapshot that cannot
    /// see the row holding the key (committed since it was taken) fails with 40001, as
    /// the server's visibility check of that row does.
    pub(super) fn conflict_nothing(
        &mut self,
        i: usize,
        tid: u32,
        clash: &SqlError,
        proposed: &[Value],
    ) -> Result<(), Interrupt> {
        let Some(slot) = self.holder_of_key(tid, clash, proposed) else {
            return Ok(());
        };
        let Some(old) = self.w.db.tables[tid as usize].slots[slot].latest().cloned() else {
            return Ok(());
        };
        self.check_snapshot_writes(i, tid, &[(slot, old, None)])
    }

    /// Updates the row that `clash` (an arbiter's unique violation) names with the
    /// proposed row `proposed`; its old and new versions when written, `None` when DO
    /// UPDATE's WHERE left it alone (still locked, as on the server).
    pub(super) fn conflict_update(
        &mut self,
        i: usize,
        tid: u32,
        up: &mut Upsert,
        clash: &SqlError,
        proposed: &[Value],
    ) -> Result<Option<Replaced>, Interrupt> {
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
        self.write_located(
            i,
            tid,
            slot,
            &old,
            Some(new.clone()),
            &targets,
            up.hints,
            cl_depth,
        )?;
        Ok(Some((old, new)))
    }

    /// The row of `tid` whose values in the clashing key's columns (as `clash` names
    /// them) equal `proposed`'s, and which is in the clashing index (a partial index
    /// holds only the rows its predicate takes).
    fn holder_of_key(&self, tid: u32, clash: &SqlError, proposed: &[Value]) -> Option<RowId> {
        let t = &self.w.db.tables[tid as usize];
        let index = crate::error::quoted_after(&clash.message, " index '").and_then(|name| {
            t.indexes
                .iter()
                .find(|ix| ix.name.eq_ignore_ascii_case(name))
        });
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
                    && index.is_none_or(|ix| t.filter_passes(ix, r))
            })
        })
    }

    /// The server's arbiter inference, done before any row is proposed: `ON CONFLICT
    /// (columns) [WHERE predicate]` needs a unique index (the primary key among them)
    /// on exactly those columns, in any order, and a partial one only when the
    /// predicate's AND-ed parts include its own (42P10 otherwise); `ON CONSTRAINT name`
    /// needs a constraint of that name, which an index made by CREATE UNIQUE INDEX is
    /// not (42704).
    pub(super) fn check_arbiters(
        &self,
        tid: u32,
        c: &sql::ast::OnConflict,
    ) -> crate::error::Fallible<()> {
        let t = &self.w.db.tables[tid as usize];
        if let Some(name) = &c.constraint {
            let named = |n: &str| n.eq_ignore_ascii_case(&name.value);
            let found = t.pk_name.as_deref().is_some_and(named)
                || t.indexes.iter().any(|ix| ix.constraint && named(&ix.name));
            if found {
                return Ok(());
            }
            return Err(SqlError::generic(
                0,
                16,
                format!(
                    "constraint \"{}\" for table \"{}\" does not exist",
                    name.value, t.name
                ),
            )
            .with_sqlstate("42704")
            .into());
        }
        if c.columns.is_empty() {
            return Ok(());
        }
        let mut wanted = Vec::with_capacity(c.columns.len());
        for name in &c.columns {
            let col = t
                .column(&name.value)
                .ok_or_else(|| SqlError::invalid_column(&name.value))?;
            if !wanted.contains(&col) {
                wanted.push(col);
            }
        }
        let same_columns = |cols: &mut dyn Iterator<Item = usize>| {
            let cols: Vec<usize> = cols.collect();
            cols.len() == wanted.len() && cols.iter().all(|c| wanted.contains(c))
        };
        let implied: Vec<String> = c
            .index_where
            .iter()
            .flat_map(|w| conjuncts(w))
            .flat_map(crate::syntax::canonical_forms)
            .collect();
        let primary =
            !t.key.is_empty() && t.pk_name.is_some() && same_columns(&mut t.key.iter().copied());
        let unique = t.indexes.iter().any(|ix| {
            ix.unique
                && same_columns(&mut ix.columns.iter().map(|&(c, _)| c))
                && (ix.filter.is_none() || ix.filter_canon.iter().all(|f| implied.contains(f)))
        });
        if primary || unique {
            Ok(())
        } else {
            Err(SqlError::generic(
                0,
                16,
                "there is no unique or exclusion constraint matching the ON CONFLICT specification",
            )
            .with_sqlstate("42P10")
            .into())
        }
    }
}
