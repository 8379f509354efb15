//! SQL Server errors: number, severity, state and message text, and how far each aborts.
//! Other dialects renumber and reword them (`Rules::number_error`).

use sql::ast::DataType;
use std::rc::Rc;

/// The database name errors show (`lockstep.dbo.task`).
pub const DATABASE: &str = "lockstep";

/// What a row count counts, which decides the error a bad one gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Count {
    Top,
    Offset,
    Fetch,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlError {
    pub number: u32,
    pub severity: u8,
    pub state: u8,
    pub message: String,
    pub scope: AbortScope,
    /// The SQLSTATE a dialect that numbers its errors so gives it (`55P03`).
    pub sqlstate: Option<&'static str>,
    /// RAISERROR's errors ignore XACT_ABORT; every other one (THROW's too) obeys it.
    pub ignores_xact_abort: bool,
    /// What a dialect that words the error its own way needs beyond SQL Server's
    /// message, by the error's number: a duplicate key's columns and values
    /// (`document_id`, `3`); a truncation into a fixed-width column, `character` and its
    /// length; a missing column's qualifier (`qualifier`, `j`) or target table
    /// (`relation`, `job`); an overflowing text and its type; an aggregate and its
    /// operand's type; `in` for IN's subquery of many columns.
    pub key: Option<Box<(String, String)>>,
    /// Where in the statement's script the error points when that is finer than the
    /// statement's start (a byte offset): the table, column or variable it could not
    /// find, so the caret goes to the name rather than to the statement's first word.
    pub offset: Option<usize>,
    /// Where a TRY caught it: the line in its batch (or its procedure's CREATE batch)
    /// of the statement that raised it, and the procedure or trigger that ran it, for
    /// ERROR_LINE() and ERROR_PROCEDURE().
    pub origin: Option<Box<(u32, Option<Rc<str>>)>>,
}

/// What the expression helpers return: the error behind a pointer, so the value they
/// return on every row of every scan is not carried in a result sized for an error.
pub(crate) type Fallible<T> = Result<T, Box<SqlError>>;

impl From<Box<SqlError>> for SqlError {
    fn from(e: Box<SqlError>) -> Self {
        *e
    }
}

/// How much work an error undoes when XACT_ABORT is OFF (SQL Server's default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbortScope {
    /// The statement is rolled back; the batch goes on.
    Statement,
    /// The batch ends; an open transaction stays open.
    Batch,
    /// The batch ends and the transaction is rolled back (deadlock victim, 650, 3960).
    BatchAndTransaction,
    /// Compile-time errors: the batch ends before the statement runs; not caught by a
    /// TRY at the same level.
    Compile,
    /// A limit of the simulator itself (statements, instructions, steps): no TRY catches
    /// it, the transaction is rolled back and the session ends.
    Session,
}

impl SqlError {
    fn new(number: u32, severity: u8, message: String, scope: AbortScope) -> SqlError {
        SqlError {
            number,
            severity,
            state: 1,
            message,
            scope,
            sqlstate: None,
            ignores_xact_abort: false,
            key: None,
            offset: None,
            origin: None,
        }
    }

    pub fn with_state(mut self, state: u8) -> SqlError {
        self.state = state;
        self
    }

    pub fn truncation(table: &str, column: &str, value: &str, max: u32) -> SqlError {
        let truncated: String = value.chars().take(max as usize).collect();
        SqlError::new(
            2628,
            16,
            format!(
                "String or binary data would be truncated in table '{DATABASE}.dbo.{table}', column '{column}'. Truncated value: '{truncated}'."
            ),
            AbortScope::Statement,
        )
    }

    pub fn conversion_failed(text: &str, ty: &DataType) -> SqlError {
        SqlError::new(
            245,
            16,
            format!(
                "Conversion failed when converting the varchar value '{text}' to data type {ty}."
            ),
            AbortScope::Statement,
        )
    }

    /// Text whose number is past the integer type's range: Msg 248 for an int, 244 for
    /// a smallint or tinyint (`INT2`, `INT1`), 8115 for a bigint. The text and the type
    /// are in `key`, for a dialect that names them.
    pub fn text_overflow(text: &str, ty: &DataType) -> SqlError {
        let mut e = match ty {
            DataType::Int => SqlError::new(
                248,
                16,
                format!("The conversion of the varchar value '{text}' overflowed an int column."),
                AbortScope::Statement,
            ),
            DataType::SmallInt | DataType::TinyInt | DataType::ByteInt => {
                let width = if matches!(ty, DataType::SmallInt) {
                    2
                } else {
                    1
                };
                SqlError::new(
                    244,
                    16,
                    format!("The conversion of the varchar value '{text}' overflowed an INT{width} column. Use a larger integer column."),
                    AbortScope::Statement,
                )
            }
            _ => SqlError::arithmetic_overflow(ty),
        };
        e.key = Some(Box::new((text.to_string(), ty.to_string())));
        e
    }

