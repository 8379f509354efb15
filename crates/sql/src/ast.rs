//! The syntax tree of the simulated T-SQL subset.
//!
//! Conventions the interpreter can rely on:
//! - Every node that an error or a trace may point at carries a `span`: byte offsets into
//!   the script text passed to [`crate::parse_script`] (not into the batch).
//! - Identifiers are unquoted (`[dbo].[task]` and `"task"` become `dbo`, `task`) and keep
//!   their spelling; SQL Server compares them case-insensitively, so must the interpreter.
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
//! `Display` (in `print.rs`) renders any node as canonical T-SQL that parses back to the
//! same tree.

/// Byte range into the script text.
pub type Span = std::ops::Range<usize>;

/// A whole script: batches separated by `GO` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    pub batches: Vec<Batch>,
}

/// One batch: what a client sends to the server in one request.
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
    /// `DROP INDEX [IF EXISTS] name ON table`.
    DropIndex {
        name: Ident,
        table: ObjectName,
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
    /// `BEGIN TRAN[SACTION] [name]`; a name that is a variable keeps its `@`.
    BeginTran {
        name: Option<Ident>,
    },
    /// `COMMIT [TRAN[SACTION] | WORK] [name]`.
    CommitTran {
        name: Option<Ident>,
    },
    /// `ROLLBACK [TRAN[SACTION] | WORK] [name]`.
    RollbackTran {
        name: Option<Ident>,
    },
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
        StmtKind::BeginTran { .. } => "BEGIN TRAN",
        StmtKind::CommitTran { .. } => "COMMIT",
        StmtKind::RollbackTran { .. } => "ROLLBACK",
        StmtKind::Return(_) => "RETURN",
        StmtKind::Throw(_) => "THROW",
        StmtKind::RaisError(_) => "RAISERROR",
        StmtKind::Print(_) => "PRINT",
        StmtKind::Break => "BREAK",
        StmtKind::Continue => "CONTINUE",
        StmtKind::AlterDatabaseSet { .. } => "ALTER DATABASE",
        StmtKind::Empty => ";",
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
}

// ---------------------------------------------------------------------------------------
// DDL

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateTable {
    pub name: ObjectName,
    pub columns: Vec<ColumnDef>,
    pub constraints: Vec<TableConstraint>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnDef {
    pub name: Ident,
    pub ty: DataType,
    /// `Some(true)` for `NULL`, `Some(false)` for `NOT NULL`, `None` when not said.
    pub nullable: Option<bool>,
    /// `IDENTITY(seed, increment)`; plain `IDENTITY` is `(1, 1)`.
    pub identity: Option<(i64, i64)>,
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
    pub span: Span,
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
    pub name: Ident,
    pub table: ObjectName,
    pub columns: Vec<IndexColumn>,
    pub include: Vec<Ident>,
    /// The filter of a filtered index.
    pub filter: Option<Expr>,
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
    pub query: Box<Select>,
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
    pub from: Vec<TableRef>,
    pub where_clause: Option<Expr>,
    pub group_by: Vec<Expr>,
    pub having: Option<Expr>,
    /// With `set_op`, sorts the combined result.
    pub order_by: Vec<OrderItem>,
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
    /// `@v = expr`: assigns instead of returning a column.
    Assign { var: Ident, expr: Expr },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderItem {
    pub expr: Expr,
    pub desc: bool,
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
    PagLock,
    TabLock,
    TabLockX,
    ReadPast,
    NoWait,
    ForceSeek,
    ForceScan,
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
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InsertSource {
    Values(Vec<Vec<Expr>>),
    Select(Box<Select>),
    Exec(Box<Exec>),
    DefaultValues,
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
    },
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
    /// `'text'` (`''` unescaped) or `N'text'` (`national`).
    Str {
        value: String,
        national: bool,
    },
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
}

/// `OVER ([PARTITION BY ...] [ORDER BY ...])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    pub partition_by: Vec<Expr>,
    pub order_by: Vec<OrderItem>,
}

// ---------------------------------------------------------------------------------------
// Types

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataType {
    TinyInt,
    SmallInt,
    Int,
    BigInt,
    Bit,
    /// `decimal`/`numeric`; defaults (18, 0).
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
    UniqueIdentifier,
    /// `sysname` = `nvarchar(128) NOT NULL`.
    SysName,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Len {
    N(u32),
    Max,
}
