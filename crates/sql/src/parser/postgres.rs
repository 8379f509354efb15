//! PostgreSQL: the statements a worker sends through psql, mapped onto the common AST
//! where they mean the same (`LIMIT n` is a TOP, `RETURNING` an OUTPUT, `FOR UPDATE SKIP
//! LOCKED` row-lock hints on the tables it locks, `serial` an IDENTITY column).

use super::expr::call_in_item;
use super::{PResult, Parser};
use crate::ast::{
    DataType, Expr, ExprKind, HintKind, IsolationLevel, JoinKind, Len, Literal, ObjectName, Offset,
    Output, Select, SelectItem, SetOption, StmtKind, TableFactor, TableHint, Top,
};
use crate::lexer::{unquote_string, Tok};
use crate::ParseError;

/// T-SQL statements that a PostgreSQL script cannot contain.
const TSQL_STATEMENTS: &[&str] = &[
    "DECLARE",
    "IF",
    "WHILE",
    "EXEC",
    "EXECUTE",
    "WAITFOR",
    "PRINT",
    "RAISERROR",
    "THROW",
    "GO",
];

impl Parser<'_> {
    /// A statement of a PostgreSQL script.
    pub(super) fn postgres_statement_kind(&mut self) -> PResult<StmtKind> {
        let word = match self.tok_at(0) {
            Some(t) if t.kind == Tok::Word => self.text(t).to_ascii_uppercase(),
            _ => return Err(self.no_statement()),
        };
        match word.as_str() {
            "SELECT" => {
                let select = self.select_query()?;
                Ok(sleep_of(&select)
                    .or_else(|| super::plpgsql::routine_call(&select))
                    .unwrap_or(StmtKind::Select(select)))
            }
            "DO" => self.pg_do(),
            "CALL" => self.pg_call(),
            "CREATE" if self.pg_routine_at() => {
                self.advance();
                let or_replace = self.eat_kw("OR");
                if or_replace {
                    self.expect_kw("REPLACE")?;
                }
                self.pg_create_routine(or_replace)
            }
            "WITH" => self.with_statement(),
            "INSERT" => Ok(StmtKind::Insert(self.insert(Vec::new())?)),
            "UPDATE" => Ok(StmtKind::Update(self.update(Vec::new())?)),
            "DELETE" => Ok(StmtKind::Delete(self.delete(Vec::new())?)),
            "CREATE" => self.create(),
            "DROP" => self.drop(),
            "TRUNCATE" => self.truncate(),
            "BEGIN" | "START" => self.pg_begin(),
            "COMMIT" | "END" => {
                self.advance();
                self.pg_work();
                let chain = self.pg_chain()?;
                Ok(StmtKind::CommitTran { name: None, chain })
            }
            "ROLLBACK" | "ABORT" => {
                self.advance();
                self.pg_work();
                if word == "ROLLBACK" && self.eat_kw("TO") {
                    self.eat_kw("SAVEPOINT");
                    return Ok(StmtKind::RollbackToSavepoint(self.ident()?));
                }
                let chain = self.pg_chain()?;
                Ok(StmtKind::RollbackTran { name: None, chain })
            }
            "SAVEPOINT" => {
                self.advance();
                Ok(StmtKind::Savepoint(self.ident()?))
            }
            "RELEASE" => {
                self.advance();
                self.eat_kw("SAVEPOINT");
                Ok(StmtKind::ReleaseSavepoint(self.ident()?))
            }
            "SET" => self.pg_set(),
            "VACUUM" => self.pg_vacuum(),
            w if TSQL_STATEMENTS.contains(&w) => {
                let span = self.cur_span();
                Err(self.tsql_syntax(w, span))
            }
            "MERGE" | "LOCK" | "ANALYZE" | "PREPARE" | "LISTEN" | "NOTIFY" | "COPY"
            | "DECLARE CURSOR" | "FETCH" | "SHOW" | "RESET" | "EXPLAIN" | "ALTER" | "GRANT" => {
                let span = self.cur_span();
                Err(self.not_simulated(span, &word))
            }
            _ => Err(self.statement_error(&word)),
        }
    }

    /// `VACUUM [table [, ...]]`; its options (FULL, ANALYZE, ...) are not simulated.
    fn pg_vacuum(&mut self) -> PResult<StmtKind> {
        self.advance();
        let option = ["FULL", "FREEZE", "VERBOSE", "ANALYZE", "ANALYSE"]
            .iter()
            .any(|o| self.kw_at(0, o));
        if option || self.kind_at(0) == Some(Tok::LParen) {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "VACUUM options"));
        }
        let mut tables = Vec::new();
        if self.kind_at(0) == Some(Tok::Word) {
            tables.push(self.object_name()?);
            while self.eat(Tok::Comma) {
                tables.push(self.object_name()?);
            }
        }
        Ok(StmtKind::Vacuum(tables))
    }

    /// Whether `CREATE [OR REPLACE] FUNCTION | PROCEDURE` is at the cursor.
    fn pg_routine_at(&self) -> bool {
        let n = if self.kw_at(1, "OR") { 3 } else { 1 };
        self.kw_at(n, "FUNCTION") || self.kw_at(n, "PROCEDURE")
    }

    /// `[AND [NO] CHAIN]` after COMMIT or ROLLBACK: whether the next transaction begins
    /// at once.
    pub(super) fn pg_chain(&mut self) -> PResult<bool> {
        if !self.eat_kw("AND") {
            return Ok(false);
        }
        let no = self.eat_kw("NO");
        self.expect_kw("CHAIN")?;
        Ok(!no)
    }

    /// `[WORK | TRANSACTION]` after COMMIT, END, ROLLBACK, ABORT.
    fn pg_work(&mut self) {
        if !self.eat_kw("WORK") {
            self.eat_kw("TRANSACTION");
        }
    }

    /// `BEGIN [WORK | TRANSACTION] [ISOLATION LEVEL ...]`, `START TRANSACTION [...]`.
    fn pg_begin(&mut self) -> PResult<StmtKind> {
        let start = self.advance();
        if self.src[start.clone()].eq_ignore_ascii_case("START") {
            self.expect_kw("TRANSACTION")?;
        } else if self.at_kw("TRAN") {
            let span = start.start..self.cur_span().end;
            return Err(self.tsql_syntax("BEGIN TRAN", span));
        } else {
            self.pg_work();
        }
        // One statement, as the server counts it.
        let isolation = self.pg_transaction_modes()?;
        Ok(StmtKind::BeginTran {
            name: None,
            isolation,
        })
    }

    /// A transaction's modes, in any order, commas between them optional: `ISOLATION
    /// LEVEL ...`, `READ WRITE` and `NOT DEFERRABLE` (the defaults); `READ ONLY` and
    /// `DEFERRABLE` are not simulated.
    fn pg_transaction_modes(&mut self) -> PResult<Option<IsolationLevel>> {
        let mut isolation = None;
        loop {
            let span = self.cur_span();
            if self.at_kw("ISOLATION") {
                isolation = Some(self.pg_isolation()?);
            } else if self.kw_at(0, "READ") && self.kw_at(1, "WRITE") {
                self.advance();
                self.advance();
            } else if self.kw_at(0, "READ") && self.kw_at(1, "ONLY") {
                self.advance();
                let end = self.advance();
                return Err(self.not_simulated(span.start..end.end, "READ ONLY transactions"));
            } else if self.kw_at(0, "NOT") && self.kw_at(1, "DEFERRABLE") {
                self.advance();
                self.advance();
            } else if self.at_kw("DEFERRABLE") {
                return Err(self.not_simulated(span, "DEFERRABLE transactions"));
            } else {
                return Ok(isolation);
            }
            self.eat(Tok::Comma);
        }
    }

    /// `SET TRANSACTION` and `SET SESSION CHARACTERISTICS AS TRANSACTION`: their modes,
    /// of which the isolation level is required here.
    fn pg_set_isolation(&mut self) -> PResult<IsolationLevel> {
        let span = self.cur_span();
        match self.pg_transaction_modes()? {
            Some(level) => Ok(level),
            None => {
                self.note("ISOLATION LEVEL");
                Err(self.not_simulated(span, "transaction modes without ISOLATION LEVEL"))
            }
        }
    }

    /// `ISOLATION LEVEL READ COMMITTED | REPEATABLE READ | SERIALIZABLE | READ UNCOMMITTED`.
    fn pg_isolation(&mut self) -> PResult<IsolationLevel> {
        self.expect_kw("ISOLATION")?;
        self.expect_kw("LEVEL")?;
        let span = self.cur_span();
        if self.kw_at(0, "SNAPSHOT") {
            return Err(self.tsql_syntax("SNAPSHOT isolation", span));
        }
        self.isolation_level()
    }

    /// `SET [SESSION | LOCAL] lock_timeout { = | TO } '2s' | 2000`, `SET TRANSACTION
    /// ISOLATION LEVEL ...`, `SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL ...`.
    fn pg_set(&mut self) -> PResult<StmtKind> {
        self.advance();
        let local = self.eat_kw("LOCAL");
        if !local && self.eat_kw("SESSION") && self.eat_kw("CHARACTERISTICS") {
            self.expect_kw("AS")?;
            self.expect_kw("TRANSACTION")?;
            return Ok(StmtKind::SetOption(SetOption::IsolationLevel(
                self.pg_set_isolation()?,
            )));
        }
        if self.eat_kw("TRANSACTION") {
            return Ok(StmtKind::SetOption(SetOption::TransactionIsolation(
                self.pg_set_isolation()?,
            )));
        }
        self.note("a setting");
        let span = self.cur_span();
        let Some(name) = self.word_at(0) else {
            return Err(self.unexpected());
        };
        if self.at(Tok::Var) {
            return Err(self.tsql_syntax("SET @variable", span));
        }
        self.advance();
        if !self.eat(Tok::Eq) {
            self.expect_kw("TO")?;
        }
        let value_span = self.cur_span();
        let statement = match name.as_str() {
            "LOCK_TIMEOUT" => false,
            "STATEMENT_TIMEOUT" => true,
            _ => return Err(self.not_simulated(span.start..value_span.end, &format!("SET {name}"))),
        };
        let ms = self.pg_duration_ms()?;
        // PostgreSQL's 0 means no timeout; the executor's is -1.
        let ms = if ms == 0 { -1 } else { ms };
        Ok(StmtKind::SetOption(match (statement, local) {
            (false, true) => SetOption::LocalLockTimeout(ms),
            (false, false) => SetOption::LockTimeout(ms),
            (true, true) => SetOption::LocalStatementTimeout(ms),
            (true, false) => SetOption::StatementTimeout(ms),
        }))
    }

    /// A duration setting: a number of milliseconds, or a string with a unit (`'2s'`,
    /// `'1500ms'`, `'1min'`, `'0'`).
    fn pg_duration_ms(&mut self) -> PResult<i64> {
        self.note("a duration");
        let span = self.cur_span();
        let text = match self.kind_at(0) {
            Some(Tok::Int) => self.src[span.clone()].to_string(),
            Some(Tok::Str) => unquote_string(&self.src[span.clone()]),
            _ => return Err(self.unexpected()),
        };
        self.advance();
        duration_ms(text.trim())
            .ok_or_else(|| ParseError::new(span, format!("invalid duration '{text}'")))
    }

    /// `LIMIT n | ALL`, `OFFSET m`, and `FOR UPDATE | NO KEY UPDATE | SHARE | KEY SHARE
    /// [OF t, ...] [NOWAIT | SKIP LOCKED]` after a query's ORDER BY.
    /// `compound`: the query has set operators (its head's `set_op` is not yet set).
    pub(super) fn pg_query_tail(&mut self, head: &mut Select, compound: bool) -> PResult<()> {
        loop {
            if self.at_kw("LIMIT") {
                self.pg_once(head.top.is_some(), "LIMIT")?;
                let start = self.advance().start;
                if self.eat_kw("ALL") {
                    continue;
                }
                let count = self.expr()?;
                head.top = Some(Top {
                    count,
                    percent: false,
                    with_ties: false,
                    span: start..self.prev_end(),
                });
            } else if self.kw_at(0, "OFFSET") {
                self.pg_once(head.offset.is_some(), "OFFSET")?;
                let start = self.advance().start;
                let skip = self.expr()?;
                if self.at_kw("ROW") || self.at_kw("ROWS") {
                    self.advance();
                }
                head.offset = Some(Offset {
                    skip,
                    fetch: None,
                    span: start..self.prev_end(),
                });
            } else if self.kw_at(0, "FETCH") {
                // FETCH {FIRST | NEXT} [n] {ROW | ROWS} {ONLY | WITH TIES}: a LIMIT.
                self.pg_once(head.top.is_some(), "LIMIT")?;
                let start = self.advance().start;
                if !self.eat_kw("NEXT") {
                    self.note("NEXT");
                    self.expect_kw("FIRST")?;
                }
                let count = if self.at_kw("ROW") || self.at_kw("ROWS") {
                    Expr {
                        kind: ExprKind::Literal(Literal::Int(1)),
                        span: self.cur_span(),
                    }
                } else {
                    self.expr()?
                };
                self.row_or_rows()?;
                let with_ties = if self.eat_kw("WITH") {
                    self.expect_kw("TIES")?;
                    true
                } else {
                    self.note("WITH");
                    self.expect_kw("ONLY")?;
                    false
                };
                head.top = Some(Top {
                    count,
                    percent: false,
                    with_ties,
                    span: start..self.prev_end(),
                });
            } else if self.at_kw("FOR") {
                self.pg_locking_clause(head, compound)?;
            } else {
                return self.pg_ties_not_skipped(head);
            }
        }
    }

    /// A second LIMIT (or FETCH) or OFFSET, refused in the words of the server's grammar.
    fn pg_once(&self, given: bool, what: &str) -> PResult<()> {
        if given {
            let span = self.cur_span();
            return Err(ParseError::new(
                span,
                format!("multiple {what} clauses not allowed"),
            ));
        }
        Ok(())
    }

    /// `FETCH ... WITH TIES` cannot skip locked rows (the server's parser refuses it).
    fn pg_ties_not_skipped(&self, head: &Select) -> PResult<()> {
        if !head.top.as_ref().is_some_and(|t| t.with_ties) {
            return Ok(());
        }
        for f in &head.from {
            let factors = std::iter::once(&f.factor).chain(f.joins.iter().map(|j| &j.factor));
            for factor in factors {
                if let TableFactor::Table { hints, .. } = factor {
                    if let Some(h) = hints.iter().find(|h| h.kind == HintKind::ReadPast) {
                        return Err(ParseError::new(
                            h.span.clone(),
                            "SKIP LOCKED and WITH TIES options cannot be used together",
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn pg_locking_clause(&mut self, head: &mut Select, compound: bool) -> PResult<()> {
        let for_start = self.advance().start;
        let kind = if self.eat_kw("UPDATE") {
            HintKind::ForUpdate
        } else if self.eat_kw("SHARE") {
            HintKind::ForShare
        } else if self.eat_kw("NO") {
            self.expect_kw("KEY")?;
            self.expect_kw("UPDATE")?;
            HintKind::ForNoKeyUpdate
        } else {
            self.note("UPDATE");
            self.note("SHARE");
            self.note("NO");
            self.expect_kw("KEY")?;
            self.expect_kw("SHARE")?;
            HintKind::ForKeyShare
        };
        let clause_start = self.prev_end();
        let mut of = Vec::new();
        if self.eat_kw("OF") {
            of.push(self.ident()?);
            while self.eat(Tok::Comma) {
                of.push(self.ident()?);
            }
        }
        let mut extra = None;
        if self.at_kw("NOWAIT") {
            extra = Some(HintKind::NoWait);
            self.advance();
        } else if self.at_kw("SKIP") {
            self.advance();
            self.expect_kw("LOCKED")?;
            extra = Some(HintKind::ReadPast);
        }
        let clause = |kind: &HintKind| match kind {
            HintKind::ForUpdate => "FOR UPDATE",
            HintKind::ForShare => "FOR SHARE",
            HintKind::ForNoKeyUpdate => "FOR NO KEY UPDATE",
            _ => "FOR KEY SHARE",
        };
        let span = clause_start..self.prev_end();
        let what = if compound {
            Some("UNION/INTERSECT/EXCEPT")
        } else {
            unlockable(head)
        };
        if let Some(what) = what {
            return Err(ParseError::new(
                for_start..clause_start,
                format!("{} is not allowed with {what}", clause(&kind)),
            ));
        }
        let mut matched = vec![false; of.len()];
        for r in &mut head.from {
            // The right side of a LEFT JOIN may have no row to lock: the server refuses.
            let factors = std::iter::once((&mut r.factor, false)).chain(
                r.joins
                    .iter_mut()
                    .map(|j| (&mut j.factor, matches!(j.kind, JoinKind::LeftOuter))),
            );
            for (f, nullable) in factors {
                let TableFactor::Table {
                    name, alias, hints, ..
                } = f
                else {
                    continue;
                };
                let named = alias.as_ref().unwrap_or(name.name());
                let wanted = of.is_empty()
                    || of.iter().enumerate().any(|(k, o)| {
                        let hit = o.value.eq_ignore_ascii_case(&named.value);
                        matched[k] |= hit;
                        hit
                    });
                if wanted && nullable {
                    return Err(ParseError::new(
                        for_start..clause_start,
                        format!(
                            "{} cannot be applied to the nullable side of an outer join",
                            clause(&kind)
                        ),
                    ));
                }
                if wanted {
                    hints.push(TableHint {
                        kind: kind.clone(),
                        span: span.clone(),
                    });
                    if let Some(e) = &extra {
                        hints.push(TableHint {
                            kind: e.clone(),
                            span: span.clone(),
                        });
                    }
                }
            }
        }
        if let Some(k) = matched.iter().position(|m| !m) {
            return Err(ParseError::new(
                of[k].span.clone(),
                format!(
                    "relation \"{}\" in FOR UPDATE clause not found in FROM clause",
                    of[k].value
                ),
            ));
        }
        Ok(())
    }

    /// `RETURNING items`: an OUTPUT of the new row (the old one for DELETE); bare column
    /// names are qualified as OUTPUT's `inserted.`/`deleted.` would be.
    /// `ON CONFLICT [(col, ...) [WHERE predicate] | ON CONSTRAINT name] DO NOTHING |
    /// DO UPDATE SET ... [WHERE ...]`.
    pub(super) fn pg_on_conflict(&mut self) -> PResult<crate::ast::OnConflict> {
        let start = self.advance().start;
        self.advance();
        let mut columns = Vec::new();
        let mut constraint = None;
        let mut index_where = None;
        if self.at(Tok::LParen) {
            columns = self.ident_list_in_parens()?;
            if self.eat_kw("WHERE") {
                index_where = Some(self.expr()?);
            }
        } else if self.eat_kw("ON") {
            self.expect_kw("CONSTRAINT")?;
            constraint = Some(self.ident()?);
        }
        self.expect_kw("DO")?;
        let mut update = None;
        if self.eat_kw("UPDATE") {
            if columns.is_empty() && constraint.is_none() {
                return Err(ParseError::new(
                    start..self.prev_end(),
                    "ON CONFLICT DO UPDATE requires inference specification or constraint name",
                ));
            }
            self.expect_kw("SET")?;
            let mut assignments = vec![self.assignment()?];
            while self.eat(Tok::Comma) {
                assignments.push(self.assignment()?);
            }
            let where_clause = if self.eat_kw("WHERE") {
                Some(self.expr()?)
            } else {
                None
            };
            update = Some(crate::ast::ConflictUpdate {
                assignments,
                where_clause,
            });
        } else {
            self.note("UPDATE");
            self.expect_kw("NOTHING")?;
        }
        Ok(crate::ast::OnConflict {
            columns,
            index_where,
            constraint,
            update,
        })
    }

    /// Columns of `target` (by its name or alias) and bare ones, anywhere in an item, are
    /// the new row's (the old one's for DELETE).
    pub(super) fn pg_returning(
        &mut self,
        deleted: bool,
        target: &TableFactor,
    ) -> PResult<Option<Output>> {
        if !self.at_kw("RETURNING") {
            return Ok(None);
        }
        let start = self.advance().start;
        let side = if deleted { "deleted" } else { "inserted" };
        let mut items = Vec::new();
        loop {
            let mut item = self.select_item(false)?;
            match &mut item {
                // `*` and `t.*` (the target by its name or alias) are the row; a bare
                // `*` keeps an empty span (no text wrote its qualifier), so that after
                // a join it also returns the other tables' columns; `p.*` stays.
                SelectItem::Wildcard { qualifier, .. } => {
                    let own = match target {
                        TableFactor::Table { name, alias, .. } => {
                            Some(alias.as_ref().unwrap_or(name.name()).value.clone())
                        }
                        _ => None,
                    };
                    let span = match qualifier.as_ref() {
                        None => Some(start..start),
                        Some(q)
                            if own
                                .as_ref()
                                .is_some_and(|o| o.eq_ignore_ascii_case(&q.value)) =>
                        {
                            Some(q.span.clone())
                        }
                        Some(_) => None,
                    };
                    if let Some(span) = span {
                        *qualifier = Some(crate::ast::Ident {
                            value: side.into(),
                            span,
                        });
                    }
                }
                SelectItem::Expr { expr, .. } => {
                    let own = match target {
                        TableFactor::Table { name, alias, .. } => {
                            Some(alias.as_ref().unwrap_or(name.name()).value.clone())
                        }
                        _ => None,
                    };
                    requalify(expr, side, own.as_deref());
                }
                SelectItem::Assign { .. } => {}
            }
            items.push(item);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        if self.at_kw("INTO") && !self.pg_vars.is_empty() {
            // RETURNING ... INTO: the column qualifiers above are kept for the values.
            self.pg_into(&mut items)?;
        }
        Ok(Some(Output {
            items,
            into: None,
            span: start..self.prev_end(),
        }))
    }

    /// PostgreSQL's own type names; `None` leaves the word to the common types.
    pub(super) fn pg_data_type(&mut self) -> PResult<Option<DataType>> {
        let Some(word) = self.word_at(0) else {
            return Ok(None);
        };
        let span = self.cur_span();
        let ty = match word.as_str() {
            "TEXT" => DataType::VarChar(Len::Max),
            "FLOAT8" | "FLOAT4" => DataType::Float,
            "SMALLSERIAL" => DataType::SmallInt,
            "CHARACTER" if self.kw_at(1, "VARYING") => {
                self.advance();
                self.advance();
                let ty = self.sized_type("varchar", span.start, 1)?;
                return self.pg_no_array(ty).map(Some);
            }
            // Types a queue table may well have, which the simulation does not know.
            "JSON" | "JSONB" | "UUID" | "BYTEA" | "INTERVAL" | "INET" | "CIDR" | "MACADDR"
            | "CITEXT" | "OID" | "XML" | "TSVECTOR" | "TSQUERY" | "POINT" | "TIMETZ" => {
                let name = word.to_ascii_lowercase();
                return Err(self.not_simulated(span, &format!("data type {name}")));
            }
            "BOOLEAN" | "BOOL" => DataType::Boolean,
            "INT4" | "SERIAL" => DataType::Int,
            "INT8" | "BIGSERIAL" => DataType::BigInt,
            "INT2" => DataType::SmallInt,
            "DOUBLE" if self.kw_at(1, "PRECISION") => {
                self.advance();
                DataType::Float
            }
            "TIMESTAMPTZ" => DataType::TimestampTz(6),
            "TIMESTAMP" => {
                self.advance();
                let mut p = 6;
                if self.at(Tok::LParen) {
                    self.advance();
                    p = self.small_number(0, 6, "timestamp")? as u8;
                    self.expect(Tok::RParen)?;
                }
                let zoned = self.eat_kw("WITH");
                if zoned || self.eat_kw("WITHOUT") {
                    self.expect_kw("TIME")?;
                    self.expect_kw("ZONE")?;
                }
                return Ok(Some(if zoned {
                    DataType::TimestampTz(p)
                } else {
                    DataType::Timestamp(p)
                }));
            }
            _ => return Ok(None),
        };
        self.advance();
        self.pg_no_array(ty).map(Some)
    }

    /// `type[]` is an array, which the simulation does not have.
    pub(super) fn pg_no_array(&mut self, ty: DataType) -> PResult<DataType> {
        match self.tok_at(0) {
            Some(t) if self.text(t).starts_with('[') => {
                let span = self.cur_span();
                Err(self.not_simulated(span, "arrays"))
            }
            _ => Ok(ty),
        }
    }

    /// Whether the column type at the cursor is `serial` or `bigserial` (an IDENTITY).
    pub(super) fn pg_serial_at(&self) -> bool {
        self.postgres()
            && self
                .word_at(0)
                .is_some_and(|w| matches!(w.as_str(), "SERIAL" | "BIGSERIAL" | "SMALLSERIAL"))
    }

    /// `expr::type`, PostgreSQL's cast, as CAST(expr AS type).
    pub(super) fn pg_casts(&mut self, mut e: Expr) -> PResult<Expr> {
        while self.kind_at(0) == Some(Tok::Colon) && self.kind_at(1) == Some(Tok::Colon) {
            self.advance();
            self.advance();
            // `(n || ' seconds')::interval` added to a timestamp: its text is read as an
            // interval when evaluated. Elsewhere an interval is not simulated.
            if self.word_at(0).as_deref() == Some("INTERVAL")
                && self.kind_at(1) != Some(Tok::LParen)
            {
                let first = self.toks.iter().position(|t| t.start == e.span.start);
                if first.is_some_and(|k| self.interval_added_at(k)) {
                    self.advance();
                    let span = e.span.start..self.prev_end();
                    e = Expr {
                        kind: ExprKind::Function {
                            name: crate::INTERVAL_OF.into(),
                            args: vec![e],
                            star: false,
                            distinct: false,
                            over: None,
                            within_group: Vec::new(),
                        },
                        span,
                    };
                    continue;
                }
            }
            let ty = self.data_type(true)?;
            let span = e.span.start..self.prev_end();
            e = Expr {
                kind: ExprKind::Cast {
                    expr: Box::new(e),
                    ty,
                    style: None,
                },
                span,
            };
        }
        Ok(e)
    }

    /// PostgreSQL literals and functions with another name in the executor: `TRUE`,
    /// `FALSE`, `now()`.
    pub(super) fn pg_word_primary(&mut self, word: &str) -> PResult<Option<Expr>> {
        let span = self.cur_span();
        if word == "INTERVAL" && self.kind_at(1) == Some(Tok::Str) {
            return self.pg_interval().map(Some);
        }
        // A typed literal, `timestamp '2026-01-05 10:00'`: a cast of the string.
        let typed = match word {
            "TIMESTAMP" => Some(DataType::Timestamp(6)),
            "TIMESTAMPTZ" => Some(DataType::TimestampTz(6)),
            "DATE" => Some(DataType::Date),
            _ => None,
        };
        if let Some(ty) = typed {
            if let Some(e) = self.typed_literal(ty)? {
                return Ok(Some(e));
            }
        }
        if self.kind_at(1) == Some(Tok::LParen) {
            if let Some(e) = self.pg_special_call(word)? {
                return Ok(Some(e));
            }
        }
        // The SQL-standard clock words, without parentheses: the transaction's date and
        // timestamp (no zone is shown, so LOCALTIMESTAMP prints as CURRENT_TIMESTAMP).
        let clock = match word {
            "CURRENT_DATE" => Some("CURRENT_DATE"),
            "LOCALTIMESTAMP" => Some("LOCALTIMESTAMP"),
            _ => None,
        };
        if let (Some(name), false) = (clock, self.kind_at(1) == Some(Tok::LParen)) {
            self.advance();
            return Ok(Some(super::expr::niladic_call(name.into(), span)));
        }
        // PL/pgSQL's FOUND: whether the last SELECT INTO, PERFORM or DML found a row.
        if word == "FOUND"
            && self.plpgsql
            && !matches!(self.kind_at(1), Some(Tok::LParen | Tok::Dot))
        {
            self.advance();
            return Ok(Some(Expr {
                kind: ExprKind::Global("FOUND".into()),
                span,
            }));
        }
        let value = match word {
            "TRUE" => true,
            "FALSE" => false,
            _ => return Ok(None),
        };
        self.advance();
        Ok(Some(Expr {
            kind: ExprKind::Literal(Literal::Bool(value)),
            span,
        }))
    }

    /// The SQL-standard calls with keywords between their arguments, as the functions
    /// they mean: `extract(hour FROM t)` is `date_part('hour', t)`, `position(a IN b)`
    /// is `strpos(b, a)`, `substring(s FROM a [FOR n])` is `substring(s, a [, n])`.
    /// `None` (nothing consumed) for any other call.
    fn pg_special_call(&mut self, word: &str) -> PResult<Option<Expr>> {
        let start = self.cur_start();
        let saved = self.pos;
        let (name, args) = match word {
            "EXTRACT" => {
                self.advance();
                self.advance();
                let field = self.ident()?;
                self.expect_kw("FROM")?;
                let from = self.expr()?;
                let field = Expr {
                    kind: ExprKind::Literal(Literal::Str {
                        value: field.value.to_ascii_lowercase().into(),
                        national: false,
                    }),
                    span: field.span,
                };
                ("DATE_PART", vec![field, from])
            }
            "POSITION" => {
                self.advance();
                self.advance();
                let needle = self.additive()?;
                self.expect_kw("IN")?;
                let hay = self.expr()?;
                ("STRPOS", vec![hay, needle])
            }
            "SUBSTRING" => {
                self.advance();
                self.advance();
                let text = self.expr()?;
                if !self.eat_kw("FROM") {
                    self.pos = saved;
                    return Ok(None);
                }
                let mut args = vec![text, self.expr()?];
                if self.eat_kw("FOR") {
                    args.push(self.expr()?);
                }
                ("SUBSTRING", args)
            }
            _ => return Ok(None),
        };
        self.expect(Tok::RParen)?;
        Ok(Some(super::expr::plain_call(
            name.into(),
            args,
            start..self.prev_end(),
        )))
    }

    /// Whether the interval literal at token `at` is added or subtracted: a `+` or `-`
    /// before it, or before the factor it multiplies (`n * interval ...`,
    /// `power(2, n) * interval ...`), past any opening parentheses.
    fn interval_added_at(&self, at: usize) -> bool {
        let kind = |k: usize| self.toks[k].kind;
        let mut k = at;
        let skip_opening = |mut k: usize| {
            while k > 0 && kind(k - 1) == Tok::LParen {
                k -= 1;
            }
            k
        };
        k = skip_opening(k);
        if k > 0 && kind(k - 1) == Tok::Star {
            // Back over the factor: a name, number or variable (dotted names too), or a
            // parenthesised group with the function name before it.
            k -= 1;
            if k == 0 {
                return false;
            }
            if kind(k - 1) == Tok::RParen {
                let mut depth = 0usize;
                while k > 0 {
                    k -= 1;
                    match kind(k) {
                        Tok::RParen => depth += 1,
                        Tok::LParen => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                if depth != 0 {
                    return false;
                }
                if k > 0 && kind(k - 1) == Tok::Word {
                    k -= 1;
                }
            } else {
                k -= 1;
                if !matches!(
                    kind(k),
                    Tok::Word | Tok::QuotedIdent | Tok::Int | Tok::Decimal | Tok::Var
                ) {
                    return false;
                }
                while k >= 2 && kind(k - 1) == Tok::Dot {
                    k -= 2;
                }
            }
            k = skip_opening(k);
        }
        k > 0 && matches!(kind(k - 1), Tok::Plus | Tok::Minus)
    }

    /// `interval '5 minutes'` (also `'1 day 02:00:00'`, `'1.5 s'`, `'30 seconds ago'`):
    /// the common `INTERVAL` function of its length in seconds, which a timestamp plus
    /// or minus adds as a fraction of days. Months and years, whose length depends on
    /// the date, are not simulated.
    fn pg_interval(&mut self) -> PResult<Expr> {
        // Only as what a timestamp adds or subtracts, alone or times a number
        // (`run_at + attempts * interval '1 second'`, a retry's backoff): an interval
        // shown or compared would need a value of its own.
        if !self.interval_added_at(self.pos) {
            let span = self.cur_span().start..self.toks.get(self.pos + 1).map_or(0, |t| t.end);
            return Err(self.not_simulated(
                span,
                "an interval other than one added to or subtracted from a timestamp",
            ));
        }
        let start = self.advance().start;
        let lit = self.advance();
        let text = unquote_string(&self.src[lit.clone()]);
        let span = start..lit.end;
        let seconds = match interval_seconds(&text) {
            Ok(s) => s,
            Err(None) => {
                return Err(ParseError::new(
                    span,
                    format!("invalid input syntax for type interval: \"{text}\""),
                ))
            }
            Err(Some(unit)) => {
                return Err(self.not_simulated(span, &format!("intervals in {unit}")))
            }
        };
        if self.word_at(0).is_some_and(|w| {
            matches!(
                w.as_str(),
                "YEAR" | "MONTH" | "DAY" | "HOUR" | "MINUTE" | "SECOND"
            )
        }) {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "interval fields after the literal"));
        }
        let text_of = |value: String| Expr {
            kind: ExprKind::Literal(Literal::Str {
                value: value.into(),
                national: false,
            }),
            span: span.clone(),
        };
        Ok(Expr {
            kind: ExprKind::Function {
                name: "INTERVAL".into(),
                args: vec![text_of(seconds.to_string()), text_of("SECOND".into())],
                star: false,
                distinct: false,
                over: None,
                within_group: Vec::new(),
            },
            span: span.clone(),
        })
    }
}

/// `SELECT pg_sleep(s)` alone: a sleep.
pub(super) fn sleep_of(select: &Select) -> Option<StmtKind> {
    let [SelectItem::Expr { expr, .. }] = select.items.as_slice() else {
        return None;
    };
    match &expr.kind {
        ExprKind::Function { name, args, .. }
            if name.eq_ignore_ascii_case("PG_SLEEP")
                && args.len() == 1
                && select.from.is_empty() =>
        {
            Some(StmtKind::Sleep {
                seconds: args[0].clone(),
            })
        }
        _ => None,
    }
}

/// A function's name in the executor: PostgreSQL's clock functions read the virtual clock,
/// now() and CURRENT_TIMESTAMP at the transaction's start, statement_timestamp() at the
/// statement's (SQL Server's SYSDATETIME), clock_timestamp() as it reads.
pub(super) fn pg_function_name(name: String) -> String {
    match name.to_ascii_uppercase().as_str() {
        "NOW" | "TRANSACTION_TIMESTAMP" | "CURRENT_TIMESTAMP" => "TRANSACTION_TIMESTAMP".into(),
        "STATEMENT_TIMESTAMP" => "SYSDATETIME".into(),
        "CLOCK_TIMESTAMP" => "CLOCK_TIMESTAMP".into(),
        _ => name,
    }
}

/// `'2s'`, `'1500ms'`, `'1min'`, `'2000'` (milliseconds) as milliseconds.
fn duration_ms(text: &str) -> Option<i64> {
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let factor = match unit.trim() {
        "" | "ms" => 1.0,
        "s" => 1000.0,
        "min" => 60_000.0,
        "h" => 3_600_000.0,
        _ => return None,
    };
    Some((number * factor).round() as i64)
}

/// Points the columns of `expr` that are bare or qualified by `own` at `side`
/// (`inserted` or `deleted`); subqueries keep theirs.
fn requalify(expr: &mut Expr, side: &str, own: Option<&str>) {
    match &mut expr.kind {
        ExprKind::Column(name) => {
            let qualifier = name.parts.len().checked_sub(2).map(|k| &name.parts[k]);
            let mine =
                qualifier.is_none_or(|q| own.is_some_and(|o| q.value.eq_ignore_ascii_case(o)));
            if mine {
                let column = name.name().clone();
                *name = ObjectName {
                    span: name.span.clone(),
                    parts: vec![
                        crate::ast::Ident {
                            value: side.into(),
                            span: name.span.start..name.span.start,
                        },
                        column,
                    ],
                };
            }
        }
        ExprKind::Unary { expr, .. }
        | ExprKind::IsNull { expr, .. }
        | ExprKind::InSubquery { expr, .. } => requalify(expr, side, own),
        ExprKind::Binary { left, right, .. } => {
            requalify(left, side, own);
            requalify(right, side, own);
        }
        ExprKind::InList { expr, list, .. } => {
            requalify(expr, side, own);
            list.iter_mut().for_each(|x| requalify(x, side, own));
        }
        ExprKind::Between {
            expr, low, high, ..
        } => {
            for x in [expr, low, high] {
                requalify(x, side, own);
            }
        }
        ExprKind::Like { expr, pattern, .. } => {
            requalify(expr, side, own);
            requalify(pattern, side, own);
        }
        ExprKind::Function { args, .. } => args.iter_mut().for_each(|x| requalify(x, side, own)),
        ExprKind::Cast { expr, style, .. } => {
            requalify(expr, side, own);
            if let Some(s) = style {
                requalify(s, side, own);
            }
        }
        ExprKind::Case {
            operand,
            branches,
            otherwise,
        } => {
            for x in operand.iter_mut().chain(otherwise.iter_mut()) {
                requalify(x, side, own);
            }
            for (w, t) in branches {
                requalify(w, side, own);
                requalify(t, side, own);
            }
        }
        ExprKind::Literal(_)
        | ExprKind::Var(_)
        | ExprKind::Global(_)
        | ExprKind::Default
        | ExprKind::Exists(_)
        | ExprKind::Subquery(_) => {}
    }
}

/// An interval's text as seconds: `<number> <unit>` pairs and an `[-]h:m[:s]` time, in
/// any order, `ago` negating the whole. `Err(None)`: not an interval;
/// `Err(Some(unit))`: a calendar unit (months, years) the simulator does not model.
pub(crate) fn interval_seconds(text: &str) -> Result<f64, Option<&'static str>> {
    let lower = text.to_lowercase();
    let mut words: Vec<&str> = lower.split_whitespace().collect();
    let ago = words.last() == Some(&"ago");
    if ago {
        words.pop();
    }
    if words.is_empty() {
        return Err(None);
    }
    let mut total = 0.0;
    let mut k = 0;
    while k < words.len() {
        let w = words[k];
        if w.contains(':') {
            let negative = w.starts_with('-');
            let parts: Vec<&str> = w.trim_start_matches(['-', '+']).split(':').collect();
            if parts.len() > 3 {
                return Err(None);
            }
            let mut t = 0.0;
            for (n, scale) in parts.iter().zip([3600.0, 60.0, 1.0]) {
                t += n.parse::<f64>().map_err(|_| None)? * scale;
            }
            total += if negative { -t } else { t };
            k += 1;
            continue;
        }
        // `5min` and `5 min` alike.
        let digits = w
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+')))
            .unwrap_or(w.len());
        let number: f64 = w[..digits].parse().map_err(|_| None)?;
        let unit = if digits < w.len() {
            &w[digits..]
        } else if let Some(next) = words
            .get(k + 1)
            .filter(|n| n.starts_with(char::is_alphabetic))
        {
            k += 1;
            next
        } else {
            "s"
        };
        // Plurals drop their `s`; `ms` and `us` are units of their own.
        let singular = match unit {
            "ms" | "us" => unit,
            _ => unit.trim_end_matches('s'),
        };
        let scale = match singular {
            "us" | "µ" | "usec" | "microsecond" => 1e-6,
            "ms" | "msec" | "millisecond" => 1e-3,
            "" | "sec" | "second" => 1.0,
            "m" | "min" | "minute" | "mi" => 60.0,
            "h" | "hr" | "hour" => 3600.0,
            "d" | "day" => 86_400.0,
            "w" | "week" => 604_800.0,
            "mon" | "month" | "y" | "year" | "decade" | "century" | "centurie" | "millennium"
            | "millennia" => return Err(Some("months or years")),
            _ => return Err(None),
        };
        total += number * scale;
        k += 1;
    }
    Ok(if ago { -total } else { total })
}

/// What makes a query's rows not rows of a table, so that a row-lock clause cannot
/// lock them, in the server's words (its error 0A000, raised before the query runs).
fn unlockable(head: &Select) -> Option<&'static str> {
    let aggregate = |name: &str, over: bool| !over && PG_AGGREGATES.contains(&name);
    if head.distinct {
        Some("DISTINCT clause")
    } else if !head.group_by.is_empty() {
        Some("GROUP BY clause")
    } else if head.having.is_some() {
        Some("HAVING clause")
    } else if head
        .items
        .iter()
        .any(|i| call_in_item(i, &aggregate).is_some())
    {
        Some("aggregate functions")
    } else if head
        .items
        .iter()
        .any(|i| call_in_item(i, &|_, over| over).is_some())
    {
        Some("window functions")
    } else {
        None
    }
}

/// Whether `name` (upper-cased) is one of PostgreSQL's aggregate functions.
pub(super) fn is_pg_aggregate(name: &str) -> bool {
    PG_AGGREGATES.contains(&name)
}

/// PostgreSQL's aggregate functions a lesson may call, upper-cased.
const PG_AGGREGATES: &[&str] = &[
    "COUNT",
    "SUM",
    "MIN",
    "MAX",
    "AVG",
    "STRING_AGG",
    "ARRAY_AGG",
    "BOOL_AND",
    "BOOL_OR",
    "EVERY",
];

#[cfg(test)]
mod tests {
    #[test]
    fn durations_read_as_postgresql_does() {
        assert_eq!(super::duration_ms("2s"), Some(2000));
        assert_eq!(super::duration_ms("1500ms"), Some(1500));
        assert_eq!(super::duration_ms("250"), Some(250));
        assert_eq!(super::duration_ms("1min"), Some(60_000));
        assert_eq!(super::duration_ms("2 parsecs"), None);
    }
}
