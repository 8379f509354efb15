//! Statements other than queries: DDL, variables, options, transactions, procedures,
//! WAITFOR, THROW and RAISERROR.

use std::rc::Rc;

use sql::ast::{
    CreateIndex, CreateTable, DatabaseOption, DeadlockPriority, Expr, ExprKind, SetOption, Stmt,
    StmtKind, TableConstraintKind,
};

use super::compile;
use crate::cost::CostKind;
use crate::error::SqlError;
use crate::event::Event;
use crate::exec::{bind, done, Exec, Flow, Interrupt, Skipped};
use crate::state::session::{Frame, FrameKind, Procedure, Undo};
use crate::state::storage::{Column, Identity, Index, Table, Trigger};
use crate::syntax::{canonical, conjuncts};
use crate::value::{parse_delay, Value};

/// A UNIQUE constraint's name and columns (position, descending).
type UniqueConstraint = (Option<String>, Vec<(usize, bool)>);

/// Strips `dbo.` and other qualifiers: the simulator has one schema.
pub(crate) fn object_key(name: &sql::ast::ObjectName) -> String {
    name.name().value.to_ascii_lowercase()
}

/// Procedures and triggers nest at most this deep (SQL Server's limit, error 217).
pub(crate) const MAX_NESTING: usize = 32;

