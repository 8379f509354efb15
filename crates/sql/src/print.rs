//! `Display` as canonical T-SQL: upper-case keywords, minimal parentheses, one statement
//! per line. Printing then parsing gives back the same tree (spans aside), which the tests
//! check on every script; traces and snapshots use the printed form.
//!
//! `to_sql(Dialect::Teradata)` prints the same way in Teradata's syntax (`TOP n`, `"quoted"`
//! names, INTEGER/TIMESTAMP(6), `a MOD b`, FROM before SET in UPDATE) and prints a script
//! request by request: the statements of one request on one line, separated by `; `, so
//! that it parses back into the same requests. Teradata-only nodes print in Teradata
//! syntax in both.

use std::fmt;

use crate::ast::*;
use crate::keywords::is_regular_ident;
use crate::parser::{NILADIC, TERADATA_NILADIC};
use crate::Dialect;

struct Printer {
    out: String,
    indent: usize,
    dialect: Dialect,
}

impl Printer {
    fn new(dialect: Dialect) -> Self {
        Printer {
            out: String::new(),
            indent: 0,
            dialect,
        }
    }

    fn teradata(&self) -> bool {
        self.dialect == Dialect::Teradata
    }

    fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
    }

    fn list<T>(&mut self, items: &[T], sep: &str, mut each: impl FnMut(&mut Self, &T)) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.w(sep);
            }
            each(self, item);
        }
    }

    // ---- names ----------------------------------------------------------------------------

    fn ident(&mut self, id: &Ident) {
        self.name(&id.value);
    }

    fn name(&mut self, name: &str) {
        if self.teradata() {
            if is_regular_ident(name, self.dialect) {
                self.w(name);
            } else {
                self.w("\"");
                self.w(&name.replace('"', "\"\""));
                self.w("\"");
            }
        } else if name.starts_with('@') || is_regular_ident(name, self.dialect) {
            self.w(name);
        } else {
            self.w("[");
            self.w(&name.replace(']', "]]"));
            self.w("]");
        }
    }

    fn ty(&mut self, ty: &DataType) {
        let text = match (self.dialect, ty) {
            (Dialect::Teradata, _) => teradata_type(ty).unwrap_or_else(|| ty.to_string()),
            (Dialect::TSql | Dialect::Postgres, _) => ty.to_string(),
        };
        self.w(&text);
    }

    fn object(&mut self, name: &ObjectName) {
        self.list(&name.parts, ".", |p, id| p.ident(id));
    }

    fn idents_in_parens(&mut self, ids: &[Ident]) {
        self.w("(");
        self.list(ids, ", ", |p, id| p.ident(id));
        self.w(")");
    }

    // ---- statements -----------------------------------------------------------------------

    /// A Teradata request: its statements on one line, each ended by `;`.
    fn request(&mut self, b: &Batch) {
        for (i, s) in b.statements.iter().enumerate() {
            if i > 0 {
                self.w(if matches!(s.kind, StmtKind::Empty) {
                    ""
                } else {
                    " "
                });
            }
            self.stmt(&s.kind);
            self.w(";");
        }
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.newline();
            self.stmt(&s.kind);
            // A procedure or trigger body has already ended with its last statement's `;`.
            if !matches!(
                s.kind,
                StmtKind::CreateProcedure(_) | StmtKind::CreateTrigger(_)
            ) {
                self.w(";");
            }
        }
    }

    /// A nested statement (IF/WHILE body) on its own indented line.
    /// BEGIN ... END blocks stay at the IF's indentation, as T-SQL is usually written.
    fn nested(&mut self, s: &StmtKind) {
        let indent = !matches!(s, StmtKind::Block(_) | StmtKind::TryCatch { .. });
        if indent {
            self.indent += 1;
        }
        self.newline();
        self.stmt(s);
        if indent {
            self.indent -= 1;
        }
    }

    fn block(&mut self, open: &str, body: &[Stmt], close: &str) {
        self.w(open);
        self.indent += 1;
        self.stmts(body);
        self.indent -= 1;
        self.newline();
        self.w(close);
    }

    fn stmt(&mut self, s: &StmtKind) {
        match s {
            StmtKind::CreateTable(t) => self.create_table(t),
            StmtKind::CreateIndex(ix) => self.create_index(ix),
            StmtKind::CreateProcedure(p) => {
                self.w(if p.or_alter {
                    "CREATE OR ALTER PROCEDURE "
                } else {
                    "CREATE PROCEDURE "
                });
                self.object(&p.name);
                for (i, param) in p.params.iter().enumerate() {
                    self.w(if i == 0 { " " } else { ", " });
                    self.ident(&param.name);
                    self.w(" ");
                    self.ty(&param.ty);
                    if let Some(d) = &param.default {
                        self.w(" = ");
                        self.expr(d);
                    }
                    if param.output {
                        self.w(" OUTPUT");
                    }
                }
                self.newline();
                self.w("AS");
                self.stmts(&p.body);
            }
            StmtKind::CreateTrigger(t) => {
                self.w(if t.or_alter {
                    "CREATE OR ALTER TRIGGER "
                } else {
                    "CREATE TRIGGER "
                });
                self.object(&t.name);
                self.w(" ON ");
                self.object(&t.table);
                self.w(match t.timing {
                    TriggerTiming::After => " AFTER ",
                    TriggerTiming::InsteadOf => " INSTEAD OF ",
                });
                self.list(&t.events, ", ", |p, e| {
                    p.w(match e {
                        DmlEvent::Insert => "INSERT",
                        DmlEvent::Update => "UPDATE",
                        DmlEvent::Delete => "DELETE",
                    })
                });
                self.newline();
                self.w("AS");
                self.stmts(&t.body);
            }
            StmtKind::DropTable { names, if_exists } => self.drop("TABLE", names, *if_exists),
            StmtKind::DropProcedure { names, if_exists } => {
                self.drop("PROCEDURE", names, *if_exists)
            }
            StmtKind::DropTrigger { names, if_exists } => self.drop("TRIGGER", names, *if_exists),
            StmtKind::DropIndex {
                name,
                table,
                if_exists,
            } => {
                self.w(if *if_exists {
                    "DROP INDEX IF EXISTS "
                } else {
                    "DROP INDEX "
                });
                self.ident(name);
                if let Some(table) = table {
                    self.w(" ON ");
                    self.object(table);
                }
            }
            StmtKind::TruncateTable { name } => {
                self.w("TRUNCATE TABLE ");
                self.object(name);
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.w("IF ");
                self.expr(cond);
                // An inner IF would take our ELSE: wrap it in BEGIN ... END.
                let wrap = otherwise.is_some()
                    && matches!(then.kind, StmtKind::If { .. } | StmtKind::While { .. });
                if wrap {
                    self.nested(&StmtKind::Block(vec![(**then).clone()]));
                } else {
                    self.nested(&then.kind);
                }
                if let Some(o) = otherwise {
                    self.newline();
                    self.w("ELSE");
                    self.nested(&o.kind);
                }
            }
            StmtKind::While { cond, body } => {
                self.w("WHILE ");
                self.expr(cond);
                self.nested(&body.kind);
            }
            StmtKind::Block(body) => self.block("BEGIN", body, "END"),
            StmtKind::TryCatch { body, handler, .. } => {
                self.block("BEGIN TRY", body, "END TRY");
                self.newline();
                self.block("BEGIN CATCH", handler, "END CATCH");
            }
            StmtKind::Declare(decls) => {
                self.w("DECLARE ");
                self.list(decls, ", ", |p, d| {
                    p.ident(&d.name);
                    p.w(" ");
                    p.ty(&d.ty);
                    if let Some(init) = &d.init {
                        p.w(" = ");
                        p.expr(init);
                    }
                });
            }
            StmtKind::DeclareTable(t) => {
                self.w("DECLARE ");
                self.ident(&t.name);
                self.w(" TABLE");
                self.table_elements(&t.columns, &t.constraints);
            }
            StmtKind::SetVar { name, value } => {
                self.w("SET ");
                self.ident(name);
                self.w(" = ");
                self.expr(value);
            }
            StmtKind::SetOption(o) => self.set_option(o),
            StmtKind::Select(s) => self.select(s),
            StmtKind::Insert(i) => self.insert(i),
            StmtKind::Update(u) => self.update(u),
            StmtKind::Delete(d) => self.delete(d),
            StmtKind::Exec(e) => self.exec(e),
            StmtKind::Sleep { seconds } => {
                self.w("SELECT pg_sleep(");
                self.expr(seconds);
                self.w(")");
            }
            StmtKind::WaitFor { delay } => {
                self.w("WAITFOR DELAY ");
                self.expr(delay);
            }
            StmtKind::BeginTran { name, isolation } => {
                self.tran("BEGIN TRANSACTION", name);
                if let Some(l) = isolation {
                    self.w(&format!(" ISOLATION LEVEL {l}"));
                }
            }
            StmtKind::CommitTran { name, chain } => {
                self.tran("COMMIT TRANSACTION", name);
                if *chain {
                    self.w(" AND CHAIN");
                }
            }
            StmtKind::RollbackTran { name, chain } => {
                self.tran("ROLLBACK TRANSACTION", name);
                if *chain {
                    self.w(" AND CHAIN");
                }
            }
            StmtKind::Savepoint(name) => {
                self.w(if self.dialect == Dialect::Postgres {
                    "SAVEPOINT "
                } else {
                    "SAVE TRANSACTION "
                });
                self.ident(name);
            }
            StmtKind::RollbackToSavepoint(name) => {
                self.w("ROLLBACK TO SAVEPOINT ");
                self.ident(name);
            }
            StmtKind::ReleaseSavepoint(name) => {
                self.w("RELEASE SAVEPOINT ");
                self.ident(name);
            }
            StmtKind::Return(value) => {
                self.w("RETURN");
                if let Some(v) = value {
                    self.w(" ");
                    self.expr(v);
                }
            }
            StmtKind::Throw(args) => {
                self.w("THROW");
                if let Some(a) = args {
                    self.w(" ");
                    self.expr(&a.number);
                    self.w(", ");
                    self.expr(&a.message);
                    self.w(", ");
                    self.expr(&a.state);
                }
            }
            StmtKind::RaisError(r) => {
                self.w("RAISERROR(");
                self.expr(&r.message);
                self.w(", ");
                self.expr(&r.severity);
                self.w(", ");
                self.expr(&r.state);
                for a in &r.args {
                    self.w(", ");
                    self.expr(a);
                }
                self.w(")");
                if !r.options.is_empty() {
                    self.w(" WITH ");
                    self.list(&r.options, ", ", |p, o| {
                        p.w(match o {
                            RaisErrorOption::Log => "LOG",
                            RaisErrorOption::NoWait => "NOWAIT",
                            RaisErrorOption::SetError => "SETERROR",
                        })
                    });
                }
            }
            StmtKind::Print(e) => {
                self.w("PRINT ");
                self.expr(e);
            }
            StmtKind::Break => self.w("BREAK"),
            StmtKind::Continue => self.w("CONTINUE"),
            StmtKind::AlterDatabaseSet {
                database,
                option,
                termination,
            } => {
                self.w("ALTER DATABASE ");
                match database {
                    Some(d) => self.ident(d),
                    None => self.w("CURRENT"),
                }
                let (name, on) = match option {
                    DatabaseOption::ReadCommittedSnapshot(on) => ("READ_COMMITTED_SNAPSHOT", on),
                    DatabaseOption::AllowSnapshotIsolation(on) => ("ALLOW_SNAPSHOT_ISOLATION", on),
                };
                self.w(&format!(" SET {name} {}", on_off(*on)));
                match termination {
                    None => {}
                    Some(Termination::RollbackImmediate) => self.w(" WITH ROLLBACK IMMEDIATE"),
                    Some(Termination::RollbackAfter(n)) => {
                        self.w(&format!(" WITH ROLLBACK AFTER {n} SECONDS"))
                    }
                    Some(Termination::NoWait) => self.w(" WITH NO_WAIT"),
                }
            }
            StmtKind::Empty => {}
            StmtKind::Vacuum(tables) => {
                self.w("VACUUM");
                for (n, t) in tables.iter().enumerate() {
                    self.w(if n == 0 { " " } else { ", " });
                    self.object(t);
                }
            }
            StmtKind::SelectAndConsume(c) => self.consume(c),
            StmtKind::Locking { locks, stmt } => {
                for (i, l) in locks.iter().enumerate() {
                    if i > 0 {
                        self.w(" ");
                    }
                    self.locking(l);
                }
                if let Some(s) = stmt {
                    self.w(" ");
                    self.stmt(&s.kind);
                }
            }
            StmtKind::TeradataTxn(t) => self.w(t.label()),
            StmtKind::Merge(m) => self.merge(m),
        }
    }

    fn create_table(&mut self, t: &CreateTable) {
        self.w(match t.set_table {
            None => "CREATE TABLE ",
            Some(true) => "CREATE SET TABLE ",
            Some(false) => "CREATE MULTISET TABLE ",
        });
        if t.if_not_exists {
            self.w("IF NOT EXISTS ");
        }
        self.object(&t.name);
        if t.queue {
            self.w(", QUEUE");
        }
        for o in &t.options {
            let (no, what) = match o {
                TableOption::Fallback(on) => (!on, "FALLBACK"),
                TableOption::BeforeJournal(on) => (!on, "BEFORE JOURNAL"),
                TableOption::AfterJournal(on) => (!on, "AFTER JOURNAL"),
            };
            self.w(if no { ", NO " } else { ", " });
            self.w(what);
        }
        self.table_elements(&t.columns, &t.constraints);
        if let Some(pi) = &t.primary_index {
            self.w(if pi.unique {
                " UNIQUE PRIMARY INDEX "
            } else {
                " PRIMARY INDEX "
            });
            if let Some(n) = &pi.name {
                self.ident(n);
                self.w(" ");
            }
            self.idents_in_parens(&pi.columns);
        }
    }

    fn consume(&mut self, c: &SelectAndConsume) {
        self.w("SELECT AND CONSUME TOP 1 ");
        self.list(&c.items, ", ", |p, i| p.select_item(i));
        self.w(" FROM ");
        self.object(&c.queue);
        if let Some(a) = &c.alias {
            self.w(" AS ");
            self.ident(a);
        }
    }

    fn locking(&mut self, l: &LockingClause) {
        self.w("LOCKING ");
        match &l.object {
            LockingObject::Table(t) => {
                self.w("TABLE ");
                self.object(t);
            }
            LockingObject::Row => self.w("ROW"),
        }
        self.w(match l.severity {
            LockSeverity::Access => " FOR ACCESS",
            LockSeverity::Read => " FOR READ",
            LockSeverity::Write => " FOR WRITE",
            LockSeverity::Exclusive => " FOR EXCLUSIVE",
        });
        if l.nowait {
            self.w(" NOWAIT");
        }
    }

    fn merge(&mut self, m: &Merge) {
        self.w("MERGE INTO ");
        self.factor(&m.target);
        self.w(" USING ");
        self.factor(&m.source);
        self.w(" ON ");
        self.expr(&m.on);
        for c in &m.clauses {
            self.w(if c.matched {
                " WHEN MATCHED"
            } else {
                " WHEN NOT MATCHED"
            });
            if let Some(cond) = &c.condition {
                self.w(" AND ");
                self.expr(cond);
            }
            self.w(" THEN ");
            match &c.action {
                MergeAction::Update(assignments) => {
                    self.w("UPDATE SET ");
                    self.assignments(assignments);
                }
                MergeAction::Delete => self.w("DELETE"),
                MergeAction::Insert { columns, values } => {
                    self.w("INSERT ");
                    if !columns.is_empty() {
                        self.idents_in_parens(columns);
                        self.w(" ");
                    }
                    self.w("VALUES ");
                    self.rows(std::slice::from_ref(values));
                }
            }
        }
        self.output(&m.output);
    }

    fn drop(&mut self, what: &str, names: &[ObjectName], if_exists: bool) {
        self.w(&format!("DROP {what} "));
        if if_exists {
            self.w("IF EXISTS ");
        }
        self.list(names, ", ", |p, n| p.object(n));
    }

    fn tran(&mut self, keywords: &str, name: &Option<Ident>) {
        self.w(keywords);
        if let Some(n) = name {
            self.w(" ");
            self.ident(n);
        }
    }

    fn set_option(&mut self, o: &SetOption) {
        self.w("SET ");
        match o {
            SetOption::NoCount(on) => self.w(&format!("NOCOUNT {}", on_off(*on))),
            SetOption::XactAbort(on) => self.w(&format!("XACT_ABORT {}", on_off(*on))),
            SetOption::QuotedIdentifier(on) => {
                self.w(&format!("QUOTED_IDENTIFIER {}", on_off(*on)))
            }
            SetOption::AnsiNulls(on) => self.w(&format!("ANSI_NULLS {}", on_off(*on))),
            SetOption::ImplicitTransactions(on) => {
                self.w(&format!("IMPLICIT_TRANSACTIONS {}", on_off(*on)))
            }
            SetOption::StatisticsIo(on) => self.w(&format!("STATISTICS IO {}", on_off(*on))),
            SetOption::StatisticsTime(on) => self.w(&format!("STATISTICS TIME {}", on_off(*on))),
            SetOption::IsolationLevel(l) => self.w(&format!("TRANSACTION ISOLATION LEVEL {l}")),
            SetOption::LockTimeout(n) => self.w(&format!("LOCK_TIMEOUT {n}")),
            SetOption::TransactionIsolation(l) => {
                self.w(&format!("LOCAL TRANSACTION ISOLATION LEVEL {l}"))
            }
            SetOption::LocalLockTimeout(n) => self.w(&format!("LOCAL lock_timeout = {n}")),
            SetOption::StatementTimeout(n) => self.w(&format!("statement_timeout = {n}")),
            SetOption::LocalStatementTimeout(n) => {
                self.w(&format!("LOCAL statement_timeout = {n}"))
            }
            SetOption::IdentityInsert { table, on } => {
                self.w("IDENTITY_INSERT ");
                self.object(table);
                self.w(&format!(" {}", on_off(*on)));
            }
            SetOption::DeadlockPriority(p) => {
                self.w("DEADLOCK_PRIORITY ");
                match p {
                    DeadlockPriority::Low => self.w("LOW"),
                    DeadlockPriority::Normal => self.w("NORMAL"),
                    DeadlockPriority::High => self.w("HIGH"),
                    DeadlockPriority::Numeric(n) => self.w(&n.to_string()),
                    DeadlockPriority::Var(v) => self.ident(v),
                }
            }
        }
    }

    fn table_elements(&mut self, columns: &[ColumnDef], constraints: &[TableConstraint]) {
        self.w(" (");
        self.indent += 1;
        let total = columns.len() + constraints.len();
        let mut n = 0;
        let mut sep = |p: &mut Self| {
            n += 1;
            if n < total {
                p.w(",");
            }
        };
        for c in columns {
            self.newline();
            self.column(c);
            sep(self);
        }
        for c in constraints {
            self.newline();
            self.constraint(c);
            sep(self);
        }
        self.indent -= 1;
        self.newline();
        self.w(")");
    }

    fn column(&mut self, c: &ColumnDef) {
        self.ident(&c.name);
        self.w(" ");
        self.ty(&c.ty);
        if let Some((seed, step)) = c.identity {
            self.w(&format!(" IDENTITY({seed}, {step})"));
        }
        match c.nullable {
            Some(true) => self.w(" NULL"),
            Some(false) => self.w(" NOT NULL"),
            None => {}
        }
        if let Some(d) = &c.default {
            if self.teradata() {
                self.w(" DEFAULT ");
                self.expr(d);
            } else {
                self.w(" DEFAULT (");
                self.expr(d);
                self.w(")");
            }
        }
        if c.primary_key {
            self.w(" PRIMARY KEY");
            if !c.unique {
                self.clustered(c.clustered);
            }
        }
        if c.unique {
            self.w(" UNIQUE");
            self.clustered(c.clustered);
        }
        if let Some(check) = &c.check {
            self.w(" CHECK (");
            self.expr(check);
            self.w(")");
        }
        if let Some((name, fk)) = &c.references {
            if let Some(name) = name {
                self.w(" CONSTRAINT ");
                self.ident(name);
            }
            self.w(" ");
            self.references(fk);
        }
    }

    fn references(&mut self, fk: &ForeignKey) {
        self.w("REFERENCES ");
        self.object(&fk.table);
        if !fk.ref_columns.is_empty() {
            self.w(" (");
            self.list(&fk.ref_columns, ", ", |p, c| p.ident(c));
            self.w(")");
        }
        for (on, action) in [(" ON DELETE ", fk.on_delete), (" ON UPDATE ", fk.on_update)] {
            if action != RefAction::NoAction {
                self.w(on);
                self.w(action.keyword());
            }
        }
    }

    fn clustered(&mut self, clustered: Option<bool>) {
        match clustered {
            Some(true) => self.w(" CLUSTERED"),
            Some(false) => self.w(" NONCLUSTERED"),
            None => {}
        }
    }

    fn constraint(&mut self, c: &TableConstraint) {
        if let Some(name) = &c.name {
            self.w("CONSTRAINT ");
            self.ident(name);
            self.w(" ");
        }
        match &c.kind {
            TableConstraintKind::PrimaryKey { clustered, columns } => {
                self.w("PRIMARY KEY");
                self.clustered(*clustered);
                self.index_columns(columns);
            }
            TableConstraintKind::Unique { clustered, columns } => {
                self.w("UNIQUE");
                self.clustered(*clustered);
                self.index_columns(columns);
            }
            TableConstraintKind::Check(e) => {
                self.w("CHECK (");
                self.expr(e);
                self.w(")");
            }
            TableConstraintKind::ForeignKey(fk) => {
                self.w("FOREIGN KEY (");
                self.list(&fk.columns, ", ", |p, c| p.ident(c));
                self.w(") ");
                self.references(fk);
            }
        }
    }

    fn index_columns(&mut self, columns: &[IndexColumn]) {
        self.w(" (");
        self.list(columns, ", ", |p, c| {
            p.ident(&c.name);
            if c.desc {
                p.w(" DESC");
            }
        });
        self.w(")");
    }

    fn create_index(&mut self, ix: &CreateIndex) {
        self.w("CREATE ");
        if ix.unique {
            self.w("UNIQUE ");
        }
        match ix.clustered {
            Some(true) => self.w("CLUSTERED "),
            Some(false) => self.w("NONCLUSTERED "),
            None => {}
        }
        self.w("INDEX ");
        if ix.if_not_exists {
            self.w("IF NOT EXISTS ");
        }
        if !ix.name.value.is_empty() {
            self.ident(&ix.name);
            self.w(" ");
        }
        self.w("ON ");
        self.object(&ix.table);
        self.index_columns(&ix.columns);
        if !ix.include.is_empty() {
            self.w(" INCLUDE ");
            self.idents_in_parens(&ix.include);
        }
        if let Some(f) = &ix.filter {
            self.w(" WHERE ");
            self.expr(f);
        }
    }

    // ---- queries --------------------------------------------------------------------------

    fn ctes(&mut self, ctes: &[Cte]) {
        if ctes.is_empty() {
            return;
        }
        self.w("WITH ");
        self.list(ctes, ", ", |p, c| {
            p.ident(&c.name);
            if !c.columns.is_empty() {
                p.w(" ");
                p.idents_in_parens(&c.columns);
            }
            p.w(" AS (");
            p.select(&c.query);
            p.w(")");
        });
        self.w(" ");
    }

    fn top(&mut self, top: &Option<Top>) {
        if let Some(t) = top {
            let bare =
                self.teradata() && matches!(t.count.kind, ExprKind::Literal(Literal::Int(_)));
            if bare {
                self.w("TOP ");
                self.expr(&t.count);
            } else {
                self.w("TOP (");
                self.expr(&t.count);
                self.w(")");
            }
            if t.percent {
                self.w(" PERCENT");
            }
            if t.with_ties {
                self.w(" WITH TIES");
            }
            self.w(" ");
        }
    }

    fn select(&mut self, s: &Select) {
        self.ctes(&s.ctes);
        let mut core = Some(s);
        while let Some(c) = core {
            self.select_core(c);
            core = match &c.set_op {
                Some((op, next)) => {
                    self.w(match op {
                        SetOp::Union => " UNION ",
                        SetOp::UnionAll => " UNION ALL ",
                        SetOp::Except => " EXCEPT ",
                        SetOp::Intersect => " INTERSECT ",
                    });
                    Some(&**next)
                }
                None => None,
            };
        }
        if !s.order_by.is_empty() {
            self.w(" ");
            self.order_by(&s.order_by);
        }
        if let Some(o) = &s.offset {
            self.w(" OFFSET ");
            self.expr(&o.skip);
            self.w(" ROWS");
            if let Some(f) = &o.fetch {
                self.w(" FETCH NEXT ");
                self.expr(f);
                self.w(" ROWS ONLY");
            }
        }
    }

    fn order_by(&mut self, items: &[OrderItem]) {
        self.w("ORDER BY ");
        self.list(items, ", ", |p, o| {
            p.expr(&o.expr);
            if o.desc {
                p.w(" DESC");
            }
            match o.nulls_first {
                Some(true) => p.w(" NULLS FIRST"),
                Some(false) => p.w(" NULLS LAST"),
                None => {}
            }
        });
    }

    fn select_core(&mut self, s: &Select) {
        self.w("SELECT ");
        if s.distinct {
            self.w("DISTINCT ");
        }
        self.top(&s.top);
        self.list(&s.items, ", ", |p, i| p.select_item(i));
        if let Some(into) = &s.into {
            self.w(" INTO ");
            self.object(into);
        }
        if !s.from.is_empty() {
            self.w(" FROM ");
            self.from(&s.from);
        }
        self.where_clause(&s.where_clause);
        if !s.group_by.is_empty() {
            self.w(" GROUP BY ");
            self.list(&s.group_by, ", ", |p, e| p.expr(e));
        }
        if let Some(h) = &s.having {
            self.w(" HAVING ");
            self.expr(h);
        }
    }

    fn where_clause(&mut self, w: &Option<Expr>) {
        if let Some(w) = w {
            self.w(" WHERE ");
            self.expr(w);
        }
    }

    fn select_item(&mut self, item: &SelectItem) {
        match item {
            SelectItem::Wildcard { qualifier, .. } => {
                if let Some(q) = qualifier {
                    self.ident(q);
                    self.w(".");
                }
                self.w("*");
            }
            SelectItem::Expr { expr, alias } => {
                self.expr(expr);
                if let Some(a) = alias {
                    self.w(" AS ");
                    self.ident(a);
                }
            }
            SelectItem::Assign { var, expr, .. } => {
                self.ident(var);
                self.w(" = ");
                self.expr(expr);
            }
        }
    }

    fn from(&mut self, refs: &[TableRef]) {
        self.list(refs, ", ", |p, r| {
            p.factor(&r.factor);
            for j in &r.joins {
                p.w(match j.kind {
                    JoinKind::Inner => " JOIN ",
                    JoinKind::LeftOuter => " LEFT JOIN ",
                    JoinKind::RightOuter => " RIGHT JOIN ",
                    JoinKind::FullOuter => " FULL JOIN ",
                    JoinKind::Cross => " CROSS JOIN ",
                    JoinKind::CrossApply => " CROSS APPLY ",
                    JoinKind::OuterApply => " OUTER APPLY ",
                });
                p.factor(&j.factor);
                if let Some(on) = &j.on {
                    p.w(" ON ");
                    p.expr(on);
                }
            }
        });
    }

    fn factor(&mut self, f: &TableFactor) {
        match f {
            TableFactor::Table {
                name, alias, hints, ..
            } => {
                self.object(name);
                if let Some(a) = alias {
                    self.w(" AS ");
                    self.ident(a);
                }
                self.hints(hints);
            }
            TableFactor::Derived {
                query,
                alias,
                columns,
                ..
            } => {
                self.w("(");
                self.select(query);
                self.w(") AS ");
                self.ident(alias);
                if !columns.is_empty() {
                    self.idents_in_parens(columns);
                }
            }
            TableFactor::Values {
                rows,
                alias,
                columns,
                ..
            } => {
                self.w("(VALUES ");
                self.rows(rows);
                self.w(") AS ");
                self.ident(alias);
                if !columns.is_empty() {
                    self.idents_in_parens(columns);
                }
            }
            TableFactor::Series {
                args,
                alias,
                column,
                ..
            } => {
                self.w("generate_series(");
                self.list(args, ", ", |p, e| p.expr(e));
                self.w(") AS ");
                self.ident(alias);
                self.w("(");
                self.ident(column);
                self.w(")");
            }
            TableFactor::TableVar { name, alias, .. } => {
                self.ident(name);
                if let Some(a) = alias {
                    self.w(" AS ");
                    self.ident(a);
                }
            }
        }
    }

    fn hints(&mut self, hints: &[TableHint]) {
        if hints.is_empty() {
            return;
        }
        self.w(" WITH (");
        self.list(hints, ", ", |p, h| p.w(&h.kind.to_string()));
        self.w(")");
    }

    fn rows(&mut self, rows: &[Vec<Expr>]) {
        self.list(rows, ", ", |p, row| {
            p.w("(");
            p.list(row, ", ", |p, e| p.expr(e));
            p.w(")");
        });
    }

    fn insert(&mut self, i: &Insert) {
        self.ctes(&i.ctes);
        self.w("INSERT ");
        self.top(&i.top);
        self.w("INTO ");
        self.factor(&i.target);
        if !i.columns.is_empty() {
            self.w(" ");
            self.idents_in_parens(&i.columns);
        }
        self.output(&i.output);
        match &i.source {
            InsertSource::Values(rows) => {
                self.w(" VALUES ");
                self.rows(rows);
            }
            InsertSource::Select(s) => {
                self.w(" ");
                self.select(s);
            }
            InsertSource::Exec(e) => {
                self.w(" ");
                self.exec(e);
            }
            InsertSource::DefaultValues => self.w(" DEFAULT VALUES"),
            InsertSource::SelectAndConsume(c) => {
                self.w(" ");
                self.consume(c);
            }
        }
        if let Some(c) = &i.on_conflict {
            self.w(" ON CONFLICT ");
            if let Some(name) = &c.constraint {
                self.w("ON CONSTRAINT ");
                self.ident(name);
                self.w(" ");
            } else if !c.columns.is_empty() {
                self.idents_in_parens(&c.columns);
                self.w(" ");
                if let Some(w) = &c.index_where {
                    self.w("WHERE ");
                    self.expr(w);
                    self.w(" ");
                }
            }
            match &c.update {
                None => self.w("DO NOTHING"),
                Some(u) => {
                    self.w("DO UPDATE SET ");
                    self.assignments(&u.assignments);
                    if let Some(w) = &u.where_clause {
                        self.w(" WHERE ");
                        self.expr(w);
                    }
                }
            }
        }
    }

    fn assignments(&mut self, assignments: &[Assignment]) {
        self.list(assignments, ", ", |p, a| {
            match &a.target {
                AssignTarget::Column(c) => p.object(c),
                AssignTarget::Var(v) => p.ident(v),
                AssignTarget::VarAndColumn(v, c) => {
                    p.ident(v);
                    p.w(" = ");
                    p.object(c);
                }
            }
            p.w(" = ");
            p.expr(&a.value);
        });
    }

    fn update(&mut self, u: &Update) {
        self.ctes(&u.ctes);
        self.w("UPDATE ");
        self.top(&u.top);
        self.factor(&u.target);
        if self.teradata() {
            // Teradata puts FROM before SET.
            if !u.from.is_empty() {
                self.w(" FROM ");
                self.from(&u.from);
            }
            self.w(" SET ");
            self.assignments(&u.assignments);
            self.where_clause(&u.where_clause);
            return;
        }
        self.w(" SET ");
        self.assignments(&u.assignments);
        self.output(&u.output);
        if !u.from.is_empty() {
            self.w(" FROM ");
            self.from(&u.from);
        }
        self.where_clause(&u.where_clause);
    }

    fn delete(&mut self, d: &Delete) {
        if self.teradata() && !d.from.is_empty() {
            // `DELETE x FROM t AS x, u WHERE ...`
            self.w("DELETE ");
            self.factor(&d.target);
            self.w(" FROM ");
            self.from(&d.from);
            self.where_clause(&d.where_clause);
            return;
        }
        self.ctes(&d.ctes);
        self.w("DELETE ");
        self.top(&d.top);
        self.w("FROM ");
        self.factor(&d.target);
        self.output(&d.output);
        if !d.from.is_empty() {
            self.w(" FROM ");
            self.from(&d.from);
        }
        self.where_clause(&d.where_clause);
    }

    fn output(&mut self, o: &Option<Output>) {
        let Some(o) = o else { return };
        self.w(" OUTPUT ");
        self.list(&o.items, ", ", |p, i| p.select_item(i));
        if let Some(into) = &o.into {
            self.w(" INTO ");
            self.factor(&into.target);
            if !into.columns.is_empty() {
                self.w(" ");
                self.idents_in_parens(&into.columns);
            }
        }
    }

    fn exec(&mut self, e: &Exec) {
        self.w("EXEC ");
        if let Some(v) = &e.return_var {
            self.ident(v);
            self.w(" = ");
        }
        self.object(&e.procedure);
        for (i, a) in e.args.iter().enumerate() {
            self.w(if i == 0 { " " } else { ", " });
            if let Some(n) = &a.name {
                self.ident(n);
                self.w(" = ");
            }
            self.expr(&a.value);
            if a.output {
                self.w(" OUTPUT");
            }
        }
    }

    // ---- expressions ----------------------------------------------------------------------

    /// `e`, in parentheses when its precedence is below `min`.
    fn operand(&mut self, e: &Expr, min: u8) {
        if precedence(e, self.dialect) < min {
            self.w("(");
            self.expr(e);
            self.w(")");
        } else {
            self.expr(e);
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Literal(l) => self.literal(l),
            ExprKind::Var(v) => self.w(v),
            // PL/pgSQL's FOUND is a bare word.
            ExprKind::Global(g) if g == "FOUND" => self.w("FOUND"),
            ExprKind::Global(g) => self.w(&format!("@@{g}")),
            ExprKind::Column(c) => self.object(c),
            ExprKind::Unary { op, expr } => match op {
                UnaryOp::Not => {
                    self.w("NOT ");
                    self.operand(expr, PREC_NOT);
                }
                UnaryOp::Neg | UnaryOp::BitNot => {
                    self.w(if *op == UnaryOp::Neg { "-" } else { "~" });
                    // Anything but a plain operand in parentheses, so `-` never meets `-`.
                    self.operand(expr, PREC_PRIMARY);
                }
            },
            ExprKind::Binary { op, left, right } => {
                let p = binary_precedence(*op, self.dialect);
                // Comparisons do not chain, so a comparison operand always gets parentheses.
                let left_min = if p == PREC_CMP { p + 1 } else { p };
                self.operand(left, left_min);
                if self.teradata() && *op == BinaryOp::Mod {
                    self.w(" MOD ");
                } else {
                    self.w(&format!(" {} ", binary_symbol(*op)));
                }
                self.operand(right, p + 1);
            }
            ExprKind::IsNull { expr, negated } => {
                self.operand(expr, PREC_ADD);
                self.w(if *negated { " IS NOT NULL" } else { " IS NULL" });
            }
            ExprKind::InList {
                expr,
                list,
                negated,
            } => {
                self.operand(expr, PREC_ADD);
                self.w(if *negated { " NOT IN (" } else { " IN (" });
                self.list(list, ", ", |p, e| p.expr(e));
                self.w(")");
            }
            ExprKind::InSubquery {
                expr,
                query,
                negated,
            } => {
                self.operand(expr, PREC_ADD);
                self.w(if *negated { " NOT IN (" } else { " IN (" });
                self.select(query);
                self.w(")");
            }
            ExprKind::Between {
                expr,
                low,
                high,
                negated,
            } => {
                self.operand(expr, PREC_ADD);
                self.w(if *negated {
                    " NOT BETWEEN "
                } else {
                    " BETWEEN "
                });
                self.operand(low, PREC_ADD);
                self.w(" AND ");
                self.operand(high, PREC_ADD);
            }
            ExprKind::Like {
                expr,
                pattern,
                negated,
                case_insensitive,
            } => {
                self.operand(expr, PREC_ADD);
                self.w(if *negated { " NOT " } else { " " });
                self.w(if *case_insensitive { "ILIKE " } else { "LIKE " });
                self.operand(pattern, PREC_ADD);
            }
            ExprKind::Default => self.w("DEFAULT"),
            ExprKind::Exists(q) => {
                self.w("EXISTS (");
                self.select(q);
                self.w(")");
            }
            ExprKind::Subquery(q) => {
                self.w("(");
                self.select(q);
                self.w(")");
            }
            // TRY_CAST and TRY_CONVERT: the cast inside, named with TRY_.
            ExprKind::Function { name, args, .. } if name == crate::TRY && args.len() == 1 => {
                self.w("TRY_");
                self.expr(&args[0]);
            }
            ExprKind::Function { name, args, .. } if name == "INTERVAL" && args.len() == 2 => {
                // Teradata's interval literal: INTERVAL '0.001' SECOND.
                self.w("INTERVAL ");
                self.expr(&args[0]);
                if let ExprKind::Literal(Literal::Str { value, .. }) = &args[1].kind {
                    self.w(" ");
                    self.w(value);
                }
            }
            ExprKind::Function {
                name,
                args,
                star,
                distinct,
                over,
                within_group,
            } => {
                self.w(name);
                let niladic = (NILADIC.contains(&name.as_str())
                    || TERADATA_NILADIC.contains(&name.as_str()))
                    && args.is_empty()
                    && !star;
                if !niladic {
                    self.w("(");
                    if *star {
                        self.w("*");
                    }
                    if *distinct {
                        self.w("DISTINCT ");
                    }
                    self.list(args, ", ", |p, e| p.expr(e));
                    self.w(")");
                }
                if !within_group.is_empty() {
                    self.w(" WITHIN GROUP (");
                    self.order_by(within_group);
                    self.w(")");
                }
                if let Some(w) = over {
                    self.w(" OVER (");
                    if !w.partition_by.is_empty() {
                        self.w("PARTITION BY ");
                        self.list(&w.partition_by, ", ", |p, e| p.expr(e));
                        if !w.order_by.is_empty() {
                            self.w(" ");
                        }
                    }
                    if !w.order_by.is_empty() {
                        self.order_by(&w.order_by);
                    }
                    self.w(")");
                }
            }
            ExprKind::Cast { expr, ty, style } => match style {
                None => {
                    self.w("CAST(");
                    self.expr(expr);
                    self.w(" AS ");
                    self.ty(ty);
                    self.w(")");
                }
                Some(style) => {
                    self.w("CONVERT(");
                    self.ty(ty);
                    self.w(", ");
                    self.expr(expr);
                    self.w(", ");
                    self.expr(style);
                    self.w(")");
                }
            },
            ExprKind::Case {
                operand,
                branches,
                otherwise,
            } => {
                self.w("CASE");
                if let Some(o) = operand {
                    self.w(" ");
                    self.expr(o);
                }
                for (when, then) in branches {
                    self.w(" WHEN ");
                    self.expr(when);
                    self.w(" THEN ");
                    self.expr(then);
                }
                if let Some(o) = otherwise {
                    self.w(" ELSE ");
                    self.expr(o);
                }
                self.w(" END");
            }
        }
    }

    fn literal(&mut self, l: &Literal) {
        match l {
            Literal::Int(n) => self.w(&n.to_string()),
            Literal::Decimal(d) => self.w(d),
            Literal::Str { value, national } => {
                if *national {
                    self.w("N");
                }
                self.w("'");
                self.w(&value.replace('\'', "''"));
                self.w("'");
            }
            Literal::Bool(b) => self.w(if *b { "TRUE" } else { "FALSE" }),
            Literal::Null => self.w("NULL"),
        }
    }
}