    pub fn conversion_failed_datetime() -> SqlError {
        SqlError::new(
            241,
            16,
            "Conversion failed when converting date and/or time from character string.".into(),
            AbortScope::Statement,
        )
    }

    /// Text that is no `ty` (a date, a time): 241, with the type and the text kept in
    /// `key` for a dialect whose message names them.
    pub fn not_a_datetime(text: &str, ty: &DataType) -> SqlError {
        let name = match ty {
            DataType::Date => "date",
            DataType::Time(_) => "time",
            DataType::TimestampTz(_) => "timestamp with time zone",
            _ => "timestamp",
        };
        SqlError {
            key: Some(Box::new((name.to_string(), text.to_string()))),
            ..SqlError::conversion_failed_datetime()
        }
    }

    /// `from` is the value's type as SQL Server names it ([`crate::value::Value::type_name`]).
    pub fn explicit_conversion(from: &str, ty: &DataType) -> SqlError {
        SqlError::new(
            529,
            16,
            format!("Explicit conversion from data type {from} to {ty} is not allowed."),
            AbortScope::Statement,
        )
    }

    /// Msg 517: date arithmetic left datetime2's range.
    pub fn datetime_overflow() -> SqlError {
        SqlError::new(
            517,
            16,
            "Adding a value to a 'datetime2' column caused an overflow.".into(),
            AbortScope::Statement,
        )
    }

    /// A negative TOP or OFFSET, or a FETCH that is not positive (1014, 10742, 10744;
    /// SQL Server's words, its typo included).
    pub(crate) fn bad_row_count(what: Count) -> SqlError {
        let (number, message) = match what {
            Count::Top => (1014, "A TOP or FETCH clause contains an invalid value."),
            Count::Offset => (
                10742,
                "The offset specified in a OFFSET clause may not be negative.",
            ),
            Count::Fetch => (
                10744,
                "The number of rows provided for a FETCH clause must be greater then zero.",
            ),
        };
        SqlError::generic(number, 16, message)
    }

    /// Msg 1060: a TOP or FETCH count of a type other than an integer's, refused when
    /// the batch compiles (the server's words, its grammar included).
    pub(crate) fn fractional_row_count() -> SqlError {
        SqlError::new(
            1060,
            15,
            "The number of rows provided for a TOP or FETCH clauses row count parameter must be an integer.".into(),
            AbortScope::Compile,
        )
    }

    /// Msg 8115 for an IDENTITY value past its column's type.
    pub fn identity_overflow(ty: &DataType) -> SqlError {
        SqlError::new(
            8115,
            16,
            format!("Arithmetic overflow error converting IDENTITY to data type {ty}."),
            AbortScope::Statement,
        )
    }

    /// Msg 220: an int's value past a smallint's or tinyint's range (a value past an
    /// int's is a numeric, whose overflow is 8115). Other dialects word it as 8115.
    pub fn int_overflow(ty: &DataType, value: i64) -> SqlError {
        SqlError::new(
            220,
            16,
            format!("Arithmetic overflow error for data type {ty}, value = {value}."),
            AbortScope::Statement,
        )
        .with_state(2)
    }

    /// Msg 8115, state 2, as the server reports a value past a type's range.
    pub fn arithmetic_overflow(ty: &DataType) -> SqlError {
        SqlError::new(
            8115,
            16,
            format!("Arithmetic overflow error converting expression to data type {ty}."),
            AbortScope::Statement,
        )
        .with_state(2)
    }

    pub fn divide_by_zero() -> SqlError {
        SqlError::new(
            8134,
            16,
            "Divide by zero error encountered.".into(),
            AbortScope::Statement,
        )
    }

    /// Msg 1065: NOLOCK or READUNCOMMITTED on the table an INSERT, UPDATE, DELETE or
    /// MERGE writes.
    pub fn nolock_on_write_target() -> SqlError {
        SqlError::generic(
            1065,
            15,
            "The NOLOCK and READUNCOMMITTED lock hints are not allowed for target tables of INSERT, UPDATE, DELETE or MERGE statements.",
        )
    }

    /// Msg 1047: NOLOCK (READUNCOMMITTED) beside a hint that takes or holds locks
    /// (UPDLOCK, XLOCK, HOLDLOCK, SERIALIZABLE, REPEATABLEREAD, TABLOCKX); the server's
    /// words are the same whichever pair it was.
    /// A compile error: it ends the batch, and the TRY around it does not catch it.
    pub fn conflicting_locking_hints() -> SqlError {
        SqlError::new(
            1047,
            15,
            "Conflicting locking hints specified.".into(),
            AbortScope::Compile,
        )
    }