impl Exec<'_> {
    /// Declares variables in the current frame, with their initial values.
    ///
    /// `again`: the declaration is a statement that may run more than once (T-SQL's
    /// DECLARE in a loop; the parser made sure it is the batch's only one of its name).
    /// Run again, it assigns its initial value if it has one and otherwise keeps the
    /// variable's value, as SQL Server does.
    pub(crate) fn declare(
        &mut self,
        i: usize,
        decls: &[sql::ast::VarDecl],
        again: bool,
    ) -> Result<(), Interrupt> {
        for d in decls {
            let key = d.name.value.to_ascii_lowercase();
            let declared = self.w.frame(i).vars.contains_key(&key);
            if declared && !again {
                return Err(SqlError::variable_redeclared(&d.name.value).into());
            }
            let v = match &d.init {
                Some(e) => {
                    let v = self.eval_scalar(i, e)?;
                    self.convert(&v, &d.ty, None)?
                }
                None if declared => continue,
                None => Value::Null,
            };
            self.frame_mut(i).vars.insert(key, (d.ty, v));
        }
        Ok(())
    }

    /// Inside a block that runs as a subtransaction (one with an exception handler,
    /// where the dialect says so): a transaction may not end there.
    fn in_subtransaction(&self, i: usize) -> bool {
        (self.w.sessions[i].frames.iter()).any(|f| f.tries.iter().any(|t| t.savepoint.is_some()))
    }

    pub(crate) fn exec_statement(&mut self, i: usize, stmt: &Stmt) -> Result<Flow, Interrupt> {
        if self.w.sessions[i].failed_block {
            // The transaction already ended with the error; only the block's end is taken.
            // After a SAVEPOINT the transaction is still open: the block's end rolls it
            // back, or ROLLBACK TO SAVEPOINT takes it back to a savepoint.
            return match &stmt.kind {
                StmtKind::CommitTran { .. } | StmtKind::RollbackTran { .. } => {
                    self.w.sessions[i].failed_block = false;
                    self.rollback(i, "ROLLBACK");
                    Ok(done(CostKind::Transaction))
                }
                // Without a savepoint the error ended the transaction, and the dialect
                // answers that none of that name exists; the block stays failed.
                StmtKind::RollbackToSavepoint(_) => {
                    let rules = self.rules;
                    rules.exec_statement(self, i, stmt).unwrap_or_else(|| {
                        Err(SqlError::not_simulated(sql::statement_label(&stmt.kind)).into())
                    })
                }
                _ => Err(SqlError::transaction_aborted().into()),
            };
        }
        if self.w.sessions[i].txn.as_ref().is_some_and(|t| t.doomed)
            && matches!(
                &stmt.kind,
                StmtKind::CommitTran { .. }
                    | StmtKind::Insert(_)
                    | StmtKind::Update(_)
                    | StmtKind::Delete(_)
                    | StmtKind::Merge(_)
                    | StmtKind::TruncateTable { .. }
            )
        {
            return Err(SqlError::uncommittable().into());
        }
        match &stmt.kind {
            StmtKind::CreateTable(ct) => {
                let key = self.w.db.key(&object_key(&ct.name));
                let name = &ct.name.name().value;
                let taken = self.w.db.names.contains_key(&key)
                    || (self.rules.relations_share_names() && self.relation_named(name));
                if taken {
                    if ct.if_not_exists {
                        // Left as it is, with the server's notice.
                        self.skipped(i, Skipped::Exists(name));
                        return Ok(done(CostKind::Ddl));
                    }
                    return Err(SqlError::object_exists(name).into());
                }
                self.create_table(ct)?;
                let key = self.w.db.key(&object_key(&ct.name));
                self.created_table(i, key);
                Ok(done(CostKind::Ddl))
            }
            StmtKind::CreateIndex(ci) => {
                let name = &ci.name.value;
                if ci.if_not_exists && self.relation_named(name) {
                    // Left as it is, with the server's notice.
                    self.skipped(i, Skipped::Exists(name));
                    return Ok(done(CostKind::Ddl));
                }
                self.create_index(i, ci)?;
                Ok(done(CostKind::Ddl))
            }
            StmtKind::CreateProcedure(p) => {
                if self.rules.checks_columns_at_create() {
                    if let Some((name, at)) = bind::missing_column(&p.body, &self.w.db) {
                        // Setup's error is placed at the column, as SQL Server's
                        // message gives its line.
                        let s = &mut self.w.sessions[i];
                        match &mut s.current {
                            Some(current) if !self.w.tracing => {
                                (current.1, current.2) = (at.start, at.end);
                            }
                            _ => {}
                        }
                        return Err(SqlError::invalid_column(&name).into());
                    }
                }
                let key = object_key(&p.name);
                let source = self.w.frame(i).source;
                let proc_ = Procedure {
                    name: p.name.name().value.as_str().into(),
                    params: p.params.clone(),
                    code: compile(self.rules, &p.body),
                    quoted_identifier: self.w.sessions[i].options.quoted_identifier,
                    source,
                };
                if !p.or_alter && self.w.db.procs.contains_key(&key) {
                    return Err(self.rules.routine_exists(&p.name.name().value).into());
                }
                self.w.db.procs.insert(key, Rc::new(proc_));
                Ok(done(CostKind::Ddl))
            }
            StmtKind::CreateTrigger(t) => {
                let tid = self.table_id(&t.table)?;
                let trig = Trigger {
                    name: t.name.name().value.clone(),
                    events: t.events.clone(),
                    instead_of: matches!(t.timing, sql::ast::TriggerTiming::InsteadOf),
                    body: Rc::new(t.body.clone()),
                    enabled: true,
                };
                let table = &mut self.w.db.tables[tid as usize];
                table
                    .triggers
                    .retain(|x| !x.name.eq_ignore_ascii_case(&trig.name));
                table.triggers.push(trig);
                Ok(done(CostKind::Ddl))
            }
            StmtKind::DropTable { names, if_exists } => {
                for n in names {
                    let key = self.w.db.key(&object_key(n));
                    match self.w.db.names.get(&key).copied() {
                        Some(id) => {
                            let dependents = self.referenced_by(id);
                            if !dependents.is_empty() {
                                let t = &self.w.db.tables[id as usize].name;
                                let detail = (dependents.iter())
                                    .map(|(child, fk)| {
                                        format!(
                                            "constraint {fk} on table {child} depends on table {t}"
                                        )
                                    })
                                    .collect::<Vec<_>>()
                                    .join("; ");
                                return Err(SqlError::generic(
                                    0,
                                    16,
                                    format!("cannot drop table {t} because other objects depend on it (DETAIL: {detail})"),
                                )
                                .with_sqlstate("2BP01")
                                .into());
                            }
                            // Sch-M: no other session may read or write the table meanwhile.
                            self.lock(
                                i,
                                crate::state::locks::Resource::Object { table: id },
                                crate::state::locks::LockMode::SchM,
                                false,
                            )?;
                            self.keep_for_rollback(i, id, Some(key.clone()));
                            self.w.db.names.remove(&key);
                            // Keep ids stable: the slot stays, renamed out of the way.
                            let t = &mut self.w.db.tables[id as usize];
                            t.name = format!("(dropped {})", t.name).into();
                            t.clear_rows();
                        }
                        None if *if_exists => {
                            self.skipped(i, Skipped::Missing("table", &n.name().value))
                        }
                        None => return Err(SqlError::cannot_drop_table(&n.name().value).into()),
                    }
                }
                Ok(done(CostKind::Ddl))
            }
            StmtKind::DropProcedure { names, if_exists } => {
                for n in names {
                    if self.w.db.procs.remove(&object_key(n)).is_some() {
                        continue;
                    }
                    if *if_exists {
                        self.skipped(i, Skipped::Missing("procedure", &n.name().value));
                    } else {
                        return Err(SqlError::generic(
                            3701,
                            11,
                            format!("Cannot drop the procedure '{}', because it does not exist or you do not have permission.", n.name().value),
                        )
                        .into());
                    }
                }
                Ok(done(CostKind::Ddl))
            }
            StmtKind::DropTrigger { names, .. } => {
                for n in names {
                    for t in self.w.db.tables.iter_mut() {
                        t.triggers
                            .retain(|x| !x.name.eq_ignore_ascii_case(&n.name().value));
                    }
                }
                Ok(done(CostKind::Ddl))
            }
            StmtKind::DropIndex {
                name,
                table,
                if_exists,
            } => {
                // Without a table (a dialect whose index names are the schema's), the table whose
                // index has that name.
                let tid = match table {
                    Some(table) => Some(self.table_id(table)?),
                    None => self.index_named(&name.value),
                };
                let dropped =
                    tid.is_some_and(|tid| self.w.db.tables[tid as usize].drop_index(&name.value));
                if !dropped {
                    if *if_exists {
                        self.skipped(i, Skipped::Missing("index", &name.value));
                    } else {
                        let on = tid.map_or(String::new(), |tid| {
                            format!("dbo.{}.", self.w.db.tables[tid as usize].name)
                        });
                        return Err(SqlError::generic(
                            3701,
                            11,
                            format!("Cannot drop the index '{on}{}', because it does not exist or you do not have permission.", name.value),
                        )
                        .into());
                    }
                }
                Ok(done(CostKind::Ddl))
            }
            StmtKind::TruncateTable { name } => {
                let tid = self.table_id(name)?;
                if let Some(why) = self
                    .rules
                    .truncate_not_simulated()
                    .filter(|_| self.w.tracing)
                {
                    return Err(SqlError::not_simulated(why).into());
                }
                if let Some((child, _)) = self.referenced_by(tid).first() {
                    let t = &self.w.db.tables[tid as usize].name;
                    return Err(SqlError::generic(
                        0,
                        16,
                        format!("cannot truncate a table referenced in a foreign key constraint (DETAIL: Table \"{child}\" references \"{t}\".)"),
                    )
                    .with_sqlstate("0A000")
                    .into());
                }
                self.lock(
                    i,
                    crate::state::locks::Resource::Object { table: tid },
                    crate::state::locks::LockMode::SchM,
                    false,
                )?;
                self.keep_for_rollback(i, tid, None);
                let restarts = self.rules.truncate_restarts_identity();
                let t = &mut self.w.db.tables[tid as usize];
                t.clear_rows();
                if let Some(id) = t.identity.as_mut().filter(|_| restarts) {
                    id.next = id.seed;
                }
                Ok(done(CostKind::Ddl))
            }
            StmtKind::Declare(decls) => {
                let again = self.rules.declarations_are_statements();
                self.declare(i, decls, again)?;
                Ok(done(CostKind::Variable))
            }
            StmtKind::DeclareTable(dt) => {
                let columns = dt
                    .columns
                    .iter()
                    .map(|c| Column {
                        name: c.name.value.clone(),
                        ty: c.ty,
                        nullable: c.nullable.unwrap_or(true),
                        default: c.default.clone(),
                    })
                    .collect();
                let mut t = Table::new(dt.name.value.clone(), columns, Vec::new(), true);
                if let Some((ci, c)) = dt
                    .columns
                    .iter()
                    .enumerate()
                    .find(|(_, c)| c.identity.is_some())
                {
                    let (seed, inc) = c.identity.unwrap_or((1, 1));
                    t.identity = Some(Identity {
                        column: ci,
                        seed,
                        next: seed,
                        increment: inc,
                        always: c.identity_always,
                    });
                }
                self.frame_mut(i)
                    .table_vars
                    .insert(dt.name.value.to_ascii_lowercase(), t);
                Ok(done(CostKind::Variable))
            }
            StmtKind::SetVar { name, value } => {
                let v = self.eval_scalar(i, value)?;
                self.assign_var(i, &name.value, v)?;
                // A simple assignment sets @@ROWCOUNT to 1; SET options, PRINT, BEGIN and COMMIT
                // reset it to 0 (the @@ROWCOUNT documentation).
                self.w.sessions[i].rowcount = 1;
                Ok(done(CostKind::Variable))
            }
            StmtKind::SetOption(opt) => {
                self.set_option(i, opt)?;
                self.w.sessions[i].rowcount = 0;
                Ok(done(CostKind::Variable))
            }
            StmtKind::Print(e) => {
                let v = self.eval_scalar(i, e)?;
                let name = self.w.sessions[i].name.clone();
                self.push(Event::Printed {
                    session: name,
                    text: v.as_text(),
                });
                self.w.sessions[i].rowcount = 0;
                Ok(done(CostKind::Variable))
            }
            StmtKind::Sleep { seconds } => {
                let v = self.eval_scalar(i, seconds)?;
                let s = v.as_f64().unwrap_or(0.0).max(0.0);
                Ok(Flow::Sleep((s * 1_000_000.0).round() as u64))
            }
            StmtKind::WaitFor { delay } => {
                let v = self.eval_scalar(i, delay)?;
                // A literal's text is parsed where it lies; other values print first.
                let parsed = match &v {
                    Value::Text(t) => parse_delay(t),
                    other => parse_delay(&other.as_text()),
                };
                let us = parsed.ok_or_else(|| {
                    SqlError::generic(
                        148,
                        15,
                        format!(
                            "Incorrect time syntax in time string '{}' used with WAITFOR.",
                            v.as_text()
                        ),
                    )
                })?;
                Ok(Flow::Sleep(us))
            }
            StmtKind::BeginTran { isolation, .. } => {
                self.w.sessions[i].rowcount = 0;
                if self.rules.flat_transactions() && self.w.sessions[i].tran_count > 0 {
                    self.flat_warning(i, true);
                    return Ok(done(CostKind::Transaction));
                }
                self.begin_explicit(i);
                if let Some(level) = isolation {
                    self.set_option(i, &SetOption::TransactionIsolation(*level))?;
                }
                Ok(done(CostKind::Transaction))
            }
            StmtKind::CommitTran { chain, .. } => {
                if self.in_subtransaction(i) {
                    return Err(SqlError::end_in_subtransaction("commit").into());
                }
                if self.in_atomic_call(i) {
                    return Err(SqlError::invalid_transaction_termination().into());
                }
                let flat = self.rules.flat_transactions();
                let s = &mut self.w.sessions[i];
                s.rowcount = 0;
                if s.tran_count == 0 && flat {
                    if *chain {
                        return Err(SqlError::chain_outside_block("COMMIT").into());
                    }
                    self.flat_warning(i, false);
                    return Ok(done(CostKind::Transaction));
                }
                // The next transaction begins as this one commits, at the statement's end.
                s.chain_txn = *chain;
                if s.tran_count == 0 {
                    return Err(SqlError::commit_without_begin().into());
                }
                s.tran_count -= 1;
                if s.tran_count == 0 {
                    // Let the statement's end commit, so the locks go at its end time.
                    if let Some(t) = s.txn.as_mut() {
                        t.explicit = false;
                    }
                    // A serializable transaction's commit is checked first: one that
                    // fails is rolled back.
                    if let Err(e) = self.ssi_prepare(i) {
                        self.rollback(i, "COMMIT");
                        return Err(e);
                    }
                }
                Ok(done(CostKind::Transaction))
            }
            StmtKind::RollbackTran { chain, name } => {
                if self.in_subtransaction(i) {
                    return Err(SqlError::end_in_subtransaction("roll back").into());
                }
                if self.in_atomic_call(i) {
                    return Err(SqlError::invalid_transaction_termination().into());
                }
                if self.w.sessions[i].tran_count == 0 && self.rules.flat_transactions() {
                    if *chain {
                        return Err(SqlError::chain_outside_block("ROLLBACK").into());
                    }
                    self.flat_warning(i, false);
                    return Ok(done(CostKind::Transaction));
                }
                if self.w.sessions[i].tran_count == 0 {
                    return Err(SqlError::rollback_without_begin().into());
                }
                if let Some(name) = name {
                    if self.roll_back_to_save(i, &name.value)? {
                        return Ok(done(CostKind::Transaction));
                    }
                }
                self.rollback(i, "ROLLBACK");
                if *chain {
                    self.begin_explicit(i);
                }
                Ok(done(CostKind::Transaction))
            }
            StmtKind::Return(e) => {
                let code = match e {
                    Some(e) => {
                        let v = self.eval_scalar(i, e)?;
                        let code = v.as_i64();
                        self.frame_mut(i).returned = Some(v);
                        code
                    }
                    None => None,
                };
                Ok(Flow::Return(code))
            }
            StmtKind::Throw(args) => Err(self.throw(i, args.as_ref())?.into()),
            StmtKind::RaisError(r) => {
                let msg = self.eval_scalar(i, &r.message)?;
                let sev = self.eval_scalar(i, &r.severity)?.as_i64().unwrap_or(16);
                let state = self.eval_scalar(i, &r.state)?.as_i64().unwrap_or(1);
                let mut args = Vec::new();
                for a in &r.args {
                    args.push(self.eval_scalar(i, a)?);
                }
                let (number, text) = match msg {
                    Value::Int(n) => (n as u32, format!("Error {n}")),
                    other => (50000, printf(&other.as_text(), &args)),
                };
                if sev <= 10 {
                    self.w.sessions[i].rowcount = 0;
                    let name = self.w.sessions[i].name.clone();
                    self.push(Event::Printed {
                        session: name,
                        text,
                    });
                    return Ok(done(CostKind::Variable));
                }
                Err(SqlError::raised(
                    number,
                    sev.clamp(0, 25) as u8,
                    state.clamp(0, 255) as u8,
                    text,
                )
                .into())
            }
            StmtKind::AlterDatabaseSet { option, .. } => {
                match option {
                    DatabaseOption::ReadCommittedSnapshot(on) => self.w.db.rcsi = *on,
                    DatabaseOption::AllowSnapshotIsolation(on) => self.w.db.allow_snapshot = *on,
                }
                Ok(done(CostKind::Ddl))
            }
            StmtKind::Exec(exec) => self.exec_call(i, exec),
            // A data-modifying WITH keeps the foreign keys of all it wrote to the end.
            StmtKind::Select(s) if s.ctes.iter().any(|c| c.modify.is_some()) => {
                self.keeping_keys_at_end(i, |x| x.exec_select(i, s))
            }
            StmtKind::Insert(ins) if ins.ctes.iter().any(|c| c.modify.is_some()) => {
                self.keeping_keys_at_end(i, |x| x.exec_insert(i, ins))
            }
            StmtKind::Select(s) => self.exec_select(i, s),
            StmtKind::Insert(ins) => self.exec_insert(i, ins),
            StmtKind::Update(u) => self.exec_update(i, u),
            StmtKind::Delete(d) => self.exec_delete(i, d),
            StmtKind::Merge(m) => {
                // A dialect may run MERGE its own way.
                let rules = self.rules;
                rules
                    .exec_statement(self, i, stmt)
                    .unwrap_or_else(|| self.exec_merge(i, m))
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Empty => Ok(done(CostKind::Variable)),
            StmtKind::If { .. }
            | StmtKind::While { .. }
            | StmtKind::Block(_)
            | StmtKind::TryCatch { .. } => {
                // Flattened by `program::compile`; never reached.
                Ok(done(CostKind::Variable))
            }
            // A statement of one dialect only: its rules run it.
            _ => {
                let rules = self.rules;
                rules.exec_statement(self, i, stmt).unwrap_or_else(|| {
                    Err(SqlError::not_simulated(sql::statement_label(&stmt.kind)).into())
                })
            }
        }
    }

    /// `ROLLBACK TRANSACTION name` of a savepoint `SAVE TRANSACTION` set (the newest of
    /// that name, names case-sensitive): the writes since are undone and the locks taken
    /// since released, but a lock converted since keeps its new mode, as SQL Server
    /// keeps conversions; the savepoint stays, those after it go. False: no savepoint
    /// has the name (the whole transaction rolls back, as before).
    fn roll_back_to_save(&mut self, i: usize, name: &str) -> Result<bool, Interrupt> {
        let Some(txn) = self.w.sessions[i].txn.as_ref() else {
            return Ok(false);
        };
        let Some(k) = txn.savepoints.iter().rposition(|(n, _)| &**n == name) else {
            return Ok(false);
        };
        if txn.doomed {
            return Err(SqlError::generic(
                3931,
                16,
                "The current transaction cannot be committed and cannot be rolled back to a savepoint. Roll back the entire transaction.",
            )
            .into());
        }
        let sp = std::rc::Rc::clone(&txn.savepoints[k].1);
        self.roll_back_to(i, &sp, true);
        if let Some(t) = self.w.sessions[i].txn.as_mut() {
            t.savepoints.truncate(k + 1);
        }
        Ok(true)
    }

    /// Notes a temporary table a procedure created, to drop it when the procedure returns.
    pub(crate) fn created_table(&mut self, i: usize, key: String) {
        let frame = self.frame_mut(i);
        if crate::state::Db::is_temp_key(&key) && matches!(frame.kind, FrameKind::Proc { .. }) {
            frame.temp_tables.push(key);
        }
    }

    pub(crate) fn table_id(&self, name: &sql::ast::ObjectName) -> Result<u32, SqlError> {
        self.w
            .db
            .table_id(&name.name().value)
            .ok_or_else(|| SqlError::invalid_object(&display_name(name)).pointing(name.span.start))
    }

    fn create_table(&mut self, ct: &CreateTable) -> Result<(), SqlError> {
        let key = self.w.db.key(&object_key(&ct.name));
        if self.w.db.names.contains_key(&key) {
            return Err(SqlError::object_exists(&ct.name.name().value));
        }
        let columns: Vec<Column> = ct
            .columns
            .iter()
            .map(|c| Column {
                name: c.name.value.clone(),
                ty: c.ty,
                // Identity and primary-key columns are NOT NULL; others default to NULL.
                nullable: c
                    .nullable
                    .unwrap_or(!(c.primary_key || c.identity.is_some())),
                default: c.default.clone(),
            })
            .collect();
        let mut pk: Vec<usize> = ct
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.primary_key)
            .map(|(i, _)| i)
            .collect();
        let mut pk_name = None;
        // A column's own UNIQUE is a one-column unique constraint, like `UNIQUE (c)`.
        let mut uniques: Vec<UniqueConstraint> = ct
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.unique)
            .map(|(p, _)| (None, vec![(p, false)]))
            .collect();
        let mut checks: Vec<(Option<String>, Option<String>, sql::ast::Expr)> = ct
            .columns
            .iter()
            .filter_map(|c| Some((None, Some(c.name.value.clone()), c.check.clone()?)))
            .collect();
        for con in &ct.constraints {
            match &con.kind {
                TableConstraintKind::PrimaryKey { columns: cols, .. } => {
                    pk = cols
                        .iter()
                        .filter_map(|c| {
                            columns
                                .iter()
                                .position(|x| x.name.eq_ignore_ascii_case(&c.name.value))
                        })
                        .collect();
                    pk_name = con.name.as_ref().map(|n| n.value.clone());
                }
                TableConstraintKind::Unique { columns: cols, .. } => {
                    let cols = cols
                        .iter()
                        .filter_map(|c| {
                            columns
                                .iter()
                                .position(|x| x.name.eq_ignore_ascii_case(&c.name.value))
                                .map(|p| (p, c.desc))
                        })
                        .collect();
                    uniques.push((con.name.as_ref().map(|n| n.value.clone()), cols));
                }
                TableConstraintKind::Check(e) => {
                    checks.push((con.name.as_ref().map(|n| n.value.clone()), None, e.clone()))
                }
                // Resolved below, once the table's keys are known.
                TableConstraintKind::ForeignKey(_) => {}
            }
        }
        // A unique primary index with no PRIMARY KEY is the table's key: it refuses a
        // second row with the same value, as a PRIMARY KEY (itself a unique primary
        // index there) does.
        if let Some(pi) = ct.primary_index.as_ref().filter(|pi| pi.unique) {
            if pk.is_empty() {
                pk = pi
                    .columns
                    .iter()
                    .filter_map(|c| {
                        columns
                            .iter()
                            .position(|x| x.name.eq_ignore_ascii_case(&c.value))
                    })
                    .collect();
            }
        }
        let id = self.w.db.tables.len() as u32;
        let mut columns = columns;
        for &p in &pk {
            columns[p].nullable = false;
        }
        let mut t = Table::new(ct.name.name().value.clone(), columns, pk, false);
        if self.rules.heap_tables() {
            t.heap = Some(Default::default());
        }
        t.nulls_high = self.rules.nulls_sort_high();
        t.pk_name = Some(pk_name.unwrap_or_else(|| self.rules.constraint_name(&t.name, &[], 0)));
        let mut named: Vec<crate::state::storage::Check> = Vec::with_capacity(checks.len());
        for (n, (name, column, expr)) in checks.into_iter().enumerate() {
            let name = name.unwrap_or_else(|| {
                let taken: Vec<&str> = named.iter().map(|c| c.name.as_str()).collect();
                self.rules
                    .check_name(&t.name, column.as_deref(), &expr, n, &taken)
            });
            named.push(crate::state::storage::Check {
                name,
                column,
                expr: Rc::new(expr),
            });
        }
        t.checks = named.into();
        if let Some((ci, c)) = ct
            .columns
            .iter()
            .enumerate()
            .find(|(_, c)| c.identity.is_some())
        {
            let (seed, inc) = c.identity.unwrap_or((1, 1));
            t.identity = Some(Identity {
                column: ci,
                seed,
                next: seed,
                increment: inc,
                always: c.identity_always,
            });
        }
        for (n, (name, cols)) in uniques.into_iter().enumerate() {
            let names: Vec<&str> = cols.iter().map(|&(c, _)| &*t.columns[c].name).collect();
            let name = name.unwrap_or_else(|| self.rules.constraint_name(&t.name, &names, n + 1));
            t.add_index(Index {
                name,
                id: 2 + n as u32,
                unique: true,
                constraint: true,
                columns: cols,
                include: Vec::new(),
                filter: None,
                filter_canon: Vec::new(),
                filter_eq: None,
            });
        }
        t.queue = ct.queue;
        if let Some(pi) = &ct.primary_index {
            t.hash_key = pi
                .columns
                .iter()
                .filter_map(|c| t.column(&c.value))
                .collect();
        }
        let foreign_keys = self.declared_foreign_keys(ct, &t, id)?;
        for fk in &foreign_keys {
            if fk.parent == id {
                t.referenced = true;
            }
        }
        for fk in foreign_keys.iter().filter(|fk| fk.parent != id) {
            self.w.db.tables[fk.parent as usize].referenced = true;
        }
        t.foreign_keys = foreign_keys.into();
        self.w.db.names.insert(key, id);
        self.w.db.tables.push(t);
        Ok(())
    }

    fn create_index(&mut self, i: usize, ci: &CreateIndex) -> Result<(), Interrupt> {
        let tid = self.table_id(&ci.table)?;
        let table = &self.w.db.tables[tid as usize];
        let name = if ci.name.value.is_empty() {
            let taken: Vec<&str> = (self.w.db.tables.iter())
                .flat_map(|t| std::iter::once(&*t.name).chain(t.indexes.iter().map(|ix| &*ix.name)))
                .collect();
            let columns: Vec<&str> = ci.columns.iter().map(|c| &*c.name.value).collect();
            self.rules.index_name(&table.name, &columns, &taken)
        } else {
            ci.name.value.clone()
        };
        // Where tables and indexes share one namespace: another table's index, or a table.
        let elsewhere = self.rules.relations_share_names() && self.relation_named(&name);
        if elsewhere
            || table
                .indexes
                .iter()
                .any(|ix| ix.name.eq_ignore_ascii_case(&name))
        {
            return Err(SqlError::index_exists(&name, &table.name).into());
        }
        let mut columns = Vec::new();
        for c in &ci.columns {
            let p = table
                .column(&c.name.value)
                .ok_or_else(|| SqlError::invalid_column(&c.name.value))?;
            columns.push((p, c.desc));
        }
        let mut include = Vec::new();
        for c in &ci.include {
            include.push(
                table
                    .column(&c.value)
                    .ok_or_else(|| SqlError::invalid_column(&c.value))?,
            );
        }
        if let Some(f) = &ci.filter {
            self.rules
                .check_index_filter(f, &name, &display_name(&ci.table))?;
            if let Some(what) = crate::state::filter::unsupported(f) {
                return Err(SqlError::not_simulated(&format!("{what} in an index's WHERE")).into());
            }
            let mut refs = Vec::new();
            crate::syntax::column_refs(f, &mut refs);
            if let Some(n) = refs
                .iter()
                .find(|n| table.column(&n.name().value).is_none())
            {
                return Err(SqlError::invalid_column(&n.name().value).into());
            }
        }
        if ci.filter.is_some() && !self.w.sessions[i].options.quoted_identifier {
            return Err(SqlError::set_options("CREATE INDEX", "QUOTED_IDENTIFIER").into());
        }
        let id = 2 + table.indexes.len() as u32;
        let ix = Index {
            name,
            id,
            unique: ci.unique,
            constraint: false,
            columns,
            include,
            filter: ci.filter.clone(),
            filter_canon: ci
                .filter
                .as_ref()
                .map(|f| conjuncts(f).into_iter().map(canonical).collect())
                .unwrap_or_default(),
            filter_eq: ci.filter.as_ref().and_then(|f| {
                crate::state::filter::filter_equalities(&|name| table.column(name), f)
            }),
        };
        if ix.unique {
            self.check_unique_existing(tid, &ix)?;
        }
        let t = &mut self.w.db.tables[tid as usize];
        t.add_index(ix);
        t.touch();
        Ok(())
    }

    /// Whether session `i` runs a routine that may not end its transaction: where a
    /// CALL is a transaction, one made inside a transaction block (it did not begin its
    /// own), or a function (a routine called by a query).
    fn in_atomic_call(&self, i: usize) -> bool {
        if !self.rules.call_is_transaction() {
            return false;
        }
        // A DO block inside the session's transaction block did not begin its own.
        let frame = self.w.sessions[i].frames.last();
        if frame.is_some_and(|f| matches!(f.vars.get(sql::DO_TXN), Some((_, Value::Int(0))))) {
            return true;
        }
        let mut procs = self.w.sessions[i]
            .frames
            .iter()
            .filter_map(|f| match &f.kind {
                FrameKind::Proc {
                    own_txn,
                    result_column,
                    ..
                } => Some((*own_txn, result_column.is_some())),
                FrameKind::Batch => None,
            });
        let Some((outer_own, outer_function)) = procs.next() else {
            return false;
        };
        !outer_own || outer_function || procs.any(|(_, function)| function)
    }

    fn set_option(&mut self, i: usize, opt: &SetOption) -> Result<(), Interrupt> {
        if let SetOption::TransactionIsolation(_) = opt {
            if self.w.sessions[i].txn.as_ref().is_some_and(|t| t.queried) {
                return Err(SqlError::generic(
                    crate::error::UNNUMBERED,
                    16,
                    "SET TRANSACTION ISOLATION LEVEL must be called before any query",
                )
                .with_sqlstate("25001")
                .into());
            }
        }
        if self.rules.settings_roll_back() {
            // A rollback undoes what SET did in the transaction.
            let s = &mut self.w.sessions[i];
            let saved = &s.options;
            if let Some(t) = s.txn.as_mut() {
                t.options_at_start
                    .get_or_insert_with(|| Box::new(saved.clone()));
            }
        }
        if let SetOption::TransactionIsolation(_)
        | SetOption::LocalLockTimeout(_)
        | SetOption::LocalStatementTimeout(_) = opt
        {
            // Saved once per transaction, restored when it ends.
            self.ensure_txn(i);
            let s = &mut self.w.sessions[i];
            let saved = Box::new(s.options.clone());
            if let Some(t) = s.txn.as_mut() {
                t.saved_options.get_or_insert(saved);
            }
        }
        if let SetOption::IdentityInsert { table, on } = opt {
            let tid = self.table_id(table)?;
            let t = &self.w.db.tables[tid as usize];
            if t.identity.is_none() {
                return Err(SqlError::no_identity_property(&t.name).into());
            }
            let o = &mut self.w.sessions[i].options;
            match (o.identity_insert, on) {
                (Some(other), true) if other != tid => {
                    let other = &self.w.db.tables[other as usize].name;
                    return Err(
                        SqlError::identity_insert_elsewhere(other, &display_name(table)).into(),
                    );
                }
                (_, true) => o.identity_insert = Some(tid),
                (Some(other), false) if other == tid => o.identity_insert = None,
                (_, false) => {}
            }
            return Ok(());
        }
        let o = &mut self.w.sessions[i].options;
        match opt {
            SetOption::NoCount(b) => o.nocount = *b,
            SetOption::XactAbort(b) => o.xact_abort = *b,
            SetOption::IsolationLevel(l) => o.isolation = *l,
            SetOption::LockTimeout(ms) | SetOption::LocalLockTimeout(ms) => o.lock_timeout_ms = *ms,
            SetOption::StatementTimeout(ms) | SetOption::LocalStatementTimeout(ms) => {
                o.statement_timeout_ms = *ms
            }
            SetOption::TransactionIsolation(l) => o.isolation = *l,
            SetOption::QuotedIdentifier(b) => o.quoted_identifier = *b,
            SetOption::AnsiNulls(_)
            | SetOption::StatisticsIo(_)
            | SetOption::StatisticsTime(_)
            | SetOption::IdentityInsert { .. } => {}
            SetOption::ImplicitTransactions(b) => {
                if *b {
                    return Err(SqlError::not_simulated("SET IMPLICIT_TRANSACTIONS ON").into());
                }
            }
            SetOption::DeadlockPriority(p) => {
                let v = match p {
                    DeadlockPriority::Low => -5,
                    DeadlockPriority::Normal => 0,
                    DeadlockPriority::High => 5,
                    DeadlockPriority::Numeric(n) => *n,
                    DeadlockPriority::Var(name) => {
                        let e = Expr {
                            kind: ExprKind::Var(name.value.clone()),
                            span: name.span.clone(),
                        };
                        self.eval_scalar(i, &e)?.as_i64().unwrap_or(0)
                    }
                };
                self.w.sessions[i].options.deadlock_priority = v.clamp(-10, 10);
            }
        }
        Ok(())
    }

    pub(crate) fn assign_var(&mut self, i: usize, name: &str, v: Value) -> Result<(), SqlError> {
        let key = crate::names::lower(name);
        let round = !self.rules.truncating_integers();
        let frame = self.frame_mut(i);
        match frame.vars.get_mut(&*key) {
            Some((ty, slot)) => {
                *slot = crate::exec::expr::convert_rounding(&v, ty, None, round)?;
                Ok(())
            }
            None => Err(SqlError::undeclared_variable(name)),
        }
    }

    fn throw(
        &mut self,
        i: usize,
        args: Option<&sql::ast::ThrowArgs>,
    ) -> Result<SqlError, Interrupt> {
        match args {
            None => {
                // THROW; re-raises the error being handled, with its number and severity.
                let caught = self.w.sessions[i]
                    .frames
                    .iter()
                    .rev()
                    .find_map(|f| f.caught.last().cloned());
                match caught {
                    Some(mut e) => {
                        // Re-raised by THROW, even RAISERROR's error obeys XACT_ABORT.
                        e.scope = crate::error::AbortScope::Batch;
                        e.ignores_xact_abort = false;
                        Ok(e)
                    }
                    None => Ok(SqlError::throw_outside_catch()),
                }
            }
            Some(a) => {
                let n = self.eval_scalar(i, &a.number)?.as_i64().unwrap_or(50000);
                let msg = self.eval_scalar(i, &a.message)?.as_text();
                let state = self.eval_scalar(i, &a.state)?.as_i64().unwrap_or(1);
                if n < 50000 {
                    return Ok(SqlError::generic(
                        35100,
                        16,
                        format!("Error number {n} in the THROW statement is outside the valid range. Specify an error number in the valid range of 50000 to 2147483647."),
                    ));
                }
                Ok(SqlError::thrown(n as u32, msg, state.clamp(0, 255) as u8))
            }
        }
    }

    /// Before TRUNCATE or DROP: the table as it is now (and the name DROP removes) goes
    /// into the transaction's undo log, so ROLLBACK puts it back (table variables excepted:
    /// they ignore transactions).
    fn keep_for_rollback(&mut self, i: usize, table: u32, name: Option<String>) {
        self.ensure_txn(i);
        let before = self.w.db.tables.snapshot(table as usize);
        if let Some(txn) = self.w.sessions[i].txn.as_mut() {
            txn.undo.push(Undo {
                table,
                slot: usize::MAX,
                prev: None,
                prev_pos: 0,
                prev_key_update: false,
                table_before: Some(Rc::new((before, name))),
            });
        }
    }

    /// @@NESTLEVEL: the procedures and triggers session `i` is running inside.
    pub(crate) fn nest_level(&self, i: usize) -> usize {
        let procs = self.w.sessions[i]
            .frames
            .iter()
            .filter(|f| matches!(f.kind, FrameKind::Proc { .. }))
            .count();
        procs + self.w.running_triggers.len()
    }

    fn exec_call(&mut self, i: usize, exec: &sql::ast::Exec) -> Result<Flow, Interrupt> {
        let key = object_key(&exec.procedure);
        if key.starts_with("sp_") && !self.w.db.procs.contains_key(&key) {
            return self.exec_system_proc(i, &key, exec);
        }
        let Some(p) = self.w.db.procs.get(&key).cloned() else {
            let mut args = Vec::with_capacity(exec.args.len());
            // Only their types name the call: a value that fails to evaluate is NULL
            // (SQL Server's message names none).
            for a in &exec.args {
                let v = self.eval_scalar(i, &a.value).unwrap_or(Value::Null);
                args.push((&a.value, v));
            }
            let name = display_name(&exec.procedure);
            return Err(self
                .rules
                .unknown_routine(&name, &args, exec.result_column.is_some())
                .into());
        };
        if exec.args.len() > p.params.len() {
            return Err(SqlError::too_many_arguments(&p.name).into());
        }
        if self.nest_level(i) >= MAX_NESTING {
            return Err(SqlError::nesting_exceeded().into());
        }
        let mut frame = Frame::new(p.code.clone(), FrameKind::Batch, p.source);
        let mut outputs = Vec::new();
        let mut positional = true;
        let mut given: Vec<Option<Value>> = vec![None; p.params.len()];
        for (n, a) in exec.args.iter().enumerate() {
            let idx = match &a.name {
                Some(name) => {
                    positional = false;
                    p.params.iter().position(|q| q.name.value.eq_ignore_ascii_case(&name.value)).ok_or_else(|| {
                        SqlError::generic(8145, 16, format!("{} is not a parameter for procedure {}.", name.value, p.name))
                    })?
                }
                None if positional => n,
                None => {
                    return Err(SqlError::generic(
                        119,
                        15,
                        "Must pass parameter number 2 and subsequent parameters as '@name = value'. After the form '@name = value' has been used, all subsequent parameters must be passed in the form '@name = value'.",
                    )
                    .into())
                }
            };
            let v = self.eval_scalar(i, &a.value)?;
            given[idx] = Some(v);
            if a.output {
                if let ExprKind::Var(var) = &a.value.kind {
                    outputs.push((
                        p.params[idx].name.value.to_ascii_lowercase(),
                        var.to_ascii_lowercase(),
                    ));
                }
            }
        }
        for (q, g) in p.params.iter().zip(given) {
            let v = match (g, &q.default) {
                (Some(v), _) => v,
                (None, Some(d)) => self.eval_scalar(i, d)?,
                (None, None) if q.output => Value::Null,
                (None, None) => {
                    return Err(SqlError::missing_parameter(&p.name, &q.name.value).into())
                }
            };
            let v = self.convert(&v, &q.ty, None)?;
            frame
                .vars
                .insert(q.name.value.to_ascii_lowercase(), (q.ty, v));
        }
        // Where a CALL is a transaction, one made outside a transaction runs in its own.
        let own_txn = self.rules.call_is_transaction()
            && self.w.sessions[i].txn.is_none()
            && self.nest_level(i) == 0;
        let saved = self.w.sessions[i].options.clone();
        // A procedure runs with the QUOTED_IDENTIFIER it was created with.
        self.w.sessions[i].options.quoted_identifier = p.quoted_identifier;
        frame.kind = FrameKind::Proc {
            name: p.name.clone(),
            return_var: exec
                .return_var
                .as_ref()
                .map(|v| v.value.to_ascii_lowercase()),
            result_column: exec.result_column.as_deref().map(Rc::from),
            outputs,
            saved,
            own_txn,
            tran_count: self.w.sessions[i].tran_count,
        };
        let name = self.w.sessions[i].name.clone();
        self.push(Event::ProcedureCalled {
            session: name,
            procedure: p.name.clone(),
        });
        if own_txn {
            self.begin_explicit(i);
        }
        Ok(Flow::Call(Box::new(frame)))
    }

    fn exec_system_proc(
        &mut self,
        i: usize,
        key: &str,
        exec: &sql::ast::Exec,
    ) -> Result<Flow, Interrupt> {
        let params: &[&str] = match key {
            "sp_getapplock" => &[
                "@resource",
                "@lockmode",
                "@lockowner",
                "@locktimeout",
                "@dbprincipal",
            ],
            "sp_releaseapplock" => &["@resource", "@lockowner", "@dbprincipal"],
            _ => return Err(SqlError::not_simulated(&format!("system procedure {key}")).into()),
        };
        // Arguments by position or by name, as for any procedure.
        let mut args: Vec<Option<Value>> = vec![None; params.len()];
        for (n, a) in exec.args.iter().enumerate() {
            let idx = match &a.name {
                Some(name) => params
                    .iter()
                    .position(|p| p.eq_ignore_ascii_case(&name.value))
                    .ok_or_else(|| {
                        SqlError::generic(
                            8145,
                            16,
                            format!("{} is not a parameter for procedure {key}.", name.value),
                        )
                    })?,
                None => n,
            };
            if idx >= params.len() {
                return Err(SqlError::too_many_arguments(key).into());
            }
            args[idx] = Some(self.eval_scalar(i, &a.value)?);
        }
        let code = if key == "sp_getapplock" {
            let code = self.get_applock(i, &args)?;
            let resource = args
                .first()
                .cloned()
                .flatten()
                .map(|v| v.as_text())
                .unwrap_or_default();
            let mode = args
                .get(1)
                .cloned()
                .flatten()
                .and_then(|v| crate::state::locks::LockMode::from_applock_name(&v.as_text()));
            if let Some(mode) = mode {
                let res = crate::state::locks::Resource::Application {
                    name: resource.clone(),
                };
                let holders = if code < 0 {
                    self.w
                        .locks
                        .holders(&res)
                        .into_iter()
                        .map(|(o, _, _)| self.w.owner_name(o))
                        .collect()
                } else {
                    Vec::new()
                };
                let name = self.w.sessions[i].name.clone();
                self.push(Event::AppLockRequested {
                    session: name,
                    resource,
                    mode,
                    code,
                    holders,
                });
            }
            code
        } else {
            let released = self.release_applock(i, &args);
            if let (Err(Interrupt::Error(e)), Some(rv)) = (&released, &exec.return_var) {
                // Msg 1223 is raised and the call still returns -999 (a statement-level
                // error: the batch goes on with it).
                if e.number == 1223 {
                    self.assign_var(i, &rv.value, Value::Int(-999))?;
                }
            }
            released?
        };
        if let Some(rv) = &exec.return_var {
            self.assign_var(i, &rv.value, Value::Int(code))?;
        }
        Ok(done(CostKind::Exec))
    }

    /// The lock owner an application lock call names: the transaction or the session.
    fn applock_owner(&mut self, i: usize, owner: &str) -> Option<crate::state::locks::OwnerId> {
        if owner.eq_ignore_ascii_case("session") {
            Some(self.w.sessions[i].session_owner)
        } else if owner.eq_ignore_ascii_case("transaction") {
            self.w.sessions[i]
                .txn
                .as_ref()
                .filter(|_| self.w.sessions[i].tran_count > 0)
                .map(|t| t.id)
        } else {
            None
        }
    }

    /// sp_getapplock: 0 granted at once, 1 granted after waiting, -1 timed out,
    /// -3 deadlock victim, -999 a parameter or call error (semantics.md A11).
    fn get_applock(&mut self, i: usize, args: &[Option<Value>]) -> Result<i64, Interrupt> {
        if let Some(code) = self.w.sessions[i].applock_result.take() {
            return Ok(code);
        }
        let text = |k: usize| args.get(k).cloned().flatten().map(|v| v.as_text());
        let Some(resource) = text(0) else {
            return Err(SqlError::missing_parameter("sp_getapplock", "@Resource").into());
        };
        let Some(mode_text) = text(1) else {
            return Err(SqlError::missing_parameter("sp_getapplock", "@LockMode").into());
        };
        let owner_text = text(2).unwrap_or_else(|| "Transaction".into());
        let timeout = match args.get(3).cloned().flatten() {
            Some(v) => v.as_i64().unwrap_or(-1),
            None => self.w.sessions[i].options.lock_timeout_ms,
        };
        let Some(mode) = crate::state::locks::LockMode::from_applock_name(&mode_text) else {
            let e = SqlError::generic(
                15625,
                16,
                format!("Option '{mode_text}' not recognized for '@LockMode' parameter."),
            );
            self.record_error(i, &e, false);
            return Ok(-999);
        };
        if !owner_text.eq_ignore_ascii_case("session")
            && !owner_text.eq_ignore_ascii_case("transaction")
        {
            let e = SqlError::generic(
                15625,
                16,
                format!("Option '{owner_text}' not recognized for '@LockOwner' parameter."),
            );
            self.record_error(i, &e, false);
            return Ok(-999);
        }
        let Some(owner) = self.applock_owner(i, &owner_text) else {
            // Severity 10: a message, not an error; the call returns -999.
            let name = self.w.sessions[i].name.clone();
            self.push(Event::Printed {
                session: name,
                text: "You attempted to acquire a transactional application lock without an active transaction.".into(),
            });
            return Ok(-999);
        };
        let res = crate::state::locks::Resource::Application { name: resource };
        if self.w.sessions[i].fresh_locks.contains(&res) {
            // Granted while this call waited.
            return Ok(1);
        }
        if timeout == 0 && !self.w.locks.conflicts(owner, &res, mode).is_empty() {
            return Ok(-1);
        }
        self.w.sessions[i].timeout_override = Some(timeout);
        match self.lock_as(i, owner, res, mode, false) {
            Ok(()) => {
                self.w.sessions[i].timeout_override = None;
                Ok(0)
            }
            Err(Interrupt::Block) => {
                self.w.sessions[i].applock_waiting = true;
                Err(Interrupt::Block)
            }
            Err(e) => Err(e),
        }
    }

    /// sp_releaseapplock: 0, or -999 with Msg 1223 when the lock is not held.
    fn release_applock(&mut self, i: usize, args: &[Option<Value>]) -> Result<i64, Interrupt> {
        let text = |k: usize| args.get(k).cloned().flatten().map(|v| v.as_text());
        let Some(resource) = text(0) else {
            return Err(SqlError::missing_parameter("sp_releaseapplock", "@Resource").into());
        };
        let owner_text = text(1).unwrap_or_else(|| "Transaction".into());
        let res = crate::state::locks::Resource::Application {
            name: resource.clone(),
        };
        let held = self
            .applock_owner(i, &owner_text)
            .filter(|o| self.w.locks.held(*o, &res).is_some());
        let Some(owner) = held else {
            return Err(SqlError::generic(
                1223,
                16,
                format!("Cannot release the application lock (Database Principal: 'public', Resource: '{resource}') because it is not currently held."),
            )
            .into());
        };
        let mode = self.w.locks.held(owner, &res).map(|(m, _)| m);
        let grants = self.w.locks.release(owner, &res);
        if let Some(mode) = mode {
            if self.w.locks.held(owner, &res).is_none() {
                let name = self.w.sessions[i].name.clone();
                let resource = self.w.resource_text(&res);
                self.push(Event::LockReleased {
                    session: name,
                    resource,
                    mode,
                    reason: crate::event::ReleaseReason::Explicit,
                    mode_name: None,
                });
            }
        }
        self.wake(grants);
        Ok(0)
    }
}

