//! The syntax tree of the simulated T-SQL subset and of the Teradata subset.
//!
//! Both dialects share one tree: a Teradata `SELECT` is a [`Select`], a Teradata `INSERT` an
//! [`Insert`]. What only Teradata has gets its own nodes: [`StmtKind::SelectAndConsume`],
//! [`StmtKind::Locking`], [`StmtKind::TeradataTxn`], [`StmtKind::Merge`],
//! [`InsertSource::SelectAndConsume`], the queue-table fields of [`CreateTable`] and
//! [`DataType::ByteInt`]. See [`crate::parse_script`] for how Teradata requests map onto
//! [`Batch`]es.
//!
//! Conventions the interpreter can rely on:
//! - Every node that an error or a trace may point at carries a `span`: byte offsets into
//!   the script text passed to [`crate::parse_script`] (not into the batch).
//! - Identifiers are unquoted (`[dbo].[task]` and `"task"` become `dbo`, `task`) and keep
//!   their spelling; SQL Server and Teradata compare them case-insensitively, so must the
//!   interpreter.
//! - Variable names keep their `@` (`@id`) and their spelling; compare case-insensitively.
//! - Compound assignments (`SET @x += 1`, `SET col -= 1`) are desugared to `x = x + 1`;
//!   the synthetic left operand carries the span of the target.
//! - Names of built-in functions, global variables and hints are upper-cased.
//! - Parentheses leave no node (the inner node's span includes them), and a minus sign
//!   before a number is folded into the literal (`-1` is `Literal::Int(-1)`).
//! - What SQL Server rejects when compiling a batch is a parse error here too: a SELECT that
//!   both assigns variables and returns columns, CREATE PROCEDURE/TRIGGER that is not the
//!   first statement of its batch, type sizes out of range.
//!
//! - Teradata statements are mapped onto the T-SQL conventions where the meaning is the
//!   same: `SEL`/`INS`/`UPD`/`DEL` are SELECT/INSERT/UPDATE/DELETE; a DELETE or UPDATE whose
//!   table has an alias (`DELETE FROM q AS x WHERE ...`) targets the alias and lists the
//!   table in `from`, as T-SQL's `DELETE x FROM q AS x WHERE ...` does; `DELETE ... ALL`
//!   is a DELETE without WHERE; Teradata's `TIMESTAMP(p)` is [`DataType::DateTime2`]`(p)`
//!   (Teradata allows p <= 6), `a MOD b` is [`BinaryOp::Mod`], `DATE '2024-01-31'` and
//!   `TIMESTAMP '...'` are CASTs of the string, `CURRENT_TIMESTAMP(6)` is a function call
//!   with one argument.
//!
//! `Display` (in `print.rs`) renders any node as canonical T-SQL that parses back to the
//! same tree; [`Script::to_sql`] (and `to_sql` on batches, statements and expressions)
//! renders it in a given dialect, which is how a Teradata tree is printed so that it parses
//! back, in Teradata, to the same tree. Teradata-only nodes print in Teradata syntax either way.

/// Byte range into the script text.
pub type Span = std::ops::Range<usize>;

/// A whole script: batches separated by `GO` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    pub batches: Vec<Batch>,
}

/// One batch: what a client sends to the server in one request.
///
/// In Teradata a batch is one *request* as BTEQ sends it: a `;` that is the last token on
/// its line ends the request, so statements separated by `;` on the same line form one
/// multi-statement request (`SELECT AND CONSUME TOP 1 * FROM q; UPDATE q SET ...;`), while
/// a statement may span lines freely. The end of the script ends the last request even
/// without a `;`. See [`crate::parse_script`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    pub statements: Vec<Stmt>,
    pub span: Span,
}

