//! Statements: dispatch on the first word, control flow, variables, options, EXEC,
//! transactions, errors.

use super::select::{desugar_compound, var_expr};
use super::{PResult, Parser};
use crate::ast::{
    Arg, DeadlockPriority, Exec, Expr, ExprKind, Ident, IsolationLevel, Literal, RaisError,
    RaisErrorOption, SetOption, Stmt, StmtKind, ThrowArgs, VarDecl,
};
use crate::keywords;
use crate::lexer::Tok;

impl Parser<'_> {
    /// A statement and its optional terminating `;`; a lone `;` is `Empty`.
    pub(crate) fn statement_in_list(&mut self) -> PResult<Stmt> {
        if self.at(Tok::Semi) {
            let span = self.advance();
            return Ok(Stmt {
                kind: StmtKind::Empty,
                span,
            });
        }
        let stmt = self.statement()?;
        // psql sends a statement only at its `;`: what follows without one is read as
        // more of the same statement (`SELECT pg_sleep(3)` then `COMMIT` is one SELECT
        // with a column named commit), so a second statement here is refused.
        if self.postgres() && !self.plpgsql && !self.at(Tok::Semi) && !self.at_eof() {
            // A line that starts after a whole statement is most likely the next one,
            // its `;` forgotten: say so, rather than list what else could continue it.
            let here = self.cur_start();
            let new_line = self.src[self.prev_end()..here].contains('\n');
            if new_line {
                self.expected.clear();
                self.note("';'");
            }
            let mut e = self.unexpected();
            if new_line {
                e.message.push_str(
                    " (a statement ends at its ';': without one, PostgreSQL reads this line \
                     as more of the statement above)",
                );
            }
            return Err(e);
        }
        self.eat(Tok::Semi);
        Ok(stmt)
    }

    /// Statements up to (not including) `END`.
    fn statements_until_end(&mut self) -> PResult<Vec<Stmt>> {
        let mut stmts = Vec::new();
        while !self.at_kw("END") {
            stmts.push(self.statement_in_list()?);
        }
        Ok(stmts)
    }

    /// One statement without its `;`.
    pub(crate) fn statement(&mut self) -> PResult<Stmt> {
        self.enter("statement")?;
        let start = self.cur_start();
        let kind = self.statement_kind()?;
        self.leave();
        // A procedure or trigger body ends with its last statement's `;`; the span does not.
        let end = match &kind {
            StmtKind::CreateProcedure(p) => p.body.last().map(|s| s.span.end),
            StmtKind::CreateTrigger(t) => t.body.last().map(|s| s.span.end),
            _ => None,
        };
        Ok(Stmt {
            kind,
            span: start..end.unwrap_or_else(|| self.prev_end()),
        })
    }

    /// Dispatches on the first word. Every arm is a plain call so that this frame, which
    /// is on the path of every nested statement, stays small even in unoptimised builds.
    fn statement_kind(&mut self) -> PResult<StmtKind> {
        if self.teradata() {
            return self.teradata_statement_kind();
        }
        if self.postgres() {
            return self.postgres_statement_kind();
        }
        let word = match self.tok_at(0) {
            Some(t) if t.kind == Tok::Word => self.text(t).to_ascii_uppercase(),
            _ => return Err(self.no_statement()),
        };
        if self.kind_at(1) == Some(Tok::Colon) && !keywords::is_reserved(&word, self.dialect) {
            return Err(self.statement_error(&word));
        }
        match word.as_str() {
            "SELECT" => self.select_statement(),
            "WITH" => self.with_statement(),
            "INSERT" => self.insert_statement(),
            "UPDATE" => self.update_statement(),
            "DELETE" => self.delete_statement(),
            "DECLARE" => self.declare(),
            "SET" => self.set(),
            "IF" => self.if_statement(),
            "WHILE" => self.while_statement(),
            "BEGIN" => self.begin(),
            "RETURN" => self.return_statement(),
            "BREAK" | "CONTINUE" => Ok(self.loop_control()),
            "EXEC" | "EXECUTE" => self.exec_statement(),
            "WAITFOR" => self.waitfor(),
            "COMMIT" | "ROLLBACK" => self.commit_or_rollback(),
            "SAVE" if self.kw_at(1, "TRAN") || self.kw_at(1, "TRANSACTION") => self.save_tran(),
            "THROW" => self.throw(),
            "RAISERROR" => self.raiserror(),
            "PRINT" => self.print(),
            "CREATE" => self.create(),
            "ALTER" => self.alter(),
            "DROP" => self.drop(),
            "TRUNCATE" => self.truncate(),
            "MERGE" => Ok(StmtKind::Merge(self.merge()?)),
            _ => Err(self.statement_error(&word)),
        }
    }

    pub(super) fn no_statement(&mut self) -> crate::ParseError {
        self.note("a statement");
        self.unexpected()
    }

    /// A word that does not begin a simulated statement: name what it is, if we know.
    #[inline(never)]
    pub(super) fn statement_error(&mut self, word: &str) -> crate::ParseError {
        let span = self.cur_span();
        let next_end = self.tok_at(1).map_or(span.end, |t| t.end);
        if self.kind_at(1) == Some(Tok::Colon) {
            return self.not_simulated(span.start..next_end, "labels and GOTO");
        }
        match word {
            "SAVE" => self.not_simulated(span.start..next_end, "SAVE TRANSACTION"),
            "GOTO" => self.not_simulated(span, "labels and GOTO"),
            "USE" => self.not_simulated(span, "USE"),
            "OPEN" | "FETCH" | "CLOSE" | "DEALLOCATE" => self.not_simulated(span, "cursors"),
            // Real T-SQL statements outside what the simulator models: say so, not
            // "expected a statement".
            "BULK" => self.not_simulated(span.start..next_end, "BULK INSERT"),
            "DBCC" | "BACKUP" | "RESTORE" | "CHECKPOINT" | "RECONFIGURE" | "SHUTDOWN" | "KILL"
            | "GRANT" | "REVOKE" | "DENY" | "SETUSER" | "REVERT" | "RECEIVE" | "SEND"
            | "READTEXT" | "WRITETEXT" | "UPDATETEXT" => self.not_simulated(span, word),
            "ENABLE" | "DISABLE" if self.kw_at(1, "TRIGGER") => {
                self.not_simulated(span.start..next_end, &format!("{word} TRIGGER"))
            }
            "GO" if self.kind_at(1) == Some(Tok::Int) => crate::ParseError::new(
                span.start..next_end,
                "not simulated: GO with a repeat count",
            ),
            "GO" => crate::ParseError::new(
                span,
                "GO is a batch separator of client tools: put it alone on its own line",
            ),
            "BT" | "ET" | "LOCKING" | "SEL" | "INS" | "UPD" | "DEL" | "ABORT" | "CT" => {
                self.teradata_syntax(word, span)
            }
            "ELSE" => crate::ParseError::new(span, "ELSE without a matching IF"),
            _ => self.no_statement(),
        }
    }

    fn select_statement(&mut self) -> PResult<StmtKind> {
        Ok(StmtKind::Select(self.select_query()?))
    }

    fn insert_statement(&mut self) -> PResult<StmtKind> {
        Ok(StmtKind::Insert(self.insert(Vec::new())?))
    }

    fn update_statement(&mut self) -> PResult<StmtKind> {
        Ok(StmtKind::Update(self.update(Vec::new())?))
    }

    fn delete_statement(&mut self) -> PResult<StmtKind> {
        Ok(StmtKind::Delete(self.delete(Vec::new())?))
    }

    fn exec_statement(&mut self) -> PResult<StmtKind> {
        Ok(StmtKind::Exec(self.exec()?))
    }

    fn while_statement(&mut self) -> PResult<StmtKind> {
        self.advance();
        let cond = self.condition()?;
        let body = Box::new(self.statement()?);
        Ok(StmtKind::While { cond, body })
    }

    fn return_statement(&mut self) -> PResult<StmtKind> {
        self.advance();
        let value = if self.starts_expr() {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(StmtKind::Return(value))
    }

    fn loop_control(&mut self) -> StmtKind {
        let is_break = self.kw_at(0, "BREAK");
        self.advance();
        if is_break {
            StmtKind::Break
        } else {
            StmtKind::Continue
        }
    }

    fn commit_or_rollback(&mut self) -> PResult<StmtKind> {
        let commit = self.kw_at(0, "COMMIT");
        self.advance();
        let name = self.tran_tail()?;
        Ok(if commit {
            StmtKind::CommitTran { name, chain: false }
        } else {
            StmtKind::RollbackTran { name, chain: false }
        })
    }

    /// `SAVE {TRAN | TRANSACTION} name`: a savepoint (a name in a variable is not
    /// simulated).
    fn save_tran(&mut self) -> PResult<StmtKind> {
        self.advance();
        self.advance();
        if self.at(Tok::Var) {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "a savepoint name in a variable"));
        }
        Ok(StmtKind::Savepoint(self.ident()?))
    }

    fn print(&mut self) -> PResult<StmtKind> {
        self.advance();
        Ok(StmtKind::Print(self.expr()?))
    }

    pub(super) fn truncate(&mut self) -> PResult<StmtKind> {
        self.advance();
        // PostgreSQL's TABLE is optional; its further forms are not modelled.
        if !(self.postgres() && self.eat_kw("TABLE")) {
            if !self.postgres() {
                self.expect_kw("TABLE")?;
            } else if self.kw_at(0, "ONLY") {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "TRUNCATE ONLY"));
            }
        }
        let name = self.object_name()?;
        if self.postgres() {
            for word in ["RESTART", "CONTINUE", "CASCADE", "RESTRICT"] {
                if self.kw_at(0, word) {
                    let span = self.cur_span();
                    return Err(self.not_simulated(span, &format!("TRUNCATE ... {word}")));
                }
            }
            if self.at(Tok::Comma) {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "TRUNCATE of several tables"));
            }
        }
        Ok(StmtKind::TruncateTable { name })
    }

    /// From the current token to the next `;` (excluded) or the end of the batch: the span
    /// of a statement that is recognised but not parsed (MERGE must end with `;`).
    fn span_to_statement_end(&self) -> crate::ast::Span {
        let start = self.cur_start();
        let rest = &self.toks[self.pos..];
        let end = rest
            .iter()
            .take_while(|t| t.kind != Tok::Semi)
            .last()
            .map_or(start, |t| t.end);
        start..end
    }

    /// `WITH ctes` followed by SELECT, INSERT, UPDATE or DELETE.
    pub(super) fn with_statement(&mut self) -> PResult<StmtKind> {
        let start = self.cur_start();
        self.statement_with = true;
        let ctes = self.ctes();
        self.statement_with = false;
        let ctes = ctes?;
        if ctes.iter().any(|c| c.modify.is_some()) && (self.at_kw("UPDATE") || self.at_kw("DELETE"))
        {
            let span = self.span_to_statement_end();
            return Err(self.not_simulated(
                span,
                "UPDATE or DELETE after a WITH that changes rows (SELECT or INSERT is)",
            ));
        }
        if self.at_kw("SELECT") {
            let mut select = self.select_query()?;
            select.ctes = ctes;
            // Like a subquery with CTEs, the query's span starts at WITH.
            select.span.start = start;
            return Ok(StmtKind::Select(select));
        }
        if self.at_kw("INSERT") {
            return Ok(StmtKind::Insert(self.insert(ctes)?));
        }
        if self.at_kw("UPDATE") {
            return Ok(StmtKind::Update(self.update(ctes)?));
        }
        if self.at_kw("DELETE") {
            return Ok(StmtKind::Delete(self.delete(ctes)?));
        }
        if self.kw_at(0, "MERGE") {
            let span = self.span_to_statement_end();
            return Err(self.not_simulated(span, "MERGE with a WITH clause (CTEs)"));
        }
        Err(self.unexpected())
    }

    /// `IF cond stmt [ELSE stmt]`; a `;` may end the THEN branch before ELSE.
    fn if_statement(&mut self) -> PResult<StmtKind> {
        self.advance();
        let cond = self.condition()?;
        let then = Box::new(self.statement()?);
        if self.kind_at(0) == Some(Tok::Semi) && self.kw_at(1, "ELSE") {
            self.advance();
        }
        let otherwise = if self.eat_kw("ELSE") {
            Some(Box::new(self.statement()?))
        } else {
            None
        };
        Ok(StmtKind::If {
            cond,
            then,
            otherwise,
        })
    }

    /// BEGIN ... END, BEGIN TRY ... END CATCH, BEGIN TRAN; each in its own function to
    /// keep this frame, on the path of nested blocks, small.
    fn begin(&mut self) -> PResult<StmtKind> {
        let begin = self.advance();
        if self.at_kw("TRAN") || self.at_kw("TRANSACTION") {
            return self.begin_tran();
        }
        if self.at_kw("TRY") {
            return self.try_catch(begin.start);
        }
        let other = ["DISTRIBUTED", "CATCH", "ATOMIC", "DIALOG", "CONVERSATION"];
        if other.iter().any(|kw| self.kw_at(0, kw)) {
            return Err(self.begin_error(begin.start));
        }
        let body = self.statements_until_end()?;
        self.expect_kw("END")?;
        Ok(StmtKind::Block(body))
    }

    fn begin_tran(&mut self) -> PResult<StmtKind> {
        self.advance();
        let name = self.tran_name()?;
        if self.kw_at(0, "WITH") && self.kw_at(1, "MARK") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "BEGIN TRANSACTION WITH MARK"));
        }
        Ok(StmtKind::BeginTran {
            name,
            isolation: None,
        })
    }

    fn try_catch(&mut self, start: usize) -> PResult<StmtKind> {
        let try_span = self.advance();
        self.tsql_only("BEGIN TRY", start..try_span.end)?;
        let body = self.statements_until_end()?;
        self.expect_kw("END")?;
        self.expect_kw("TRY")?;
        self.eat(Tok::Semi);
        self.expect_kw("BEGIN")?;
        self.expect_kw("CATCH")?;
        let handler = self.statements_until_end()?;
        self.expect_kw("END")?;
        self.expect_kw("CATCH")?;
        Ok(StmtKind::TryCatch {
            body,
            handler,
            catches: None,
        })
    }

    #[inline(never)]
    fn begin_error(&mut self, start: usize) -> crate::ParseError {
        let span = start..self.cur_span().end;
        if self.kw_at(0, "CATCH") {
            return crate::ParseError::new(span, "BEGIN CATCH must follow END TRY");
        }
        if self.kw_at(0, "DISTRIBUTED") {
            return self.not_simulated(span, "distributed transactions");
        }
        self.not_simulated(span, "this BEGIN statement")
    }

    /// An optional transaction name: a plain word or a variable.
    fn tran_name(&mut self) -> PResult<Option<Ident>> {
        self.note("a transaction name");
        match self.tok_at(0) {
            Some(t) if t.kind == Tok::Var => {
                let name = self.var_ident()?;
                self.use_var(&name, false)?;
                Ok(Some(name))
            }
            Some(t)
                if t.kind == Tok::Word && keywords::can_be_alias(self.text(t), self.dialect) =>
            {
                Ok(Some(self.ident()?))
            }
            Some(t) if t.kind == Tok::QuotedIdent => Ok(Some(self.ident()?)),
            _ => Ok(None),
        }
    }

    /// After COMMIT/ROLLBACK: `[TRAN|TRANSACTION [name] | WORK]`.
    fn tran_tail(&mut self) -> PResult<Option<Ident>> {
        if self.eat_kw("TRAN") || self.eat_kw("TRANSACTION") {
            let name = self.tran_name()?;
            if self.kw_at(0, "WITH") {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "DELAYED_DURABILITY"));
            }
            return Ok(name);
        }
        self.eat_kw("WORK");
        Ok(None)
    }

    /// `DECLARE @a int = 1, @b varchar(10)` or `DECLARE @t TABLE (...)`.
    fn declare(&mut self) -> PResult<StmtKind> {
        self.advance();
        let cursor = ["CURSOR", "INSENSITIVE", "SCROLL"]
            .iter()
            .any(|kw| self.kw_at(1, kw));
        if self.ident_at(0) && cursor {
            let span = self.cur_start()..self.tok_at(1).map_or(self.eof, |t| t.end);
            return Err(self.not_simulated(span, "cursors"));
        }
        let mut decls = Vec::new();
        loop {
            let start = self.cur_start();
            let name = self.var_ident()?;
            self.declare_var(&name)?;
            self.eat_kw("AS");
            if self.kw_at(0, "CURSOR") {
                let span = start..self.cur_span().end;
                return Err(self.not_simulated(span, "cursors"));
            }
            if self.at_kw("TABLE") && decls.is_empty() {
                self.advance();
                let (columns, constraints) = self.table_elements()?;
                return Ok(StmtKind::DeclareTable(crate::ast::DeclareTable {
                    name,
                    columns,
                    constraints,
                }));
            }
            let ty = self.data_type(false)?;
            let init = if self.eat(Tok::Eq) {
                Some(self.expr()?)
            } else {
                None
            };
            decls.push(VarDecl {
                name,
                ty,
                init,
                span: start..self.prev_end(),
            });
            if !self.eat(Tok::Comma) {
                return Ok(StmtKind::Declare(decls));
            }
        }
    }

    /// `SET @x = e` (and `+=` ...) or `SET <option>`.
    fn set(&mut self) -> PResult<StmtKind> {
        self.advance();
        if self.at(Tok::Var) {
            let name = self.var_ident()?;
            self.use_var(&name, false)?;
            let op = self.assign_op()?;
            if self.kw_at(0, "CURSOR") {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "cursors"));
            }
            let value = self.expr()?;
            let value = desugar_compound(op, var_expr(&name), value);
            return Ok(StmtKind::SetVar { name, value });
        }
        self.note("a variable");
        self.note("a SET option");
        let span = self.cur_span();
        let Some(word) = self.word_at(0) else {
            return Err(self.unexpected());
        };
        let on_off = |p: &mut Self| -> PResult<bool> {
            if p.eat_kw("ON") {
                Ok(true)
            } else {
                p.expect_kw("OFF")?;
                Ok(false)
            }
        };
        if self.kind_at(1) == Some(Tok::Comma) {
            return Err(self.not_simulated(span, "several options in one SET"));
        }
        let option = match word.as_str() {
            "NOCOUNT" => {
                self.advance();
                SetOption::NoCount(on_off(self)?)
            }
            "XACT_ABORT" => {
                self.advance();
                SetOption::XactAbort(on_off(self)?)
            }
            "QUOTED_IDENTIFIER" => {
                self.advance();
                SetOption::QuotedIdentifier(on_off(self)?)
            }
            "ANSI_NULLS" => {
                self.advance();
                SetOption::AnsiNulls(on_off(self)?)
            }
            "IMPLICIT_TRANSACTIONS" => {
                self.advance();
                SetOption::ImplicitTransactions(on_off(self)?)
            }
            "STATISTICS" => {
                self.advance();
                if self.eat_kw("IO") {
                    SetOption::StatisticsIo(on_off(self)?)
                } else if self.eat_kw("TIME") {
                    SetOption::StatisticsTime(on_off(self)?)
                } else {
                    let span = span.start..self.cur_span().end;
                    return Err(self.not_simulated(span, "this SET STATISTICS option"));
                }
            }
            "TRANSACTION" => {
                self.advance();
                self.expect_kw("ISOLATION")?;
                self.expect_kw("LEVEL")?;
                SetOption::IsolationLevel(self.isolation_level()?)
            }
            "LOCK_TIMEOUT" => {
                self.advance();
                let value = self.expr()?;
                match value.kind {
                    ExprKind::Literal(Literal::Int(n)) => SetOption::LockTimeout(n),
                    _ => {
                        return Err(crate::ParseError::new(
                            value.span,
                            "SET LOCK_TIMEOUT takes a number of milliseconds",
                        ))
                    }
                }
            }
            "DEADLOCK_PRIORITY" => {
                self.advance();
                SetOption::DeadlockPriority(self.deadlock_priority()?)
            }
            "IDENTITY_INSERT" => {
                self.advance();
                let table = self.object_name()?;
                SetOption::IdentityInsert {
                    table,
                    on: on_off(self)?,
                }
            }
            _ => return Err(self.not_simulated(span, &format!("SET {word}"))),
        };
        Ok(StmtKind::SetOption(option))
    }

    pub(super) fn isolation_level(&mut self) -> PResult<IsolationLevel> {
        if self.eat_kw("READ") {
            if self.eat_kw("UNCOMMITTED") {
                return Ok(IsolationLevel::ReadUncommitted);
            }
            self.expect_kw("COMMITTED")?;
            return Ok(IsolationLevel::ReadCommitted);
        }
        if self.eat_kw("REPEATABLE") {
            self.expect_kw("READ")?;
            return Ok(IsolationLevel::RepeatableRead);
        }
        if self.eat_kw("SNAPSHOT") {
            return Ok(IsolationLevel::Snapshot);
        }
        self.expect_kw("SERIALIZABLE")?;
        Ok(IsolationLevel::Serializable)
    }

    fn deadlock_priority(&mut self) -> PResult<DeadlockPriority> {
        if self.at(Tok::Var) {
            let name = self.var_ident()?;
            self.use_var(&name, false)?;
            return Ok(DeadlockPriority::Var(name));
        }
        if self.eat_kw("LOW") {
            return Ok(DeadlockPriority::Low);
        }
        if self.eat_kw("NORMAL") {
            return Ok(DeadlockPriority::Normal);
        }
        if self.eat_kw("HIGH") {
            return Ok(DeadlockPriority::High);
        }
        self.note("a number");
        if matches!(self.kind_at(0), Some(Tok::Int | Tok::Minus)) {
            let value = self.expr()?;
            if let ExprKind::Literal(Literal::Int(n)) = value.kind {
                return Ok(DeadlockPriority::Numeric(n));
            }
            return Err(crate::ParseError::new(
                value.span,
                "DEADLOCK_PRIORITY takes LOW, NORMAL, HIGH, a number or a variable",
            ));
        }
        Err(self.unexpected())
    }

    /// `EXEC [@rc =] proc [args]`.
    pub(crate) fn exec(&mut self) -> PResult<Exec> {
        let start = self.advance().start;
        if self.at(Tok::LParen) {
            let span = start..self.cur_span().end;
            return Err(self.not_simulated(span, "dynamic SQL (EXEC (...))"));
        }
        let return_var = if self.kind_at(0) == Some(Tok::Var) {
            if self.kind_at(1) != Some(Tok::Eq) {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "EXEC of a procedure named by a variable"));
            }
            let var = self.var_ident()?;
            self.use_var(&var, false)?;
            self.advance();
            Some(var)
        } else {
            None
        };
        let procedure = self.object_name()?;
        let mut args = Vec::new();
        if self.exec_arg_starts() {
            loop {
                args.push(self.exec_arg()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        if self.kw_at(0, "WITH") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "EXEC ... WITH options"));
        }
        Ok(Exec {
            return_var,
            procedure,
            args,
            result_column: None,
        })
    }

    /// Whether an EXEC argument follows (quiet), rather than the next statement.
    fn exec_arg_starts(&self) -> bool {
        match self.kind_at(0) {
            Some(Tok::Var | Tok::Int | Tok::Decimal | Tok::Str | Tok::NStr | Tok::Minus) => true,
            Some(Tok::Plus | Tok::Binary | Tok::QuotedIdent) => true,
            Some(Tok::Word) => {
                let w = self.word_at(0).unwrap_or_default();
                keywords::can_be_alias(&w, self.dialect) || w == "NULL" || w == "DEFAULT"
            }
            _ => false,
        }
    }

    /// `[@name =] value [OUTPUT]`; values are variables and constants, as in SQL Server.
    fn exec_arg(&mut self) -> PResult<Arg> {
        let start = self.cur_start();
        let name = if self.kind_at(0) == Some(Tok::Var) && self.kind_at(1) == Some(Tok::Eq) {
            let name = self.var_ident()?;
            self.advance();
            Some(name)
        } else {
            None
        };
        self.note("a variable");
        self.note("a constant");
        let value = match self.kind_at(0) {
            Some(Tok::Var | Tok::Int | Tok::Decimal | Tok::Str | Tok::NStr | Tok::Minus) => {
                self.unary_constant()?
            }
            Some(Tok::Plus | Tok::Binary) => self.unary_constant()?,
            Some(Tok::Word) if self.kw_at(0, "NULL") => self.unary_constant()?,
            Some(Tok::Word) if self.kw_at(0, "DEFAULT") => {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "DEFAULT as an EXEC argument"));
            }
            // A bare word is a string: `EXEC sp_help task` passes 'task'.
            Some(Tok::Word | Tok::QuotedIdent) if self.ident_at(0) => {
                let ident = self.ident()?;
                Expr {
                    kind: ExprKind::Literal(Literal::Str {
                        value: ident.value.into(),
                        national: true,
                    }),
                    span: ident.span,
                }
            }
            _ => return Err(self.unexpected()),
        };
        let output = self.eat_kw("OUTPUT") || self.eat_kw("OUT");
        Ok(Arg {
            name,
            value,
            output,
            span: start..self.prev_end(),
        })
    }

    /// A variable, literal or signed number, without operators after it.
    fn unary_constant(&mut self) -> PResult<Expr> {
        if self.at(Tok::Minus) || self.at(Tok::Plus) {
            let sign = self.advance();
            let inner = self.unary_constant()?;
            let span = sign.start..inner.span.end;
            return match inner.kind {
                ExprKind::Literal(Literal::Int(n)) if self.src[sign.clone()] == *"-" => Ok(Expr {
                    kind: ExprKind::Literal(Literal::Int(-n)),
                    span,
                }),
                ExprKind::Literal(Literal::Decimal(d)) if self.src[sign.clone()] == *"-" => {
                    Ok(Expr {
                        kind: ExprKind::Literal(Literal::Decimal(format!("-{d}"))),
                        span,
                    })
                }
                kind @ ExprKind::Literal(Literal::Int(_) | Literal::Decimal(_)) => {
                    Ok(Expr { kind, span })
                }
                _ => Err(crate::ParseError::new(
                    inner.span,
                    "expected a number after the sign",
                )),
            };
        }
        self.primary()
    }

    /// `WAITFOR DELAY 'hh:mm:ss'`.
    fn waitfor(&mut self) -> PResult<StmtKind> {
        let start = self.advance().start;
        self.tsql_only("WAITFOR", start..self.prev_end())?;
        if self.eat_kw("DELAY") {
            return Ok(StmtKind::WaitFor {
                delay: self.expr()?,
            });
        }
        if self.eat_kw("TIME") {
            let e = self.expr()?;
            return Err(self.not_simulated(start..e.span.end, "WAITFOR TIME"));
        }
        if self.at(Tok::LParen) {
            let span = start..self.cur_span().end;
            return Err(self.not_simulated(span, "WAITFOR (RECEIVE ...)"));
        }
        Err(self.unexpected())
    }

    /// `THROW;` or `THROW number, message, state`.
    fn throw(&mut self) -> PResult<StmtKind> {
        self.advance();
        if !self.starts_expr() {
            return Ok(StmtKind::Throw(None));
        }
        let number = self.expr()?;
        self.expect(Tok::Comma)?;
        let message = self.expr()?;
        self.expect(Tok::Comma)?;
        let state = self.expr()?;
        Ok(StmtKind::Throw(Some(ThrowArgs {
            number,
            message,
            state,
        })))
    }

    /// `RAISERROR (message, severity, state [, args]) [WITH LOG|NOWAIT|SETERROR, ...]`.
    fn raiserror(&mut self) -> PResult<StmtKind> {
        self.advance();
        if !self.at(Tok::LParen) {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "RAISERROR without parentheses"));
        }
        self.advance();
        let message = self.expr()?;
        self.expect(Tok::Comma)?;
        let severity = self.expr()?;
        self.expect(Tok::Comma)?;
        let state = self.expr()?;
        let mut args = Vec::new();
        while self.eat(Tok::Comma) {
            args.push(self.expr()?);
        }
        self.expect(Tok::RParen)?;
        let mut options = Vec::new();
        if self.eat_kw("WITH") {
            loop {
                let option = if self.eat_kw("LOG") {
                    RaisErrorOption::Log
                } else if self.eat_kw("NOWAIT") {
                    RaisErrorOption::NoWait
                } else {
                    self.expect_kw("SETERROR")?;
                    RaisErrorOption::SetError
                };
                options.push(option);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        Ok(StmtKind::RaisError(RaisError {
            message,
            severity,
            state,
            args,
            options,
        }))
    }
}