    /// Msg 650: READPAST outside READ COMMITTED / REPEATABLE READ. A run-time error that
    /// ends the batch and rolls back an open transaction (semantics.md A6).
    pub fn readpast_isolation() -> SqlError {
        SqlError::new(
            650,
            16,
            "You can only specify the READPAST lock in the READ COMMITTED or REPEATABLE READ isolation levels.".into(),
            AbortScope::BatchAndTransaction,
        )
    }

    /// A statement that ran past its `statement_timeout` setting (57014; no number of
    /// the executor's own).
    pub fn statement_timeout() -> SqlError {
        SqlError::generic(
            UNNUMBERED,
            16,
            "canceling statement due to statement timeout",
        )
        .with_sqlstate("57014")
    }

    pub fn lock_timeout() -> SqlError {
        SqlError::new(
            1222,
            16,
            "Lock request time out period exceeded.".into(),
            AbortScope::Statement,
        )
    }

    pub fn deadlock_victim(spid: u32) -> SqlError {
        SqlError::new(
            1205,
            13,
            format!(
                "Transaction (Process ID {spid}) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction."
            ),
            AbortScope::BatchAndTransaction,
        )
        .with_state(51)
    }

    pub fn output_with_trigger(table: &str) -> SqlError {
        SqlError::new(
            334,
            15,
            format!(
                "The target table '{table}' of the DML statement cannot have any enabled triggers if the statement contains an OUTPUT clause without INTO clause."
            ),
            AbortScope::Compile,
        )
    }

    /// The clashing key's columns, for [`SqlError::key`].
    /// The row a NOT NULL or CHECK constraint refused, its values as a dialect that shows
    /// it lists them (`3, default, p3, bogus, 0, null`), kept in `key` as `("row", ...)`.
    pub(crate) fn with_failing_row(self, values: String) -> SqlError {
        self.with_key("row".to_string(), values)
    }

    pub fn with_key(mut self, columns: String, values: String) -> SqlError {
        self.key = Some(Box::new((columns, values)));
        self
    }

    pub fn duplicate_index_key(table: &str, index: &str, key: &str) -> SqlError {
        SqlError::new(
            2601,
            14,
            format!(
                "Cannot insert duplicate key row in object 'dbo.{table}' with unique index '{index}'. The duplicate key value is ({key})."
            ),
            AbortScope::Statement,
        )
    }

    pub fn duplicate_primary_key(constraint: &str, table: &str, key: &str) -> SqlError {
        SqlError::new(
            2627,
            14,
            format!(
                "Violation of PRIMARY KEY constraint '{constraint}'. Cannot insert duplicate key in object 'dbo.{table}'. The duplicate key value is ({key})."
            ),
            AbortScope::Statement,
        )
    }

    /// A UNIQUE constraint's clash: 2627 like a primary key's, with the constraint named.
    pub fn duplicate_unique_key(constraint: &str, table: &str, key: &str) -> SqlError {
        SqlError::new(
            2627,
            14,
            format!(
                "Violation of UNIQUE KEY constraint '{constraint}'. Cannot insert duplicate key in object 'dbo.{table}'. The duplicate key value is ({key})."
            ),
            AbortScope::Statement,
        )
    }

    /// 547: a row a CHECK constraint finds false.
    pub fn check_violated(
        action: &str,
        constraint: &str,
        table: &str,
        column: Option<&str>,
    ) -> SqlError {
        let column = column
            .map(|c| format!(", column '{c}'"))
            .unwrap_or_default();
        SqlError::new(
            547,
            16,
            format!(
                "The {action} statement conflicted with the CHECK constraint \"{constraint}\". The conflict occurred in database \"{DATABASE}\", table \"dbo.{table}\"{column}."
            ),
            AbortScope::Statement,
        )
        .with_state(0)
    }

    pub fn null_not_allowed(column: &str, table: &str, action: &str) -> SqlError {
        SqlError::new(
            515,
            16,
            format!(
                "Cannot insert the value NULL into column '{column}', table '{DATABASE}.dbo.{table}'; column does not allow nulls. {action} fails."
            ),
            AbortScope::Statement,
        )
        .with_state(2)
    }

    pub fn invalid_object(name: &str) -> SqlError {
        SqlError::new(
            208,
            16,
            format!("Invalid object name '{name}'."),
            AbortScope::Compile,
        )
    }

    /// COALESCE of NULL constants only: the result would have no type (Msg 4127, found
    /// as the batch compiles).
    pub fn untyped_coalesce() -> SqlError {
        SqlError::new(
            4127,
            16,
            "At least one of the arguments to COALESCE must be an expression that is not the NULL constant.".into(),
            AbortScope::Compile,
        )
    }

    /// ROLLBACK inside a trigger: the transaction is gone, and so is the batch.
    pub fn transaction_ended_in_trigger() -> SqlError {
        SqlError::new(
            3609,
            16,
            "The transaction ended in the trigger. The batch has been aborted.".into(),
            AbortScope::Batch,
        )
    }

