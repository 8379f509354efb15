//! PostgreSQL 15 (semantics.md Part C): multiversion reads that never lock (a snapshot
//! per statement in READ COMMITTED, per transaction in REPEATABLE READ and SERIALIZABLE,
//! both run as SNAPSHOT), the four row-lock clauses with their conflict table (UPDATE
//! takes FOR NO KEY UPDATE on the rows it changes, DELETE FOR UPDATE), no page locks.
//!
//! A waiter that wakes runs its statement again on the newest row versions, which is
//! what EvalPlanQual does in READ COMMITTED: a row that no longer matches is skipped
//! (`FOR UPDATE ... LIMIT 1` returns the next row, or none).

mod advisory;
mod colname;
mod functions;
mod operators;
mod power;
mod savepoint;
mod tuple;
mod vacuum;

use sql::ast::{Expr, ExprKind, IsolationLevel, Literal};

use crate::error::{between, quoted_after, SqlError};
use crate::event::Access;
use crate::exec::{Exec, Interrupt, Rules};
use crate::state::locks::{LockMode, Resource, ResourceWords};
use crate::state::storage::{Column, Table};
use crate::value::{Stamp, Value};

/// PostgreSQL's rules.
pub(crate) struct Postgres;

impl Rules for Postgres {
    fn parser(&self) -> sql::Dialect {
        sql::Dialect::Postgres
    }

    fn type_name(&self, ty: &sql::ast::DataType) -> String {
        use sql::ast::DataType as T;
        let name = operators::declared_name(ty).unwrap_or(match ty {
            T::Date => "date",
            T::Timestamp(_) | T::DateTime | T::DateTime2(_) => "timestamp without time zone",
            T::TimestampTz(_) => "timestamp with time zone",
            T::Time(_) => "time without time zone",
            T::UniqueIdentifier => "uuid",
            _ => "text",
        });
        name.to_string()
    }

    /// statement_timestamp() is when the client's statement arrived: inside a DO block
    /// or a procedure, the DO's or the CALL's start (each statement psql sends is a
    /// request of its own).
    fn clock_per_request(&self) -> bool {
        true
    }