const PREC_OR: u8 = 1;
const PREC_AND: u8 = 2;
const PREC_NOT: u8 = 3;
const PREC_CMP: u8 = 4;
/// PostgreSQL's "any other operator" (`||`, `&`, `|`).
const PREC_OTHER: u8 = 5;
const PREC_ADD: u8 = 6;
const PREC_MUL: u8 = 7;
/// PostgreSQL's `^`.
const PREC_POW: u8 = 8;
const PREC_UNARY: u8 = 9;
const PREC_PRIMARY: u8 = 10;

fn binary_precedence(op: BinaryOp, dialect: Dialect) -> u8 {
    use BinaryOp::*;
    match op {
        Or => PREC_OR,
        And => PREC_AND,
        Eq | Ne | Lt | Le | Gt | Ge | IsDistinct | IsNotDistinct => PREC_CMP,
        Concat => PREC_OTHER,
        BitAnd | BitOr if dialect == Dialect::Postgres => PREC_OTHER,
        Add | Sub | BitAnd | BitOr | BitXor => PREC_ADD,
        Mul | Div | Mod => PREC_MUL,
        Pow => PREC_POW,
    }
}

fn precedence(e: &Expr, dialect: Dialect) -> u8 {
    match &e.kind {
        ExprKind::Binary { op, .. } => binary_precedence(*op, dialect),
        ExprKind::Unary {
            op: UnaryOp::Not, ..
        } => PREC_NOT,
        ExprKind::Unary { .. } => PREC_UNARY,
        ExprKind::IsNull { .. }
        | ExprKind::InList { .. }
        | ExprKind::InSubquery { .. }
        | ExprKind::Between { .. }
        | ExprKind::Like { .. } => PREC_CMP,
        ExprKind::Literal(Literal::Int(n)) if *n < 0 => PREC_UNARY,
        ExprKind::Literal(Literal::Decimal(d)) if d.starts_with('-') => PREC_UNARY,
        _ => PREC_PRIMARY,
    }
}

