//! Foreign keys. A row that references another is checked at the end of the statement
//! that wrote it: the referenced row must exist, and the check locks it FOR KEY SHARE,
//! so deleting it or changing its key waits for the referencing transaction. Deleting a
//! referenced row or changing its key then does the key's action: NO ACTION and
//! RESTRICT refuse while a row references it; CASCADE, SET NULL and SET DEFAULT write
//! the referencing rows. Each check and action is a statement of its own over variables
//! that hold the key (the server's referential-integrity triggers run such queries), so
//! it reads, locks, waits and re-checks as any statement does.

use sql::ast::{CreateTable, DataType, Ident, RefAction, StmtKind, TableConstraintKind};

use crate::error::{SqlError, FOREIGN_KEY_VIOLATION};
use crate::exec::{Exec, Interrupt};
use crate::state::storage::{identical, Column, ForeignKey, Table};
use crate::value::Value;

pub(crate) use crate::state::storage::Written;

/// How deep actions may cascade (a cycle of ON UPDATE CASCADE keys would not end).
const MAX_CASCADE: usize = 16;

impl Exec<'_> {
    /// The foreign keys `ct` declares, resolved against the tables; `t` is the table
    /// being created, with id `id` (a key may reference its own table).
    pub(crate) fn declared_foreign_keys(
        &self,
        ct: &CreateTable,
        t: &Table,
        id: u32,
    ) -> Result<Vec<ForeignKey>, SqlError> {
        let mut declared = Vec::new();
        for c in &ct.columns {
            if let Some((name, fk)) = &c.references {
                declared.push((name.as_ref(), vec![&c.name], fk));
            }
        }
        for con in &ct.constraints {
            if let TableConstraintKind::ForeignKey(fk) = &con.kind {
                declared.push((con.name.as_ref(), fk.columns.iter().collect(), fk));
            }
        }
        let mut out: Vec<ForeignKey> = Vec::new();
        for (name, columns, fk) in declared {
            let column = |table: &Table, n: &Ident| {
                table.column(&n.value).ok_or_else(|| {
                    SqlError::generic(
                        0,
                        16,
                        format!(
                            "column \"{}\" referenced in foreign key constraint does not exist",
                            n.value
                        ),
                    )
                    .with_sqlstate("42703")
                })
            };
            let columns = (columns.iter().map(|n| column(t, n))).collect::<Result<Vec<_>, _>>()?;
            let own = self.w.db.key(&crate::exec::stmt::object_key(&fk.table))
                == self.w.db.key(&crate::exec::stmt::object_key(&ct.name));
            let parent_id = if own { id } else { self.table_id(&fk.table)? };
            let parent = if own {
                t
            } else {
                &self.w.db.tables[parent_id as usize]
            };
            let no_match = |what: String| SqlError::generic(0, 16, what).with_sqlstate("42830");
            let parent_columns = if fk.ref_columns.is_empty() {
                if parent.key.is_empty() {
                    return Err(SqlError::generic(
                        0,
                        16,
                        format!(
                            "there is no primary key for referenced table \"{}\"",
                            parent.name
                        ),
                    )
                    .with_sqlstate("42704"));
                }
                parent.key.clone()
            } else {
                (fk.ref_columns.iter().map(|n| column(parent, n))).collect::<Result<Vec<_>, _>>()?
            };
            // The referenced columns are a primary key's or a unique index's (without a
            // filter), in any order.
            let same = |cols: &mut dyn Iterator<Item = usize>| {
                let cols: Vec<usize> = cols.collect();
                cols.len() == parent_columns.len()
                    && cols.iter().all(|c| parent_columns.contains(c))
            };
            let unique = same(&mut parent.key.iter().copied())
                || (parent.indexes.iter())
                    .filter(|ix| ix.unique && ix.filter.is_none())
                    .any(|ix| same(&mut ix.columns.iter().map(|&(c, _)| c)));
            if !unique {
                return Err(no_match(format!(
                    "there is no unique constraint matching given keys for referenced table \"{}\"",
                    parent.name
                )));
            }
            if parent_columns.len() != columns.len() {
                return Err(no_match(
                    "number of referencing and referenced columns for foreign key disagree".into(),
                ));
            }
            let name = match name {
                Some(n) => n.value.clone(),
                None => {
                    let names: Vec<&str> = columns.iter().map(|&c| &*t.columns[c].name).collect();
                    let base = format!("{}_{}_fkey", t.name, names.join("_"));
                    let taken = |n: &str| out.iter().any(|f| f.name == n);
                    (0..)
                        .map(|k| match k {
                            0 => base.clone(),
                            k => format!("{base}{k}"),
                        })
                        .find(|n| !taken(n))
                        .unwrap_or(base)
                }
            };
            // Each referencing column must convert implicitly to its referenced column's
            // type for that column's index to compare them: integers with integers,
            // text with text, times with times, and a number up to a wider kind
            // (integer to numeric to double precision), not down (42804).
            for (&c, &p) in columns.iter().zip(&parent_columns) {
                let (a, b) = (&t.columns[c].ty, &parent.columns[p].ty);
                let (fa, fb) = (type_family(a), type_family(b));
                if fa != fb && !(fa < fb && fb <= 3) {
                    return Err(SqlError::generic(
                        0,
                        16,
                        format!(
                            "foreign key constraint \"{name}\" cannot be implemented (DETAIL: Key columns \"{}\" and \"{}\" are of incompatible types: {} and {}.)",
                            t.columns[c].name,
                            parent.columns[p].name,
                            self.rules.type_name(a),
                            self.rules.type_name(b)
                        ),
                    )
                    .with_sqlstate("42804"));
                }
            }
            out.push(ForeignKey {
                name,
                columns,
                parent: parent_id,
                parent_columns,
                on_delete: fk.on_delete,
                on_update: fk.on_update,
            });
        }
        Ok(out)
    }

    /// The live tables whose foreign keys reference `tid`, each key with its table.
    fn referencing(&self, tid: u32) -> Vec<(u32, ForeignKey)> {
        let mut out = Vec::new();
        for &child in self.w.db.names.values() {
            let t = &self.w.db.tables[child as usize];
            for fk in t.foreign_keys.iter().filter(|fk| fk.parent == tid) {
                out.push((child, fk.clone()));
            }
        }
        out.sort_by_key(|(child, fk)| (*child, fk.name.clone()));
        out
    }

    /// Why `tid` cannot be dropped or emptied: the other live tables whose foreign keys
    /// reference it, each with its key's name.
    pub(crate) fn referenced_by(&self, tid: u32) -> Vec<(String, String)> {
        if !self.w.db.tables[tid as usize].referenced {
            return Vec::new();
        }
        (self.referencing(tid).into_iter())
            .filter(|(child, _)| *child != tid)
            .map(|(child, fk)| (self.w.db.tables[child as usize].name.to_string(), fk.name))
            .collect()
    }

    /// Whether writes to `tid` have foreign keys to keep: its own, or others' on it.
    #[inline]
    pub(crate) fn has_foreign_keys(&self, tid: u32) -> bool {
        let t = &self.w.db.tables[tid as usize];
        !t.foreign_keys.is_empty() || t.referenced
    }

    /// At the end of a statement that wrote `rows` of `tid`: each referenced key that a
    /// row deleted or changed does its action, and each row's own references are checked.
    pub(crate) fn keep_foreign_keys(
        &mut self,
        i: usize,
        tid: u32,
        rows: &[Written],
    ) -> Result<(), Interrupt> {
        if let Some(deferred) = self.w.deferred_keys.as_mut() {
            deferred.push((tid, rows.to_vec()));
            return Ok(());
        }
        if self.w.query_depth >= MAX_CASCADE {
            return Err(SqlError::nested_too_deeply().into());
        }
        self.w.query_depth += 1;
        let r = self.keep_foreign_keys_inner(i, tid, rows);
        self.w.query_depth -= 1;
        r
    }

    /// Runs a statement (`body`) whose WITH changes data, its foreign keys kept at its
    /// very end, after the WITH's statements and its own, as the server fires them: a
    /// WITH that deletes a job's runs lets the statement delete the job.
    pub(crate) fn keeping_keys_at_end<T>(
        &mut self,
        i: usize,
        body: impl FnOnce(&mut Self) -> Result<T, Interrupt>,
    ) -> Result<T, Interrupt> {
        if self.w.deferred_keys.is_some() {
            return body(self);
        }
        self.w.deferred_keys = Some(Vec::new());
        let r = body(self);
        let deferred = self.w.deferred_keys.take().unwrap_or_default();
        let r = r?;
        for (tid, rows) in deferred {
            self.keep_foreign_keys(i, tid, &rows)?;
        }
        Ok(r)
    }

    fn keep_foreign_keys_inner(
        &mut self,
        i: usize,
        tid: u32,
        rows: &[Written],
    ) -> Result<(), Interrupt> {
        let referencing = if self.w.db.tables[tid as usize].referenced {
            self.referencing(tid)
        } else {
            Vec::new()
        };
        let own = std::rc::Rc::clone(&self.w.db.tables[tid as usize].foreign_keys);
        for (before, after) in rows {
            if let Some(old) = before {
                for (child, fk) in &referencing {
                    let key: Vec<Value> =
                        fk.parent_columns.iter().map(|&c| old[c].clone()).collect();
                    let new_key: Option<Vec<Value>> = after
                        .as_ref()
                        .map(|new| fk.parent_columns.iter().map(|&c| new[c].clone()).collect());
                    let changed = new_key
                        .as_ref()
                        .is_none_or(|n| n.iter().zip(&key).any(|(a, b)| !identical(a, b)));
                    if changed && !key.iter().any(Value::is_null) {
                        self.referenced_key_gone(i, tid, *child, fk, &key, new_key.as_deref())?;
                    }
                }
            }
            if let Some(new) = after {
                for fk in own.iter() {
                    let key: Vec<Value> = fk.columns.iter().map(|&c| new[c].clone()).collect();
                    let unchanged = before
                        .as_ref()
                        .is_some_and(|old| fk.columns.iter().all(|&c| identical(&old[c], &new[c])));
                    // MATCH SIMPLE: a key with a NULL in it references nothing.
                    if !unchanged && !key.iter().any(Value::is_null) {
                        self.check_reference(i, tid, fk, &key)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// A referencing row's check: the referenced row exists (as of now, not the
    /// statement's start) and is locked FOR KEY SHARE; else 23503.
    fn check_reference(
        &mut self,
        i: usize,
        tid: u32,
        fk: &ForeignKey,
        key: &[Value],
    ) -> Result<(), Interrupt> {
        self.checked(i, fk, tid, fk.parent, key, None);
        if self.count_key(i, fk.parent, &fk.parent_columns, key, true, Snapshot::Fresh)? > 0 {
            return Ok(());
        }
        let t = &self.w.db.tables[tid as usize];
        let (columns, values) = key_text(&t.column_names, &fk.columns, key);
        Err(SqlError::generic(
            FOREIGN_KEY_VIOLATION,
            16,
            format!(
                "insert or update on table \"{}\" violates foreign key constraint \"{}\" (DETAIL: Key ({columns})=({values}) is not present in table \"{}\".)",
                t.name, fk.name, self.w.db.tables[fk.parent as usize].name
            ),
        )
        .with_sqlstate("23503")
        .into())
    }

    /// A referenced row of `tid` deleted (`new_key` None) or its key changed: the
    /// referencing rows of `child` hold it back or follow, by the key's action. The
    /// action's statement reads the rows as of now, as the server's does; under
    /// REPEATABLE READ a referencing row its snapshot does not see is 40001.
    fn referenced_key_gone(
        &mut self,
        i: usize,
        tid: u32,
        child: u32,
        fk: &ForeignKey,
        key: &[Value],
        new_key: Option<&[Value]>,
    ) -> Result<(), Interrupt> {
        let action = match new_key {
            None => fk.on_delete,
            Some(_) => fk.on_update,
        };
        let effect = match (action, new_key) {
            (RefAction::NoAction | RefAction::Restrict, _) => "must not remain",
            (RefAction::Cascade, None) => "are deleted too",
            (RefAction::Cascade, Some(_)) => "take its new key",
            (RefAction::SetNull, _) => "are set to NULL",
            (RefAction::SetDefault, _) => "are set to their default",
        };
        let a = crate::event::KeyAction {
            on: if new_key.is_none() {
                "DELETE"
            } else {
                "UPDATE"
            },
            name: action.keyword(),
            effect,
        };
        self.checked(i, fk, tid, child, key, Some(a));
        if matches!(action, RefAction::NoAction | RefAction::Restrict) {
            return self.still_referenced(i, tid, child, fk, key, action == RefAction::Restrict);
        }
        let c = &self.w.db.tables[child as usize];
        let (c_name, c_names, c_columns) = (
            c.name.clone(),
            std::rc::Rc::clone(&c.column_names),
            std::rc::Rc::clone(&c.columns),
        );
        let table = quote(&c_name);
        let wh = matching("", &c_names, &fk.columns, 0);
        let keyed = typed(&c_columns, &fk.columns, key);
        if self.snapshot_isolation(i) {
            let rows = format!("SELECT * FROM {table} x WHERE {}", {
                matching("x.", &c_names, &fk.columns, 0)
            });
            let now = self.key_query(i, &rows, keyed.clone(), Vec::new(), Snapshot::Latest)?;
            let seen = self.key_query(i, &rows, keyed.clone(), Vec::new(), Snapshot::Statement)?;
            if now.1.iter().any(|r| !seen.1.contains(r)) {
                let e = SqlError::snapshot_update_conflict(&c_name);
                return Err(self.rules.update_conflict(e, false).into());
            }
        }
        // SET DEFAULT writes each column's default (NULL without one), as of now.
        let mut values = Vec::new();
        match action {
            RefAction::Cascade => values.extend(new_key.unwrap_or(&[]).iter().cloned()),
            RefAction::SetDefault => {
                for &col in &fk.columns {
                    values.push(match &c_columns[col].default {
                        Some(e) => self.eval(i, e, None)?,
                        None => Value::Null,
                    });
                }
            }
            _ => {}
        }
        let set = (fk.columns.iter().enumerate())
            .map(|(k, &col)| match action {
                RefAction::SetNull => format!("{} = NULL", quote(&c_names[col])),
                _ => format!("{} = ri$new{}", quote(&c_names[col]), k + 1),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let sql = match (action, new_key) {
            (RefAction::Cascade, None) => format!("DELETE FROM {table} WHERE {wh}"),
            _ => format!("UPDATE {table} SET {set} WHERE {wh}"),
        };
        let new = typed(&c_columns, &fk.columns, &values);
        self.key_query(i, &sql, keyed, new, Snapshot::Latest)?;
        // A default equal to the key leaves the rows referencing it: NO ACTION's check.
        if action == RefAction::SetDefault {
            self.still_referenced(i, tid, child, fk, key, false)?;
        }
        Ok(())
    }

    /// The trace's line for a check of `fk` by a statement that wrote `table`, reading
    /// `reads` (`action`: see [`Event::ForeignKeyChecked`]).
    fn checked(
        &mut self,
        i: usize,
        fk: &ForeignKey,
        table: u32,
        reads: u32,
        key: &[Value],
        action: Option<crate::event::KeyAction>,
    ) {
        if !self.recording() {
            return;
        }
        let key = (key.iter().map(Value::to_string))
            .collect::<Vec<_>>()
            .join(", ");
        self.push(crate::event::Event::ForeignKeyChecked {
            session: self.w.sessions[i].name.clone(),
            constraint: fk.name.as_str().into(),
            table: self.w.db.tables[table as usize].name.clone(),
            reads: self.w.db.tables[reads as usize].name.clone(),
            key,
            action,
        });
    }

    /// NO ACTION and RESTRICT: a row of `child` still referencing `key` (as of now,
    /// locked FOR KEY SHARE) fails the statement with 23503. NO ACTION (`restrict`
    /// false) lets it through when another row of `tid` now holds the key.
    fn still_referenced(
        &mut self,
        i: usize,
        tid: u32,
        child: u32,
        fk: &ForeignKey,
        key: &[Value],
        restrict: bool,
    ) -> Result<(), Interrupt> {
        if !restrict
            && self.count_key(i, tid, &fk.parent_columns, key, false, Snapshot::Latest)? > 0
        {
            return Ok(());
        }
        if self.count_key(i, child, &fk.columns, key, true, Snapshot::Latest)? == 0 {
            return Ok(());
        }
        let (p, c) = (
            &self.w.db.tables[tid as usize],
            &self.w.db.tables[child as usize],
        );
        let (columns, values) = key_text(&p.column_names, &fk.parent_columns, key);
        Err(SqlError::generic(
            FOREIGN_KEY_VIOLATION,
            16,
            format!(
                "update or delete on table \"{}\" violates foreign key constraint \"{}\" on table \"{}\" (DETAIL: Key ({columns})=({values}) is still referenced from table \"{}\".)",
                p.name, fk.name, c.name, c.name
            ),
        )
        .with_sqlstate("23503")
        .into())
    }

    /// How many rows of `table` hold `key` in `columns`, read as `snapshot` says and
    /// locked FOR KEY SHARE when `lock`.
    fn count_key(
        &mut self,
        i: usize,
        table: u32,
        columns: &[usize],
        key: &[Value],
        lock: bool,
        snapshot: Snapshot,
    ) -> Result<usize, Interrupt> {
        let t = &self.w.db.tables[table as usize];
        let sql = format!(
            "SELECT 1 FROM {} x WHERE {}{}",
            quote(&t.name),
            matching("x.", &t.column_names, columns, 0),
            if lock { " FOR KEY SHARE" } else { "" }
        );
        let typed = typed(&t.columns, columns, key);
        Ok(self.key_query(i, &sql, typed, Vec::new(), snapshot)?.0)
    }

    /// Whether session `i` reads through a transaction's snapshot (REPEATABLE READ).
    fn snapshot_isolation(&self, i: usize) -> bool {
        self.rules.isolation(self.w.sessions[i].options.isolation)
            == sql::ast::IsolationLevel::Snapshot
    }

    /// Runs `sql` with `key` in the variables `ri$1`... and `new_key` in `ri$new1`...,
    /// read as `snapshot` says: a SELECT's row count and rows, or a write's count.
    fn key_query(
        &mut self,
        i: usize,
        sql: &str,
        key: Vec<(DataType, Value)>,
        new_key: Vec<(DataType, Value)>,
        snapshot: Snapshot,
    ) -> Result<(usize, Vec<Vec<Value>>), Interrupt> {
        let vars: Vec<(String, (DataType, Value))> = (key.into_iter().enumerate())
            .map(|(k, v)| (format!("ri${}", k + 1), v))
            .chain((new_key.into_iter().enumerate()).map(|(k, v)| (format!("ri$new{}", k + 1), v)))
            .collect();
        let names: Vec<String> = vars.iter().map(|(n, _)| n.clone()).collect();
        let stmt = sql::parse_statement_with_vars(sql, self.rules.parser(), &names)
            .map_err(|e| SqlError::not_simulated(&format!("a foreign key's query ({e})")))?;
        let frame = self.w.sessions[i].frames.len().saturating_sub(1);
        let hidden: Vec<(String, Option<(DataType, Value)>)> = (vars.into_iter())
            .map(|(n, v)| {
                let name = format!("@{n}");
                let before = (self.w.sessions[i].frames.get_mut(frame))
                    .and_then(|f| f.vars.insert(name.clone(), v));
                (name, before)
            })
            .collect();
        let s = &mut self.w.sessions[i];
        let (statement_seq, isolation, reads) =
            (s.statement_seq, s.options.isolation, self.w.query_reads);
        match snapshot {
            Snapshot::Statement => {}
            Snapshot::Fresh => {
                s.statement_seq = *s.check_seq.get_or_insert(self.w.db.commit_seq);
            }
            Snapshot::Latest => s.statement_seq = self.w.db.commit_seq,
        }
        if snapshot == Snapshot::Latest {
            s.options.isolation = sql::ast::IsolationLevel::ReadCommitted;
        }
        let r = match &stmt.kind {
            StmtKind::Select(s) => self
                .run_select(i, s, None)
                .map(|out| (out.rows.len(), out.rows)),
            StmtKind::Delete(d) => self
                .exec_delete(i, d)
                .map(|f| (f.rows_written(), Vec::new())),
            StmtKind::Update(u) => self
                .exec_update(i, u)
                .map(|f| (f.rows_written(), Vec::new())),
            _ => Err(SqlError::not_simulated("a foreign key's query").into()),
        };
        let s = &mut self.w.sessions[i];
        (s.statement_seq, s.options.isolation) = (statement_seq, isolation);
        // Its reads are the statement's (a write's own count starts from zero).
        if !matches!(stmt.kind, StmtKind::Select(_)) {
            self.w.query_reads += reads;
        }
        if let Some(f) = self.w.sessions[i].frames.get_mut(frame) {
            for (name, before) in hidden {
                match before {
                    Some(b) => f.vars.insert(name, b),
                    None => f.vars.remove(&name),
                };
            }
        }
        r
    }
}

/// Which rows a foreign key's query sees (the server's referential-integrity queries
/// take snapshots of their own).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Snapshot {
    /// The statement's, as the statement that wrote the rows (an action's writes).
    Statement,
    /// A referencing row's check: under READ COMMITTED what was committed when the
    /// statement first checked (`Session::check_seq`), else the transaction's snapshot.
    Fresh,
    /// A referenced key's check: what was committed up to now, whatever the isolation
    /// level, so a REPEATABLE READ transaction cannot delete a row that a row
    /// committed since its snapshot references.
    Latest,
}

/// Types whose values one index's equality compares; 1 to 3 are numbers, each converting
/// implicitly to the next.
fn type_family(ty: &DataType) -> u8 {
    use DataType as T;
    match ty {
        T::TinyInt | T::SmallInt | T::Int | T::BigInt | T::ByteInt => 1,
        T::Decimal { .. } | T::Money => 2,
        T::Float => 3,
        T::Char(_) | T::VarChar(_) | T::NChar(_) | T::NVarChar(_) | T::SysName => 4,
        T::Boolean | T::Bit => 5,
        T::Date | T::DateTime | T::DateTime2(_) | T::Timestamp(_) | T::TimestampTz(_) => 6,
        T::Time(_) => 7,
        T::UniqueIdentifier => 8,
    }
}

/// `"name"`, quoted as an identifier.
fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// `p"a" = ri$1 AND p"b" = ri$2`, for `columns` of a table with `names`.
fn matching(prefix: &str, names: &[String], columns: &[usize], from: usize) -> String {
    (columns.iter().enumerate())
        .map(|(k, &c)| format!("{prefix}{} = ri${}", quote(&names[c]), from + k + 1))
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// `(a, b)` and `(1, x)`: a key's columns and values as the server's DETAIL shows them.
fn key_text(names: &[String], columns: &[usize], key: &[Value]) -> (String, String) {
    let columns = (columns.iter().map(|&c| names[c].as_str()))
        .collect::<Vec<_>>()
        .join(", ");
    let values = (key.iter().map(Value::to_string))
        .collect::<Vec<_>>()
        .join(", ");
    (columns, values)
}

/// A key's values with the types of the `columns` they are compared with or written to.
fn typed(table: &[Column], columns: &[usize], key: &[Value]) -> Vec<(DataType, Value)> {
    (columns.iter().zip(key))
        .map(|(&c, v)| (table[c].ty, v.clone()))
        .collect()
}
