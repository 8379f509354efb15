//! Teradata: requests, SELECT AND CONSUME, the LOCKING modifier, transaction control,
//! INSERT/UPDATE/DELETE/MERGE in Teradata's forms, CREATE TABLE with queue-table options,
//! and Teradata's data types. Queries, expressions and assignments are parsed by the code
//! shared with T-SQL, which asks `self.teradata()` where the dialects differ.

use super::dml::aliased_target;
use super::expr::call_in_item;
use super::{PResult, Parser};
use crate::ast::{
    Batch, ColumnDef, CreateTable, DataType, Delete, Expr, ExprKind, Ident, Insert, InsertSource,
    Len, Literal, LockSeverity, LockingClause, LockingObject, PrimaryIndex, SelectAndConsume,
    SelectItem, Span, Stmt, StmtKind, TableConstraintKind, TableFactor, TableOption, TeradataTxn,
    Update,
};
use crate::lexer::Tok;
use crate::ParseError;

/// Words that begin a statement the LOCKING modifier can apply to.
const LOCKABLE: &[&str] = &[
    "SELECT", "SEL", "INSERT", "INS", "UPDATE", "UPD", "DELETE", "DEL", "MERGE", "WITH",
];

/// T-SQL statements, reported as T-SQL syntax in a Teradata script.
const TSQL_STATEMENTS: &[&str] = &[
    "DECLARE",
    "IF",
    "WHILE",
    "RETURN",
    "BREAK",
    "CONTINUE",
    "WAITFOR",
    "THROW",
    "RAISERROR",
    "PRINT",
    "TRUNCATE",
    "GO",
    "USE",
    "SAVE",
    "GOTO",
    "DEALLOCATE",
];

/// Valid Teradata statements the simulator does not model.
const NOT_SIMULATED: &[&str] = &[
    "ALTER",
    "CALL",
    "CHECKPOINT",
    "COLLECT",
    "COMMENT",
    "DATABASE",
    "DUMP",
    "ECHO",
    "EXPLAIN",
    "GIVE",
    "GRANT",
    "HELP",
    "MODIFY",
    "RENAME",
    "REPLACE",
    "REVOKE",
    "SHOW",
];

/// Objects of CREATE other than TABLE that Teradata has and the simulator does not model.
const NOT_SIMULATED_CREATE: &[&str] = &[
    "VIEW",
    "RECURSIVE",
    "MACRO",
    "PROCEDURE",
    "FUNCTION",
    "INDEX",
    "UNIQUE",
    "JOIN",
    "HASH",
    "TRIGGER",
    "DATABASE",
    "USER",
    "ROLE",
    "PROFILE",
    "TYPE",
    "VOLATILE",
    "GLOBAL",
];

/// Table options of CREATE TABLE that Teradata has and the simulator does not model.
const NOT_SIMULATED_TABLE_OPTIONS: &[&str] = &[
    "DUAL",
    "LOCAL",
    "NOT",
    "JOURNAL",
    "WITH",
    "LOG",
    "CHECKSUM",
    "FREESPACE",
    "DATABLOCKSIZE",
    "MINIMUM",
    "MAXIMUM",
    "DEFAULT",
    "MERGEBLOCKRATIO",
    "BLOCKCOMPRESSION",
    "MAP",
    "ISOLATED",
];

/// Column attributes Teradata has and the simulator does not model.
const NOT_SIMULATED_COLUMN_ATTRIBUTES: &[&str] = &[
    "FORMAT",
    "TITLE",
    "COMPRESS",
    "NAMED",
    "UPPERCASE",
    "UC",
    "GENERATED",
    "REFERENCES",
    "FOREIGN",
    "WITH",
];

/// Aggregate and ordered analytic functions, not allowed in SELECT AND CONSUME.
const AGGREGATES: &[&str] = &[
    "AVE",
    "AVERAGE",
    "AVG",
    "CORR",
    "COUNT",
    "COVAR_POP",
    "COVAR_SAMP",
    "CSUM",
    "MAVG",
    "MAX",
    "MAXIMUM",
    "MDIFF",
    "MIN",
    "MINIMUM",
    "MSUM",
    "PERCENT_RANK",
    "QUANTILE",
    "RANK",
    "ROW_NUMBER",
    "STDDEV_POP",
    "STDDEV_SAMP",
    "SUM",
    "VAR_POP",
    "VAR_SAMP",
];