/// A statement; `span` covers its text without a trailing `;` (for CREATE PROCEDURE and
/// CREATE TRIGGER, up to the end of the body's last statement).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    CreateTable(CreateTable),
    CreateIndex(CreateIndex),
    CreateProcedure(CreateProcedure),
    CreateTrigger(CreateTrigger),
    DropTable {
        names: Vec<ObjectName>,
        if_exists: bool,
    },
    DropProcedure {
        names: Vec<ObjectName>,
        if_exists: bool,
    },
    DropTrigger {
        names: Vec<ObjectName>,
        if_exists: bool,
    },
    /// `DROP INDEX [IF EXISTS] name ON table`; PostgreSQL's `DROP INDEX [IF EXISTS]
    /// name` has no table (index names are the schema's, as table names are).
    DropIndex {
        name: Ident,
        table: Option<ObjectName>,
        if_exists: bool,
    },
    TruncateTable {
        name: ObjectName,
    },
    If {
        cond: Expr,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    /// `BEGIN ... END`.
    Block(Vec<Stmt>),
    /// `BEGIN TRY ... END TRY BEGIN CATCH ... END CATCH`.
    TryCatch {
        body: Vec<Stmt>,
        handler: Vec<Stmt>,
        /// The error numbers the handler takes: `None` for every error (a CATCH
        /// block, `WHEN OTHERS`); any other error passes the block by, uncaught, as
        /// past PL/pgSQL's `EXCEPTION WHEN unique_violation`.
        catches: Option<Vec<i64>>,
    },
    /// `DECLARE @a int = 1, @b varchar(10)`.
    Declare(Vec<VarDecl>),
    /// `DECLARE @t TABLE (...)`: a table variable.
    DeclareTable(DeclareTable),
    /// `SET @x = expr` (compound forms desugared, see the module docs).
    SetVar {
        name: Ident,
        value: Expr,
    },
    SetOption(SetOption),
    Select(Select),
    Insert(Insert),
    Update(Update),
    Delete(Delete),
    Exec(Exec),
    /// `WAITFOR DELAY expr` (a `'hh:mm:ss[.fff]'` string or a variable).
    WaitFor {
        delay: Expr,
    },
    /// PostgreSQL's `SELECT pg_sleep(seconds)` (or `PERFORM pg_sleep(...)`): the session
    /// sleeps, holding what it holds, as WAITFOR DELAY does.
    Sleep {
        seconds: Expr,
    },
    /// `BEGIN TRAN[SACTION] [name]`; a name that is a variable keeps its `@`.
    /// PostgreSQL's `BEGIN ISOLATION LEVEL ...` sets the new transaction's level.
    BeginTran {
        name: Option<Ident>,
        isolation: Option<IsolationLevel>,
    },
    /// `COMMIT [TRAN[SACTION] | WORK] [name]`; PostgreSQL's `COMMIT AND CHAIN` (and a
    /// procedure's COMMIT) begins the next transaction at once.
    CommitTran {
        name: Option<Ident>,
        chain: bool,
    },
    /// `ROLLBACK [TRAN[SACTION] | WORK] [name]`, `ROLLBACK AND CHAIN` likewise.
    RollbackTran {
        name: Option<Ident>,
        chain: bool,
    },
    /// `SAVEPOINT name` (PostgreSQL), `SAVE TRAN[SACTION] name` (T-SQL, whose
    /// `ROLLBACK TRAN name` goes back to it).
    Savepoint(Ident),
    /// PostgreSQL's `ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name`.
    RollbackToSavepoint(Ident),
    /// PostgreSQL's `RELEASE [SAVEPOINT] name`.
    ReleaseSavepoint(Ident),
    Return(Option<Expr>),
    /// `THROW;` (rethrow, only valid in CATCH) or `THROW number, message, state;`.
    Throw(Option<ThrowArgs>),
    RaisError(RaisError),
    Print(Expr),
    Break,
    Continue,
    /// `ALTER DATABASE CURRENT|name SET option [WITH ROLLBACK IMMEDIATE | NO_WAIT]`.
    AlterDatabaseSet {
        /// `None` for `CURRENT`.
        database: Option<Ident>,
        option: DatabaseOption,
        /// What happens to other sessions' open transactions; `None` waits for them.
        termination: Option<Termination>,
    },
    /// A lone `;`.
    Empty,
    /// Teradata `SELECT AND CONSUME TOP 1 items FROM queue`: returns the queue table's row
    /// with the oldest QITS and deletes it; waits ("delayed state") while the queue is empty.
    SelectAndConsume(SelectAndConsume),
    /// Teradata `LOCKING [TABLE] t | ROW FOR|IN ACCESS|READ|WRITE|EXCLUSIVE [MODE] [NOWAIT]`,
    /// one or more, in front of the statement they modify (`LOCKING ROW FOR WRITE SELECT ...`).
    Locking {
        locks: Vec<LockingClause>,
        /// The modified statement (never itself a `Locking`); `None` for a request that is
        /// only `LOCKING ...;`, which just takes the lock.
        stmt: Option<Box<Stmt>>,
    },
    /// Teradata transaction control, spelled as written (`BT` or `BEGIN TRANSACTION`, ...):
    /// the session mode decides which spellings are allowed, so the interpreter needs it.
    TeradataTxn(TeradataTxn),
    /// `MERGE INTO t USING s ON ... WHEN [NOT] MATCHED THEN ...`.
    Merge(Merge),
    /// PostgreSQL `VACUUM [table [, ...]]`: frees the space of dead row versions (every
    /// table when none is named).
    Vacuum(Vec<ObjectName>),
}

/// A short upper-case name of a statement kind, for traces ("SELECT", "BEGIN TRAN").
pub fn statement_label(kind: &StmtKind) -> &'static str {
    match kind {
        StmtKind::CreateTable(_) => "CREATE TABLE",
        StmtKind::CreateIndex(_) => "CREATE INDEX",
        StmtKind::CreateProcedure(_) => "CREATE PROCEDURE",
        StmtKind::CreateTrigger(_) => "CREATE TRIGGER",
        StmtKind::DropTable { .. } => "DROP TABLE",
        StmtKind::DropProcedure { .. } => "DROP PROCEDURE",
        StmtKind::DropTrigger { .. } => "DROP TRIGGER",
        StmtKind::DropIndex { .. } => "DROP INDEX",
        StmtKind::TruncateTable { .. } => "TRUNCATE TABLE",
        StmtKind::If { .. } => "IF",
        StmtKind::While { .. } => "WHILE",
        StmtKind::Block(_) => "BEGIN",
        StmtKind::TryCatch { .. } => "BEGIN TRY",
        StmtKind::Declare(_) | StmtKind::DeclareTable(_) => "DECLARE",
        StmtKind::SetVar { .. } | StmtKind::SetOption(_) => "SET",
        StmtKind::Select(_) => "SELECT",
        StmtKind::Insert(_) => "INSERT",
        StmtKind::Update(_) => "UPDATE",
        StmtKind::Delete(_) => "DELETE",
        StmtKind::Exec(_) => "EXEC",
        StmtKind::WaitFor { .. } => "WAITFOR",
        StmtKind::Sleep { .. } => "SELECT pg_sleep",
        StmtKind::BeginTran { .. } => "BEGIN TRAN",
        StmtKind::CommitTran { .. } => "COMMIT",
        StmtKind::RollbackTran { .. } => "ROLLBACK",
        StmtKind::Savepoint(_) => "SAVE TRAN",
        // The server's command tag.
        StmtKind::RollbackToSavepoint(_) => "ROLLBACK",
        StmtKind::ReleaseSavepoint(_) => "RELEASE",
        StmtKind::Return(_) => "RETURN",
        StmtKind::Throw(_) => "THROW",
        StmtKind::RaisError(_) => "RAISERROR",
        StmtKind::Print(_) => "PRINT",
        StmtKind::Break => "BREAK",
        StmtKind::Continue => "CONTINUE",
        StmtKind::AlterDatabaseSet { .. } => "ALTER DATABASE",
        StmtKind::Empty => ";",
        StmtKind::SelectAndConsume(_) => "SELECT AND CONSUME",
        StmtKind::Locking { .. } => "LOCKING",
        StmtKind::TeradataTxn(t) => t.label(),
        StmtKind::Merge(_) => "MERGE",
        StmtKind::Vacuum(_) => "VACUUM",
    }
}

