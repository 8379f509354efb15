//! Teradata queue tables (semantics.md Part B, SCENARIOS.md T1–T14): SELECT AND CONSUME
//! with its row-hash WRITE lock, the delayed state of a consume on an empty queue, the
//! session modes (ANSI and Teradata/BTET) and the rules and limits of consume; BTEQ's
//! dot commands (`bteq`). What differs from SQL Server is in [`Teradata`]'s [`Rules`].

use sql::ast::{Batch, SelectAndConsume, SelectItem, Stmt, StmtKind, TeradataTxn};

use crate::cost::CostKind;
use crate::error::{between, quoted_after, AbortScope, SqlError};
use crate::event::{Access, Event};
use crate::exec::expr::{RowCtx, Scope};
use crate::exec::{done, Exec, Flow, Interrupt, Rules};
use crate::outcome::ResultSet;
use crate::state::locks::{LockMode, Resource, ResourceWords};
use crate::state::session::ClientSettings;
use crate::state::session::State;
use crate::state::storage::{RowId, Table};
use crate::value::{sort_cmp, Stamp, Value};

pub(crate) mod bteq;

/// More SELECT AND CONSUME requests than this in one transaction abort it (T9).
pub const MAX_CONSUMES_PER_TRANSACTION: u32 = 2210;
/// Sessions one parsing engine serves by default (T13).
pub const SESSIONS_PER_PE: usize = 120;
/// At most 20 % of a parsing engine's sessions may be delayed by consumes (T13): 24.
pub const MAX_DELAYED: usize = SESSIONS_PER_PE / 5;

/// An error of a documented Teradata rule whose error number our sources do not give
/// (without severity here: a request's rule errors are recorded without being raised).
fn rule_error(message: String, scope: AbortScope) -> SqlError {
    let mut e = SqlError::generic(crate::error::UNNUMBERED, 16, message).without_severity();
    e.scope = scope;
    e
}

/// An error the executor raised, as Teradata numbers and words it (its Messages manual):
/// a number and a text, no severity or state. Errors without a Teradata counterpart here
/// keep the executor's number.
fn teradata_error(e: SqlError) -> SqlError {
    let name = |prefix: &str| quoted_after(&e.message, prefix).unwrap_or("?").to_string();
    let db = crate::error::DATABASE;
    let (number, message) = match e.number {
        515 => (
            3811,
            format!(
                "Column '{}' is NOT NULL.  Give the column a value.",
                name("column '")
            ),
        ),
        1205 => (2631, "Transaction ABORTed due to deadlock.".to_string()),
        547 => {
            let column = quoted_after(&e.message, "column '")
                .map(|c| format!(".{c}"))
                .unwrap_or_default();
            let table = between(&e.message, "table \"dbo.", "\"").unwrap_or("?");
            (
                5317,
                format!("Check constraint violation: Check error in field {table}{column}."),
            )
        }
        // A PRIMARY KEY is the table's unique primary index; a UNIQUE constraint or a
        // unique index is a unique secondary index.
        2627 if e.message.starts_with("Violation of PRIMARY KEY") => (
            2801,
            format!(
                "Duplicate unique prime key error in {db}.{}.",
                name("object 'dbo.")
            ),
        ),
        2601 | 2627 => (
            2803,
            format!(
                "Secondary index uniqueness violation in {db}.{}.",
                name("object 'dbo.")
            ),
        ),
        8134 => (2618, "Invalid calculation:  division by zero.".to_string()),
        8115 | 220 => (
            2616,
            "Numeric overflow occurred during computation.".to_string(),
        ),
        8120 | 8121 => (
            3504,
            "Selected non-aggregate values must be part of the associated group.".to_string(),
        ),
        207 => (
            3810,
            format!("Column/Parameter '{}' does not exist.", name("name '")),
        ),
        208 => (3807, format!("Object '{}' does not exist.", name("name '"))),
        _ => (e.number, e.message.clone()),
    };
    SqlError {
        number,
        message,
        ..e
    }
    .without_severity()
}

/// Teradata's rules: requests are transactions, READ and WRITE locks, queue tables with
/// SELECT AND CONSUME, BT/ET and the ANSI session mode, BTEQ's dot commands.
pub(crate) struct Teradata;