/// The operator as SQL writes it (`+`, `<=`, `AND`).
pub fn binary_symbol(op: BinaryOp) -> &'static str {
    use BinaryOp::*;
    match op {
        Add => "+",
        Sub => "-",
        Mul => "*",
        Div => "/",
        Mod => "%",
        Eq => "=",
        Ne => "<>",
        IsDistinct => "IS DISTINCT FROM",
        IsNotDistinct => "IS NOT DISTINCT FROM",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        And => "AND",
        Or => "OR",
        BitAnd => "&",
        BitOr => "|",
        BitXor => "^",
        Concat => "||",
        Pow => "^",
    }
}

fn on_off(on: bool) -> &'static str {
    if on {
        "ON"
    } else {
        "OFF"
    }
}

/// Teradata's name of a type, where it differs from T-SQL's.
fn teradata_type(ty: &DataType) -> Option<String> {
    Some(match ty {
        DataType::ByteInt => "BYTEINT".into(),
        DataType::SmallInt => "SMALLINT".into(),
        DataType::Int => "INTEGER".into(),
        DataType::BigInt => "BIGINT".into(),
        DataType::Decimal { precision, scale } => format!("DECIMAL({precision}, {scale})"),
        DataType::Float => "FLOAT".into(),
        DataType::Char(n) => format!("CHAR({n})"),
        DataType::VarChar(Len::N(n)) => format!("VARCHAR({n})"),
        DataType::Date => "DATE".into(),
        DataType::DateTime2(p) => format!("TIMESTAMP({p})"),
        DataType::Time(p) => format!("TIME({p})"),
        _ => return None,
    })
}