impl StmtKind {
    /// The queue table a `SELECT AND CONSUME` consumes from, alone, as the source of
    /// `INSERT ... SELECT AND CONSUME`, or under a LOCKING modifier.
    pub fn consumed_table(&self) -> Option<&ObjectName> {
        match self {
            StmtKind::SelectAndConsume(c) => Some(&c.queue),
            StmtKind::Insert(Insert {
                source: InsertSource::SelectAndConsume(c),
                ..
            }) => Some(&c.queue),
            StmtKind::Locking { stmt: Some(s), .. } => s.kind.consumed_table(),
            _ => None,
        }
    }

    /// The table a DELETE, UPDATE or MERGE changes (through a LOCKING modifier too), with a
    /// target alias resolved through FROM (`DELETE x FROM q AS x` changes `q`). These are
    /// the statements that cannot share a request with a consume of the same queue table
    /// (Teradata's rule, T10) and that make Teradata rebuild the queue's FIFO cache (T11).
    pub fn delete_update_merge_table(&self) -> Option<&ObjectName> {
        fn resolve<'a>(target: &'a TableFactor, from: &'a [TableRef]) -> Option<&'a ObjectName> {
            let TableFactor::Table { name, .. } = target else {
                return None;
            };
            if name.parts.len() == 1 {
                let wanted = &name.parts[0].value;
                let factors = from.iter().flat_map(|r| {
                    std::iter::once(&r.factor).chain(r.joins.iter().map(|j| &j.factor))
                });
                for f in factors {
                    if let TableFactor::Table {
                        name: table,
                        alias: Some(alias),
                        ..
                    } = f
                    {
                        if alias.value.eq_ignore_ascii_case(wanted) {
                            return Some(table);
                        }
                    }
                }
            }
            Some(name)
        }
        match self {
            StmtKind::Delete(d) => resolve(&d.target, &d.from),
            StmtKind::Update(u) => resolve(&u.target, &u.from),
            StmtKind::Merge(m) => match &m.target {
                TableFactor::Table { name, .. } => Some(name),
                _ => None,
            },
            StmtKind::Locking { stmt: Some(s), .. } => s.kind.delete_update_merge_table(),
            _ => None,
        }
    }
}

impl Batch {
    /// Teradata's multi-statement rule (T10): a request with a SELECT AND CONSUME cannot
    /// also DELETE, UPDATE or MERGE the same queue table. Returns the first such pair
    /// (consume, conflicting statement). Table names are compared part by part,
    /// case-insensitively, as written (`q` and `db.q` are different names here).
    pub fn consume_conflict(&self) -> Option<(&Stmt, &Stmt)> {
        for consume in &self.statements {
            let Some(queue) = consume.kind.consumed_table() else {
                continue;
            };
            for other in &self.statements {
                if other
                    .kind
                    .delete_update_merge_table()
                    .is_some_and(|t| t.same_name(queue))
                {
                    return Some((consume, other));
                }
            }
        }
        None
    }

    /// How many statements of this request consume from a queue (Teradata allows one per
    /// multi-statement request).
    pub fn consume_count(&self) -> usize {
        self.statements
            .iter()
            .filter(|s| s.kind.consumed_table().is_some())
            .count()
    }
}

// ---------------------------------------------------------------------------------------
// Names

/// An unquoted identifier with the span of its source text (brackets included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub value: String,
    pub span: Span,
}

/// A dotted name: `dbo.task` → `["dbo", "task"]`; a column path `inserted.id` → `["inserted", "id"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectName {
    pub parts: Vec<Ident>,
    pub span: Span,
}

impl ObjectName {
    /// The last part: the object (or column) itself.
    pub fn name(&self) -> &Ident {
        self.parts
            .last()
            .expect("an ObjectName has at least one part")
    }

    /// The parts before the last one (`dbo` in `dbo.task`), if any.
    pub fn qualifier(&self) -> &[Ident] {
        &self.parts[..self.parts.len().saturating_sub(1)]
    }

    /// The same parts, compared case-insensitively (spans aside).
    pub fn same_name(&self, other: &ObjectName) -> bool {
        self.parts.len() == other.parts.len()
            && self
                .parts
                .iter()
                .zip(&other.parts)
                .all(|(a, b)| a.value.eq_ignore_ascii_case(&b.value))
    }
}

// ---------------------------------------------------------------------------------------
// DDL

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateTable {
    pub name: ObjectName,
    pub columns: Vec<ColumnDef>,
    pub constraints: Vec<TableConstraint>,
    /// Teradata `CREATE SET TABLE` (`Some(true)`) or `CREATE MULTISET TABLE` (`Some(false)`);
    /// `None` when not said: Teradata session mode then makes a SET table, ANSI mode a
    /// MULTISET one. Always `None` in T-SQL.
    pub set_table: Option<bool>,
    /// Teradata `CREATE TABLE name, QUEUE (...)`: a queue table. Its first column is the
    /// QITS column (checked when parsing: `TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)`).
    pub queue: bool,
    /// Teradata table options other than QUEUE, in source order (`, FALLBACK, NO BEFORE JOURNAL`).
    pub options: Vec<TableOption>,
    /// Teradata `[UNIQUE] PRIMARY INDEX [name] (columns)` after the column list.
    pub primary_index: Option<PrimaryIndex>,
    /// PostgreSQL's `CREATE TABLE IF NOT EXISTS`: a table of that name is left as it is.
    pub if_not_exists: bool,
}