impl Rules for Teradata {
    fn number_error(&self, e: SqlError) -> SqlError {
        teradata_error(e)
    }

    /// Teradata session mode: any error rolls back the whole transaction, BT ... ET
    /// included, and ends the request (a later ET finds no transaction: 3510). In ANSI
    /// mode an error undoes only the request and the transaction goes on.
    fn error_scope(&self, x: &Exec<'_>, i: usize, scope: AbortScope) -> AbortScope {
        let ansi = x.w.sessions[i].chained_txns;
        match scope {
            AbortScope::Statement | AbortScope::Batch | AbortScope::Compile if !ansi => {
                AbortScope::BatchAndTransaction
            }
            _ => scope,
        }
    }

    /// Teradata's rows are spread by the hash of their primary index, not kept in a
    /// clustered index: a full scan is an all-rows scan (its EXPLAIN's words).
    /// Teradata locks a database, a table or a row hash: a table lock is on a TABLE.
    fn resource_words(&self) -> ResourceWords {
        ResourceWords {
            table: "TABLE",
            ..ResourceWords::default()
        }
    }

    /// Teradata's levels are the database, the table and the row hash: no pages, so a
    /// row hash lock takes no intent lock on a page above it.
    fn page_locks(&self) -> bool {
        false
    }

    /// A range on a primary index is an all-rows scan: rows are spread by the hash of
    /// the value, not kept in its order.
    fn clustered_range_seeks(&self) -> bool {
        false
    }

    /// Our sources do not say what Teradata checks when it compiles a procedure.
    fn checks_columns_at_create(&self) -> bool {
        false
    }

    fn access_name(&self, table: &Table, access: Access) -> Access {
        match access {
            Access::ClusteredScan => Access::AllRowsScan,
            // A key that is the primary index (a unique primary index) is read by its row
            // hash.
            Access::ClusteredSeek if !table.hash_key.is_empty() && table.hash_key == table.key => {
                Access::PrimaryIndex
            }
            other => other,
        }
    }

    /// Teradata has no update (U) lock: UPDATE and DELETE take WRITE on the row hashes
    /// they change (semantics.md B, the default locks), from locating them on.
    fn write_row_lock(&self, _delete: bool) -> Option<LockMode> {
        Some(LockMode::X)
    }

    fn mode_name(&self, mode: LockMode) -> Option<&'static str> {
        match mode {
            LockMode::S => Some("READ"),
            LockMode::X => Some("WRITE"),
            _ => None,
        }
    }

    fn request_is_transaction(&self) -> bool {
        true
    }

    /// The request-level rules, checked before a Teradata request runs: one consume per
    /// request (T4 outside BT/ET), and no DELETE/UPDATE/MERGE of the consumed queue in
    /// the same request (T10).
    fn check_request(&self, batch: &Batch) -> Result<(), SqlError> {
        if batch.consume_count() > 1 {
            return Err(rule_error(
                "A multi-statement request may hold only one SELECT AND CONSUME; in Teradata mode put the consumes in separate requests or between BT and ET (the error number is not documented in our sources)".into(),
                AbortScope::Batch,
            ));
        }
        if let Some((_, other)) = batch.consume_conflict() {
            return Err(rule_error(
                format!(
                    "{} cannot share a multi-statement request with a SELECT AND CONSUME on the same queue table (the error number is not documented in our sources)",
                    sql::statement_label(&other.kind)
                ),
                AbortScope::Batch,
            ));
        }
        Ok(())
    }

    fn client_commands(&self, text: &str) -> Result<(String, ClientSettings), (usize, String)> {
        let (clean, commands) = bteq::preprocess(text)?;
        Ok((
            clean,
            ClientSettings {
                chained_txns: commands.mode == bteq::SessionMode::Ansi,
                repeats: commands.repeats,
            },
        ))
    }

    /// Rows inserted by one multi-statement request share one QITS (semantics.md B).
    fn clock_per_request(&self) -> bool {
        true
    }

    /// CURRENT_TIMESTAMP is TIMESTAMP(6) unless it names its digits; CURRENT_DATE a DATE.
    fn clock_stamp(&self, function: &str) -> Stamp {
        match function {
            "CURRENT_DATE" => Stamp::Date,
            _ => Stamp::Full(6),
        }
    }

    fn exec_statement(
        &self,
        x: &mut Exec<'_>,
        i: usize,
        stmt: &Stmt,
    ) -> Option<Result<Flow, Interrupt>> {
        Some(match &stmt.kind {
            StmtKind::SelectAndConsume(c) => x.exec_consume(i, c),
            StmtKind::Locking { locks, stmt } => x.exec_locking(i, locks, stmt.as_deref()),
            StmtKind::TeradataTxn(t) => x.exec_teradata_txn(i, *t),
            StmtKind::Merge(m) => {
                // Only MERGE's effect on a queue table's FIFO cache is modelled (T11).
                let mut r = Err(SqlError::not_simulated("MERGE").into());
                if let sql::ast::TableFactor::Table { name, .. } = &m.target {
                    match x.table_id(name) {
                        Ok(tid) => self.rows_modified(x, i, tid),
                        Err(e) => r = Err(e.into()),
                    }
                }
                r
            }
            _ => return None,
        })
    }

    fn consume(
        &self,
        x: &mut Exec<'_>,
        i: usize,
        c: &SelectAndConsume,
    ) -> Result<(Vec<String>, Vec<Value>), Interrupt> {
        let (columns, row) = x.consume(i, c)?;
        x.project_consumed(i, c, &columns, &row)
    }

    fn rows_arrived(&self, x: &mut Exec<'_>, table: u32, rows: usize) {
        x.wake_delayed(table, rows);
    }

    fn rows_modified(&self, x: &mut Exec<'_>, i: usize, table: u32) {
        x.fifo_cache_rebuild(i, table);
    }
}