    pub fn invalid_column(name: &str) -> SqlError {
        SqlError::new(
            207,
            16,
            format!("Invalid column name '{name}'."),
            AbortScope::Compile,
        )
    }

    /// A column missing from a qualified name (`j.stauts`, Msg 207); a dialect that
    /// names the whole reference finds the qualifier in `key`.
    pub fn invalid_qualified_column(name: &sql::ast::ObjectName) -> SqlError {
        let mut e = SqlError::invalid_column(&name.name().value).pointing(name.span.start);
        // The table or alias only (`public.job.x` is `job.x`), as the server names it.
        if let [.., qualifier, _] = name.parts.as_slice() {
            e.key = Some(Box::new(("qualifier".into(), qualifier.value.clone())));
        }
        e
    }

    /// A column an INSERT or UPDATE names that its table does not have (Msg 207); the
    /// table in `key`, for a dialect that names it.
    pub fn invalid_target_column(name: &str, table: &str) -> SqlError {
        let mut e = SqlError::invalid_column(name);
        e.key = Some(Box::new(("relation".into(), table.into())));
        e
    }

    /// A subquery used as a value (`in_list`: IN's) whose select list has more than one
    /// column (Msg 116, a compile error).
    pub fn subquery_columns(in_list: bool) -> SqlError {
        let mut e = SqlError::new(
            116,
            16,
            "Only one expression can be specified in the select list when the subquery is not introduced with EXISTS.".to_string(),
            AbortScope::Compile,
        );
        if in_list {
            e.key = Some(Box::new(("in".into(), String::new())));
        }
        e
    }

    /// An aggregate over a type it has no operator for (Msg 8117): SUM or AVG of text, a
    /// bit, a boolean or a point in time; MIN or MAX of a bit or a boolean. `key` holds
    /// the function and the type, for a dialect that names them.
    pub fn invalid_aggregate_operand(function: &str, ty: &DataType) -> Option<SqlError> {
        let invalid = match function {
            "SUM" | "AVG" => matches!(
                ty,
                DataType::Char(_)
                    | DataType::NChar(_)
                    | DataType::VarChar(_)
                    | DataType::NVarChar(_)
                    | DataType::SysName
                    | DataType::Bit
                    | DataType::Boolean
                    | DataType::DateTime
                    | DataType::DateTime2(_)
                    | DataType::Timestamp(_)
                    | DataType::TimestampTz(_)
                    | DataType::Date
                    | DataType::Time(_)
                    | DataType::UniqueIdentifier
            ),
            "MIN" | "MAX" => matches!(ty, DataType::Bit | DataType::Boolean),
            _ => false,
        };
        if !invalid {
            return None;
        }
        let shown = ty.to_string();
        let base = shown.split('(').next().unwrap_or_default();
        let mut e = SqlError::new(
            8117,
            16,
            format!(
                "Operand data type {base} is invalid for {} operator.",
                function.to_lowercase()
            ),
            AbortScope::Compile,
        );
        e.key = Some(Box::new((function.to_lowercase(), shown)));
        Some(e)
    }

    /// An aggregate in a WHERE clause (Msg 147, a compile error).
    pub fn aggregate_in_where() -> SqlError {
        SqlError::new(
            147,
            15,
            "An aggregate may not appear in the WHERE clause unless it is in a subquery contained in a HAVING clause or a select list, and the column being aggregated is an outer reference.".to_string(),
            AbortScope::Compile,
        )
    }

    /// `foo.*` where no table or alias of the query is `foo` (Msg 107).
    pub fn unknown_star_prefix(prefix: &str) -> SqlError {
        SqlError::new(
            107,
            15,
            format!("The column prefix '{prefix}' does not match with a table name or alias name used in the query."),
            AbortScope::Compile,
        )
    }

    pub fn ambiguous_column(name: &str) -> SqlError {
        SqlError::new(
            209,
            16,
            format!("Ambiguous column name '{name}'."),
            AbortScope::Compile,
        )
    }

    pub fn undeclared_variable(name: &str) -> SqlError {
        SqlError::new(
            137,
            15,
            format!("Must declare the scalar variable \"{name}\"."),
            AbortScope::Compile,
        )
        .with_state(2)
    }

    /// The operands of UNION, INTERSECT or EXCEPT (`op`) return different numbers of
    /// columns (Msg 205; `key` names the operator for a dialect that does).
    pub fn set_op_columns(op: &str) -> SqlError {
        let mut e = SqlError::new(
            205,
            16,
            "All queries combined using a UNION, INTERSECT or EXCEPT operator must have an equal number of expressions in their target lists.".into(),
            AbortScope::Compile,
        );
        e.key = Some(Box::new(("set_op".into(), op.into())));
        e
    }

