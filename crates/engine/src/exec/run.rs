//! A session's control flow: statement boundaries, batches and frames, errors with TRY
//! and CATCH and their abort scopes, and the session's results.

use std::collections::BTreeMap;
use std::rc::Rc;

use sql::ast::{Script, Stmt, StmtKind};

use super::compile;
use super::{Exec, Flow, Interrupt};
use crate::cost::{slow_flush, statement_cost, CostKind};
use crate::error::{AbortScope, SqlError};
use crate::event::{Event, ReleaseReason, Source};
use crate::outcome::{ResultSet, SessionOutcome};
use crate::state::program::Instr;
use crate::state::session::{
    Frame, FrameKind, Options, PendingEnd, Savepoint, Session, State, Try, Undo,
};
use crate::state::{newlines, SETUP_SOURCE};
use crate::value::Value;

/// Control instructions (jumps, tests) one step may run before it must reach a statement.
const MAX_INSTRUCTIONS_PER_STEP: u32 = 100_000;

impl Exec<'_> {
    pub(crate) fn new_session(
        &mut self,
        name: String,
        start_us: u64,
        script: Script,
        text: Rc<str>,
        index: usize,
    ) -> Session {
        let session_owner = self.w.alloc_owner();
        Session {
            name: name.as_str().into(),
            spid: 52 + index as u32,
            start_us,
            script: Rc::new(script),
            newlines: newlines(&text),
            source_text: text,
            batch: 0,
            frames: Vec::new(),
            state: if self.w.tracing || name != "setup" {
                State::NotStarted
            } else {
                State::Ready
            },
            ready_at: self.w.now,
            txn: None,
            tran_count: 0,
            options: Options::default(),
            rowcount: 0,
            last_error: 0,
            session_owner,
            executed: 0,
            out: SessionOutcome {
                name,
                wait_us: 0,
                statements: 0,
                errors: vec![],
                results: vec![],
                logical_reads: 0,
                elapsed_us: 0,
                delayed_us: 0,
                open_at_end: false,
            },
            results: Default::default(),
            errors: Default::default(),
            statement_locks: Vec::new(),
            read_now: Vec::new(),
            read_earlier: None,
            waited_for: None,
            undo_mark: 0,
            fresh_locks: Default::default(),
            resuming: false,
            escalation: Vec::new(),
            statement_seq: 0,
            check_seq: None,
            init_plans: Vec::new(),
            init_plan_reads: 0,
            identities: Vec::new(),
            identities_used: 0,
            effects: Vec::new(),
            effects_used: 0,
            effect_waiting: None,
            range_test: None,
            waiting_as: None,
            timeout_override: None,
            applock_waiting: false,
            error_in_trigger: false,
            applock_result: None,
            chained_txns: false,
            delayed_since: None,
            repeat_counts: BTreeMap::new(),
            repeats_done: 0,
            current: None,
            sleeping_until: None,
            sleep_cut: false,
            merge_pending: None,
            failed_block: false,
            chain_txn: false,
            request_at: 0,
            statement_at: 0,
            first_error_at: None,
            started_at: None,
        }
    }

    /// One step of session `i` at `self.w.now`.
    pub(crate) fn advance_session(&mut self, i: usize) {
        self.w.db.temp_scope = self.w.sessions[i].spid;
        match self.w.sessions[i].state.clone() {
            State::Finished => {}
            State::NotStarted => {
                let name = self.w.sessions[i].name.clone();
                self.push(Event::SessionStarted { session: name });
                self.w.sessions[i].started_at = Some(self.w.now);
                self.w.sessions[i].state = State::Ready;
                self.w.sessions[i].ready_at = self.w.now;
                self.run_until_statement(i);
            }
            State::Busy { end, .. } => {
                if let Some(end) = end {
                    self.end_statement(i, end);
                }
                self.w.sessions[i].state = State::Ready;
                if std::mem::take(&mut self.w.sessions[i].sleep_cut) {
                    // The sleep ran into the statement's timeout (see `finish_step`).
                    self.raise(i, SqlError::statement_timeout());
                    if self.w.sessions[i].txn.as_ref().is_some_and(|t| !t.explicit) {
                        self.commit(i);
                    }
                }
                self.run_until_statement(i);
            }
            State::Ready => self.run_until_statement(i),
            State::Delayed { .. } => {}
            State::Blocked { since, timeout_at } => {
                if timeout_at.is_some_and(|t| t <= self.w.now) {
                    self.lock_timeout(i, since);
                }
            }
        }
    }

    pub(crate) fn end_statement(&mut self, i: usize, end: PendingEnd) {
        if self.recording() {
            let name = self.w.sessions[i].name.clone();
            self.push(Event::StatementFinished {
                session: name,
                label: end.label,
                rows: end.rows,
                reads: end.reads,
                cost_us: end.cost_us,
                reads_name: "",
                flush_wait_us: end.flush_wait_us,
            });
        }
        self.release_statement_locks(i);
        let autocommit = self.w.sessions[i].txn.as_ref().is_some_and(|t| !t.explicit);
        // Where a request is one implicit transaction, it commits after its last statement.
        let request_goes_on = self.rules.request_is_transaction()
            && self.w.sessions[i]
                .frames
                .last()
                .is_some_and(|f| matches!(f.kind, FrameKind::Batch) && f.pc < f.code.instrs.len());
        if autocommit && !request_goes_on {
            self.commit(i);
        }
        if std::mem::take(&mut self.w.sessions[i].chain_txn) && self.w.sessions[i].txn.is_none() {
            self.begin_explicit(i);
        }
    }

    /// Runs control instructions until one statement has run (or the session blocks,
    /// sleeps, or finishes).
    pub(crate) fn run_until_statement(&mut self, i: usize) {
        let mut budget = MAX_INSTRUCTIONS_PER_STEP;
        loop {
            if budget == 0 {
                let e = SqlError::limit(format!(
                    "it ran {MAX_INSTRUCTIONS_PER_STEP} control instructions without reaching a statement (a loop that never ends?)"
                ));
                self.raise(i, e);
                return;
            }
            budget -= 1;
            let Some(frame) = self.w.sessions[i].frames.last() else {
                if !self.start_next_batch(i) {
                    self.finish_session(i);
                    return;
                }
                if matches!(self.w.sessions[i].state, State::Busy { .. }) {
                    // The request was refused before it ran.
                    return;
                }
                continue;
            };
            let code = frame.code.clone();
            let pc = frame.pc;
            if pc >= code.instrs.len() {
                self.return_from_frame(i, None);
                continue;
            }
            match &code.instrs[pc] {
                Instr::Jump(t) => self.set_pc(i, *t),
                Instr::Declare(decls) => {
                    self.frame_mut(i).pc += 1;
                    if let Err(Interrupt::Error(e)) = self.declare(i, decls, false) {
                        // A literal that does not fit its type: the block fails where
                        // it begins.
                        self.raise(i, *e);
                    }
                }
                Instr::TryEnter { catch_pc, catches } => {
                    let savepoint = self.savepoint(i);
                    let f = self.frame_mut(i);
                    let caught = f.caught.len();
                    f.tries.push(Try {
                        catch_pc: *catch_pc,
                        catches: catches.clone(),
                        caught,
                        savepoint,
                    });
                    f.pc += 1;
                }
                Instr::TryLeave { end_pc } => {
                    let f = self.frame_mut(i);
                    f.tries.pop();
                    f.pc = *end_pc;
                }
                Instr::CatchLeave => {
                    let f = self.frame_mut(i);
                    f.caught.pop();
                    f.pc += 1;
                }
                Instr::Test {
                    cond,
                    else_pc,
                    end_pc,
                    span,
                    has_query,
                } => {
                    let has_query = *has_query;
                    if has_query && !std::mem::take(&mut self.w.sessions[i].resuming) {
                        self.begin_statement(i, "IF", span.clone());
                    }
                    match self.eval_condition(i, cond) {
                        Ok((truth, reads)) => {
                            self.statement_ran(i);
                            // A test is a statement: it clears @@ERROR, so a branch
                            // that reads it again finds 0.
                            self.w.sessions[i].last_error = 0;
                            if truth {
                                self.frame_mut(i).pc += 1;
                            } else {
                                self.set_pc(i, *else_pc);
                            }
                            if has_query {
                                self.finish_step(
                                    i,
                                    Flow::Done {
                                        kind: CostKind::Select,
                                        rows: None,
                                        reads,
                                        written: 0,
                                    },
                                    "IF",
                                );
                                return;
                            }
                        }
                        Err(Interrupt::Block) => {
                            self.statement_waits(i);
                            return;
                        }
                        Err(Interrupt::Error(e)) => {
                            self.statement_ran(i);
                            // The IF or WHILE fails as a statement: neither branch runs.
                            self.statement_failed(i);
                            self.set_pc(i, *end_pc);
                            self.raise(i, *e);
                            if has_query {
                                self.after_failed_statement(i);
                                return;
                            }
                        }
                    }
                }
                Instr::Run(stmt) => {
                    self.run_statement(i, stmt);
                    return;
                }
            }
        }
    }

    pub(crate) fn set_pc(&mut self, i: usize, pc: usize) {
        self.frame_mut(i).pc = pc;
    }

    pub(crate) fn frame_mut(&mut self, i: usize) -> &mut Frame {
        self.w.sessions[i]
            .frames
            .last_mut()
            .expect("a running session has a frame")
    }

    pub(crate) fn frame(&self, i: usize) -> &Frame {
        self.w.sessions[i]
            .frames
            .last()
            .expect("a running session has a frame")
    }

    pub(crate) fn start_next_batch(&mut self, i: usize) -> bool {
        let s = &mut self.w.sessions[i];
        if s.batch >= s.script.batches.len() {
            return false;
        }
        let index = s.batch;
        s.request_at = self.w.now;
        let code = compile(self.rules, &s.script.batches[index].statements);
        // A client tool may send the same request n times.
        let times = s.repeat_counts.get(&index).copied().unwrap_or(1);
        if s.repeats_done + 1 < times {
            s.repeats_done += 1;
        } else {
            s.repeats_done = 0;
            s.batch += 1;
        }
        {
            let rule = self
                .rules
                .check_request(&self.w.sessions[i].script.batches[index]);
            if let Err(e) = rule {
                let span = self.w.sessions[i].script.batches[index].span.clone();
                self.begin_statement(i, "REQUEST", span);
                self.record_error(i, &e, false);
                let cost = statement_cost(self.rng, CostKind::Variable, 0, 0);
                self.w.sessions[i].state = State::Busy {
                    until: self.w.now + cost,
                    end: None,
                };
                return true;
            }
        }
        // SQL Server compiles the whole batch first: a column that a table existing now
        // lacks fails it before any of its statements runs (tables it creates are
        // compiled when their statements run).
        if self.rules.checks_columns_at_create() {
            let script = Rc::clone(&self.w.sessions[i].script);
            let batch = &script.batches[index].statements;
            if let Some((name, at)) = super::bind::missing_column(batch, &self.w.db) {
                // The statement that names it: the last to begin before the name.
                let stmt = (batch.iter().rev())
                    .find(|s| s.span.start <= at.start)
                    .unwrap_or(&batch[0]);
                let label = self.rules.statement_label(sql::statement_label(&stmt.kind));
                self.begin_statement(i, label, stmt.span.clone());
                let e = SqlError::invalid_column(&name).pointing(at.start);
                self.raise(i, e);
                if matches!(self.w.sessions[i].state, State::Ready) {
                    let cost = statement_cost(self.rng, CostKind::Variable, 0, 0);
                    self.w.sessions[i].state = State::Busy {
                        until: self.w.now + cost,
                        end: None,
                    };
                }
                return true;
            }
        }
        let s = &mut self.w.sessions[i];
        let source = if self.w.tracing || i > 0 {
            i
        } else {
            SETUP_SOURCE
        };
        s.frames.push(Frame::new(code, FrameKind::Batch, source));
        true
    }

    pub(crate) fn finish_session(&mut self, i: usize) {
        // An open transaction at disconnect is rolled back; session app locks are freed.
        if self.w.sessions[i].txn.is_some() {
            self.w.sessions[i].out.open_at_end = true;
            self.rollback(i, "the session ended with an open transaction");
        }
        let owner = self.w.sessions[i].session_owner;
        let grants = self.w.locks.release_all(owner, |_| true);
        self.wake(grants);
        let now = self.w.now;
        let s = &mut self.w.sessions[i];
        s.frames.clear();
        s.state = State::Finished;
        s.out.elapsed_us = s.started_at.map_or(0, |t| now - t);
        if let Some(since) = s.delayed_since.take() {
            s.out.delayed_us += now - since;
        }
        // Local temporary tables live as long as their session.
        let spid = s.spid;
        self.w.db.drop_temp_tables(spid);
        if self.w.tracing {
            let name = self.w.sessions[i].name.clone();
            self.push(Event::SessionFinished { session: name });
        }
    }

    /// A batch or procedure ends by running to its end or by RETURN (not by an error
    /// leaving it): a procedure that changed @@TRANCOUNT raises 266 in its caller (a
    /// dialect with flat transactions counts none). Unwinding frames for an error goes
    /// through [`Self::pop_frame`] alone, so raising here never recurses.
    fn return_from_frame(&mut self, i: usize, code: Option<i64>) {
        let began = match self.w.sessions[i].frames.last().map(|f| &f.kind) {
            Some(FrameKind::Proc {
                tran_count,
                own_txn: false,
                ..
            }) if !self.rules.flat_transactions() => Some(*tran_count),
            _ => None,
        };
        self.pop_frame(i, code, None);
        let now = self.w.sessions[i].tran_count;
        if let Some(began) = began.filter(|&b| b != now) {
            self.raise(i, SqlError::trancount_mismatch(began, now));
        }
    }

    /// Pops the top frame: a batch ends, a procedure returns its code.
    /// Ends session `i`'s innermost frame: by running to its end or RETURN (`code`), or
    /// left by error `error` unwinding it, which hands its caller no status.
    pub(crate) fn pop_frame(&mut self, i: usize, code: Option<i64>, error: Option<&str>) {
        let Some(frame) = self.w.sessions[i].frames.pop() else {
            return;
        };
        match frame.kind {
            FrameKind::Batch => {
                if self.w.sessions[i].txn.as_ref().is_some_and(|t| t.doomed) {
                    let e = SqlError::uncommittable_at_batch_end();
                    self.record_error(i, &e, false);
                    self.rollback(i, "error 3998");
                }
            }
            FrameKind::Proc {
                name,
                return_var,
                result_column,
                outputs,
                saved,
                own_txn,
                ..
            } => {
                // A temporary table a procedure created ends with it.
                for key in &frame.temp_tables {
                    self.w.db.drop_key(key);
                }
                // SET options changed inside a procedure revert when it returns.
                let s = &mut self.w.sessions[i];
                s.options.isolation = saved.isolation;
                s.options.nocount = saved.nocount;
                s.options.quoted_identifier = saved.quoted_identifier;
                let rc = code.unwrap_or(0);
                let values: Vec<(String, Value)> = outputs
                    .iter()
                    .filter_map(|(param, var)| {
                        frame.vars.get(param).map(|(_, v)| (var.clone(), v.clone()))
                    })
                    .collect();
                if let Some(caller) = s.frames.last_mut() {
                    for (var, v) in values {
                        if let Some(slot) = caller.vars.get_mut(&var) {
                            slot.1 = v;
                        }
                    }
                    // `EXEC @r = p` that an error leaves fails as a statement: @r keeps
                    // its value.
                    if let Some(rv) = return_var.filter(|_| error.is_none()) {
                        if let Some(slot) = caller.vars.get_mut(&rv) {
                            slot.1 = Value::Int(rc);
                        }
                    }
                }
                let session = s.name.clone();
                let code = (self.rules.return_codes() && error.is_none()).then_some(rc);
                self.push(Event::ProcedureReturned {
                    session,
                    procedure: name,
                    code,
                    error: error.map(Rc::from),
                });
                // `SELECT f()`: the function's value, as the statement's result.
                if let (Some(column), None) = (result_column, error) {
                    let value = frame.returned.unwrap_or(Value::Null);
                    self.add_result(
                        i,
                        ResultSet {
                            columns: vec![column.to_string()],
                            rows: vec![vec![value]],
                        },
                    );
                }
                // The call's transaction (or the one its last COMMIT began) ends with it.
                if own_txn && self.w.sessions[i].txn.is_some() {
                    self.commit(i);
                }
            }
        }
    }

    /// In a dialect that versions reads, a transaction with a snapshot of its own
    /// (REPEATABLE READ) takes it at its first statement that is not transaction
    /// control, `SELECT 1` and `pg_sleep` included, not at its first table read: a
    /// commit between the two is not seen.
    fn take_snapshot_at_first_statement(&mut self, i: usize, kind: &StmtKind) {
        let queries = matches!(
            kind,
            StmtKind::Select(_)
                | StmtKind::Insert(_)
                | StmtKind::Update(_)
                | StmtKind::Delete(_)
                | StmtKind::Merge(_)
                | StmtKind::Sleep { .. }
                | StmtKind::Exec(_)
        );
        if !queries || !self.rules.versioned_reads() {
            return;
        }
        let iso = self.rules.isolation(self.w.sessions[i].options.isolation);
        let seq = self.w.db.commit_seq;
        if let (sql::ast::IsolationLevel::Snapshot, Some(t)) =
            (iso, self.w.sessions[i].txn.as_mut())
        {
            if t.snapshot_seq.is_none() {
                t.snapshot_seq = Some(seq);
                self.ssi_begin(i);
            }
        }
    }

    pub(crate) fn begin_statement(&mut self, i: usize, label: &'static str, span: sql::ast::Span) {
        let seq = self.w.db.commit_seq;
        self.w.statement_rows = 0;
        let s = &mut self.w.sessions[i];
        s.statement_seq = seq;
        s.check_seq = None;
        s.executed += 1;
        s.out.statements += 1;
        s.statement_at = self.w.now;
        s.undo_mark = s.txn.as_ref().map_or(0, |t| t.undo.len());
        s.fresh_locks.clear();
        s.escalation.clear();
        s.sleeping_until = None;
        s.merge_pending = None;
        s.identities.clear();
        s.effects.clear();
        s.effect_waiting = None;
        s.range_test = None;
        if !self.w.tracing {
            // Setup: only where the statement is, to place its errors.
            s.current = Some((Source::Setup, span.start, span.end));
            return;
        }
        let frame = s.frames.last();
        let source = frame.map_or(i, |f| f.source);
        // Shared texts (an `Rc` each): the session is changed below.
        let (text, newlines) = self.w.script(source);
        let (text, newlines) = (text.clone(), newlines.clone());
        let start = span.start.min(text.len());
        let end = span.end.min(text.len()).max(start);
        let view_source = if source == SETUP_SOURCE {
            Source::Setup
        } else {
            Source::Session(source)
        };
        self.w.sessions[i].current = Some((view_source, start, end));
        if !self.recording() {
            return;
        }
        let s = &self.w.sessions[i];
        let in_proc = s.frames.iter().rev().find_map(|f| match &f.kind {
            FrameKind::Proc { name, .. } => Some(name.clone()),
            _ => None,
        });
        // A loop runs the same statements again and again: each one's line and text are
        // built once and shared by its events.
        let key = (source, start, end);
        let (line, first) = match self.out.statement_texts.get(&key) {
            Some(known) => known.clone(),
            None => {
                let mut built = statement_text(&text, &newlines, start, end);
                if source == SETUP_SOURCE {
                    // Counted from the start of the lesson block that holds it.
                    let block = self.w.setup_blocks.iter().rev().find(|&&b| b <= start);
                    if let Some(&b) = block {
                        built.0 -= newlines.partition_point(|&n| n < b) as u32;
                    }
                }
                Rc::make_mut(&mut self.out.statement_texts).insert(key, built.clone());
                built
            }
        };
        let name = self.w.sessions[i].name.clone();
        self.push(Event::StatementStarted {
            session: name,
            label,
            line,
            text: first,
            source: view_source,
            span: (start, end),
            in_proc,
        });
    }

    /// A statement failed and its error was raised: the session spends a moment on it,
    /// an autocommit transaction ends and the statement's locks go.
    fn after_failed_statement(&mut self, i: usize) {
        if matches!(self.w.sessions[i].state, State::Ready) {
            let cost = statement_cost(self.rng, CostKind::Variable, 0, 0);
            self.w.sessions[i].state = State::Busy {
                until: self.w.now + cost,
                end: None,
            };
            if self.w.sessions[i].txn.as_ref().is_some_and(|t| !t.explicit) {
                self.commit(i);
            }
            self.release_statement_locks(i);
        }
    }

    pub(crate) fn run_statement(&mut self, i: usize, stmt: &Stmt) {
        if self.w.sessions[i].executed >= self.w.max_statements {
            let e = SqlError::runaway(self.w.max_statements);
            self.raise(i, e);
            return;
        }
        let mut label = self.rules.statement_label(sql::statement_label(&stmt.kind));
        // A COMMIT that ends a block an error already ended rolls back: the server's
        // command tag (psql's line) says ROLLBACK.
        if self.w.sessions[i].failed_block && matches!(stmt.kind, StmtKind::CommitTran { .. }) {
            label = "ROLLBACK";
        }
        if matches!(stmt.kind, StmtKind::SetVar { .. }) {
            label = self.rules.assignment_label();
        }
        // A statement that is re-run after a lock wait is the same statement: no new event,
        // and the subqueries it ran once keep their results (where a dialect computes an
        // InitPlan once, a woken UPDATE re-checks its row against the same value, so
        // `WHERE id = (SELECT ... LIMIT 1)` without FOR UPDATE overwrites the row it
        // waited for). A statement run afresh evaluates its subqueries afresh.
        let carried = if std::mem::take(&mut self.w.sessions[i].resuming) {
            let s = &mut self.w.sessions[i];
            self.w.subquery_results = std::mem::take(&mut s.init_plans);
            std::mem::take(&mut s.init_plan_reads)
        } else {
            self.w.subquery_results.clear();
            self.begin_statement(i, label, stmt.span.clone());
            self.take_snapshot_at_first_statement(i, &stmt.kind);
            0
        };
        self.w.init_plan_reads = carried;
        self.w.sessions[i].identities_used = 0;
        self.w.sessions[i].effects_used = 0;
        // This attempt's reads (a failed statement's count too; see the error below).
        self.w.query_reads = 0;
        match self.exec_statement(i, stmt) {
            Ok(Flow::Pause(us)) => {
                // The statement goes on after `us`, where it left off.
                self.w.sessions[i].resuming = true;
                self.keep_init_plans(i);
                self.w.sessions[i].state = State::Busy {
                    until: self.w.now + us,
                    end: None,
                };
            }
            Ok(mut flow) => {
                self.statement_ran(i);
                // Every statement that ends without an error clears @@ERROR (an IF that
                // tests it included).
                self.w.sessions[i].last_error = 0;
                if let Flow::Done { reads, .. } = &mut flow {
                    *reads += carried;
                }
                if !matches!(
                    stmt.kind,
                    StmtKind::SetOption(_) | StmtKind::BeginTran { .. }
                ) {
                    if let Some(t) = self.w.sessions[i].txn.as_mut() {
                        t.queried = true;
                    }
                }
                self.frame_mut(i).pc += 1;
                self.finish_step(i, flow, label);
            }
            Err(Interrupt::Block) => {
                self.keep_init_plans(i);
                self.statement_waits(i);
            }
            Err(Interrupt::Error(e)) => {
                self.statement_ran(i);
                // The pages a statement read before it failed, where the dialect's
                // figure counts them.
                if self.rules.failed_reads_count() {
                    self.w.sessions[i].out.logical_reads += self.w.query_reads + carried;
                }
                self.statement_failed(i);
                self.frame_mut(i).pc += 1;
                self.raise(i, *e);
                self.after_failed_statement(i);
            }
        }
    }

    pub(crate) fn finish_step(&mut self, i: usize, flow: Flow, label: &'static str) {
        match flow {
            Flow::Done {
                kind,
                rows,
                reads,
                written,
            } => {
                let mut cost = statement_cost(self.rng, kind, reads, written);
                let mut flush_wait_us = 0;
                let flushes = (written > 0
                    && self.w.sessions[i].txn.as_ref().is_some_and(|t| !t.explicit))
                    || label == "COMMIT";
                if flushes {
                    let end = self.w.now + cost;
                    if let Some(stall) = slow_flush(self.rng) {
                        self.w.log_stall_until = self.w.log_stall_until.max(end + stall);
                    }
                    if self.w.log_stall_until > end {
                        flush_wait_us = self.w.log_stall_until - end;
                        cost = self.w.log_stall_until - self.w.now;
                    }
                }
                self.w.sessions[i].out.logical_reads += reads;
                self.w.sessions[i].state = State::Busy {
                    until: self.w.now + cost,
                    end: Some(PendingEnd {
                        label,
                        rows,
                        reads,
                        cost_us: cost,
                        flush_wait_us,
                    }),
                };
            }
            Flow::Sleep(us) => {
                // A sleep past the statement's timeout ends there, and the statement fails.
                let left = self
                    .statement_deadline(i)
                    .map(|d| d.saturating_sub(self.w.now));
                let cut = left.filter(|&left| left < us);
                let us = cut.unwrap_or(us);
                self.w.sessions[i].sleep_cut = cut.is_some();
                self.w.sessions[i].sleeping_until = Some(self.w.now + us);
                let name = self.w.sessions[i].name.clone();
                self.push(Event::Sleeping {
                    session: name,
                    until_us: self.w.now_us() + us,
                    delay_us: us,
                    call: "WAITFOR DELAY",
                });
                self.w.sessions[i].state = State::Busy {
                    until: self.w.now + us,
                    end: None,
                };
            }
            Flow::Call(frame) => {
                let cost = statement_cost(self.rng, CostKind::Exec, 0, 0);
                self.w.sessions[i].frames.push(*frame);
                self.w.sessions[i].state = State::Busy {
                    until: self.w.now + cost,
                    end: None,
                };
            }
            Flow::Pause(_) => unreachable!("run_statement keeps a paused statement"),
            Flow::Return(code) => {
                // RETURN in a batch ends the batch; in a procedure returns to the caller.
                self.return_from_frame(i, code);
                let cost = statement_cost(self.rng, CostKind::Variable, 0, 0);
                self.w.sessions[i].state = State::Busy {
                    until: self.w.now + cost,
                    end: None,
                };
            }
        }
    }

    /// A statement begins to wait for a lock: the rows it read under READ COMMITTED
    /// shared locks are kept as it read them, and those locks go, as SQL Server
    /// releases each once its row is read (so the wait holds none of them).
    fn statement_waits(&mut self, i: usize) {
        let s = &mut self.w.sessions[i];
        if !s.read_now.is_empty() {
            let earlier = Rc::make_mut(s.read_earlier.get_or_insert_with(Default::default));
            for (table, slot, row) in s.read_now.drain(..) {
                earlier.entry((table, slot)).or_insert(row);
            }
        }
        self.release_statement_locks(i);
    }

    /// The current statement ran to its end (or failed): the rows it kept as it read
    /// them, and the lock a wait granted it, are for a run again after a wait only.
    #[inline]
    pub(crate) fn statement_ran(&mut self, i: usize) {
        let s = &mut self.w.sessions[i];
        s.read_now.clear();
        s.read_earlier = None;
        s.waited_for = None;
    }

    /// A waiting statement keeps the subquery results it will not compute again.
    fn keep_init_plans(&mut self, i: usize) {
        let s = &mut self.w.sessions[i];
        s.init_plans = std::mem::take(&mut self.w.subquery_results);
        s.init_plan_reads = self.w.init_plan_reads;
    }

    /// Undoes the current statement's changes (statement-level atomicity).
    pub(crate) fn statement_failed(&mut self, i: usize) {
        let mark = self.w.sessions[i].undo_mark;
        self.undo_to(i, mark);
    }

    /// The transaction as a block with a handler begins, where a caught error rolls the
    /// block back (`Rules::catch_rolls_back_block`).
    fn savepoint(&self, i: usize) -> Option<Rc<Savepoint>> {
        if !self.rules.catch_rolls_back_block() {
            return None;
        }
        self.mark(i)
    }

    /// The transaction as it is now: what ROLLBACK TO SAVEPOINT goes back to.
    pub(crate) fn mark(&self, i: usize) -> Option<Rc<Savepoint>> {
        let txn = self.w.sessions[i].txn.as_ref()?;
        Some(Rc::new(Savepoint {
            txn: txn.id,
            undo: txn.undo.len(),
            locks: self.w.locks.locks_of(txn.id),
            options: self.w.sessions[i].options.clone(),
        }))
    }

    /// A caught error ends the block's subtransaction: its writes are undone and the
    /// locks it took are released (or go back to the mode held before), as ROLLBACK TO
    /// SAVEPOINT does. Variables keep their values.
    pub(crate) fn roll_back_block(&mut self, i: usize, sp: &Savepoint) {
        self.roll_back_to(i, sp, false);
    }

    /// [`Self::roll_back_block`]; `keep_conversions`: a lock held at the savepoint and
    /// converted since keeps its new mode (SQL Server's savepoints), rather than going
    /// back to the mode it had.
    pub(crate) fn roll_back_to(&mut self, i: usize, sp: &Savepoint, keep_conversions: bool) {
        if self.w.sessions[i].txn.as_ref().map(|t| t.id) != Some(sp.txn) {
            return;
        }
        if self.rules.settings_roll_back() {
            self.w.sessions[i].options = sp.options.clone();
        }
        self.undo_to(i, sp.undo);
        let now = self.w.locks.locks_of(sp.txn);
        let name = self.w.sessions[i].name.clone();
        for (res, mode) in now {
            let before = sp.locks.iter().find(|(r, _)| *r == res).map(|&(_, m)| m);
            if before == Some(mode) || (keep_conversions && before.is_some()) {
                continue;
            }
            if before.is_none()
                && self.recording()
                && !mode.is_intent()
                && self.rules.shows_lock(&res, mode)
            {
                let resource = self.w.resource_text(&res);
                self.push(Event::LockReleased {
                    session: name.clone(),
                    resource,
                    mode,
                    reason: ReleaseReason::Rollback,
                    mode_name: None,
                });
            }
            let grants = self.w.locks.restore(sp.txn, &res, before);
            self.wake(grants);
        }
        self.w.sessions[i].statement_locks.clear();
    }

    pub(crate) fn undo_to(&mut self, i: usize, mark: usize) {
        let Some(txn) = self.w.sessions[i].txn.as_mut() else {
            return;
        };
        let tail: Vec<Undo> = txn.undo.drain(mark.min(txn.undo.len())..).collect();
        for u in tail.into_iter().rev() {
            if let Some(before) = &u.table_before {
                // TRUNCATE or DROP: the table as it was, and its name.
                let (table, name) = &**before;
                if (u.table as usize) < self.w.db.tables.len() {
                    self.w.db.tables.restore(u.table as usize, Rc::clone(table));
                }
                if let Some(name) = name {
                    self.w.db.names.insert(name.clone(), u.table);
                }
                continue;
            }
            if let Some(t) = self.w.db.tables.get_mut(u.table as usize) {
                if u.slot < t.slots.len() {
                    t.set_pending(u.slot, u.prev);
                    let s = &t.slots[u.slot];
                    if s.pending_pos != u.prev_pos || s.pending_key_update != u.prev_key_update {
                        let s = t.slot_mut(u.slot);
                        s.pending_pos = u.prev_pos;
                        s.pending_key_update = u.prev_key_update;
                    }
                }
            }
        }
    }

    /// Raises an error in session `i`: records it, then finds a CATCH or aborts as far as
    /// the error's scope (and XACT_ABORT) says.
    pub(crate) fn raise(&mut self, i: usize, e: SqlError) {
        if e.scope == AbortScope::Session {
            // A limit of the simulator: no CATCH runs, the session ends (and with it its
            // transaction).
            self.record_error(i, &e, false);
            self.finish_session(i);
            return;
        }
        let e = self.rules.number_error(e);
        let xact_abort = self.w.sessions[i].options.xact_abort
            || std::mem::take(&mut self.w.sessions[i].error_in_trigger);
        let mut scope = self.rules.error_scope(self, i, e.scope);
        let mut subtransaction = None;
        // Where transactions are flat, every error fails the transaction block, one
        // found before the statement ran (an unknown column, what is not simulated) too,
        // and a handler around it catches it.
        if self.rules.flat_transactions() {
            let in_try = self.w.sessions[i]
                .frames
                .iter()
                .any(|f| f.tries.iter().any(|t| t.catches(e.number)));
            scope = if in_try {
                AbortScope::Statement
            } else {
                AbortScope::BatchAndTransaction
            };
            let s = &self.w.sessions[i];
            let opened_earlier = s.txn.as_ref().is_some_and(|t| t.batch != s.batch);
            if !in_try && s.tran_count > 0 && opened_earlier {
                // After a SAVEPOINT only its subtransaction aborts: the transaction keeps
                // what it did before, locks included, for ROLLBACK TO SAVEPOINT.
                subtransaction = s
                    .txn
                    .as_ref()
                    .and_then(|t| t.savepoints.last())
                    .map(|(_, sp)| Rc::clone(sp));
                self.w.sessions[i].failed_block = true;
            }
        }
        // XACT_ABORT ON turns run-time errors into transaction-ending ones (not RAISERROR's,
        // whatever their number; THROW's, whatever theirs).
        let by_xact_abort = xact_abort
            && matches!(scope, AbortScope::Statement | AbortScope::Batch)
            && !e.ignores_xact_abort;
        if by_xact_abort {
            scope = AbortScope::BatchAndTransaction;
        }
        // Find the innermost TRY that takes this error; a compile error skips the TRY
        // of its own frame.
        let frames = self.w.sessions[i].frames.len();
        let mut target = None;
        'frames: for depth in (0..frames).rev() {
            let f = &self.w.sessions[i].frames[depth];
            if matches!(scope, AbortScope::Compile) && depth == frames - 1 {
                continue;
            }
            for (k, t) in f.tries.iter().enumerate().rev() {
                if t.catches(e.number) {
                    target = Some((depth, k, t.catch_pc, t.caught, t.savepoint.clone()));
                    break 'frames;
                }
            }
        }
        // Where transactions are flat, the error is reported and then its transaction
        // aborted (the dialect's own order); SQL Server's trace has the rollback first.
        let error_first = self.rules.flat_transactions();
        if error_first {
            self.w.sessions[i].last_error = e.number as i64;
            // A statement that failed affected no row (RAISERROR and THROW say so too).
            self.w.sessions[i].rowcount = 0;
            self.record_error(i, &e, target.is_some());
        }
        if matches!(scope, AbortScope::BatchAndTransaction) && self.w.sessions[i].txn.is_some() {
            if let Some(sp) = subtransaction {
                self.roll_back_block(i, &sp);
            } else if by_xact_abort && target.is_some() {
                // Caught, the transaction is not rolled back yet: it is uncommittable,
                // and keeps its locks until the CATCH (or the batch's end) rolls it back.
                if let Some(t) = self.w.sessions[i].txn.as_mut() {
                    t.doomed = true;
                }
            } else {
                let why = if e.number == crate::error::UNNUMBERED && e.sqlstate.is_none() {
                    "error with no number".to_string()
                } else {
                    format!("error {}", e.code())
                };
                self.rollback(i, &why);
            }
        }
        if !error_first {
            self.w.sessions[i].last_error = e.number as i64;
            // A statement that failed affected no row (RAISERROR and THROW say so too).
            self.w.sessions[i].rowcount = 0;
            self.record_error(i, &e, target.is_some());
        }
        if let Some((depth, tries, catch_pc, caught_depth, savepoint)) = target {
            let mut e = e;
            if e.origin.is_none() {
                e.origin = Some(Box::new(self.error_origin(i)));
            }
            let code = e.code();
            while self.w.sessions[i].frames.len() > depth + 1 {
                self.pop_frame(i, None, Some(&code));
            }
            if let Some(sp) = savepoint {
                self.roll_back_block(i, &sp);
            }
            let f = self.frame_mut(i);
            // The blocks inside it that let the error by end with it.
            f.tries.truncate(tries);
            f.caught.truncate(caught_depth);
            f.caught.push(e);
            f.pc = catch_pc;
            return;
        }
        match scope {
            AbortScope::Statement => {}
            AbortScope::Batch
            | AbortScope::BatchAndTransaction
            | AbortScope::Compile
            | AbortScope::Session => {
                // The batch ends: drop every frame; the next batch (after GO) still runs.
                let code = e.code();
                while !self.w.sessions[i].frames.is_empty() {
                    self.pop_frame(i, None, Some(&code));
                }
            }
        }
    }

    /// The line, counted from its batch's first (after the `GO` before it, as a
    /// procedure's from its CREATE's batch), of the statement session `i` runs, and the
    /// procedure or trigger running it: what ERROR_LINE() and ERROR_PROCEDURE() give.
    fn error_origin(&self, i: usize) -> (u32, Option<Rc<str>>) {
        let s = &self.w.sessions[i];
        let procedure = (s.frames.iter().rev()).find_map(|f| match &f.kind {
            crate::state::session::FrameKind::Proc { name, .. } => Some(name.clone()),
            _ => None,
        });
        let line = s.current.map_or(1, |(source, start, _)| {
            let index = match source {
                crate::event::Source::Setup => crate::state::SETUP_SOURCE,
                crate::event::Source::Session(k) => k,
            };
            let (text, _) = self.w.script(index);
            let before = &text[..start.min(text.len())];
            let mut line = 1;
            for l in before.split('\n') {
                line = if l.trim().eq_ignore_ascii_case("GO") {
                    1
                } else {
                    line + 1
                };
            }
            line - 1
        });
        (line.max(1) as u32, procedure)
    }

    pub(crate) fn record_error(&mut self, i: usize, e: &SqlError, caught: bool) {
        let s = &mut self.w.sessions[i];
        if !self.w.tracing && s.first_error_at.is_none() {
            s.first_error_at = Some(s.current.map_or(0, |c| c.1));
        }
        // At the name the error could not find, when it says and that is within the
        // statement; else at the statement's start.
        let at = s.current.map(|(source, start, end)| {
            let offset = e.offset.filter(|o| (start..end).contains(o));
            self.w.error_at(source, offset.unwrap_or(start))
        });
        let s = &mut self.w.sessions[i];
        s.errors.push(crate::error::SqlErrorInfo {
            caught,
            at,
            ..e.info()
        });
        let name = s.name.clone();
        self.push(Event::Error {
            session: name,
            number: e.number,
            severity: e.severity,
            state: e.state,
            message: e.message.clone(),
            caught,
            sqlstate: e.sqlstate,
        });
    }

    pub(crate) fn add_result(&mut self, i: usize, rs: ResultSet) {
        if let Some(captured) = &mut self.w.capture {
            captured.push(rs);
            return;
        }
        if self.w.tracing {
            let first_row = rs.rows.first().map(|r| {
                r.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            let name = self.w.sessions[i].name.clone();
            self.push(Event::ResultReturned {
                session: name,
                columns: rs.columns.clone(),
                rows: rs.rows.len(),
                first_row,
            });
        }
        self.w.sessions[i].results.push(rs);
    }

    /// A session that exists only to run a query against the final state.
    pub(crate) fn probe(&mut self, name: String) -> Session {
        let mut s = self.new_session(
            name,
            0,
            Script {
                batches: Vec::new(),
            },
            Rc::from(""),
            0,
        );
        s.spid = 0;
        s.state = State::Finished;
        s
    }
}

/// A statement's line (1-based, from the script's newline offsets, not a scan of the
/// text) and its first line as a trace shows it: at most 80 characters, then ` …` when
/// the statement goes on.
fn statement_text(text: &str, newlines: &[usize], start: usize, end: usize) -> (u32, Rc<str>) {
    let line = newlines.partition_point(|&n| n < start) as u32 + 1;
    let snippet = text.get(start..end).unwrap_or("");
    let line_one = snippet.lines().next().unwrap_or("").trim();
    let cut = line_one
        .char_indices()
        .nth(80)
        .map_or(line_one.len(), |(b, _)| b);
    let mut first = String::with_capacity(cut + " …".len());
    first.push_str(&line_one[..cut]);
    if snippet.lines().nth(1).is_some() || first.len() < snippet.trim().len() {
        first.push_str(" …");
    }
    (line, first.into())
}