/// A Teradata table option between the table name and the column list. `true` is the
/// option, `false` its `NO` form. They have no effect in the simulator; they are kept so
/// that the printed statement says what the lesson wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableOption {
    /// `[NO] FALLBACK [PROTECTION]`.
    Fallback(bool),
    /// `[NO] BEFORE JOURNAL`.
    BeforeJournal(bool),
    /// `[NO] AFTER JOURNAL`.
    AfterJournal(bool),
}

/// Teradata `[UNIQUE] PRIMARY INDEX [name] (columns)`: the columns whose row hash places
/// and locks a row (a row-hash lock covers every row with the same primary index value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrimaryIndex {
    pub unique: bool,
    pub name: Option<Ident>,
    pub columns: Vec<Ident>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnDef {
    pub name: Ident,
    pub ty: DataType,
    /// `Some(true)` for `NULL`, `Some(false)` for `NOT NULL`, `None` when not said.
    pub nullable: Option<bool>,
    /// `IDENTITY(seed, increment)`; plain `IDENTITY` is `(1, 1)`.
    pub identity: Option<(i64, i64)>,
    /// PostgreSQL's `GENERATED ALWAYS AS IDENTITY`, which refuses a value given for
    /// the column (`BY DEFAULT` and `serial` take it).
    pub identity_always: bool,
    /// `DEFAULT expr` (outer parentheses dropped).
    pub default: Option<Expr>,
    /// Column-level `PRIMARY KEY`.
    pub primary_key: bool,
    /// Column-level `UNIQUE`.
    pub unique: bool,
    /// `CLUSTERED`/`NONCLUSTERED` after a column-level `PRIMARY KEY` or `UNIQUE`.
    pub clustered: Option<bool>,
    /// Column-level `CHECK (expr)`.
    pub check: Option<Expr>,
    /// Column-level `[CONSTRAINT name] REFERENCES t [(col)] ...` (PostgreSQL); its
    /// `columns` are empty: the column itself.
    pub references: Option<(Option<Ident>, ForeignKey)>,
    pub span: Span,
}

/// A foreign key: `FOREIGN KEY (columns) REFERENCES table [(ref_columns)]` with its
/// actions (PostgreSQL). Empty `ref_columns`: the referenced table's primary key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForeignKey {
    pub columns: Vec<Ident>,
    pub table: ObjectName,
    pub ref_columns: Vec<Ident>,
    pub on_delete: RefAction,
    pub on_update: RefAction,
}

/// What deleting or changing a referenced key does to the rows that reference it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RefAction {
    #[default]
    NoAction,
    Restrict,
    Cascade,
    SetNull,
    SetDefault,
}