fn print_script(p: &mut Printer, s: &Script) {
    for (i, b) in s.batches.iter().enumerate() {
        if i > 0 {
            p.w(if p.teradata() { "\n" } else { "\nGO\n" });
        }
        print_batch(p, b);
    }
}

fn print_batch(p: &mut Printer, b: &Batch) {
    if p.teradata() {
        p.request(b);
        return;
    }
    let start = p.out.len();
    p.stmts(&b.statements);
    // Every statement starts on a new line; the first needs none.
    if p.out[start..].starts_with('\n') {
        p.out.remove(start);
    }
}

macro_rules! display_with {
    ($ty:ty, |$p:ident, $v:ident| $body:expr) => {
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.to_sql(Dialect::TSql))
            }
        }

        impl $ty {
            /// The node as SQL of `dialect` that parses back to the same tree (`Display`
            /// is `to_sql(Dialect::TSql)`).
            pub fn to_sql(&self, dialect: Dialect) -> String {
                let mut $p = Printer::new(dialect);
                let $v = self;
                $body;
                $p.out
            }
        }
    };
}

display_with!(Script, |p, s| print_script(&mut p, s));
display_with!(Batch, |p, b| print_batch(&mut p, b));
display_with!(Stmt, |p, s| p.stmt(&s.kind));
display_with!(StmtKind, |p, s| p.stmt(s));
display_with!(Expr, |p, e| p.expr(e));
display_with!(Select, |p, s| p.select(s));
display_with!(TableFactor, |p, f| p.factor(f));
display_with!(SelectItem, |p, i| p.select_item(i));
display_with!(Ident, |p, i| p.ident(i));
display_with!(ObjectName, |p, n| p.object(n));
display_with!(SelectAndConsume, |p, c| p.consume(c));