impl Exec<'_> {
    pub(crate) fn exec_teradata_txn(
        &mut self,
        i: usize,
        t: TeradataTxn,
    ) -> Result<Flow, Interrupt> {
        let ansi = self.w.sessions[i].chained_txns;
        match t {
            TeradataTxn::Begin { .. } => {
                if ansi {
                    return Err(rule_error(format!("{} is not allowed in ANSI session mode: a transaction ends with COMMIT or ROLLBACK", t.label()), AbortScope::Statement).into());
                }
                self.begin_explicit(i);
            }
            TeradataTxn::End { .. } | TeradataTxn::Commit { .. } => {
                if !ansi
                    && matches!(t, TeradataTxn::End { .. })
                    && self.w.sessions[i].tran_count == 0
                {
                    // An ET with no BT open (one an abort already ended, say); raised,
                    // so `teradata_error` drops its severity like every other's.
                    return Err(SqlError::generic(
                        3510,
                        16,
                        "Too many END TRANSACTION statements.",
                    )
                    .into());
                }
                if ansi && matches!(t, TeradataTxn::End { .. }) {
                    return Err(rule_error(
                        format!(
                            "{} is not allowed in ANSI session mode: use COMMIT",
                            t.label()
                        ),
                        AbortScope::Statement,
                    )
                    .into());
                }
                // The statement's end commits, so the locks go at its end time.
                let s = &mut self.w.sessions[i];
                s.tran_count = 0;
                if let Some(txn) = s.txn.as_mut() {
                    txn.explicit = false;
                }
            }
            TeradataTxn::Rollback { .. } | TeradataTxn::Abort => self.rollback(i, t.label()),
        }
        Ok(done(CostKind::Transaction))
    }

    /// `SELECT AND CONSUME TOP 1`: the result set of the consumed row.
    pub(crate) fn exec_consume(
        &mut self,
        i: usize,
        c: &SelectAndConsume,
    ) -> Result<Flow, Interrupt> {
        self.w.query_reads = 0;
        let (columns, row) = self.consume(i, c)?;
        let (names, values) = self.project_consumed(i, c, &columns, &row)?;
        self.add_result(
            i,
            ResultSet {
                columns: names,
                rows: vec![values],
            },
        );
        self.w.sessions[i].rowcount = 1;
        Ok(Flow::Done {
            kind: CostKind::Delete,
            rows: Some(1),
            reads: self.w.query_reads,
            written: 1,
        })
    }

    /// The values a consume's select list takes from the row (`*`, columns, `USER`, ...).
    pub(crate) fn project_consumed(
        &mut self,
        i: usize,
        c: &SelectAndConsume,
        columns: &[String],
        row: &[Value],
    ) -> Result<(Vec<String>, Vec<Value>), Interrupt> {
        let mut scope = Scope::default();
        let binding = c.alias.as_ref().map_or_else(
            || c.queue.name().value.to_ascii_lowercase(),
            |a| a.value.to_ascii_lowercase(),
        );
        scope.push(
            binding,
            Some(c.queue.name().value.to_ascii_lowercase()),
            columns.to_vec(),
        );
        let ctx = RowCtx {
            scope: &scope,
            row,
            outer: None,
            group: None,
        };
        let (mut names, mut values) = (Vec::new(), Vec::new());
        for item in &c.items {
            match item {
                SelectItem::Wildcard { .. } => {
                    names.extend(columns.iter().cloned());
                    values.extend(row.iter().cloned());
                }
                SelectItem::Expr { expr, alias } => {
                    names.push(match (alias, &expr.kind) {
                        (Some(a), _) => a.value.clone(),
                        (None, sql::ast::ExprKind::Column(n)) => n.name().value.clone(),
                        (None, sql::ast::ExprKind::Function { name, .. }) => name.clone(),
                        _ => String::new(),
                    });
                    values.push(self.eval(i, expr, Some(&ctx))?);
                }
                SelectItem::Assign { var, .. } => {
                    return Err(SqlError::not_simulated(&format!(
                        "variable {} in SELECT AND CONSUME",
                        var.value
                    ))
                    .into())
                }
            }
        }
        Ok((names, values))
    }

    /// Pops the oldest row this session may take, under a row-hash WRITE lock (T1); on an
    /// empty queue the session enters the delayed state without a lock (T3).
    pub(crate) fn consume(
        &mut self,
        i: usize,
        c: &SelectAndConsume,
    ) -> Result<(Vec<String>, Vec<Value>), Interrupt> {
        let tid = self.table_id(&c.queue)?;
        if !self.w.db.tables[tid as usize].queue {
            return Err(rule_error(
                format!(
                    "SELECT AND CONSUME needs a queue table; {} is not one",
                    c.queue.name().value
                ),
                AbortScope::Statement,
            )
            .into());
        }
        let own = self.ensure_txn(i);
        let consumed = self.w.sessions[i].txn.as_ref().map_or(0, |t| t.consumes);
        if consumed >= MAX_CONSUMES_PER_TRANSACTION {
            return Err(rule_error(
                format!("Transaction ABORTed: more than {MAX_CONSUMES_PER_TRANSACTION} SELECT AND CONSUME requests in one transaction (the error number is not documented in our sources)"),
                AbortScope::BatchAndTransaction,
            )
            .into());
        }
        // FIFO by the queue insertion timestamp (the first column), then arrival: one pass
        // for the oldest row this transaction may take.
        let t = &self.w.db.tables[tid as usize];
        let mut best: Option<(RowId, &Vec<Value>)> = None;
        for slot in t.clustered_order() {
            let s = &t.slots[slot];
            let visible = match &s.pending {
                // A row this transaction inserted is its to consume (T14).
                Some((txn, data)) if *txn == own => data.as_ref(),
                // Another transaction's uncommitted insert is not there yet; a row another
                // consumer popped is gone unless it rolls back.
                Some(_) => None,
                None => s.latest_committed(),
            };
            if let Some(row) = visible {
                if best.is_none_or(|(_, b)| sort_cmp(&row[0], &b[0]) == std::cmp::Ordering::Less) {
                    best = Some((slot, row));
                }
            }
        }
        let best = best.map(|(slot, row)| (slot, row.clone()));
        let columns: Vec<String> = t.columns.iter().map(|c| c.name.clone()).collect();
        let table_name = t.name.clone();
        self.w.query_reads += 1;
        let Some((slot, row)) = best else {
            return self.delay(i, tid, table_name);
        };
        // A row is there: the delayed state ends, then the row hash is locked (T3).
        if let Some(started) = self.w.sessions[i].delayed_since.take() {
            let name = self.w.sessions[i].name.clone();
            let delayed_us = self.w.now - started;
            self.w.sessions[i].out.delayed_us += delayed_us;
            self.push(Event::ConsumeResumed {
                session: name,
                table: table_name.clone(),
                delayed_us,
            });
        }
        let hash = self.w.db.tables[tid as usize].row_hash(&row);
        self.lock(
            i,
            Resource::RowHash { table: tid, hash },
            LockMode::X,
            false,
        )?;
        self.delete_row(i, tid, slot);
        if let Some(t) = self.w.sessions[i].txn.as_mut() {
            t.consumes += 1;
        }
        let key = self.w.db.tables[tid as usize].key_text(slot);
        let name = self.w.sessions[i].name.clone();
        self.push(Event::RowDeleted {
            session: name,
            table: table_name,
            key,
        });
        Ok((columns, row))
    }

    fn delay(
        &mut self,
        i: usize,
        tid: u32,
        table: std::rc::Rc<str>,
    ) -> Result<(Vec<String>, Vec<Value>), Interrupt> {
        let delayed = self
            .w
            .sessions
            .iter()
            .filter(|s| matches!(s.state, State::Delayed { .. }))
            .count();
        if delayed >= MAX_DELAYED {
            // T13: over 20 % of the parsing engine's sessions would be delayed.
            let mut e = SqlError::generic(
                3128,
                16,
                "Transaction aborted due to exceeding the maximum consume statement limit.",
            );
            e.scope = AbortScope::BatchAndTransaction;
            return Err(e.into());
        }
        self.statement_failed(i);
        if self.w.sessions[i].delayed_since.is_none() {
            self.w.sessions[i].delayed_since = Some(self.w.now);
            let name = self.w.sessions[i].name.clone();
            self.push(Event::ConsumeDelayed {
                session: name,
                table,
            });
        }
        self.w.sessions[i].state = State::Delayed { table: tid };
        Err(Interrupt::Block)
    }

    /// Rows arrived in queue `tid` (a commit of inserts, a rollback of consumes): wake up
    /// to `rows` delayed consumers. The manual promises no fairness; the simulator wakes
    /// them in the order they were delayed.
    pub(crate) fn wake_delayed(&mut self, tid: u32, rows: usize) {
        let mut waiting: Vec<(u64, usize)> = self
            .w
            .sessions
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.state, State::Delayed { table } if table == tid))
            .map(|(k, s)| (s.delayed_since.unwrap_or(0), k))
            .collect();
        waiting.sort();
        for (_, k) in waiting.into_iter().take(rows) {
            self.w.sessions[k].state = State::Ready;
            self.w.sessions[k].ready_at = self.w.now;
            self.w.sessions[k].resuming = true;
        }
    }

    /// A DELETE, UPDATE or MERGE on a queue table spoils its FIFO cache: the next access
    /// rebuilds it with a full table scan (T11).
    pub(crate) fn fifo_cache_rebuild(&mut self, i: usize, tid: u32) {
        if !self.w.db.tables[tid as usize].queue || !self.w.tracing {
            return;
        }
        let t = &mut self.w.db.tables[tid as usize];
        let reads = t.leaf_pages() as u64 + t.clustered_depth().saturating_sub(1) as u64;
        let table = t.name.clone();
        self.w.query_reads += reads;
        let name = self.w.sessions[i].name.clone();
        self.push(Event::FifoCacheRebuilt {
            session: name,
            table,
            reads,
        });
    }

    /// Statement-level Teradata work for the dispatcher.
    pub(crate) fn exec_locking(
        &mut self,
        i: usize,
        locks: &[sql::ast::LockingClause],
        stmt: Option<&Stmt>,
    ) -> Result<Flow, Interrupt> {
        // LOCKING is accepted; it changes nothing for a consume (T2). For other statements
        // a table lock of the named severity is taken for the transaction.
        let consume = stmt.is_some_and(|s| s.kind.consumed_table().is_some());
        if !consume {
            for l in locks {
                if let sql::ast::LockingObject::Table(name) = &l.object {
                    let tid = self.table_id(name)?;
                    let mode = match l.severity {
                        sql::ast::LockSeverity::Access => continue,
                        sql::ast::LockSeverity::Read => LockMode::S,
                        sql::ast::LockSeverity::Write | sql::ast::LockSeverity::Exclusive => {
                            LockMode::X
                        }
                    };
                    self.lock(i, Resource::Object { table: tid }, mode, false)?;
                }
            }
        }
        match stmt {
            Some(s) => self.exec_statement(i, s),
            None => Ok(done(CostKind::Transaction)),
        }
    }
}