impl RefAction {
    /// The action as SQL writes it: `NO ACTION`, `SET NULL`...
    pub fn keyword(self) -> &'static str {
        match self {
            RefAction::NoAction => "NO ACTION",
            RefAction::Restrict => "RESTRICT",
            RefAction::Cascade => "CASCADE",
            RefAction::SetNull => "SET NULL",
            RefAction::SetDefault => "SET DEFAULT",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableConstraint {
    /// `CONSTRAINT name`.
    pub name: Option<Ident>,
    pub kind: TableConstraintKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableConstraintKind {
    PrimaryKey {
        clustered: Option<bool>,
        columns: Vec<IndexColumn>,
    },
    Unique {
        clustered: Option<bool>,
        columns: Vec<IndexColumn>,
    },
    Check(Expr),
    ForeignKey(ForeignKey),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexColumn {
    pub name: Ident,
    pub desc: bool,
}

/// `CREATE [UNIQUE] [CLUSTERED|NONCLUSTERED] INDEX name ON table (cols) [INCLUDE (...)] [WHERE ...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateIndex {
    pub unique: bool,
    /// `Some(true)` CLUSTERED, `Some(false)` NONCLUSTERED, `None` not said (nonclustered).
    pub clustered: Option<bool>,
    /// Empty when PostgreSQL's `CREATE INDEX ON t (...)` leaves the naming to the server.
    pub name: Ident,
    pub table: ObjectName,
    pub columns: Vec<IndexColumn>,
    pub include: Vec<Ident>,
    /// The filter of a filtered index.
    pub filter: Option<Expr>,
    /// PostgreSQL's `CREATE INDEX IF NOT EXISTS name`: an existing relation of that name
    /// is left as it is.
    pub if_not_exists: bool,
}

/// `CREATE [OR ALTER] PROC[EDURE] name [(]params[)] AS body`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateProcedure {
    pub or_alter: bool,
    pub name: ObjectName,
    pub params: Vec<Param>,
    /// Every statement after `AS` to the end of the batch (often one `BEGIN ... END` block).
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// With its `@`.
    pub name: Ident,
    pub ty: DataType,
    pub default: Option<Expr>,
    /// `OUTPUT`/`OUT`.
    pub output: bool,
    pub span: Span,
}

/// `CREATE [OR ALTER] TRIGGER name ON table AFTER|FOR|INSTEAD OF events AS body`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateTrigger {
    pub or_alter: bool,
    pub name: ObjectName,
    pub table: ObjectName,
    pub timing: TriggerTiming,
    pub events: Vec<DmlEvent>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TriggerTiming {
    /// `AFTER` or its older spelling `FOR`.
    After,
    InsteadOf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DmlEvent {
    Insert,
    Update,
    Delete,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DatabaseOption {
    ReadCommittedSnapshot(bool),
    AllowSnapshotIsolation(bool),
}

/// `WITH ROLLBACK IMMEDIATE | ROLLBACK AFTER n [SECONDS] | NO_WAIT` of ALTER DATABASE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    RollbackImmediate,
    RollbackAfter(i64),
    NoWait,
}

// ---------------------------------------------------------------------------------------
// Variables, options, control flow

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// With its `@`.
    pub name: Ident,
    pub ty: DataType,
    pub init: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclareTable {
    /// With its `@`.
    pub name: Ident,
    pub columns: Vec<ColumnDef>,
    pub constraints: Vec<TableConstraint>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOption {
    NoCount(bool),
    XactAbort(bool),
    IsolationLevel(IsolationLevel),
    /// Milliseconds; -1 waits forever, 0 does not wait.
    LockTimeout(i64),
    QuotedIdentifier(bool),
    AnsiNulls(bool),
    ImplicitTransactions(bool),
    DeadlockPriority(DeadlockPriority),
    /// `SET STATISTICS IO ON|OFF`: report logical reads per statement.
    StatisticsIo(bool),
    /// `SET STATISTICS TIME ON|OFF`.
    StatisticsTime(bool),
    /// PostgreSQL's `SET TRANSACTION ISOLATION LEVEL` (and `BEGIN ISOLATION LEVEL`): for
    /// the current transaction only.
    TransactionIsolation(IsolationLevel),
    /// PostgreSQL's `SET LOCAL lock_timeout`: milliseconds (-1 waits forever) until the
    /// transaction ends.
    LocalLockTimeout(i64),
    /// PostgreSQL's `SET statement_timeout`: milliseconds a statement may take, lock
    /// waits and sleeps included (-1: no limit).
    StatementTimeout(i64),
    /// `SET LOCAL statement_timeout`: until the transaction ends.
    LocalStatementTimeout(i64),
    /// `SET IDENTITY_INSERT t ON|OFF`: explicit values for `t`'s identity column.
    IdentityInsert {
        table: ObjectName,
        on: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IsolationLevel {
    ReadUncommitted,
    ReadCommitted,
    RepeatableRead,
    Snapshot,
    Serializable,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeadlockPriority {
    /// `LOW` = -5.
    Low,
    /// `NORMAL` = 0.
    Normal,
    /// `HIGH` = 5.
    High,
    /// -10 ..= 10 (range checked by the interpreter, as SQL Server does at run time).
    Numeric(i64),
    /// `SET DEADLOCK_PRIORITY @v`.
    Var(Ident),
}

/// `THROW number, message, state`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThrowArgs {
    pub number: Expr,
    pub message: Expr,
    pub state: Expr,
}

/// `RAISERROR (message, severity, state [, args...]) [WITH options]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaisError {
    pub message: Expr,
    pub severity: Expr,
    pub state: Expr,
    pub args: Vec<Expr>,
    pub options: Vec<RaisErrorOption>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RaisErrorOption {
    Log,
    NoWait,
    SetError,
}

/// `EXEC[UTE] [@rc =] procedure args`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exec {
    /// `EXEC @rc = proc`: the variable receiving the return code, with its `@`.
    pub return_var: Option<Ident>,
    pub procedure: ObjectName,
    pub args: Vec<Arg>,
    /// PostgreSQL's `SELECT f(...) [AS c]` of a routine: the value its RETURN gives
    /// comes back as a one-row result set, in a column of this name.
    pub result_column: Option<String>,
}

/// An EXEC argument: positional `value` or named `@name = value`, optionally `OUTPUT`.
/// As in SQL Server, a value is a variable or a constant (`-1`, `'x'`, `NULL`), never an
/// expression; a bare word (`EXEC sp_help task`) is the string `N'task'`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The parameter name with its `@`, for named arguments.
    pub name: Option<Ident>,
    pub value: Expr,
    pub output: bool,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------
// Queries

/// A common table expression: `name [(columns)] AS (query)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cte {
    pub name: Ident,
    pub columns: Vec<Ident>,
    /// The body; for a data-modifying CTE an empty placeholder (see `modify`).
    pub query: Box<Select>,
    /// PostgreSQL's data-modifying CTE, `name AS (DELETE ... RETURNING ...)`: an INSERT,
    /// UPDATE or DELETE whose RETURNING rows are the CTE's rows.
    pub modify: Option<Box<Stmt>>,
    pub span: Span,
}

/// A SELECT, also used for subqueries, derived tables and CTE bodies. `span` starts at
/// `WITH` when there are CTEs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Select {
    pub ctes: Vec<Cte>,
    pub distinct: bool,
    pub top: Option<Top>,
    pub items: Vec<SelectItem>,
    /// `SELECT ... INTO t FROM ...` (T-SQL): creates `t` (often a `#temp` table) from the
    /// result.
    pub into: Option<ObjectName>,
    pub from: Vec<TableRef>,
    pub where_clause: Option<Expr>,
    pub group_by: Vec<Expr>,
    pub having: Option<Expr>,
    /// With `set_op`, sorts the combined result.
    pub order_by: Vec<OrderItem>,
    /// `OFFSET n ROWS [FETCH NEXT m ROWS ONLY]` after ORDER BY (PostgreSQL: `OFFSET n`;
    /// its `FETCH FIRST` is a LIMIT, a `top`). With `set_op`, applies to the combined
    /// result.
    pub offset: Option<Offset>,
    /// `UNION [ALL] | EXCEPT | INTERSECT` and the next query. A chain `a op1 b op2 c` is
    /// nested to the right (`a.set_op = (op1, b)`, `b.set_op = (op2, c)`) and is evaluated
    /// left to right: `(a op1 b) op2 c`. Only the head of a chain has `order_by`.
    pub set_op: Option<(SetOp, Box<Select>)>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetOp {
    Union,
    UnionAll,
    Except,
    Intersect,
}

/// `OFFSET n {ROW | ROWS}` and T-SQL's `FETCH {FIRST | NEXT} m {ROW | ROWS} ONLY`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offset {
    pub skip: Expr,
    pub fetch: Option<Expr>,
    pub span: Span,
}

/// `TOP (n) [PERCENT] [WITH TIES]`; `TOP n` without parentheses too (SELECT only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Top {
    pub count: Expr,
    pub percent: bool,
    pub with_ties: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelectItem {
    /// `*` or `t.*`.
    Wildcard {
        qualifier: Option<Ident>,
        span: Span,
    },
    /// `expr`, `expr AS x`, `expr x`, `x = expr`.
    Expr { expr: Expr, alias: Option<Ident> },
    /// `@v = expr`: assigns instead of returning a column. `strict`: PL/pgSQL's
    /// `INTO STRICT`, which wants exactly one row.
    Assign {
        var: Ident,
        expr: Expr,
        strict: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderItem {
    pub expr: Expr,
    pub desc: bool,
    /// PostgreSQL's `NULLS FIRST` (true) or `NULLS LAST` (false); `None`: the
    /// dialect's order.
    pub nulls_first: Option<bool>,
}

/// One comma-separated item of FROM with its joins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRef {
    pub factor: TableFactor,
    pub joins: Vec<Join>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Join {
    pub kind: JoinKind,
    pub factor: TableFactor,
    /// `None` for CROSS JOIN and APPLY.
    pub on: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JoinKind {
    Inner,
    LeftOuter,
    RightOuter,
    FullOuter,
    Cross,
    CrossApply,
    OuterApply,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableFactor {
    /// A table, view or CTE name (`inserted`/`deleted` in triggers too).
    Table {
        name: ObjectName,
        alias: Option<Ident>,
        hints: Vec<TableHint>,
        span: Span,
    },
    /// `(SELECT ...) AS alias [(columns)]`.
    Derived {
        query: Box<Select>,
        alias: Ident,
        columns: Vec<Ident>,
        span: Span,
    },
    /// `(VALUES (2), (3)) AS d(DokumentId)`.
    Values {
        rows: Vec<Vec<Expr>>,
        alias: Ident,
        columns: Vec<Ident>,
        span: Span,
    },
    /// PostgreSQL's `generate_series(start, stop [, step]) [AS alias [(column)]]`: one
    /// integer column, named after the alias (or `generate_series`).
    Series {
        args: Vec<Expr>,
        alias: Ident,
        column: Ident,
        span: Span,
    },
    /// `@t [AS alias]`.
    TableVar {
        name: Ident,
        alias: Option<Ident>,
        span: Span,
    },
}

impl TableFactor {
    pub fn span(&self) -> &Span {
        match self {
            TableFactor::Table { span, .. }
            | TableFactor::Derived { span, .. }
            | TableFactor::Values { span, .. }
            | TableFactor::Series { span, .. }
            | TableFactor::TableVar { span, .. } => span,
        }
    }
}

/// A table hint from `WITH (...)` or the old `(NOLOCK)` form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableHint {
    pub kind: HintKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintKind {
    NoLock,
    ReadUncommitted,
    ReadCommitted,
    ReadCommittedLock,
    RepeatableRead,
    Serializable,
    HoldLock,
    UpdLock,
    XLock,
    RowLock,
    TabLock,
    TabLockX,
    ReadPast,
    NoWait,
    ForceSeek,
    ForceScan,
    /// PostgreSQL's row-lock clauses (`SELECT ... FOR UPDATE`), on each table they lock;
    /// `SKIP LOCKED` is `ReadPast` and `NOWAIT` is `NoWait` beside them.
    ForUpdate,
    ForNoKeyUpdate,
    ForShare,
    ForKeyShare,
    /// `INDEX(ix_a)`, `INDEX(0)`, `INDEX = ix_a`: index names (or ids as text).
    Index(Vec<Ident>),
}

// ---------------------------------------------------------------------------------------
// DML

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insert {
    pub ctes: Vec<Cte>,
    pub top: Option<Top>,
    /// A `Table` (hints allowed, no alias) or a `TableVar`.
    pub target: TableFactor,
    pub columns: Vec<Ident>,
    pub output: Option<Output>,
    pub source: InsertSource,
    /// PostgreSQL's `ON CONFLICT [...] DO NOTHING | DO UPDATE ...`.
    pub on_conflict: Option<OnConflict>,
}

/// `ON CONFLICT [(columns) [WHERE predicate] | ON CONSTRAINT name] DO NOTHING`: a row that a unique index
/// (one of these, when named) already holds is left out, without an error; with `DO
/// UPDATE SET ... [WHERE ...]` that row is updated instead (`EXCLUDED` names the row
/// proposed for insertion).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnConflict {
    /// The arbiter index's columns; empty with a constraint or none named.
    pub columns: Vec<Ident>,
    /// `(columns) WHERE predicate`: a partial unique index is an arbiter only when this
    /// implies its predicate.
    pub index_where: Option<Expr>,
    pub constraint: Option<Ident>,
    /// `DO UPDATE`'s assignments and WHERE; `None` for DO NOTHING.
    pub update: Option<ConflictUpdate>,
}

/// `DO UPDATE SET assignments [WHERE condition]` of `ON CONFLICT`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictUpdate {
    pub assignments: Vec<Assignment>,
    pub where_clause: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InsertSource {
    /// Several rows in T-SQL; always one row in Teradata (`VALUES` may be omitted there:
    /// `INS q (CURRENT_TIMESTAMP, 1)`).
    Values(Vec<Vec<Expr>>),
    Select(Box<Select>),
    Exec(Box<Exec>),
    DefaultValues,
    /// Teradata `INSERT INTO t SELECT AND CONSUME TOP 1 * FROM q`: moves the queue's oldest
    /// row into `t` (a table-level WRITE lock on `t`).
    SelectAndConsume(Box<SelectAndConsume>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Update {
    pub ctes: Vec<Cte>,
    pub top: Option<Top>,
    /// A `Table` (a table, CTE or FROM alias name, with hints) or a `TableVar`.
    pub target: TableFactor,
    pub assignments: Vec<Assignment>,
    pub output: Option<Output>,
    pub from: Vec<TableRef>,
    pub where_clause: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    pub target: AssignTarget,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AssignTarget {
    /// `col = ...` or `t.col = ...`.
    Column(ObjectName),
    /// `@v = ...`.
    Var(Ident),
    /// `@v = col = ...`: sets both to the value.
    VarAndColumn(Ident, ObjectName),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delete {
    pub ctes: Vec<Cte>,
    pub top: Option<Top>,
    /// A `Table` (a table, CTE or FROM alias name, with hints) or a `TableVar`.
    pub target: TableFactor,
    pub output: Option<Output>,
    pub from: Vec<TableRef>,
    pub where_clause: Option<Expr>,
}

/// `MERGE [INTO] target [WITH (hints)] [[AS] alias] USING source ON cond WHEN ... THEN ...`
/// (T-SQL and Teradata).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merge {
    /// A `Table`, with its alias if any (hints in T-SQL only).
    pub target: TableFactor,
    /// A `Table` or a `Derived` table (`USING (SELECT ...) AS s`).
    pub source: TableFactor,
    pub on: Expr,
    /// In source order; in Teradata at most one WHEN MATCHED and one WHEN NOT MATCHED, in
    /// T-SQL several, each but the last of a kind with a condition.
    pub clauses: Vec<MergeClause>,
    /// T-SQL's `OUTPUT`: `inserted`, `deleted`, the source's columns and `$action`.
    pub output: Option<Output>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeClause {
    /// `WHEN MATCHED` (true) or `WHEN NOT MATCHED [BY TARGET]` (false).
    pub matched: bool,
    /// T-SQL's `WHEN [NOT] MATCHED AND condition THEN ...`.
    pub condition: Option<Expr>,
    pub action: MergeAction,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeAction {
    /// `UPDATE SET a = 1, ...` (WHEN MATCHED).
    Update(Vec<Assignment>),
    /// `DELETE` (WHEN MATCHED).
    Delete,
    /// `INSERT [(columns)] VALUES (...)` (WHEN NOT MATCHED).
    Insert {
        columns: Vec<Ident>,
        values: Vec<Expr>,
    },
}

// ---------------------------------------------------------------------------------------
// Teradata

/// `SELECT AND CONSUME TOP 1 items FROM queue [[AS] alias]`. Teradata's rules are checked
/// when parsing: TOP exactly 1 (no PERCENT or WITH TIES), one table and no join, no WHERE,
/// GROUP BY, HAVING, ORDER BY, set operator, aggregate or window function, and not in a
/// subquery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectAndConsume {
    /// What is returned (or inserted) from the consumed row: `*`, columns, and expressions
    /// such as `USER` or `CURRENT_TIMESTAMP`.
    pub items: Vec<SelectItem>,
    pub queue: ObjectName,
    pub alias: Option<Ident>,
    /// From `SELECT` to the end of the FROM clause.
    pub span: Span,
}

/// One `LOCKING object FOR severity [MODE] [NOWAIT]` modifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockingClause {
    pub object: LockingObject,
    pub severity: LockSeverity,
    /// Abort the request instead of waiting when the lock is not free.
    pub nowait: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LockingObject {
    /// `LOCKING [TABLE] name`.
    Table(ObjectName),
    /// `LOCKING ROW`: the row hashes the modified statement touches.
    Row,
}

/// Teradata lock severities, weakest first. `SHARE` is read as `READ` and `EXCL` as
/// `EXCLUSIVE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LockSeverity {
    Access,
    Read,
    Write,
    Exclusive,
}

/// Teradata transaction statements, keeping the spelling.
///
/// In Teradata session mode `BT`/`BEGIN TRANSACTION` ... `ET`/`END TRANSACTION` make an
/// explicit transaction (otherwise each request is its own implicit one); in ANSI mode a
/// transaction lasts until `COMMIT` or `ROLLBACK` and BT/ET are not allowed. `ABORT` and
/// `ROLLBACK` roll back in both modes. Enforcing the mode is the interpreter's job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TeradataTxn {
    /// `BT` (`abbreviated`) or `BEGIN TRANSACTION`.
    Begin { abbreviated: bool },
    /// `ET` (`abbreviated`) or `END TRANSACTION`.
    End { abbreviated: bool },
    /// `COMMIT [WORK]`.
    Commit { work: bool },
    /// `ROLLBACK [WORK]`.
    Rollback { work: bool },
    /// `ABORT`.
    Abort,
}

impl TeradataTxn {
    /// The statement as written, upper-case: `BT`, `END TRANSACTION`, `COMMIT WORK`, ...
    pub fn label(self) -> &'static str {
        match self {
            TeradataTxn::Begin { abbreviated: true } => "BT",
            TeradataTxn::Begin { abbreviated: false } => "BEGIN TRANSACTION",
            TeradataTxn::End { abbreviated: true } => "ET",
            TeradataTxn::End { abbreviated: false } => "END TRANSACTION",
            TeradataTxn::Commit { work: false } => "COMMIT",
            TeradataTxn::Commit { work: true } => "COMMIT WORK",
            TeradataTxn::Rollback { work: false } => "ROLLBACK",
            TeradataTxn::Rollback { work: true } => "ROLLBACK WORK",
            TeradataTxn::Abort => "ABORT",
        }
    }
}

/// `OUTPUT inserted.id, deleted.* [INTO target [(columns)]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    pub items: Vec<SelectItem>,
    pub into: Option<OutputInto>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputInto {
    /// A `Table` (no alias, no hints) or a `TableVar`.
    pub target: TableFactor,
    pub columns: Vec<Ident>,
}

// ---------------------------------------------------------------------------------------
// Expressions

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Literal(Literal),
    /// `@x`, with its `@`.
    Var(String),
    /// `@@ROWCOUNT` → `"ROWCOUNT"` (upper-cased, without `@@`).
    Global(String),
    /// `id`, `inserted.id`, `d.DokumentId`.
    Column(ObjectName),
    Unary {
        op: UnaryOp,
        expr: Box<Expr>,
    },
    /// `+` is addition or string concatenation; the interpreter decides by types.
    Binary {
        op: BinaryOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    IsNull {
        expr: Box<Expr>,
        negated: bool,
    },
    InList {
        expr: Box<Expr>,
        list: Vec<Expr>,
        negated: bool,
    },
    InSubquery {
        expr: Box<Expr>,
        query: Box<Select>,
        negated: bool,
    },
    Between {
        expr: Box<Expr>,
        low: Box<Expr>,
        high: Box<Expr>,
        negated: bool,
    },
    Like {
        expr: Box<Expr>,
        pattern: Box<Expr>,
        negated: bool,
        /// PostgreSQL's ILIKE: LIKE without regard to case, whatever the collation.
        case_insensitive: bool,
    },
    /// `DEFAULT` as a value of an INSERT's VALUES row: the column's default (or its
    /// next identity value), as though the column were not listed.
    Default,
    Exists(Box<Select>),
    /// A scalar subquery `(SELECT ...)`.
    Subquery(Box<Select>),
    /// A built-in function call; unknown names are the interpreter's to reject.
    Function {
        /// Upper-cased: `SYSDATETIME`, `COUNT`, `APPLOCK_MODE`.
        name: String,
        args: Vec<Expr>,
        /// `COUNT(*)`.
        star: bool,
        /// `COUNT(DISTINCT x)`.
        distinct: bool,
        /// `ROW_NUMBER() OVER (...)`.
        over: Option<Box<Window>>,
        /// `STRING_AGG(x, ',') WITHIN GROUP (ORDER BY ...)`: the order of the aggregated
        /// values; empty without WITHIN GROUP.
        within_group: Vec<OrderItem>,
    },
    /// `CAST(x AS ty)` or `CONVERT(ty, x [, style])`.
    Cast {
        expr: Box<Expr>,
        ty: DataType,
        style: Option<Box<Expr>>,
    },
    /// `CASE [operand] WHEN .. THEN .. [ELSE ..] END`.
    Case {
        operand: Option<Box<Expr>>,
        branches: Vec<(Expr, Expr)>,
        otherwise: Option<Box<Expr>>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    Int(i64),
    /// A number with a point or exponent, or an integer too big for i64, as written.
    Decimal(String),
    /// `'text'` (`''` unescaped) or `N'text'` (`national`). Shared, so evaluating the
    /// literal (once per row written or compared) copies a pointer, not the text.
    Str {
        value: std::rc::Rc<str>,
        national: bool,
    },
    /// PostgreSQL's `TRUE` and `FALSE`.
    Bool(bool),
    Null,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Not,
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    /// `<>` or `!=`.
    Ne,
    Lt,
    /// `<=` or `!>`.
    Le,
    Gt,
    /// `>=` or `!<`.
    Ge,
    And,
    Or,
    BitAnd,
    BitOr,
    BitXor,
    /// PostgreSQL's `||`.
    Concat,
    /// PostgreSQL's `^`.
    Pow,
    /// `IS DISTINCT FROM`: `<>` where NULL equals NULL (never unknown).
    IsDistinct,
    /// `IS NOT DISTINCT FROM`: `=` where NULL equals NULL.
    IsNotDistinct,
}

impl BinaryOp {
    /// `=`, `<>`, `<`, `<=`, `>`, `>=`: the operators that compare two values.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }
}

/// `OVER ([PARTITION BY ...] [ORDER BY ...])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    pub partition_by: Vec<Expr>,
    pub order_by: Vec<OrderItem>,
}

// ---------------------------------------------------------------------------------------
// Types

/// The scale of PostgreSQL's `numeric` without `(p, s)`: values keep theirs.
pub const ANY_SCALE: u8 = u8::MAX;

/// Data types of both dialects. Teradata's names map onto these: INTEGER/INT is `Int`,
/// DECIMAL/NUMERIC `Decimal` (Teradata's default is (5, 0)), FLOAT/REAL/DOUBLE PRECISION
/// `Float`, CHAR(n) `Char`, VARCHAR(n) `VarChar`, DATE `Date`, TIME(p) `Time`, TIMESTAMP(p)
/// `DateTime2(p)` (p <= 6, default 6), and BYTEINT the Teradata-only `ByteInt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataType {
    TinyInt,
    SmallInt,
    Int,
    BigInt,
    Bit,
    /// `decimal`/`numeric`; defaults (18, 0), or in PostgreSQL any scale
    /// ([`ANY_SCALE`]).
    Decimal {
        precision: u8,
        scale: u8,
    },
    /// `float`, `real`.
    Float,
    Money,
    /// `char(n)`; default 1.
    Char(u32),
    /// `varchar(n|max)`; default 1 in a declaration, 30 in CAST/CONVERT.
    VarChar(Len),
    NChar(u32),
    NVarChar(Len),
    DateTime,
    /// `datetime2(p)`; default 7.
    DateTime2(u8),
    Date,
    /// `time(p)`; default 7.
    Time(u8),
    /// PostgreSQL's `timestamp(p)` (default 6): a `datetime2(p)` that prints its
    /// microseconds without trailing zeros.
    Timestamp(u8),
    /// PostgreSQL's `timestamptz(p)`, `timestamp with time zone`: a [`Self::Timestamp`]
    /// in UTC that prints its zone (`+00`, the session's time zone being UTC).
    TimestampTz(u8),
    UniqueIdentifier,
    /// `sysname` = `nvarchar(128) NOT NULL`.
    SysName,
    /// Teradata `BYTEINT`: a signed byte, -128 to 127 (unlike T-SQL's tinyint, 0 to 255).
    ByteInt,
    /// PostgreSQL's `boolean`: true or false, printed `t` and `f` (T-SQL's `bit` is a
    /// number, 0 or 1).
    Boolean,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Len {
    N(u32),
    Max,
}