impl fmt::Display for HintKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            HintKind::NoLock => "NOLOCK",
            HintKind::ReadUncommitted => "READUNCOMMITTED",
            HintKind::ReadCommitted => "READCOMMITTED",
            HintKind::ReadCommittedLock => "READCOMMITTEDLOCK",
            HintKind::RepeatableRead => "REPEATABLEREAD",
            HintKind::Serializable => "SERIALIZABLE",
            HintKind::HoldLock => "HOLDLOCK",
            HintKind::UpdLock => "UPDLOCK",
            HintKind::XLock => "XLOCK",
            HintKind::RowLock => "ROWLOCK",
            HintKind::TabLock => "TABLOCK",
            HintKind::TabLockX => "TABLOCKX",
            HintKind::ReadPast => "READPAST",
            HintKind::NoWait => "NOWAIT",
            HintKind::ForceSeek => "FORCESEEK",
            HintKind::ForceScan => "FORCESCAN",
            HintKind::ForUpdate => "FOR UPDATE",
            HintKind::ForNoKeyUpdate => "FOR NO KEY UPDATE",
            HintKind::ForShare => "FOR SHARE",
            HintKind::ForKeyShare => "FOR KEY SHARE",
            HintKind::Index(names) => {
                let mut p = Printer::new(Dialect::TSql);
                p.w("INDEX(");
                p.list(names, ", ", |p, n| {
                    if n.value.bytes().all(|b| b.is_ascii_digit()) {
                        p.w(&n.value);
                    } else {
                        p.ident(n);
                    }
                });
                p.w(")");
                return f.write_str(&p.out);
            }
        };
        f.write_str(s)
    }
}