impl Parser<'_> {
    /// The requests of a Teradata script: a `;` that ends its line ends the request (see
    /// [`crate::parse_script`]). Statements must be separated by `;`.
    pub(crate) fn requests(&mut self) -> PResult<Vec<Batch>> {
        let mut requests = Vec::new();
        let mut statements = Vec::new();
        let mut start = None;
        while !self.at_eof() {
            let first = *start.get_or_insert(self.cur_start());
            let semi = if self.at(Tok::Semi) {
                let span = self.advance();
                statements.push(Stmt {
                    kind: StmtKind::Empty,
                    span: span.clone(),
                });
                Some(span)
            } else {
                statements.push(self.statement()?);
                if self.at(Tok::Semi) {
                    Some(self.advance())
                } else if self.at_eof() {
                    None
                } else if self.kw_at(0, "GO") {
                    return Err(self.tsql_syntax("GO", self.cur_span()));
                } else {
                    return Err(self.unexpected());
                }
            };
            self.top_level_count += 1;
            if semi.is_none_or(|s| self.request_ends_after(s.end)) {
                requests.push(Batch {
                    statements: std::mem::take(&mut statements),
                    span: first..self.prev_end(),
                });
                start = None;
            }
        }
        if let Some(e) = self.lex_error.take() {
            return Err(e);
        }
        Ok(requests)
    }

    /// Whether a `;` ending at `end` is the last token of its line.
    fn request_ends_after(&self, end: usize) -> bool {
        match self.tok_at(0) {
            None => true,
            Some(next) => self.src[end..next.start].contains('\n'),
        }
    }

    /// Dispatches a Teradata statement on its first word.
    pub(super) fn teradata_statement_kind(&mut self) -> PResult<StmtKind> {
        if self.kind_at(0) == Some(Tok::Dot) && self.kind_at(1) == Some(Tok::Word) {
            let start = self.cur_start();
            let line = self.src[start..].lines().next().unwrap_or("");
            let span = start..start + line.trim_end().len();
            return Err(self.not_simulated(span, "BTEQ commands"));
        }
        let word = match self.tok_at(0) {
            Some(t) if t.kind == Tok::Word => self.text(t).to_ascii_uppercase(),
            _ => return Err(self.no_statement()),
        };
        match word.as_str() {
            "SELECT" | "SEL" => self.teradata_select(),
            "WITH" => self.teradata_with(),
            "INSERT" | "INS" => Ok(StmtKind::Insert(self.teradata_insert()?)),
            "UPDATE" | "UPD" => Ok(StmtKind::Update(self.teradata_update()?)),
            "DELETE" | "DEL" => Ok(StmtKind::Delete(self.teradata_delete()?)),
            "MERGE" => Ok(StmtKind::Merge(self.merge()?)),
            "LOCKING" | "LOCK" => self.locking(),
            "BT" | "ET" | "BEGIN" | "END" | "COMMIT" | "ROLLBACK" | "ABORT" => {
                self.teradata_txn(&word)
            }
            "CREATE" | "CT" => self.teradata_create(&word),
            "DROP" => self.teradata_drop(),
            _ => Err(self.teradata_statement_error(&word)),
        }
    }

    /// A word that does not begin a simulated Teradata statement: name what it is, if we know.
    #[inline(never)]
    fn teradata_statement_error(&mut self, word: &str) -> ParseError {
        let span = self.cur_span();
        let next_end = self.tok_at(1).map_or(span.end, |t| t.end);
        match word {
            "SET" => {
                let teradata_set = ["SESSION", "ROLE", "QUERY_BAND", "TIME"]
                    .iter()
                    .any(|w| self.kw_at(1, w));
                if teradata_set {
                    let what = format!("SET {}", self.word_at(1).unwrap_or_default());
                    self.not_simulated(span.start..next_end, &what)
                } else {
                    self.tsql_syntax("SET", span)
                }
            }
            "EXEC" | "EXECUTE" => self.not_simulated(span, "macros (EXEC)"),
            "OPEN" | "FETCH" | "CLOSE" => self.not_simulated(span, "cursors"),
            w if TSQL_STATEMENTS.contains(&w) => self.tsql_syntax(w, span),
            w if NOT_SIMULATED.contains(&w) => self.not_simulated(span, w),
            _ => self.no_statement(),
        }
    }

    // ---- queries ------------------------------------------------------------------------

    fn teradata_select(&mut self) -> PResult<StmtKind> {
        // No select list starts with AND: `SELECT AND` is SELECT AND CONSUME, and a
        // mistake after AND is reported there.
        if self.kw_at(1, "AND") {
            return Ok(StmtKind::SelectAndConsume(self.select_and_consume()?));
        }
        Ok(StmtKind::Select(self.select_query()?))
    }

    fn teradata_with(&mut self) -> PResult<StmtKind> {
        if self.kw_at(1, "RECURSIVE") {
            let span = self.cur_start()..self.tok_at(1).map_or(self.eof, |t| t.end);
            return Err(self.not_simulated(span, "WITH RECURSIVE"));
        }
        Ok(StmtKind::Select(self.select_query()?))
    }

    /// `SELECT AND CONSUME TOP 1 items FROM queue [[AS] alias]`, with Teradata's rules.
    pub(super) fn select_and_consume(&mut self) -> PResult<SelectAndConsume> {
        let start = self.advance().start; // SELECT or SEL
        self.advance(); // AND
        self.expect_kw("CONSUME")?;
        self.note("TOP");
        if !self.kw_at(0, "TOP") {
            if self.at_eof() {
                return Err(self.unexpected());
            }
            return Err(ParseError::new(
                self.cur_span(),
                "SELECT AND CONSUME requires TOP 1",
            ));
        }
        let top = self.top(true)?;
        if !matches!(top.count.kind, ExprKind::Literal(Literal::Int(1))) {
            return Err(ParseError::new(
                top.span,
                "SELECT AND CONSUME allows only TOP 1",
            ));
        }
        if top.percent || top.with_ties {
            return Err(ParseError::new(
                top.span,
                "SELECT AND CONSUME allows only TOP 1, without PERCENT or WITH TIES",
            ));
        }
        let mut items = vec![self.select_item(false)?];
        while self.eat(Tok::Comma) {
            items.push(self.select_item(false)?);
        }
        if let Some(span) = items.iter().find_map(aggregate_in_item) {
            return Err(ParseError::new(
                span,
                "SELECT AND CONSUME cannot use aggregate or ordered analytic functions",
            ));
        }
        self.expect_kw("FROM")?;
        let (queue, alias) = match self.table_factor()? {
            TableFactor::Table { name, alias, .. } => (name, alias),
            other => {
                return Err(ParseError::new(
                    other.span().clone(),
                    "SELECT AND CONSUME reads from one queue table, not from a derived table",
                ))
            }
        };
        let span = start..self.prev_end();
        self.after_consume()?;
        Ok(SelectAndConsume {
            items,
            queue,
            alias,
            span,
        })
    }

    /// Clauses that cannot follow SELECT AND CONSUME: Teradata's rules, as errors.
    fn after_consume(&self) -> PResult<()> {
        let span = self.cur_span();
        let rule = match (self.kind_at(0), self.word_at(0).as_deref()) {
            (Some(Tok::Comma), _) => "SELECT AND CONSUME cannot join tables",
            (_, Some("WHERE")) => "SELECT AND CONSUME cannot have a WHERE clause",
            (_, Some("GROUP")) => "SELECT AND CONSUME cannot have a GROUP BY clause",
            (_, Some("HAVING")) => "SELECT AND CONSUME cannot have a HAVING clause",
            (_, Some("QUALIFY")) => "SELECT AND CONSUME cannot have a QUALIFY clause",
            (_, Some("SAMPLE")) => "SELECT AND CONSUME cannot have a SAMPLE clause",
            (_, Some("ORDER")) => {
                "SELECT AND CONSUME cannot have an ORDER BY clause: it always takes the row with the oldest QITS"
            }
            (_, Some("JOIN" | "INNER" | "LEFT" | "RIGHT" | "FULL" | "CROSS")) => {
                "SELECT AND CONSUME cannot join tables"
            }
            (_, Some("UNION" | "EXCEPT" | "INTERSECT" | "MINUS")) => {
                "SELECT AND CONSUME cannot be used with a set operator"
            }
            _ => return Ok(()),
        };
        Err(ParseError::new(span, rule))
    }

    // ---- LOCKING --------------------------------------------------------------------------

    /// One or more `LOCKING ...` modifiers and the statement they modify, if any.
    fn locking(&mut self) -> PResult<StmtKind> {
        let mut locks = vec![self.locking_clause()?];
        while self.at_kw("LOCKING") || self.at_kw("LOCK") {
            locks.push(self.locking_clause()?);
        }
        if self.at(Tok::Semi) || self.at_eof() {
            return Ok(StmtKind::Locking { locks, stmt: None });
        }
        for w in ["SELECT", "INSERT", "UPDATE", "DELETE", "MERGE"] {
            self.note(w);
        }
        if !LOCKABLE.iter().any(|w| self.kw_at(0, w)) {
            return Err(self.unexpected());
        }
        let stmt = self.statement()?;
        Ok(StmtKind::Locking {
            locks,
            stmt: Some(Box::new(stmt)),
        })
    }

    /// `LOCKING {[TABLE] name | ROW} [FOR|IN] severity [MODE] [NOWAIT]`.
    fn locking_clause(&mut self) -> PResult<LockingClause> {
        let start = self.advance().start;
        let object = if self.eat_kw("ROW") {
            LockingObject::Row
        } else if self.kw_at(0, "DATABASE") || self.kw_at(0, "VIEW") {
            let what = format!("LOCKING {}", self.word_at(0).unwrap_or_default());
            return Err(self.not_simulated(start..self.cur_span().end, &what));
        } else {
            self.eat_kw("TABLE");
            LockingObject::Table(self.object_name()?)
        };
        if !self.eat_kw("FOR") {
            self.eat_kw("IN");
        }
        let severity_span = self.cur_span();
        for w in ["ACCESS", "READ", "SHARE", "WRITE", "EXCLUSIVE", "EXCL"] {
            self.note(w);
        }
        let severity = match self.word_at(0).as_deref() {
            Some("ACCESS") => LockSeverity::Access,
            Some("READ") if self.kw_at(1, "OVERRIDE") => {
                let span = severity_span.start..self.tok_at(1).map_or(self.eof, |t| t.end);
                return Err(self.not_simulated(span, "READ OVERRIDE"));
            }
            Some("READ" | "SHARE") => LockSeverity::Read,
            Some("WRITE") => LockSeverity::Write,
            Some("EXCLUSIVE" | "EXCL") => LockSeverity::Exclusive,
            Some("CHECKSUM") => return Err(self.not_simulated(severity_span, "CHECKSUM locks")),
            Some("LOAD") => return Err(self.not_simulated(severity_span, "LOAD COMMITTED locks")),
            _ => return Err(self.unexpected()),
        };
        self.advance();
        self.eat_kw("MODE");
        let nowait = self.eat_kw("NOWAIT");
        Ok(LockingClause {
            object,
            severity,
            nowait,
            span: start..self.prev_end(),
        })
    }

    // ---- transactions -------------------------------------------------------------------

    /// BT, ET, BEGIN/END TRANSACTION, COMMIT [WORK], ROLLBACK [WORK], ABORT.
    fn teradata_txn(&mut self, word: &str) -> PResult<StmtKind> {
        let first = self.advance();
        let next_span = |p: &Self| first.start..p.cur_span().end;
        let txn = match word {
            "BT" => TeradataTxn::Begin { abbreviated: true },
            "ET" => TeradataTxn::End { abbreviated: true },
            "BEGIN" => {
                for (kw, what) in [
                    ("TRY", "BEGIN TRY"),
                    ("CATCH", "BEGIN CATCH"),
                    ("TRAN", "BEGIN TRAN"),
                    ("DISTRIBUTED", "BEGIN DISTRIBUTED TRANSACTION"),
                ] {
                    if self.kw_at(0, kw) {
                        return Err(self.tsql_syntax(what, next_span(self)));
                    }
                }
                if !self.at_kw("TRANSACTION") {
                    if self.at_eof() || self.kind_at(0) == Some(Tok::Semi) {
                        return Err(self.unexpected());
                    }
                    return Err(self.tsql_syntax("BEGIN ... END blocks", first));
                }
                self.advance();
                TeradataTxn::Begin { abbreviated: false }
            }
            "END" => {
                self.expect_kw("TRANSACTION")?;
                TeradataTxn::End { abbreviated: false }
            }
            "COMMIT" | "ROLLBACK" => {
                if self.kw_at(0, "TRAN") || self.kw_at(0, "TRANSACTION") {
                    let what = format!("{word} TRANSACTION");
                    return Err(self.tsql_syntax(&what, next_span(self)));
                }
                let work = self.eat_kw("WORK");
                if word == "COMMIT" {
                    if self.kw_at(0, "RELEASE") {
                        return Err(self.not_simulated(self.cur_span(), "COMMIT RELEASE"));
                    }
                    TeradataTxn::Commit { work }
                } else {
                    self.conditional_abort(word)?;
                    TeradataTxn::Rollback { work }
                }
            }
            _ => {
                self.conditional_abort(word)?;
                TeradataTxn::Abort
            }
        };
        Ok(StmtKind::TeradataTxn(txn))
    }

    /// ABORT/ROLLBACK with a message, FROM or WHERE: a conditional abort, not simulated.
    fn conditional_abort(&self, word: &str) -> PResult<()> {
        let conditional =
            self.kind_at(0) == Some(Tok::Str) || self.kw_at(0, "FROM") || self.kw_at(0, "WHERE");
        if conditional {
            let what = format!("{word} with a message or a condition");
            return Err(self.not_simulated(self.cur_span(), &what));
        }
        Ok(())
    }

    // ---- DML --------------------------------------------------------------------------------

    /// `INS[ERT] [INTO] t [(columns)] {VALUES (row) | (row) | SELECT ... |
    /// SELECT AND CONSUME ... | DEFAULT VALUES}`.
    fn teradata_insert(&mut self) -> PResult<Insert> {
        let kw = self.advance();
        if self.kw_at(0, "TOP") {
            return Err(self.tsql_syntax("INSERT TOP", kw.start..self.cur_span().end));
        }
        self.eat_kw("INTO");
        let target = self.teradata_dml_table()?;
        let insert = |columns, source| Insert {
            ctes: Vec::new(),
            top: None,
            target: target.clone(),
            columns,
            output: None,
            source,
            on_conflict: None,
        };
        let mut columns = Vec::new();
        if self.at(Tok::LParen) && !self.select_at(1) {
            if self.column_list_follows() {
                columns = self.ident_list_in_parens()?;
            } else {
                // Teradata's INSERT without VALUES: the list is the row.
                let row = self.values_row()?;
                return Ok(insert(columns, InsertSource::Values(vec![row])));
            }
        }
        if self.kw_at(0, "OUTPUT") {
            return Err(self.tsql_syntax("OUTPUT", self.cur_span()));
        }
        let source = if self.eat_kw("VALUES") {
            let row = self.values_row()?;
            if self.kind_at(0) == Some(Tok::Comma) && self.kind_at(1) == Some(Tok::LParen) {
                let span = self.cur_start()..self.tok_at(1).map_or(self.eof, |t| t.end);
                return Err(ParseError::new(
                    span,
                    "a Teradata INSERT ... VALUES inserts one row: write one INSERT per row",
                ));
            }
            InsertSource::Values(vec![row])
        } else if self.at_select() {
            if self.kw_at(1, "AND") {
                InsertSource::SelectAndConsume(Box::new(self.select_and_consume()?))
            } else {
                InsertSource::Select(Box::new(self.select_query()?))
            }
        } else if self.at_kw("WITH") {
            InsertSource::Select(Box::new(self.select_query()?))
        } else if self.at_kw("DEFAULT") {
            self.advance();
            self.expect_kw("VALUES")?;
            InsertSource::DefaultValues
        } else if self.kw_at(0, "EXEC") || self.kw_at(0, "EXECUTE") {
            return Err(self.tsql_syntax("INSERT ... EXEC", self.cur_span()));
        } else {
            return Err(self.unexpected());
        };
        Ok(insert(columns, source))
    }

    /// The table of INSERT: a name; T-SQL's `WITH (hints)` is reported.
    fn teradata_dml_table(&mut self) -> PResult<TableFactor> {
        let start = self.cur_start();
        let name = self.object_name()?;
        if self.kw_at(0, "WITH") && self.kind_at(1) == Some(Tok::LParen) {
            let with = self.advance();
            self.table_hints(with.start)?;
        }
        Ok(TableFactor::Table {
            name,
            alias: None,
            hints: Vec::new(),
            span: start..self.prev_end(),
        })
    }

    /// Whether `(a, b)` at the current token is a column list: plain names followed by
    /// VALUES or a query (quiet). Otherwise it is a row, as in `INS q (1, 'x')`.
    fn column_list_follows(&self) -> bool {
        let mut n = 1;
        loop {
            if !self.ident_at(n) {
                return false;
            }
            match self.kind_at(n + 1) {
                Some(Tok::Comma) => n += 2,
                Some(Tok::RParen) => {
                    return self.kw_at(n + 2, "VALUES")
                        || self.select_at(n + 2)
                        || self.kw_at(n + 2, "WITH")
                }
                _ => return false,
            }
        }
    }

    /// `(a, b, ...)`: one row of values.
    pub(super) fn values_row(&mut self) -> PResult<Vec<Expr>> {
        self.expect(Tok::LParen)?;
        let mut row = vec![self.expr()?];
        while self.eat(Tok::Comma) {
            row.push(self.expr()?);
        }
        self.expect(Tok::RParen)?;
        Ok(row)
    }

    /// `UPD[ATE] t [[AS] alias] [FROM tables] SET ... [WHERE ...]`. A table with an alias
    /// becomes `UPDATE alias FROM t AS alias`, the form T-SQL trees already have.
    fn teradata_update(&mut self) -> PResult<Update> {
        let kw = self.advance();
        if self.kw_at(0, "TOP") {
            return Err(self.tsql_syntax("UPDATE TOP", kw.start..self.cur_span().end));
        }
        let start = self.cur_start();
        let name = self.object_name()?;
        let table = self.teradata_table_factor(name, start)?;
        let (target, mut from) = aliased_target(table);
        if self.eat_kw("FROM") {
            from.extend(self.table_refs()?);
        }
        self.expect_kw("SET")?;
        let mut assignments = vec![self.assignment()?];
        while self.eat(Tok::Comma) {
            assignments.push(self.assignment()?);
        }
        if self.kw_at(0, "OUTPUT") {
            return Err(self.tsql_syntax("OUTPUT", self.cur_span()));
        }
        if self.kw_at(0, "FROM") {
            return Err(self.tsql_syntax("FROM after SET", self.cur_span()));
        }
        let where_clause = self.where_clause()?;
        if self.kw_at(0, "ELSE") && self.kw_at(1, "INSERT") {
            let span = self.cur_start()..self.tok_at(1).map_or(self.eof, |t| t.end);
            return Err(self.not_simulated(span, "atomic upsert (UPDATE ... ELSE INSERT)"));
        }
        Ok(Update {
            ctes: Vec::new(),
            top: None,
            target,
            assignments,
            output: None,
            from,
            where_clause,
        })
    }

    /// `DEL[ETE] [name] FROM tables [WHERE ... | ALL]`, `DELETE name [WHERE ... | ALL]`, and
    /// `DELETE ALL FROM t` as Teradata's own example writes it.
    fn teradata_delete(&mut self) -> PResult<Delete> {
        let kw = self.advance();
        if self.kw_at(0, "TOP") {
            return Err(self.tsql_syntax("DELETE TOP", kw.start..self.cur_span().end));
        }
        if self.kw_at(0, "ALL") && self.kw_at(1, "FROM") {
            self.advance();
        }
        let (target, from) = if self.eat_kw("FROM") {
            let refs = self.table_refs()?;
            let first = refs[0].factor.clone();
            if matches!(
                first,
                TableFactor::Derived { .. } | TableFactor::Values { .. }
            ) {
                return Err(ParseError::new(
                    first.span().clone(),
                    "DELETE removes rows from a table, not from a derived table",
                ));
            }
            let (target, _) = aliased_target(first);
            let single = refs.len() == 1
                && refs[0].joins.is_empty()
                && matches!(refs[0].factor, TableFactor::Table { alias: None, .. });
            (target, if single { Vec::new() } else { refs })
        } else {
            let start = self.cur_start();
            let name = self.object_name()?;
            let target = TableFactor::Table {
                name,
                alias: None,
                hints: Vec::new(),
                span: start..self.prev_end(),
            };
            let from = if self.eat_kw("FROM") {
                self.table_refs()?
            } else {
                Vec::new()
            };
            (target, from)
        };
        if self.kw_at(0, "OUTPUT") {
            return Err(self.tsql_syntax("OUTPUT", self.cur_span()));
        }
        let where_clause = self.where_clause()?;
        if where_clause.is_none() {
            self.eat_kw("ALL");
        }
        Ok(Delete {
            ctes: Vec::new(),
            top: None,
            target,
            output: None,
            from,
            where_clause,
        })
    }

    // ---- DDL --------------------------------------------------------------------------------

    /// `CREATE [SET|MULTISET] TABLE ...` or `CT ...`.
    fn teradata_create(&mut self, word: &str) -> PResult<StmtKind> {
        let create = self.advance();
        let set_table = if word == "CT" {
            None
        } else {
            let set_table = if self.eat_kw("SET") {
                Some(true)
            } else if self.eat_kw("MULTISET") {
                Some(false)
            } else {
                None
            };
            let other = NOT_SIMULATED_CREATE.iter().any(|w| self.kw_at(0, w));
            if other {
                let what = format!("CREATE {}", self.word_at(0).unwrap_or_default());
                return Err(self.not_simulated(create.start..self.cur_span().end, &what));
            }
            self.expect_kw("TABLE")?;
            set_table
        };
        Ok(StmtKind::CreateTable(
            self.teradata_create_table(set_table)?,
        ))
    }

    /// After `TABLE`: `name [, QUEUE] [, option ...] (elements) [index definitions]`.
    fn teradata_create_table(&mut self, set_table: Option<bool>) -> PResult<CreateTable> {
        let name = self.object_name()?;
        let mut queue = false;
        let mut options = Vec::new();
        while self.eat(Tok::Comma) {
            let start = self.cur_start();
            if self.eat_kw("QUEUE") {
                if queue {
                    return Err(ParseError::new(
                        start..self.prev_end(),
                        "QUEUE given twice for the same table",
                    ));
                }
                queue = true;
                continue;
            }
            let enabled = !self.eat_kw("NO");
            let option = if self.eat_kw("FALLBACK") {
                self.eat_kw("PROTECTION");
                TableOption::Fallback(enabled)
            } else if self.eat_kw("BEFORE") {
                self.expect_kw("JOURNAL")?;
                TableOption::BeforeJournal(enabled)
            } else if self.eat_kw("AFTER") {
                self.expect_kw("JOURNAL")?;
                TableOption::AfterJournal(enabled)
            } else {
                return Err(self.table_option_error(start));
            };
            options.push(option);
        }
        let (columns, constraints) = self.table_elements()?;
        let primary_index = self.index_definitions()?;
        let table = CreateTable {
            name,
            columns,
            constraints,
            set_table,
            queue,
            options,
            primary_index,
            if_not_exists: false,
        };
        if table.queue {
            check_qits(&table)?;
        }
        Ok(table)
    }

    #[inline(never)]
    fn table_option_error(&mut self, start: usize) -> ParseError {
        match self.word_at(0) {
            Some(w) if NOT_SIMULATED_TABLE_OPTIONS.contains(&w.as_str()) => {
                let span = start..self.cur_span().end;
                self.not_simulated(span, &format!("table option {w}"))
            }
            _ => self.unexpected(),
        }
    }

    /// `[UNIQUE] PRIMARY INDEX [name] (columns)` after the column list; other index
    /// definitions are valid Teradata that the simulator does not model.
    fn index_definitions(&mut self) -> PResult<Option<PrimaryIndex>> {
        let mut primary_index: Option<PrimaryIndex> = None;
        loop {
            let index_word = ["UNIQUE", "PRIMARY", "INDEX", "NO", "PARTITION"]
                .iter()
                .any(|w| self.kw_at(1, w));
            if self.kind_at(0) == Some(Tok::Comma) && index_word {
                self.advance();
            }
            let start = self.cur_start();
            let not_simulated = if self.kw_at(0, "NO") && self.kw_at(1, "PRIMARY") {
                Some("NO PRIMARY INDEX tables")
            } else if self.kw_at(0, "INDEX") || (self.kw_at(0, "UNIQUE") && self.kw_at(1, "INDEX"))
            {
                Some("secondary indexes")
            } else if self.kw_at(0, "PARTITION") {
                Some("partitioned primary indexes (PARTITION BY)")
            } else if self.kw_at(0, "PRIMARY") && self.kw_at(1, "AMP") {
                Some("PRIMARY AMP INDEX")
            } else if self.kw_at(0, "ON") && self.kw_at(1, "COMMIT") {
                Some("ON COMMIT")
            } else {
                None
            };
            if let Some(what) = not_simulated {
                return Err(self.not_simulated(start..self.cur_span().end, what));
            }
            let unique = self.eat_kw("UNIQUE");
            if !unique && !self.at_kw("PRIMARY") {
                return Ok(primary_index);
            }
            self.expect_kw("PRIMARY")?;
            self.expect_kw("INDEX")?;
            let name = if self.ident_at(0) {
                Some(self.ident()?)
            } else {
                None
            };
            let columns = self.ident_list_in_parens()?;
            let span = start..self.prev_end();
            if primary_index.is_some() {
                return Err(ParseError::new(span, "a table has only one primary index"));
            }
            primary_index = Some(PrimaryIndex {
                unique,
                name,
                columns,
                span,
            });
        }
    }

    /// A column of a Teradata table: `name type [attributes]`.
    pub(super) fn teradata_column_def(&mut self) -> PResult<ColumnDef> {
        let start = self.cur_start();
        let name = self.ident()?;
        let ty = self.teradata_data_type()?;
        let mut col = ColumnDef {
            name,
            ty,
            nullable: None,
            identity: None,
            identity_always: false,
            default: None,
            primary_key: false,
            unique: false,
            clustered: None,
            check: None,
            references: None,
            span: 0..0,
        };
        loop {
            let attr_start = self.cur_start();
            if self.eat_kw("CONSTRAINT") {
                // Column constraint names are accepted and dropped: nothing refers to them.
                self.ident()?;
                if !["PRIMARY", "UNIQUE", "CHECK", "REFERENCES"]
                    .iter()
                    .any(|w| self.kw_at(0, w))
                {
                    self.note("PRIMARY");
                    self.note("UNIQUE");
                    self.note("CHECK");
                    return Err(self.unexpected());
                }
            }
            if self.at_kw("NOT") && self.kw_at(1, "NULL") {
                self.advance();
                self.advance();
                self.duplicate(col.nullable.is_some(), attr_start, "NULL/NOT NULL")?;
                col.nullable = Some(false);
            } else if self.kw_at(0, "NOT") && (self.kw_at(1, "CASESPECIFIC") || self.kw_at(1, "CS"))
            {
                // Case sensitivity of comparisons is not simulated: accepted and dropped.
                self.advance();
                self.advance();
            } else if self.eat_kw("NULL") {
                self.duplicate(col.nullable.is_some(), attr_start, "NULL/NOT NULL")?;
                col.nullable = Some(true);
            } else if self.eat_kw("DEFAULT") {
                let e = self.expr()?;
                self.duplicate(col.default.is_some(), attr_start, "DEFAULT")?;
                col.default = Some(e);
            } else if self.eat_kw("PRIMARY") {
                self.expect_kw("KEY")?;
                self.duplicate(col.primary_key, attr_start, "PRIMARY KEY")?;
                col.primary_key = true;
            } else if self.eat_kw("UNIQUE") {
                col.unique = true;
            } else if self.eat_kw("CHECK") {
                self.expect(Tok::LParen)?;
                col.check = Some(self.expr()?);
                self.expect(Tok::RParen)?;
            } else if self.kw_at(0, "CASESPECIFIC") || self.kw_at(0, "CS") {
                self.advance();
            } else if self.kw_at(0, "CHARACTER") && self.kw_at(1, "SET") {
                // The server character set (LATIN, UNICODE) is accepted and dropped.
                self.advance();
                self.advance();
                self.ident()?;
            } else if self.kw_at(0, "IDENTITY") {
                return Err(self.tsql_syntax("IDENTITY", self.cur_span()));
            } else if let Some(w) = self
                .word_at(0)
                .filter(|w| NOT_SIMULATED_COLUMN_ATTRIBUTES.contains(&w.as_str()))
            {
                let span = self.cur_span();
                return Err(self.not_simulated(span, &format!("column attribute {w}")));
            } else {
                break;
            }
        }
        col.span = start..self.prev_end();
        Ok(col)
    }

    /// A Teradata data type (see [`DataType`] for the mapping).
    pub(super) fn teradata_data_type(&mut self) -> PResult<DataType> {
        self.note("a data type");
        let span = self.cur_span();
        let name = match self.tok_at(0) {
            Some(t) if t.kind == Tok::Word => self.text(t).to_ascii_uppercase(),
            _ => return Err(self.unexpected()),
        };
        if self.kind_at(1) == Some(Tok::Dot) {
            return Err(self.not_simulated(span, "user-defined types"));
        }
        let ty = match name.as_str() {
            "BYTEINT" => DataType::ByteInt,
            "SMALLINT" => DataType::SmallInt,
            "INTEGER" | "INT" => DataType::Int,
            "BIGINT" => DataType::BigInt,
            "FLOAT" | "REAL" => DataType::Float,
            "DATE" => DataType::Date,
            "DOUBLE" => {
                self.advance();
                self.expect_kw("PRECISION")?;
                return Ok(DataType::Float);
            }
            "DECIMAL" | "DEC" | "NUMERIC" => {
                self.advance();
                let (mut precision, mut scale) = (5, 0);
                if self.eat(Tok::LParen) {
                    precision = self.small_number(1, 38, &name)?;
                    if self.eat(Tok::Comma) {
                        scale = self.small_number(0, precision, &name)?;
                    }
                    self.expect(Tok::RParen)?;
                }
                return Ok(DataType::Decimal {
                    precision: precision as u8,
                    scale: scale as u8,
                });
            }
            "CHAR" | "CHARACTER" | "VARCHAR" => {
                self.advance();
                let varying = name == "VARCHAR" || self.eat_kw("VARYING");
                let what = if varying { "VARCHAR" } else { "CHAR" };
                let len = if varying || self.at(Tok::LParen) {
                    self.expect(Tok::LParen)?;
                    let n = self.small_number(1, 64000, what)?;
                    self.expect(Tok::RParen)?;
                    n
                } else {
                    1
                };
                return Ok(if varying {
                    DataType::VarChar(Len::N(len))
                } else {
                    DataType::Char(len)
                });
            }
            "TIME" | "TIMESTAMP" => {
                self.advance();
                let p = if self.eat(Tok::LParen) {
                    let p = self.small_number(0, 6, &name)?;
                    self.expect(Tok::RParen)?;
                    p as u8
                } else {
                    6
                };
                if self.kw_at(0, "WITH") && self.kw_at(1, "TIME") {
                    let span = self.cur_start()..self.tok_at(1).map_or(self.eof, |t| t.end);
                    return Err(self.not_simulated(span, "WITH TIME ZONE"));
                }
                return Ok(if name == "TIME" {
                    DataType::Time(p)
                } else {
                    DataType::DateTime2(p)
                });
            }
            "NUMBER" | "CLOB" | "BLOB" | "BYTE" | "VARBYTE" | "GRAPHIC" | "VARGRAPHIC" | "LONG"
            | "INTERVAL" | "PERIOD" | "JSON" | "XML" | "ST_GEOMETRY" | "DATASET" | "ARRAY"
            | "VARRAY" => return Err(self.not_simulated(span, &format!("data type {name}"))),
            "TINYINT" | "BIT" | "MONEY" | "SMALLMONEY" | "NCHAR" | "NVARCHAR" | "DATETIME"
            | "DATETIME2" | "SMALLDATETIME" | "DATETIMEOFFSET" | "UNIQUEIDENTIFIER" | "SYSNAME"
            | "TEXT" | "NTEXT" | "IMAGE" | "BINARY" | "VARBINARY" | "SQL_VARIANT"
            | "ROWVERSION" | "HIERARCHYID" | "GEOGRAPHY" | "GEOMETRY" => {
                let found = &self.src[span.clone()];
                return Err(self.tsql_syntax(&format!("data type {found}"), span));
            }
            _ => {
                let found = &self.src[span.clone()];
                return Err(ParseError::new(
                    span.clone(),
                    format!("unknown data type '{found}'"),
                ));
            }
        };
        self.advance();
        Ok(ty)
    }

    /// `DROP TABLE name`; other DROPs are not simulated.
    fn teradata_drop(&mut self) -> PResult<StmtKind> {
        let drop = self.advance();
        if !self.at_kw("TABLE") {
            return match self.word_at(0) {
                Some(w) => {
                    let span = drop.start..self.cur_span().end;
                    Err(self.not_simulated(span, &format!("DROP {w}")))
                }
                None => Err(self.unexpected()),
            };
        }
        self.advance();
        if self.kw_at(0, "IF") {
            let span = drop.start..self.cur_span().end;
            return Err(self.not_simulated(span, "DROP TABLE IF EXISTS"));
        }
        let name = self.object_name()?;
        Ok(StmtKind::DropTable {
            names: vec![name],
            if_exists: false,
        })
    }
}