    /// An ORDER BY name that two output columns of different values bear (Msg 209; a
    /// dialect that words it apart finds `order_by` in `key`).
    pub fn ambiguous_order_by(name: &sql::ast::ObjectName) -> SqlError {
        let column = &name.name().value;
        let mut e = SqlError::ambiguous_column(column).pointing(name.span.start);
        e.key = Some(Box::new(("order_by".into(), column.clone())));
        e
    }

    pub fn variable_redeclared(name: &str) -> SqlError {
        SqlError::new(
            134,
            15,
            format!("The variable name '{name}' has already been declared. Variable names must be unique within a query batch or stored procedure."),
            AbortScope::Compile,
        )
    }

    pub fn object_exists(name: &str) -> SqlError {
        SqlError::new(
            2714,
            16,
            format!("There is already an object named '{name}' in the database."),
            AbortScope::Statement,
        )
        .with_state(6)
    }

    /// A filtered index's WHERE outside the grammar SQL Server takes for one.
    pub fn bad_index_filter(index: &str, table: &str) -> SqlError {
        SqlError::new(
            10735,
            15,
            format!("Incorrect WHERE clause for filtered index '{index}' on table '{table}'."),
            AbortScope::Statement,
        )
    }

    pub fn index_exists(index: &str, table: &str) -> SqlError {
        SqlError::new(
            1913,
            16,
            format!("The operation failed because an index or statistics with name '{index}' already exists on table 'dbo.{table}'."),
            AbortScope::Statement,
        )
    }

    pub fn cannot_drop_table(name: &str) -> SqlError {
        SqlError::new(
            3701,
            11,
            format!("Cannot drop the table '{name}', because it does not exist or you do not have permission."),
            AbortScope::Statement,
        )
        .with_state(5)
    }

    pub fn no_such_procedure(name: &str) -> SqlError {
        SqlError::new(
            2812,
            16,
            format!("Could not find stored procedure '{name}'."),
            AbortScope::Statement,
        )
        .with_state(62)
    }

    pub fn missing_parameter(proc_name: &str, param: &str) -> SqlError {
        SqlError::new(
            201,
            16,
            format!("Procedure or function '{proc_name}' expects parameter '{param}', which was not supplied."),
            AbortScope::Statement,
        )
        .with_state(4)
    }

    pub fn too_many_arguments(proc_name: &str) -> SqlError {
        SqlError::new(
            8144,
            16,
            format!("Procedure or function {proc_name} has too many arguments specified."),
            AbortScope::Statement,
        )
        .with_state(2)
    }

    pub fn commit_without_begin() -> SqlError {
        SqlError::new(
            3902,
            16,
            "The COMMIT TRANSACTION request has no corresponding BEGIN TRANSACTION.".into(),
            AbortScope::Statement,
        )
    }

    pub fn rollback_without_begin() -> SqlError {
        SqlError::new(
            3903,
            16,
            "The ROLLBACK TRANSACTION request has no corresponding BEGIN TRANSACTION.".into(),
            AbortScope::Statement,
        )
    }

    pub fn snapshot_not_allowed() -> SqlError {
        SqlError::new(
            3952,
            16,
            format!("Snapshot isolation transaction failed accessing database '{DATABASE}' because snapshot isolation is not allowed in this database. Use ALTER DATABASE to allow snapshot isolation."),
            AbortScope::BatchAndTransaction,
        )
    }

    /// SET IDENTITY_INSERT on a table without an identity column.
    pub fn no_identity_property(table: &str) -> SqlError {
        SqlError::generic(
            8106,
            16,
            format!("Table 'dbo.{table}' does not have the identity property. Cannot perform SET operation."),
        )
    }

    /// SET IDENTITY_INSERT ON while another table of the session has it on.
    pub fn identity_insert_elsewhere(on: &str, table: &str) -> SqlError {
        SqlError::generic(
            8107,
            16,
            format!("IDENTITY_INSERT is already ON for table '{DATABASE}.dbo.{on}'. Cannot perform SET operation for table '{table}'."),
        )
    }

    /// An INSERT under IDENTITY_INSERT ON whose column list leaves the identity out.
    pub fn identity_value_required(table: &str) -> SqlError {
        SqlError::generic(
            545,
            16,
            format!("Explicit value must be specified for identity column in table '{table}' either when IDENTITY_INSERT is set to ON or when a replication user is inserting into a NOT FOR REPLICATION identity column."),
        )
    }

    /// An INSERT without a column list under IDENTITY_INSERT ON.
    pub fn identity_needs_column_list(table: &str) -> SqlError {
        SqlError::generic(
            8101,
            16,
            format!("An explicit value for the identity column in table '{table}' can only be specified when a column list is used and IDENTITY_INSERT is ON."),
        )
    }