impl fmt::Display for IsolationLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IsolationLevel::ReadUncommitted => "READ UNCOMMITTED",
            IsolationLevel::ReadCommitted => "READ COMMITTED",
            IsolationLevel::RepeatableRead => "REPEATABLE READ",
            IsolationLevel::Snapshot => "SNAPSHOT",
            IsolationLevel::Serializable => "SERIALIZABLE",
        })
    }
}

impl fmt::Display for Len {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Len::N(n) => write!(f, "{n}"),
            Len::Max => f.write_str("max"),
        }
    }
}

impl fmt::Display for DataType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataType::TinyInt => f.write_str("tinyint"),
            DataType::SmallInt => f.write_str("smallint"),
            DataType::Int => f.write_str("int"),
            DataType::BigInt => f.write_str("bigint"),
            DataType::Bit => f.write_str("bit"),
            DataType::Boolean => f.write_str("boolean"),
            DataType::Decimal { precision, scale } => write!(f, "decimal({precision}, {scale})"),
            DataType::Float => f.write_str("float"),
            DataType::Money => f.write_str("money"),
            DataType::Char(n) => write!(f, "char({n})"),
            DataType::VarChar(n) => write!(f, "varchar({n})"),
            DataType::NChar(n) => write!(f, "nchar({n})"),
            DataType::NVarChar(n) => write!(f, "nvarchar({n})"),
            DataType::DateTime => f.write_str("datetime"),
            DataType::DateTime2(p) => write!(f, "datetime2({p})"),
            DataType::Date => f.write_str("date"),
            DataType::Time(p) => write!(f, "time({p})"),
            DataType::Timestamp(6) => f.write_str("timestamp"),
            DataType::Timestamp(p) => write!(f, "timestamp({p})"),
            DataType::TimestampTz(6) => f.write_str("timestamptz"),
            DataType::TimestampTz(p) => write!(f, "timestamptz({p})"),
            DataType::UniqueIdentifier => f.write_str("uniqueidentifier"),
            DataType::SysName => f.write_str("sysname"),
            DataType::ByteInt => f.write_str("byteint"),
        }
    }
}