impl Exec<'_> {
    /// The live table with an index named `name`.
    fn index_named(&self, name: &str) -> Option<u32> {
        self.w.db.names.values().copied().find(|&id| {
            self.w.db.tables[id as usize]
                .indexes
                .iter()
                .any(|ix| ix.name.eq_ignore_ascii_case(name))
        })
    }

    /// Whether a table, an index or a primary key's index is named `name`.
    fn relation_named(&self, name: &str) -> bool {
        self.w.db.names.contains_key(&self.w.db.key(name))
            || self.index_named(name).is_some()
            || self.w.db.names.values().any(|&id| {
                (self.w.db.tables[id as usize].pk_name.as_deref())
                    .is_some_and(|pk| pk.eq_ignore_ascii_case(name))
            })
    }

    /// The warning for a transaction statement out of place (see
    /// `Rules::flat_transaction_warning`).
    fn flat_warning(&mut self, i: usize, inside: bool) {
        if let Some(text) = self.rules.flat_transaction_warning(inside) {
            let session = self.w.sessions[i].name.clone();
            self.push(Event::Printed {
                session,
                text: text.into(),
            });
        }
    }

    /// The notice a skipped IF [NOT] EXISTS sends, where the dialect's server sends one.
    fn skipped(&mut self, i: usize, what: Skipped<'_>) {
        if let Some(text) = self.rules.skip_notice(&what) {
            let session = self.w.sessions[i].name.clone();
            self.push(Event::Printed { session, text });
        }
    }
}

/// `dbo.task` as written, for error messages.
pub(crate) fn display_name(name: &sql::ast::ObjectName) -> String {
    name.parts
        .iter()
        .map(|p| p.value.as_str())
        .collect::<Vec<_>>()
        .join(".")
}

/// RAISERROR's printf subset: %s, %d, %i, %u with arguments in order.
fn printf(fmt: &str, args: &[Value]) -> String {
    let mut out = String::new();
    let mut it = fmt.chars().peekable();
    let mut n = 0;
    while let Some(c) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('%') => out.push('%'),
            Some('s') | Some('d') | Some('i') | Some('u') => {
                out.push_str(
                    &args
                        .get(n)
                        .map(|v| v.as_text())
                        .unwrap_or_else(|| "(null)".into()),
                );
                n += 1;
            }
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}