    fn mode_name(&self, mode: LockMode) -> Option<&'static str> {
        match mode {
            LockMode::ForKeyShare => Some("FOR KEY SHARE"),
            LockMode::ForShare => Some("FOR SHARE"),
            LockMode::ForNoKeyUpdate => Some("FOR NO KEY UPDATE"),
            LockMode::ForUpdate => Some("FOR UPDATE"),
            // pg_locks' words for the other modes PostgreSQL lessons meet: an advisory
            // lock (pg_advisory_lock, _shared) and the lock a unique conflict waits on.
            LockMode::X => Some("ExclusiveLock"),
            LockMode::S => Some("ShareLock"),
            _ => None,
        }
    }

    /// PostgreSQL locks no row it inserts (nor the new key of an UPDATE that moves a
    /// row): others cannot see the row until its transaction commits, and a writer of
    /// the same unique key waits for that transaction itself. The simulation holds X on
    /// the new key for that wait (no other statement takes X on a row here); pg_locks
    /// would list no such lock, so neither do the trace and the state view.
    fn shows_lock(&self, resource: &Resource, mode: LockMode) -> bool {
        !(mode == LockMode::X && matches!(resource, Resource::Key { .. }))
    }

    /// A writer of the same unique key waits for the inserting transaction to end:
    /// pg_locks lists a ShareLock wanted on that transaction's id, which its owner holds
    /// ExclusiveLock on.
    fn hidden_wait(&self, row: &str) -> Option<(String, LockMode)> {
        Some((format!("TRANSACTIONID (writer of {row})"), LockMode::S))
    }

    fn versioned_reads(&self) -> bool {
        true
    }

    fn skip_clause(&self) -> &'static str {
        "SKIP LOCKED"
    }

    fn subquery_once(&self) -> bool {
        true
    }

    fn sleep_call(&self) -> &'static str {
        "pg_sleep"
    }

    fn isolation(&self, level: IsolationLevel) -> IsolationLevel {
        match level {
            // READ UNCOMMITTED behaves as READ COMMITTED (C3).
            IsolationLevel::ReadUncommitted | IsolationLevel::ReadCommitted => {
                IsolationLevel::ReadCommitted
            }
            IsolationLevel::RepeatableRead
            | IsolationLevel::Snapshot
            | IsolationLevel::Serializable => IsolationLevel::Snapshot,
        }
    }

    /// SERIALIZABLE is REPEATABLE READ's snapshot plus serializable snapshot isolation
    /// (predicate.c): SIREAD marks, read/write dependencies, and 40001 for the
    /// transaction that would close a dangerous structure.
    fn serializable_snapshot_isolation(&self) -> bool {
        true
    }

    /// 40001 with psql's DETAIL line, the reason code (predicate.c's words; the one
    /// that names the pivot's transaction id is left without a DETAIL).
    fn serialization_failure(&self, why: crate::state::ssi::Failure) -> SqlError {
        use crate::state::ssi::Failure;
        let reason = match why {
            Failure::PivotDuringWrite => {
                Some("Canceled on identification as a pivot, during write.")
            }
            Failure::PivotDuringConflictIn => {
                Some("Canceled on identification as a pivot, during conflict in checking.")
            }
            Failure::PivotDuringConflictOut => {
                Some("Canceled on identification as a pivot, during conflict out checking.")
            }
            Failure::PivotDuringCommit => {
                Some("Canceled on identification as a pivot, during commit attempt.")
            }
            Failure::CommitWithPreparedPivot => {
                Some("Canceled on commit attempt with conflict in from prepared pivot.")
            }
            Failure::ConflictOutToPivot => None,
        };
        let mut e = SqlError::serialization_failure().with_sqlstate("40001");
        if let Some(reason) = reason {
            e.message
                .push_str(&format!(" (DETAIL: Reason code: {reason})"));
        }
        e
    }

    fn write_row_lock(&self, delete: bool) -> Option<LockMode> {
        Some(if delete {
            LockMode::ForUpdate
        } else {
            LockMode::ForNoKeyUpdate
        })
    }

    /// The unique check (`_bt_check_unique`) reads the clashing row with a dirty
    /// snapshot: it waits for a transaction that inserted, updated or deleted the row,
    /// and not for one that only locked it (FOR UPDATE marks the row without changing
    /// it), so a row lock lets the duplicate fail at once.
    fn unique_waits_for_writers_only(&self) -> bool {
        true
    }

    /// One backend's locks never conflict: its session advisory lock and its
    /// transaction's lock on the same key are both granted.
    fn session_locks_never_conflict(&self) -> bool {
        true
    }

    /// 40001 in the words for what the other transaction did to the row.
    fn update_conflict(&self, e: SqlError, deleted: bool) -> SqlError {
        let what = if deleted { "delete" } else { "update" };
        let mut e = e.with_sqlstate("40001");
        e.message = format!("could not serialize access due to concurrent {what}");
        e
    }

    /// RETURNING names the row by the table's name or alias: `inserted.x` (T-SQL's
    /// OUTPUT) is a missing FROM-clause entry, 42P01.
    fn output_tables(&self) -> bool {
        false
    }

    /// heap_update locks FOR UPDATE when the new version changes a key column, so it
    /// waits for a FOR KEY SHARE that FOR NO KEY UPDATE passes.
    fn key_update_lock(&self) -> Option<LockMode> {
        Some(LockMode::ForUpdate)
    }

    /// An UPDATE that changes the key writes a new version of the same row (the old
    /// tuple's ctid points at it), which EvalPlanQual follows.
    fn follows_moved_rows(&self) -> bool {
        true
    }

    fn page_locks(&self) -> bool {
        false
    }

    fn heap_tables(&self) -> bool {
        true
    }

    fn filters_before_sort(&self) -> bool {
        true
    }

    fn version_bytes(&self, columns: &[Column], row: &[Value]) -> u32 {
        tuple::version_bytes(columns, row)
    }

    /// A heap has no clustered index: a full scan is a sequential scan, and a seek on the
    /// primary key or another index is an index scan using it.
    /// pg_locks' lock types: a table's lock is on a `relation`, a row's on a `tuple`;
    /// an advisory lock's name (`advisory 3`) says what it is.
    fn resource_words(&self) -> ResourceWords {
        ResourceWords {
            table: "RELATION",
            row: "TUPLE",
            app: "",
        }
    }

    /// PL/pgSQL checks a function body's syntax at CREATE, not its names.
    fn checks_columns_at_create(&self) -> bool {
        false
    }

    fn access_name(&self, table: &Table, access: Access) -> Access {
        match access {
            Access::ClusteredScan => Access::SeqScan,
            Access::ClusteredSeek => Access::IndexScan(table.pk_name.clone().unwrap_or_default()),
            Access::IndexSeek(ix) => Access::IndexScan(ix),
            other => other,
        }
    }

    /// `BEGIN`, not T-SQL's `BEGIN TRAN`.
    fn statement_label(&self, label: &'static str) -> &'static str {
        match label {
            "BEGIN TRAN" => "BEGIN",
            "SAVE TRAN" => "SAVEPOINT",
            other => other,
        }
    }

    /// A procedure ends; it returns no status code.
    fn return_codes(&self) -> bool {
        false
    }

    /// `count`, `?column?`, `case`: the server's names (`colname.rs`).
    fn unnamed_column(&self, expr: &sql::ast::Expr, source: &str) -> String {
        colname::name(expr, source)
    }

    /// PostgreSQL's own names: `task_pkey`, `task_code_key`.
    fn constraint_name(&self, table: &str, columns: &[&str], n: usize) -> String {
        if n == 0 {
            format!("{table}_pkey")
        } else {
            format!("{table}_{}_key", columns.join("_"))
        }
    }

    /// AVG of integers is numeric (AVG of 1 and 2 is 1.5), and `1.5::int` is 2.
    fn truncating_integers(&self) -> bool {
        false
    }

    fn boolean_aggregates(&self) -> bool {
        true
    }

    /// NULLs sort last ascending and first descending, and btree indexes keep them so.
    fn nulls_sort_high(&self) -> bool {
        true
    }

    /// `job_attempts_check`: the table, the column (a table constraint's first column
    /// named in its expression, if any) and `check`, numbered when taken
    /// (`job_attempts_check1`).
    fn check_name(
        &self,
        table: &str,
        column: Option<&str>,
        expr: &sql::ast::Expr,
        _n: usize,
        taken: &[&str],
    ) -> String {
        let first = column
            .map(str::to_string)
            .or_else(|| first_column(expr))
            .map(|c| format!("_{}", c.to_lowercase()))
            .unwrap_or_default();
        let base = format!("{table}{first}_check");
        let mut name = base.clone();
        let mut k = 0;
        while taken.contains(&name.as_str()) {
            k += 1;
            name = format!("{base}{k}");
        }
        name
    }

    /// The server's ACCESS EXCLUSIVE lock would wait for, and block, even plain reads,
    /// and those take no table lock here.
    fn truncate_not_simulated(&self) -> Option<&'static str> {
        Some("TRUNCATE while sessions run (its ACCESS EXCLUSIVE lock blocks even plain reads, which take no table lock in the simulator); setup may use it")
    }

    /// A partial index takes any predicate (its functions immutable); what the
    /// simulation cannot evaluate is refused after this as not simulated.
    fn check_index_filter(
        &self,
        _filter: &Expr,
        _index: &str,
        _table: &str,
    ) -> Result<(), SqlError> {
        Ok(())
    }

    /// The server's choice (`ChooseRelationName`): the table, the columns and `idx`,
    /// joined by `_`, numbered from 1 while the name is taken.
    fn index_name(&self, table: &str, columns: &[&str], taken: &[&str]) -> String {
        let base = format!("{table}_{}_idx", columns.join("_")).to_lowercase();
        let mut name = base.clone();
        let mut k = 0;
        while taken.iter().any(|t| t.eq_ignore_ascii_case(&name)) {
            k += 1;
            name = format!("{base}{k}");
        }
        name
    }

    /// NOWAIT's own words (C1), not lock_timeout's.
    fn nowait_error(&self, relation: &str, row: bool) -> SqlError {
        let what = if row { "row in relation" } else { "relation" };
        let mut e = SqlError::lock_timeout();
        e.message = format!("could not obtain lock on {what} \"{relation}\"");
        e.sqlstate = Some("55P03");
        e
    }

    fn power(&self, l: &Value, r: &Value) -> crate::error::Fallible<Value> {
        power::power(l, r)
    }

    /// No assignment cast between boolean and the numbers: 42804.
    fn assignment_mismatch(
        &self,
        v: &Value,
        ty: &sql::ast::DataType,
        column: &str,
    ) -> Option<SqlError> {
        operators::assignment_mismatch(v, ty, column)
    }

    /// The server has no operator between text and a number, nor between a boolean and a
    /// number (42883); a quoted literal takes the other side's type, or fails to (22P02).
    fn comparison_mismatch(
        &self,
        op: sql::ast::BinaryOp,
        left: &crate::exec::Operand<'_>,
        right: &crate::exec::Operand<'_>,
    ) -> Option<SqlError> {
        operators::comparison_mismatch(op, left, right)
    }

    fn condition_value(
        &self,
        place: &str,
        operand: &crate::exec::Operand<'_>,
    ) -> Result<bool, SqlError> {
        operators::condition_value(place, operand)
    }

    fn number_error(&self, e: SqlError) -> SqlError {
        if e.sqlstate.is_some() {
            return e;
        }
        // A system column exists on every table there: not simulated here, not "does
        // not exist" (a claim by `ctid` is a known pattern).
        if e.number == 207 {
            let column = quoted_after(&e.message, "name '").unwrap_or("");
            if ["ctid", "xmin", "xmax", "cmin", "cmax", "tableoid"]
                .iter()
                .any(|c| column.eq_ignore_ascii_case(c))
            {
                return self.number_error(SqlError::not_simulated(&format!(
                    "the system column {}",
                    column.to_ascii_lowercase()
                )));
            }
        }
        // The server's catalog exists there: not simulated here, not "does not exist".
        if e.number == 208 {
            let name = quoted_after(&e.message, "name '")
                .unwrap_or("")
                .to_ascii_lowercase();
            if name.starts_with("pg_") || name.starts_with("information_schema.") {
                return self.number_error(SqlError::not_simulated(&format!(
                    "the catalog view {name} (the state view shows sessions and locks)"
                )));
            }
        }
        let (code, message) = match e.number {
            // Lock timeout and NOWAIT (C5).
            1222 => (
                "55P03",
                "canceling statement due to lock timeout".to_string(),
            ),
            1205 => ("40P01", "deadlock detected".to_string()),
            2601 | 2627 => {
                let name = quoted_after(&e.message, " constraint '")
                    .or_else(|| quoted_after(&e.message, " index '"))
                    .unwrap_or("unique");
                // psql's DETAIL line, on the same line of the trace.
                let detail = e.key.as_deref().map_or(String::new(), |(c, v)| {
                    format!(" (DETAIL: Key ({c})=({v}) already exists.)")
                });
                (
                    "23505",
                    format!("duplicate key value violates unique constraint \"{name}\"{detail}"),
                )
            }
            // A row changed after the snapshot of a REPEATABLE READ transaction (C3).
            3960 => (
                "40001",
                "could not serialize access due to concurrent update".to_string(),
            ),
            8134 => ("22012", "division by zero".to_string()),
            4104 => {
                // The qualifier: the part before the column's name.
                let name = e.message.split('"').nth(1).unwrap_or("?");
                let table = name.rsplit_once('.').map_or(name, |(t, _)| t);
                let table = table.rsplit('.').next().unwrap_or(table);
                (
                    "42P01",
                    format!("missing FROM-clause entry for table \"{table}\""),
                )
            }
            108 => (
                "42P10",
                format!(
                    "ORDER BY position {} is not in select list",
                    e.message
                        .split_whitespace()
                        .nth(5)
                        .unwrap_or("?")
                ),
            ),
            109 => ("42601", "INSERT has more target columns than expressions".to_string()),
            1014 => ("2201W", "LIMIT must not be negative".to_string()),
            // A table, or an index: one namespace of relations.
            2714 | 1913 => {
                let name = e.message.split('\'').nth(1).unwrap_or("?");
                ("42P07", format!("relation \"{}\" already exists", name.to_lowercase()))
            }
            // DROP of what does not exist: SQL Server's words name the kind.
            3701 => {
                let name = e.message.split('\'').nth(1).unwrap_or("?");
                let name = name.rsplit('.').next().unwrap_or(name).to_lowercase();
                match e.message.split_whitespace().nth(3) {
                    Some("index") => ("42704", format!("index \"{name}\" does not exist")),
                    Some("procedure") => (
                        "42883",
                        format!("could not find a procedure named \"{name}\""),
                    ),
                    _ => ("42P01", format!("table \"{name}\" does not exist")),
                }
            }
            10742 => ("2201X", "OFFSET must not be negative".to_string()),
            147 => ("42803", "aggregate functions are not allowed in WHERE".to_string()),
            8117 => {
                let (function, ty) = e.key.as_deref().cloned().unwrap_or_default();
                let ty = match ty.as_str() {
                    "timestamptz" => "timestamp with time zone",
                    t if t.starts_with("timestamptz(") => "timestamp with time zone",
                    t if t.starts_with("timestamp") => "timestamp without time zone",
                    "varchar(max)" => "text",
                    t if t.starts_with("varchar(") => "character varying",
                    t if t.starts_with("char(") => "character",
                    t => pg_type(t),
                };
                ("42883", format!("function {function}({ty}) does not exist"))
            }
            205 => {
                let op = e.key.as_deref().map_or("UNION", |(_, op)| op.as_str());
                ("42601", format!("each {op} query must have the same number of columns"))
            }
            116 if e.key.is_some() => ("42601", "subquery has too many columns".to_string()),
            116 => ("42601", "subquery must return only one column".to_string()),
            1062 => (
                "42601",
                "WITH TIES cannot be specified without ORDER BY clause".to_string(),
            ),
            110 | 213 => ("42601", "INSERT has more expressions than target columns".to_string()),
            512 => (
                "21000",
                "more than one row returned by a subquery used as an expression".to_string(),
            ),
            8120 | 8121 => (
                "42803",
                format!(
                    "column \"{}\" must appear in the GROUP BY clause or be used in an aggregate function",
                    quoted_after(&e.message, "Column '").unwrap_or("?")
                ),
            ),
            207 => {
                let column = quoted_after(&e.message, "name '").unwrap_or("?");
                let message = match e.key.as_deref() {
                    Some((k, q)) if k == "qualifier" => {
                        format!("column {q}.{column} does not exist")
                    }
                    Some((k, t)) if k == "relation" => {
                        format!("column \"{column}\" of relation \"{t}\" does not exist")
                    }
                    _ => format!("column \"{column}\" does not exist"),
                };
                ("42703", message)
            }
            107 => (
                "42P01",
                format!(
                    "missing FROM-clause entry for table \"{}\"",
                    quoted_after(&e.message, "prefix '").unwrap_or("?")
                ),
            ),
            209 => (
                "42702",
                match e.key.as_deref() {
                    Some((k, name)) if k == "order_by" => {
                        format!("ORDER BY \"{name}\" is ambiguous")
                    }
                    _ => format!(
                        "column reference \"{}\" is ambiguous",
                        quoted_after(&e.message, "name '").unwrap_or("?")
                    ),
                },
            ),
            208 => (
                "42P01",
                format!(
                    "relation \"{}\" does not exist",
                    quoted_after(&e.message, "name '").unwrap_or("?")
                ),
            ),
            515 => (
                "23502",
                format!(
                    "null value in column \"{}\" of relation \"{}\" violates not-null constraint{}",
                    quoted_after(&e.message, "column '").unwrap_or("?"),
                    quoted_after(&e.message, ".dbo.").unwrap_or("?"),
                    failing_row(&e),
                ),
            ),
            // Text past an integer type's range names the text and the type.
            244 | 248 | 8115 if e.key.is_some() => {
                let (text, ty) = e.key.as_deref().cloned().unwrap_or_default();
                (
                    "22003",
                    format!("value \"{text}\" is out of range for type {}", pg_type(&ty)),
                )
            }
            220 => ("22003", "smallint out of range".to_string()),
            // SQL Server's message names the type; the server's words name its own.
            8115 => {
                let ty = between(&e.message, "data type ", ".").unwrap_or_default();
                match pg_type(ty) {
                    "numeric" => ("22003", "numeric field overflow".to_string()),
                    t @ ("integer" | "bigint" | "smallint") => {
                        ("22003", format!("{t} out of range"))
                    }
                    _ => ("22003", "value out of range".to_string()),
                }
            }
            245 => {
                let text = between(&e.message, "value '", "' to data type").unwrap_or_default();
                let ty = between(&e.message, "' to data type ", ".").unwrap_or_default();
                (
                    "22P02",
                    format!("invalid input syntax for type {}: \"{text}\"", pg_type(ty)),
                )
            }
            // The truncated value is as long as the column allows.
            2628 => {
                let kept = between(&e.message, "Truncated value: '", "'.").unwrap_or_default();
                let ty = match e.key.as_deref() {
                    Some((fixed, n)) if fixed == "character" => format!("character({n})"),
                    _ => format!("character varying({})", kept.chars().count()),
                };
                ("22001", format!("value too long for type {ty}"))
            }
            547 => {
                let table = between(&e.message, "table \"dbo.", "\"").unwrap_or_default();
                let constraint =
                    between(&e.message, "constraint \"", "\". The conflict").unwrap_or_default();
                (
                    "23514",
                    format!(
                        "new row for relation \"{table}\" violates check constraint \"{constraint}\"{}",
                        failing_row(&e)
                    ),
                )
            }
            241 => match e.key.as_deref() {
                // Digits where a date's are, but no such day or time: out of range.
                Some((_, text)) if looks_like_datetime(text) => (
                    "22008",
                    format!("date/time field value out of range: \"{text}\""),
                ),
                Some((ty, text)) => (
                    "22007",
                    format!("invalid input syntax for type {ty}: \"{text}\""),
                ),
                None => ("22P02", e.message.clone()),
            },
            50000 => ("P0001", e.message.clone()),
            _ => ("XX000", e.message.clone()),
        };
        SqlError { message, ..e }.with_sqlstate(code)
    }

    fn exec_statement(
        &self,
        x: &mut Exec<'_>,
        i: usize,
        stmt: &sql::ast::Stmt,
    ) -> Option<Result<crate::exec::Flow, Interrupt>> {
        match &stmt.kind {
            sql::ast::StmtKind::Vacuum(tables) => Some(vacuum::run(x, i, tables)),
            sql::ast::StmtKind::Savepoint(name) => Some(savepoint::set(x, i, name)),
            sql::ast::StmtKind::RollbackToSavepoint(name) => {
                Some(savepoint::roll_back_to(x, i, name))
            }
            sql::ast::StmtKind::ReleaseSavepoint(name) => Some(savepoint::release(x, i, name)),
            _ => None,
        }
    }

    /// now() and its kin are timestamptz, printed without trailing zeros and with the
    /// zone (`+00`); CURRENT_DATE is a date.
    fn clock_stamp(&self, function: &str) -> Stamp {
        match function {
            "CURRENT_DATE" => Stamp::Date,
            _ => Stamp::TrimmedTz,
        }
    }

    fn call_function(
        &self,
        x: &mut Exec<'_>,
        i: usize,
        name: &str,
        args: &[Value],
    ) -> Option<Result<Value, Interrupt>> {
        let at = match name {
            // clock_timestamp(): the clock as it reads now.
            "CLOCK_TIMESTAMP" => x.w.now,
            // now(), transaction_timestamp(), CURRENT_TIMESTAMP: when the transaction
            // began, the same all through it (statement_timestamp() is SYSDATETIME's
            // statement start).
            "TRANSACTION_TIMESTAMP" | "LOCALTIMESTAMP" => {
                let s = &x.w.sessions[i];
                s.txn.as_ref().map_or(s.statement_at, |t| t.began_at)
            }
            _ => {
                return functions::call(x, name, args).or_else(|| advisory::call(x, i, name, args))
            }
        };
        // LOCALTIMESTAMP is the same moment as a timestamp (no zone).
        let stamp = match name {
            "LOCALTIMESTAMP" => Stamp::Trimmed,
            _ => Stamp::TrimmedTz,
        };
        Some(Ok(Value::DateTime(
            crate::value::CLOCK_ZERO_US + at as i64,
            stamp,
        )))
    }

    /// `IF NOT pg_try_advisory_lock(p) THEN`: the condition takes (or answers for) the
    /// lock, so the trace shows it as the statement it is in PL/pgSQL (a SELECT).
    fn call_is_statement(&self, name: &str) -> bool {
        advisory::is_lock_function(name)
    }

    /// PL/pgSQL sets a block's declarations up as it enters the block.
    fn declarations_are_statements(&self) -> bool {
        false
    }

    /// EXPLAIN (ANALYZE, BUFFERS)'s `shared hit`.
    fn reads_name(&self) -> &'static str {
        "shared buffers hit"
    }

    /// `SET lock_timeout`, or `statement_timeout` when the statement's ran out first.
    fn wait_timeout_name(&self, statement: bool, _applock: bool) -> &'static str {
        if statement {
            "statement_timeout"
        } else {
            "lock_timeout"
        }
    }

    /// PL/pgSQL's `v := ...` is an assignment, as its error context says ("at
    /// assignment"); SET is a server command for settings.
    fn assignment_label(&self) -> &'static str {
        "assignment"
    }

    /// pg_stat_statements records a statement when it completes: one that fails adds
    /// nothing to its role's buffers.
    fn failed_reads_count(&self) -> bool {
        false
    }

    fn flat_transactions(&self) -> bool {
        true
    }

    /// A sequence keeps counting: TRUNCATE without RESTART IDENTITY leaves it.
    fn truncate_restarts_identity(&self) -> bool {
        false
    }

    /// WARNING 25001 and 25P01, as psql shows them.
    fn flat_transaction_warning(&self, inside: bool) -> Option<&'static str> {
        Some(if inside {
            "WARNING:  there is already a transaction in progress"
        } else {
            "WARNING:  there is no transaction in progress"
        })
    }

    fn catch_rolls_back_block(&self) -> bool {
        true
    }

    fn settings_roll_back(&self) -> bool {
        true
    }

    /// CALL in autocommit mode: the procedure's statements share the call's transaction
    /// (PostgreSQL 11+ "Transaction Management" in PL/pgSQL).
    fn call_is_transaction(&self) -> bool {
        true
    }

    fn identity_is_default(&self) -> bool {
        true
    }

    fn lock_matching_rows_only(&self) -> bool {
        true
    }

    /// The planner's choice between a sequential and an index scan for a range depends
    /// on statistics; a range scans.
    fn clustered_range_seeks(&self) -> bool {
        false
    }

    /// PL/pgSQL's INTO: the first row, or NULLs (and `FOUND` false) when none.
    fn assigns_first_row_or_null(&self) -> bool {
        true
    }

    /// `INSERT INTO t VALUES (1)` on a table of more columns.
    fn values_fill_trailing_defaults(&self) -> bool {
        true
    }

    /// 428C9 for a column GENERATED ALWAYS AS IDENTITY, with psql's DETAIL line on the
    /// same line of the trace.
    fn identity_written(&self, _table: &str, column: &str, insert: bool) -> SqlError {
        let what = if insert {
            format!("cannot insert a non-DEFAULT value into column \"{column}\"")
        } else {
            format!("column \"{column}\" can only be updated to DEFAULT")
        };
        SqlError::generic(
            0,
            16,
            format!("{what} (DETAIL: Column \"{column}\" is an identity column defined as GENERATED ALWAYS.)"),
        )
        .with_sqlstate("428C9")
    }

    fn relations_share_names(&self) -> bool {
        true
    }

    /// SQL Server's functions, which the executor has and PostgreSQL does not: a learner
    /// coming from SQL Server writes `len(name)` or `isnull(owner, '')`, and the server
    /// answers 42883. (Not the executor's own helpers a PL/pgSQL handler's test is
    /// built from, such as ERROR_NUMBER.)
    fn lacks_function(&self, name: &str) -> bool {
        matches!(
            name,
            "CHAR"
                | "NCHAR"
                | "UNICODE"
                | "CHARINDEX"
                | "CHOOSE"
                | "DATEADD"
                | "DATEDIFF"
                | "DATENAME"
                | "DATEPART"
                | "GETDATE"
                | "GETUTCDATE"
                | "HOUR"
                | "IIF"
                | "ISNULL"
                | "LEN"
                | "MINUTE"
                | "NEWID"
                | "REPLICATE"
                | "SECOND"
                | "SQUARE"
                | "STUFF"
                | "SYSUTCDATETIME"
        )
    }

    /// psql's NOTICE lines (`relation "t" already exists, skipping`).
    fn skip_notice(&self, what: &crate::exec::Skipped<'_>) -> Option<String> {
        use crate::exec::Skipped;
        Some(match what {
            Skipped::Exists(name) => {
                format!(
                    "relation \"{}\" already exists, skipping",
                    name.to_lowercase()
                )
            }
            Skipped::Missing("procedure", name) => {
                format!(
                    "procedure {}() does not exist, skipping",
                    name.to_lowercase()
                )
            }
            Skipped::Missing(kind, name) => {
                format!(
                    "{kind} \"{}\" does not exist, skipping",
                    name.to_lowercase()
                )
            }
        })
    }

    fn routine_exists(&self, name: &str) -> SqlError {
        SqlError::generic(
            0,
            16,
            format!(
                "function \"{}\" already exists with same argument types",
                name.to_lowercase()
            ),
        )
        .with_sqlstate("42723")
    }

    fn limit_null_is_all(&self) -> bool {
        true
    }

    /// A tuple lock waits only for holders it conflicts with: FOR SHARE gets a row
    /// another FOR SHARE holds while a FOR UPDATE waits for it (heap_lock_tuple).
    fn row_locks_skip_queue(&self) -> bool {
        true
    }

    /// 42883, naming the argument types as the server resolved them: a quoted
    /// literal is `unknown`, other values by their type.
    fn unknown_routine(&self, name: &str, args: &[(&Expr, Value)], function: bool) -> SqlError {
        let lower = name.to_lowercase();
        if function && functions::is_builtin(&lower) {
            // The server has it: not "does not exist" (named as written: lower-case,
            // as the server folds it). generate_series works in FROM.
            let what = match lower.as_str() {
                "generate_series" => "generate_series() in the select list (in FROM it is)".into(),
                _ => format!("function {lower}()"),
            };
            return self.number_error(SqlError::not_simulated(&what));
        }
        let types: Vec<&str> = args
            .iter()
            .map(|(e, v)| match (&e.kind, v) {
                (ExprKind::Literal(Literal::Str { .. } | Literal::Null), _) => "unknown",
                (_, v) => operators::value_type(v),
            })
            .collect();
        let kind = if function { "function" } else { "procedure" };
        operators::no_such_routine(kind, name, &types)
    }

    /// PL/pgSQL's FOUND.
    fn has_found(&self) -> bool {
        true
    }

    /// `GROUP BY id` lets the select list name the table's other columns.
    fn groups_by_primary_key(&self) -> bool {
        true
    }

    /// `GROUP BY 1`, `GROUP BY alias`.
    fn group_by_output_columns(&self) -> bool {
        true
    }

    /// `LIMIT` after a compound query limits its result.
    fn limit_after_set_operators(&self) -> bool {
        true
    }

    /// A deterministic collation (`C`, as `initdb` gives without a locale): `=` and
    /// unique indexes tell `'new'` from `'New'` and `'new '`, and ORDER BY sorts by
    /// bytes, capitals first.
    fn collation(&self) -> crate::value::Collation {
        crate::value::Collation::Binary
    }

    /// PL/pgSQL's handlers: `RAISE NOTICE 'caught %', SQLSTATE`.
    fn handler_variables(&self) -> bool {
        true
    }

    /// `[` is an ordinary character in a pattern; `\` escapes `%`, `_` or itself.
    fn like_bracket_sets(&self) -> bool {
        false
    }

    /// `deadlock_timeout`'s default, 1 s: the waiter whose timeout ends first while in a
    /// cycle is the one aborted (C4).
    fn deadlock_timeout_us(&self) -> Option<u64> {
        Some(1_000_000)
    }
}