    /// A serializable transaction cancelled because it would close a dangerous
    /// structure of read/write dependencies (serializable snapshot isolation).
    /// No SQL Server number: only a dialect with a SQLSTATE raises it, under a number of
    /// the executor's own (which PL/pgSQL's `serialization_failure` condition names).
    pub fn serialization_failure() -> SqlError {
        SqlError::new(
            RW_DEPENDENCY_FAILURE,
            16,
            "could not serialize access due to read/write dependencies among transactions".into(),
            AbortScope::BatchAndTransaction,
        )
    }

    pub fn snapshot_update_conflict(table: &str) -> SqlError {
        SqlError::new(
            3960,
            16,
            format!("Snapshot isolation transaction aborted due to update conflict. You cannot use snapshot isolation to access table 'dbo.{table}' directly or indirectly in database '{DATABASE}' to update, delete, or insert the row that has been modified or deleted by another transaction. Retry the transaction or change the isolation level for the update/delete statement."),
            AbortScope::BatchAndTransaction,
        )
        .with_state(2)
    }

    /// Msg 1934: a write to a table with a filtered index under the wrong SET options.
    pub fn set_options(verb: &str, options: &str) -> SqlError {
        SqlError::new(
            1934,
            16,
            format!("{verb} failed because the following SET options have incorrect settings: '{options}'. Verify that SET options are correct for use with indexed views and/or indexes on computed columns and/or filtered indexes and/or query notifications and/or XML data type methods and/or spatial index operations."),
            AbortScope::Statement,
        )
    }

    pub fn throw_outside_catch() -> SqlError {
        SqlError::new(
            10704,
            15,
            "To rethrow an error, a THROW statement must be used inside a CATCH block. Insert the THROW statement inside a CATCH block, or add error parameters to the THROW statement.".into(),
            AbortScope::Compile,
        )
    }

    /// `THROW number, message, state`: always severity 16 (semantics.md A10).
    pub fn thrown(number: u32, message: String, state: u8) -> SqlError {
        SqlError::new(number, 16, message, AbortScope::Batch).with_state(state)
    }

    /// RAISERROR does not honour XACT_ABORT and never aborts the batch by itself.
    pub fn raised(number: u32, severity: u8, state: u8, message: String) -> SqlError {
        SqlError {
            ignores_xact_abort: true,
            ..SqlError::new(number, severity, message, AbortScope::Statement).with_state(state)
        }
    }

    pub fn runaway(limit: u64) -> SqlError {
        SqlError::new(
            0,
            16,
            format!("simulation stopped this session: it ran more than {limit} statements (a loop that never ends?)"),
            AbortScope::Session,
        )
    }

    /// A valid construct the simulator does not model, found at run time.
    /// A limit of the simulator that no SQL can catch: `what` says which and how far.
    pub fn limit(what: String) -> SqlError {
        SqlError::new(
            0,
            16,
            format!("simulation stopped this session: {what}"),
            AbortScope::Session,
        )
    }

    /// Msg 191: a query nested deeper than the simulator follows.
    pub fn nested_too_deeply() -> SqlError {
        SqlError::new(
            191,
            15,
            "Some part of your SQL statement is nested too deeply. Rewrite the query or break it up into smaller queries.".into(),
            AbortScope::Statement,
        )
    }

    /// Msg 217: procedures, triggers and functions nest at most 32 deep.
    pub fn nesting_exceeded() -> SqlError {
        SqlError::new(
            217,
            16,
            "Maximum stored procedure, function, trigger, or view nesting level exceeded (limit 32).".into(),
            AbortScope::BatchAndTransaction,
        )
    }

    /// Msg 530: a recursive CTE recursed more than MAXRECURSION (100) levels.
    pub fn max_recursion(limit: u32) -> SqlError {
        SqlError::new(
            530,
            16,
            format!("The statement terminated. The maximum recursion {limit} has been exhausted before statement completion."),
            AbortScope::Statement,
        )
    }

    pub fn not_simulated(what: &str) -> SqlError {
        SqlError::new(
            UNNUMBERED,
            16,
            format!("not simulated: {what}"),
            AbortScope::Compile,
        )
    }

    /// Arithmetic on a boolean, which has none: 42883 in the words of the one dialect
    /// with booleans (`left` and `right` are the operands' types as it names them).
    pub fn no_operator(op: sql::ast::BinaryOp, left: &str, right: &str) -> SqlError {
        let op = sql::binary_symbol(op);
        SqlError::generic(
            0,
            16,
            format!("operator does not exist: {left} {op} {right}"),
        )
        .with_sqlstate("42883")
    }

    pub fn generic(number: u32, severity: u8, message: impl Into<String>) -> SqlError {
        SqlError::new(number, severity, message.into(), AbortScope::Statement)
    }

    pub fn info(&self) -> crate::error::SqlErrorInfo {
        crate::error::SqlErrorInfo {
            number: self.number,
            severity: self.severity,
            state: self.state,
            message: self.message.clone(),
            caught: false,
            sqlstate: self.sqlstate,
            at: None,
        }
    }