/// A queue table's first column is its QITS column, `TIMESTAMP(6) NOT NULL DEFAULT
/// CURRENT_TIMESTAMP(6)` (precision optional, but 6 when given), and it cannot be UNIQUE,
/// a PRIMARY KEY or a unique primary index.
fn check_qits(table: &CreateTable) -> PResult<()> {
    let Some(qits) = table.columns.first() else {
        return Err(ParseError::new(
            table.name.span.clone(),
            "a queue table needs a QITS column first",
        ));
    };
    let default_ok = matches!(
        &qits.default,
        Some(Expr { kind: ExprKind::Function { name, args, .. }, .. })
            if name == "CURRENT_TIMESTAMP"
                && (args.is_empty()
                    || matches!(args.as_slice(), [Expr { kind: ExprKind::Literal(Literal::Int(6)), .. }]))
    );
    if qits.ty != DataType::DateTime2(6) || qits.nullable != Some(false) || !default_ok {
        return Err(ParseError::new(
            qits.span.clone(),
            "a queue table's first column must be its QITS column: TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)",
        ));
    }
    let message = "the QITS column of a queue table cannot be UNIQUE, a PRIMARY KEY or a unique primary index";
    if qits.unique || qits.primary_key {
        return Err(ParseError::new(qits.span.clone(), message));
    }
    let only_qits = |names: &mut dyn Iterator<Item = &Ident>| {
        let names: Vec<&Ident> = names.collect();
        names.len() == 1 && names[0].value.eq_ignore_ascii_case(&qits.name.value)
    };
    for c in &table.constraints {
        let columns = match &c.kind {
            TableConstraintKind::PrimaryKey { columns, .. }
            | TableConstraintKind::Unique { columns, .. } => columns,
            TableConstraintKind::Check(_) | TableConstraintKind::ForeignKey(_) => continue,
        };
        if only_qits(&mut columns.iter().map(|c| &c.name)) {
            return Err(ParseError::new(c.span.clone(), message));
        }
    }
    if let Some(pi) = &table.primary_index {
        if pi.unique && only_qits(&mut pi.columns.iter()) {
            return Err(ParseError::new(pi.span.clone(), message));
        }
    }
    Ok(())
}

/// The span of an aggregate or ordered analytic function in a select item, if any.
fn aggregate_in_item(item: &SelectItem) -> Option<Span> {
    call_in_item(item, &|name, over| over || AGGREGATES.contains(&name))
}