/// The first column an expression names, as a CHECK constraint's name takes it.
fn first_column(expr: &sql::ast::Expr) -> Option<String> {
    let mut first = None;
    crate::syntax::walk(expr, &mut |e| {
        if let (None, sql::ast::ExprKind::Column(n)) = (&first, &e.kind) {
            first = Some(n.name().value.clone());
        }
    });
    first
}

/// PostgreSQL's name for a type as SQL Server's messages name it.
fn pg_type(t: &str) -> &str {
    match t {
        "int" => "integer",
        "tinyint" | "smallint" => "smallint",
        "bit" => "boolean",
        "float" => "double precision",
        "varchar(max)" => "text",
        t if t.starts_with("decimal") || t.starts_with("numeric") => "numeric",
        t if t.starts_with("datetime2") => "timestamp without time zone",
        other => other,
    }
}

/// `2026-02-30`, `2026-01-05 25:00`: digits and separators only, as a date is written.
fn looks_like_datetime(text: &str) -> bool {
    let t = text.trim();
    t.len() >= 8
        && t.chars().next().is_some_and(|c| c.is_ascii_digit())
        && t.chars().all(|c| c.is_ascii_digit() || "-: .T".contains(c))
}

/// psql's DETAIL line for a row a constraint refused, on the same line of the trace.
fn failing_row(e: &SqlError) -> String {
    match e.key.as_deref() {
        Some((what, values)) if what == "row" => {
            format!(" (DETAIL: Failing row contains ({values}).)")
        }
        _ => String::new(),
    }
}