    /// `x.id` where no table or alias of the query is `x` (Msg 4104).
    pub fn unbound_identifier(name: &sql::ast::ObjectName) -> SqlError {
        let text: Vec<&str> = name.parts.iter().map(|p| p.value.as_str()).collect();
        SqlError::new(
            4104,
            16,
            format!(
                "The multi-part identifier \"{}\" could not be bound.",
                text.join(".")
            ),
            AbortScope::Compile,
        )
        .pointing(name.span.start)
    }

    /// The error pointing at byte `offset` of the statement's script (see `offset`).
    pub fn pointing(mut self, offset: usize) -> SqlError {
        self.offset = Some(offset);
        self
    }

    /// `ORDER BY n` where the select list has fewer than `n` items (108).
    pub fn order_position(n: i64) -> SqlError {
        SqlError::new(
            108,
            16,
            format!("The ORDER BY position number {n} is out of range of the number of items in the select list."),
            AbortScope::Compile,
        )
    }

    /// An INSERT whose rows have more (`more_values`) or fewer values than the columns
    /// it names (110, 109), or than the table has when it names none (213).
    pub fn insert_count_mismatch(named: bool, more_values: bool) -> SqlError {
        match (named, more_values) {
            (false, _) => SqlError::generic(
                213,
                16,
                "Column name or number of supplied values does not match table definition.",
            ),
            (true, true) => SqlError::generic(
                110,
                15,
                "There are fewer columns in the INSERT statement than values specified in the VALUES clause. The number of values in the VALUES clause must match the number of columns specified in the INSERT statement.",
            ),
            (true, false) => SqlError::generic(
                109,
                15,
                "There are more columns in the INSERT statement than values specified in the VALUES clause. The number of values in the VALUES clause must match the number of columns specified in the INSERT statement.",
            ),
        }
    }

    /// A column outside an aggregate that the query does not group by, in the select
    /// list (8120) or HAVING (8121); `name` is `binding.column`.
    pub fn not_grouped(name: &str, having: bool) -> SqlError {
        let (number, clause) = if having {
            (8121, "HAVING clause")
        } else {
            (8120, "select list")
        };
        SqlError::new(
            number,
            16,
            format!(
                "Column '{name}' is invalid in the {clause} because it is not contained in \
                 either an aggregate function or the GROUP BY clause."
            ),
            AbortScope::Compile,
        )
    }

    /// PL/pgSQL's `INTO STRICT` of no row (P0002); the number is the one the parser gives
    /// the condition `no_data_found`.
    pub fn strict_no_rows() -> SqlError {
        SqlError::generic(100_002, 16, "query returned no rows").with_sqlstate("P0002")
    }

    /// `INTO` of more than one row where one is wanted: `INTO STRICT`, or `RETURNING ...
    /// INTO` (P0003, the condition `too_many_rows`).
    pub fn too_many_rows() -> SqlError {
        SqlError::generic(100_003, 16, "query returned more than one row").with_sqlstate("P0003")
    }

    /// `COMMIT AND CHAIN` or `ROLLBACK AND CHAIN` with no transaction block open (25P01).
    pub fn chain_outside_block(verb: &str) -> SqlError {
        SqlError::new(
            0,
            16,
            format!("{verb} AND CHAIN can only be used in transaction blocks"),
            AbortScope::Statement,
        )
        .with_sqlstate("25P01")
    }

    /// A write or COMMIT in an uncommittable (doomed) transaction.
    pub fn uncommittable() -> SqlError {
        SqlError::new(
            3930,
            16,
            "The current transaction cannot be committed and cannot support operations that write to the log file. Roll back the transaction.".into(),
            AbortScope::Statement,
        )
    }

    /// A procedure returned with another @@TRANCOUNT than it began with. A message to
    /// the client that does not change what runs: no XACT_ABORT, nothing rolled back.
    pub fn trancount_mismatch(previous: u32, current: u32) -> SqlError {
        SqlError {
            ignores_xact_abort: true,
            ..SqlError::new(
                266,
                16,
                format!("Transaction count after EXECUTE indicates a mismatching number of BEGIN and COMMIT statements. Previous count = {previous}, current count = {current}."),
                AbortScope::Statement,
            )
            .with_state(2)
        }
    }

    /// A batch that ends with its transaction uncommittable: the server rolls it back.
    pub fn uncommittable_at_batch_end() -> SqlError {
        SqlError::new(
            3998,
            16,
            "Uncommittable transaction is detected at the end of the batch. The transaction is rolled back.".into(),
            AbortScope::Statement,
        )
    }

    /// A transaction block that failed refuses every statement but its end (25P02).
    pub fn transaction_aborted() -> SqlError {
        SqlError::new(
            0,
            16,
            "current transaction is aborted, commands ignored until end of transaction block"
                .into(),
            AbortScope::Statement,
        )
        .with_sqlstate("25P02")
    }

    /// COMMIT or ROLLBACK in a routine that may not end its transaction: a procedure
    /// called inside a transaction block, or a function (2D000).
    pub fn invalid_transaction_termination() -> SqlError {
        SqlError::new(
            0,
            16,
            "invalid transaction termination".to_string(),
            AbortScope::Statement,
        )
        .with_sqlstate("2D000")
    }

    /// COMMIT or ROLLBACK (`what`: "commit", "roll back") inside a block with an
    /// exception handler, which runs as a subtransaction (2D000).
    pub fn end_in_subtransaction(what: &str) -> SqlError {
        SqlError::new(
            0,
            16,
            format!("cannot {what} while a subtransaction is active"),
            AbortScope::Statement,
        )
        .with_sqlstate("2D000")
    }

    /// The error as a dialect without severity or state shows it.
    pub fn without_severity(mut self) -> SqlError {
        self.severity = NO_SEVERITY;
        self.state = 0;
        self
    }

    pub fn with_sqlstate(mut self, code: &'static str) -> SqlError {
        self.sqlstate = Some(code);
        self
    }

    /// The error's code as its dialect shows it: the SQLSTATE (`40001`) where the dialect
    /// numbers errors so, else the number (`2601`).
    pub fn code(&self) -> String {
        error_code(self.number, self.sqlstate)
    }
}

/// The `severity` of an error in a dialect that has no severity or state.
/// SQL Server's errors are severity 11 or more (10 and below are messages, never
/// errors), so 0 marks "none" without a second field.
pub const NO_SEVERITY: u8 = 0;

/// The text of `message` between `from` and the last `to` after it (a value that may
/// hold `to` itself, as a quoted text may hold quotes).
pub(crate) fn between<'m>(message: &'m str, from: &str, to: &str) -> Option<&'m str> {
    let rest = &message[message.find(from)? + from.len()..];
    Some(&rest[..rest.rfind(to)?])
}

/// The text between `prefix` and the next `'` in a message (a name a dialect's own
/// wording of the error repeats).
pub(crate) fn quoted_after<'a>(message: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = &message[message.find(prefix)? + prefix.len()..];
    Some(&rest[..rest.find('\'')?])
}

/// An error's code as its dialect shows it (see [`SqlError::code`]). An error without a
/// number (what the engine does not simulate, and rules whose number our sources do not
/// give: `number` 0) says so, rather than "error 0", which reads like success.
pub fn error_code(number: u32, sqlstate: Option<&str>) -> String {
    match sqlstate {
        Some(code) => code.to_string(),
        None if number == UNNUMBERED => NO_NUMBER.to_string(),
        None => number.to_string(),
    }
}

/// The `number` of an error that has none to show (see [`error_code`]).
pub const UNNUMBERED: u32 = 0;

/// The executor's number for serializable snapshot isolation's failure (40001 with
/// read/write dependencies), which SQL Server has no number for.
pub const RW_DEPENDENCY_FAILURE: u32 = 100_001;

/// The number of a foreign key's violation (23503 where errors have SQLSTATEs), which
/// PL/pgSQL's `EXCEPTION WHEN foreign_key_violation` catches; no other error has it.
pub const FOREIGN_KEY_VIOLATION: u32 = 100_004;

/// How the trace shows an error without a number in place of its code.
pub const NO_NUMBER: &str = "(no number)";

impl SqlErrorInfo {
    /// The error's code as its dialect shows it (see [`SqlError::code`]).
    pub fn code(&self) -> String {
        error_code(self.number, self.sqlstate)
    }

    /// The simulator's refusal of SQL it does not model ([`SqlError::not_simulated`]),
    /// met only as the statement ran: no error a server would raise.
    pub fn is_not_simulated(&self) -> bool {
        self.number == UNNUMBERED && self.message.starts_with("not simulated: ")
    }

    /// Whether the dialect shows a severity and state beside the number (SQL Server's
    /// `Msg 515, Level 16, State 2`); other dialects show none.
    pub fn has_severity(&self) -> bool {
        self.sqlstate.is_none() && self.severity != NO_SEVERITY && self.number != UNNUMBERED
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlErrorInfo {
    pub number: u32,
    pub severity: u8,
    pub state: u8,
    pub message: String,
    /// A TRY block caught it: the script handled the error.
    pub caught: bool,
    /// The SQLSTATE, in a dialect that numbers errors so.
    pub sqlstate: Option<&'static str>,
    /// Where the statement that raised it begins, in its script: the setup's (a
    /// procedure it created) or a session's. `None` outside a statement.
    pub at: Option<ErrorAt>,
}

/// A statement's place in a scenario's script: 1-based line and column (characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorAt {
    /// The session whose script it is in; `None`, the setup's.
    pub session: Option<usize>,
    pub line: u32,
    pub col: u32,
}
