//! PL/pgSQL in `DO $$ ... $$` and `CREATE FUNCTION | PROCEDURE ... LANGUAGE plpgsql`,
//! mapped onto the common AST: variables become `@name` variables, `LOOP` a WHILE whose
//! EXIT is a BREAK, `FOR i IN a..b` a counting WHILE, `BEGIN ... EXCEPTION WHEN ...`
//! a TRY/CATCH whose handler tests the error, `RAISE` a PRINT or THROW, `PERFORM` a
//! SELECT whose value is dropped, `GET DIAGNOSTICS n = ROW_COUNT` a read of @@ROWCOUNT.
//! The body is lexed in place (the text before it blanked), so spans point into the
//! script.

use super::{PResult, Parser};
use crate::ast::{
    Arg, BinaryOp, CreateProcedure, DataType, Exec, Expr, ExprKind, Ident, Len, Literal,
    ObjectName, Param, SelectItem, Span, Stmt, StmtKind, ThrowArgs, VarDecl,
};
use crate::lexer::{lex_in, Tok};
use crate::{Dialect, ParseError};

/// The variable PERFORM assigns its value to, so that it returns nothing.
const PERFORM_VAR: &str = "@perform";
use crate::DO_TXN as DO_TXN_VAR;

impl Parser<'_> {
    /// `DO [LANGUAGE plpgsql] $$ ... $$`: the block runs in one transaction (the open
    /// one, or its own, committed at its end).
    pub(super) fn pg_do(&mut self) -> PResult<StmtKind> {
        let start = self.advance().start;
        self.pg_language()?;
        let (body_start, body_end) = self.dollar_body()?;
        self.pg_language()?;
        let span = start..self.prev_end();
        let body = self.plpgsql_body(body_start, body_end, Vec::new())?;
        let mut stmts = vec![
            decl(DO_TXN_VAR, DataType::Int, Some(int(0)), &span),
            // IF @@TRANCOUNT = 0 BEGIN BEGIN TRAN; SET @do_txn = 1 END
            stmt(
                StmtKind::If {
                    cond: eq(global("TRANCOUNT"), int(0)),
                    then: Box::new(stmt(
                        StmtKind::Block(vec![
                            stmt(
                                StmtKind::BeginTran {
                                    name: None,
                                    isolation: None,
                                },
                                &span,
                            ),
                            set(DO_TXN_VAR, int(1), &span),
                        ]),
                        &span,
                    )),
                    otherwise: None,
                },
                &span,
            ),
        ];
        stmts.extend(body);
        stmts.push(stmt(
            StmtKind::If {
                cond: eq(var(DO_TXN_VAR), int(1)),
                then: Box::new(stmt(
                    StmtKind::CommitTran {
                        name: None,
                        chain: false,
                    },
                    &span,
                )),
                otherwise: None,
            },
            &span,
        ));
        Ok(StmtKind::Block(stmts))
    }

    /// `CREATE [OR REPLACE] FUNCTION | PROCEDURE name (params) [RETURNS type] AS $$ ... $$
    /// LANGUAGE plpgsql` (after CREATE [OR REPLACE]): a procedure, run by `CALL name(...)`
    /// or a statement `SELECT name(...)`.
    pub(super) fn pg_create_routine(&mut self, or_replace: bool) -> PResult<StmtKind> {
        self.advance();
        let name = self.object_name()?;
        self.expect(Tok::LParen)?;
        let mut params = Vec::new();
        let mut names = Vec::new();
        if !self.at(Tok::RParen) {
            loop {
                let start = self.cur_start();
                self.eat_kw("IN");
                let ident = self.ident()?;
                let ty = self.data_type(false)?;
                names.push(ident.value.to_ascii_lowercase());
                params.push(Param {
                    name: Ident {
                        value: format!("@{}", ident.value),
                        span: ident.span,
                    },
                    ty,
                    default: None,
                    output: false,
                    span: start..self.prev_end(),
                });
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen)?;
        if self.eat_kw("RETURNS") && !self.eat_kw("VOID") && !self.eat_kw("TRIGGER") {
            self.data_type(false)?;
        }
        self.pg_language()?;
        self.expect_kw("AS")?;
        let (body_start, body_end) = self.dollar_body()?;
        self.pg_language()?;
        let body = self.plpgsql_body(body_start, body_end, names)?;
        Ok(StmtKind::CreateProcedure(CreateProcedure {
            or_alter: or_replace,
            name,
            params,
            body,
        }))
    }

    /// `CALL name(args)`.
    pub(super) fn pg_call(&mut self) -> PResult<StmtKind> {
        self.advance();
        let procedure = self.object_name()?;
        let args = self.pg_call_args()?;
        Ok(StmtKind::Exec(Exec {
            return_var: None,
            procedure,
            args,
            result_column: None,
        }))
    }

    fn pg_call_args(&mut self) -> PResult<Vec<Arg>> {
        self.expect(Tok::LParen)?;
        let mut args = Vec::new();
        if !self.at(Tok::RParen) {
            loop {
                let value = self.expr()?;
                args.push(Arg {
                    name: None,
                    span: value.span.clone(),
                    value,
                    output: false,
                });
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen)?;
        Ok(args)
    }

    /// An optional `LANGUAGE plpgsql`; another language is not simulated.
    fn pg_language(&mut self) -> PResult<()> {
        if !self.eat_kw("LANGUAGE") {
            return Ok(());
        }
        let span = self.cur_span();
        let lang = self.ident()?;
        if !lang.value.eq_ignore_ascii_case("plpgsql") {
            return Err(self.not_simulated(span, &format!("LANGUAGE {}", lang.value)));
        }
        Ok(())
    }

    /// A dollar-quoted body: its text's byte range.
    fn dollar_body(&mut self) -> PResult<(usize, usize)> {
        self.note("a dollar-quoted body ($$ ... $$)");
        if !self.at(Tok::DollarStr) {
            return Err(self.unexpected());
        }
        let span = self.advance();
        let text = &self.src[span.clone()];
        let open = text[1..].find('$').map_or(1, |k| k + 2);
        Ok((span.start + open, span.end - open))
    }

    /// Parses a PL/pgSQL block from `src[start..end]` with `vars` (lower-case names)
    /// in scope.
    fn plpgsql_body(&mut self, start: usize, end: usize, vars: Vec<String>) -> PResult<Vec<Stmt>> {
        let mut text = " ".repeat(start);
        text.push_str(&self.src[start..end]);
        let (tokens, lex_error) = lex_in(&text, Dialect::Postgres);
        let mut p = Parser::new(self.src, &tokens, Dialect::Postgres, lex_error);
        p.pg_vars = vars;
        p.plpgsql = true;
        p.depth = self.depth;
        let mut body = p.plpgsql_block()?;
        if p.pg_perform {
            // PERFORM's hidden variable joins the block's first declaration, so the trace
            // shows no statement of its own; a block that declares nothing gets one,
            // spanned on the body's first word.
            let first_word = tokens
                .iter()
                .find(|t| t.start >= start)
                .map_or(start..start, |t| t.start..t.end);
            match body.first_mut().map(|s| &mut s.kind) {
                Some(StmtKind::Declare(vars)) => {
                    let span = vars.first().map_or(first_word, |v| v.span.clone());
                    let hidden = decl(PERFORM_VAR, DataType::VarChar(Len::Max), None, &span);
                    if let StmtKind::Declare(mut h) = hidden.kind {
                        vars.splice(0..0, h.drain(..));
                    }
                }
                _ => body.insert(
                    0,
                    decl(PERFORM_VAR, DataType::VarChar(Len::Max), None, &first_word),
                ),
            }
        }
        p.eat(Tok::Semi);
        if !p.at_eof() {
            return Err(p.unexpected());
        }
        if let Some(e) = p.lex_error.take() {
            return Err(e);
        }
        Ok(body)
    }

    /// `[DECLARE decls] BEGIN stmts [EXCEPTION WHEN ... THEN stmts ...] END`.
    fn plpgsql_block(&mut self) -> PResult<Vec<Stmt>> {
        self.enter("statement")?;
        let scope = self.pg_vars.len();
        let mut out = Vec::new();
        if self.eat_kw("DECLARE") {
            while !self.at_kw("BEGIN") {
                out.push(self.plpgsql_decl()?);
            }
        }
        self.expect_kw("BEGIN")?;
        let body = self.plpgsql_stmts(&["END", "EXCEPTION"])?;
        if self.at_kw("EXCEPTION") {
            let start = self.advance().start;
            let (handler, catches) = self.plpgsql_handlers()?;
            out.push(Stmt {
                kind: StmtKind::TryCatch {
                    body,
                    handler,
                    catches,
                },
                span: start..self.prev_end(),
            });
        } else {
            out.extend(body);
        }
        self.expect_kw("END")?;
        self.pg_vars.truncate(scope);
        self.leave();
        Ok(out)
    }

    /// `name [CONSTANT] type [NOT NULL] [{:= | = | DEFAULT} expr];`
    fn plpgsql_decl(&mut self) -> PResult<Stmt> {
        let start = self.cur_start();
        let name = self.ident()?;
        self.eat_kw("CONSTANT");
        let ty = self.data_type(false)?;
        if self.at_kw("NOT") {
            self.advance();
            self.expect_kw("NULL")?;
        }
        let init = if self.eat_assign() || self.eat_kw("DEFAULT") {
            Some(self.expr()?)
        } else {
            None
        };
        self.expect(Tok::Semi)?;
        self.pg_vars.push(name.value.to_ascii_lowercase());
        let span = start..self.prev_end();
        Ok(Stmt {
            kind: StmtKind::Declare(vec![VarDecl {
                name: Ident {
                    value: format!("@{}", name.value),
                    span: name.span,
                },
                ty,
                init,
                span: span.clone(),
            }]),
            span,
        })
    }

    /// `:=` or `=`.
    fn eat_assign(&mut self) -> bool {
        if self.kind_at(0) == Some(Tok::Colon) && self.kind_at(1) == Some(Tok::Eq) {
            self.advance();
            self.advance();
            return true;
        }
        self.eat(Tok::Eq)
    }

    /// Statements up to one of `ends` (not consumed), each ending with `;`.
    fn plpgsql_stmts(&mut self, ends: &[&'static str]) -> PResult<Vec<Stmt>> {
        let mut out = Vec::new();
        while !ends.iter().any(|e| self.kw_at(0, e)) {
            for e in ends {
                self.note(e);
            }
            if self.at_eof() {
                return Err(self.unexpected());
            }
            out.push(self.plpgsql_stmt()?);
        }
        Ok(out)
    }

    fn plpgsql_stmt(&mut self) -> PResult<Stmt> {
        self.enter("statement")?;
        let start = self.cur_start();
        let kind = self.plpgsql_stmt_kind()?;
        let span = start..self.prev_end();
        self.expect(Tok::Semi)?;
        self.leave();
        Ok(Stmt { kind, span })
    }

    fn plpgsql_stmt_kind(&mut self) -> PResult<StmtKind> {
        let word = self.word_at(0).unwrap_or_default();
        let span = self.cur_span();
        if self.is_pg_var(0)
            && (self.kind_at(1) == Some(Tok::Eq)
                || (self.kind_at(1) == Some(Tok::Colon) && self.kind_at(2) == Some(Tok::Eq)))
        {
            let name = self.ident()?;
            let name = self.pg_loop_var(name);
            self.eat_assign();
            let value = self.expr()?;
            return Ok(StmtKind::SetVar {
                name: var_ident(&name.value, name.span),
                value,
            });
        }
        match word.as_str() {
            "DECLARE" | "BEGIN" => Ok(StmtKind::Block(self.plpgsql_block()?)),
            "IF" => self.plpgsql_if(),
            "LOOP" => {
                self.advance();
                let body = self.plpgsql_loop_body()?;
                Ok(StmtKind::While {
                    cond: eq(int(1), int(1)),
                    body: Box::new(block(body, span)),
                })
            }
            "WHILE" => {
                self.advance();
                let cond = self.expr()?;
                self.expect_kw("LOOP")?;
                let body = self.plpgsql_loop_body()?;
                Ok(StmtKind::While {
                    cond,
                    body: Box::new(block(body, span)),
                })
            }
            "FOR" => self.plpgsql_for(),
            "EXIT" | "CONTINUE" => {
                self.advance();
                let kind = if word == "EXIT" {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                };
                if self.eat_kw("WHEN") {
                    let cond = self.expr()?;
                    return Ok(StmtKind::If {
                        cond,
                        then: Box::new(Stmt {
                            kind,
                            span: span.clone(),
                        }),
                        otherwise: None,
                    });
                }
                Ok(kind)
            }
            "PERFORM" => {
                self.advance();
                self.pg_perform = true;
                // `PERFORM * FROM ...` returns nothing either: the rows it reads (and
                // locks) are what count, and one constant stands for the star.
                let expr = if self.kind_at(0) == Some(Tok::Star) {
                    self.advance();
                    int(1)
                } else {
                    self.expr()?
                };
                if let ExprKind::Function { name, args, .. } = &expr.kind {
                    if name.eq_ignore_ascii_case("PG_SLEEP") && args.len() == 1 {
                        return Ok(StmtKind::Sleep {
                            seconds: args[0].clone(),
                        });
                    }
                }
                let mut select = self.pg_bare_select(expr, span.start)?;
                select.items = vec![SelectItem::Assign {
                    strict: false,
                    var: var_ident(&PERFORM_VAR[1..], span.clone()),
                    expr: match select.items.pop() {
                        Some(SelectItem::Expr { expr, .. }) => expr,
                        _ => int(0),
                    },
                }];
                Ok(StmtKind::Select(select))
            }
            "GET" => {
                self.advance();
                self.eat_kw("CURRENT");
                self.expect_kw("DIAGNOSTICS")?;
                let name = self.pg_var()?;
                if !self.eat_assign() {
                    self.expect(Tok::Eq)?;
                }
                self.expect_kw("ROW_COUNT")?;
                Ok(StmtKind::SetVar {
                    name,
                    value: global("ROWCOUNT"),
                })
            }
            "RAISE" => self.plpgsql_raise(),
            "RETURN" => {
                self.advance();
                let value = if self.at(Tok::Semi) {
                    None
                } else {
                    Some(self.expr()?)
                };
                Ok(StmtKind::Return(value))
            }
            "NULL" => {
                self.advance();
                Ok(StmtKind::Empty)
            }
            "COMMIT" | "ROLLBACK" => {
                // PG 11+: ends the transaction and begins the next one at once.
                self.advance();
                self.eat_kw("WORK");
                // Inside a procedure the next transaction begins at once either way.
                self.pg_chain()?;
                Ok(if word == "COMMIT" {
                    StmtKind::CommitTran {
                        name: None,
                        chain: true,
                    }
                } else {
                    StmtKind::RollbackTran {
                        name: None,
                        chain: true,
                    }
                })
            }
            _ => self.postgres_statement_kind(),
        }
    }

    /// `SELECT` after PERFORM's expression: `[FROM ...] [WHERE ...]`.
    fn pg_bare_select(&mut self, expr: Expr, start: usize) -> PResult<crate::ast::Select> {
        let from = if self.eat_kw("FROM") {
            self.table_refs()?
        } else {
            Vec::new()
        };
        let where_clause = self.where_clause()?;
        let mut select = crate::ast::Select {
            ctes: Vec::new(),
            distinct: false,
            top: None,
            items: vec![SelectItem::Expr { expr, alias: None }],
            into: None,
            from,
            where_clause,
            group_by: Vec::new(),
            having: None,
            order_by: Vec::new(),
            offset: None,
            set_op: None,
            span: start..self.prev_end(),
        };
        self.pg_query_tail(&mut select, false)?;
        Ok(select)
    }

    /// Loop body up to `END LOOP`.
    fn plpgsql_loop_body(&mut self) -> PResult<Vec<Stmt>> {
        let body = self.plpgsql_stmts(&["END"])?;
        self.expect_kw("END")?;
        self.expect_kw("LOOP")?;
        Ok(body)
    }

    /// `IF c THEN ... [ELSIF c THEN ...]* [ELSE ...] END IF`.
    fn plpgsql_if(&mut self) -> PResult<StmtKind> {
        let start = self.advance().start;
        let cond = self.expr()?;
        self.expect_kw("THEN")?;
        let then = self.plpgsql_stmts(&["ELSIF", "ELSEIF", "ELSE", "END"])?;
        let otherwise = if self.at_kw("ELSIF") || self.at_kw("ELSEIF") {
            let span = self.cur_span();
            Some(Box::new(Stmt {
                kind: self.plpgsql_if()?,
                span: span.start..self.prev_end(),
            }))
        } else {
            let o = if self.eat_kw("ELSE") {
                let span = self.cur_span();
                Some(Box::new(block(self.plpgsql_stmts(&["END"])?, span)))
            } else {
                None
            };
            self.expect_kw("END")?;
            self.expect_kw("IF")?;
            o
        };
        Ok(StmtKind::If {
            cond,
            then: Box::new(block(then, start..self.prev_end())),
            otherwise,
        })
    }

    /// `FOR i IN a..b LOOP ... END LOOP`: i counts from a to b.
    fn plpgsql_for(&mut self) -> PResult<StmtKind> {
        let start = self.advance().start;
        let name = self.ident()?;
        self.expect_kw("IN")?;
        if self.at_kw("REVERSE") || self.select_at(0) {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "FOR over a query or in REVERSE"));
        }
        let from = self.expr()?;
        // `a..b` lexes as `a.` `.b` or `a` `.` `.` `b`: take the dots between the bounds.
        let from = match from.kind {
            ExprKind::Literal(Literal::Decimal(d)) if d.ends_with('.') => Expr {
                kind: ExprKind::Literal(Literal::Int(d.trim_end_matches('.').parse().unwrap_or(0))),
                span: from.span,
            },
            _ => {
                self.expect(Tok::Dot)?;
                from
            }
        };
        let to = if self.at(Tok::Decimal) && self.text(&self.toks[self.pos]).starts_with('.') {
            let t = self.advance();
            let text = &self.src[t.start + 1..t.end];
            Expr {
                kind: ExprKind::Literal(Literal::Int(text.parse().map_err(|_| {
                    ParseError::new(t.clone(), "a FOR range's bound must be an integer")
                })?)),
                span: t,
            }
        } else {
            self.expect(Tok::Dot)?;
            self.expr()?
        };
        self.expect_kw("LOOP")?;
        // The loop's variable is its own, declared by the loop (PostgreSQL's integer
        // FOR), so a variable of the same name outside keeps its value.
        self.pg_loops += 1;
        let own = format!("{}#{}", name.value.to_ascii_lowercase(), self.pg_loops);
        self.pg_vars.push(name.value.to_ascii_lowercase());
        self.pg_loop_vars
            .push((name.value.to_ascii_lowercase(), own.clone()));
        let mut body = vec![set(&own, add(var(&own), int(1)), &(start..start))];
        let parsed = self.plpgsql_loop_body();
        self.pg_loop_vars.pop();
        self.pg_vars.pop();
        body.extend(parsed?);
        let span = start..self.prev_end();
        Ok(StmtKind::Block(vec![
            decl(&own, DataType::BigInt, Some(sub(from, int(1))), &span),
            stmt(
                StmtKind::While {
                    cond: Expr {
                        kind: ExprKind::Binary {
                            op: BinaryOp::Lt,
                            left: Box::new(var(&own)),
                            right: Box::new(to),
                        },
                        span: span.clone(),
                    },
                    body: Box::new(block(body, span.clone())),
                },
                &span,
            ),
        ]))
    }

    /// `RAISE NOTICE 'x = %', x` prints; `RAISE EXCEPTION '...'` raises P0001.
    /// WARNING and INFO print with their level, as psql shows them; LOG and DEBUG
    /// reach no client at the default `client_min_messages` (NOTICE), so they print
    /// nothing, though their arguments are still evaluated (an error in one is raised).
    fn plpgsql_raise(&mut self) -> PResult<StmtKind> {
        let start = self.advance().start;
        let level = self.word_at(0).unwrap_or_default();
        // (raises, prints nothing, printed before the message)
        let (exception, silent, prefix) = match level.as_str() {
            "EXCEPTION" => (true, false, ""),
            "NOTICE" => (false, false, ""),
            "WARNING" => (false, false, "WARNING: "),
            "INFO" => (false, false, "INFO: "),
            "LOG" | "DEBUG" => (false, true, ""),
            _ => return Err(self.not_simulated(start..self.cur_span().end, "this RAISE")),
        };
        let span_all = start..self.cur_span().end;
        self.advance();
        self.note("a string");
        if !self.at(Tok::Str) {
            return Err(self.unexpected());
        }
        let fmt_span = self.advance();
        let fmt = crate::lexer::unquote_string(&self.src[fmt_span.clone()]);
        let mut args = Vec::new();
        while self.eat(Tok::Comma) {
            args.push(self.expr()?);
        }
        if self.at_kw("USING") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "RAISE ... USING"));
        }
        let fmt = format!("{prefix}{fmt}");
        let message = format_message(&fmt, args, fmt_span);
        if silent {
            self.pg_perform = true;
            return Ok(StmtKind::SetVar {
                name: var_ident(&PERFORM_VAR[1..], span_all),
                value: message,
            });
        }
        Ok(if exception {
            StmtKind::Throw(Some(ThrowArgs {
                number: int(50000),
                message,
                state: int(1),
            }))
        } else {
            StmtKind::Print(message)
        })
    }

    /// `WHEN cond [OR cond] THEN stmts ...` up to END: one handler that runs the first
    /// arm whose condition names the error, and the numbers it takes (`None` with
    /// OTHERS): an error no arm names is not caught by the block.
    fn plpgsql_handlers(&mut self) -> PResult<(Vec<Stmt>, Option<Vec<i64>>)> {
        let mut arms: Vec<(Option<Expr>, Vec<Stmt>)> = Vec::new();
        // Every number some arm takes; none once an arm is OTHERS.
        let mut catches = Some(Vec::new());
        loop {
            let start = self.cur_start();
            self.expect_kw("WHEN")?;
            let mut numbers: Vec<i64> = Vec::new();
            let mut others = false;
            loop {
                let span = self.cur_span();
                let cond = self.ident()?;
                match condition_numbers(&cond.value.to_ascii_lowercase()) {
                    Some([]) => others = true,
                    Some(n) => numbers.extend_from_slice(n),
                    None => {
                        return Err(self.not_simulated(span, &format!("condition {}", cond.value)))
                    }
                }
                if !self.eat_kw("OR") {
                    break;
                }
            }
            self.expect_kw("THEN")?;
            let body = self.plpgsql_stmts(&["WHEN", "END"])?;
            let span = start..self.prev_end();
            match (&mut catches, others) {
                (Some(all), false) => all.extend_from_slice(&numbers),
                _ => catches = None,
            }
            let test = (!others).then(|| {
                let list = numbers.iter().map(|&n| int(n)).collect();
                Expr {
                    kind: ExprKind::InList {
                        expr: Box::new(Expr {
                            kind: ExprKind::Function {
                                name: "ERROR_NUMBER".into(),
                                args: Vec::new(),
                                star: false,
                                distinct: false,
                                over: None,
                                within_group: Vec::new(),
                            },
                            span: span.clone(),
                        }),
                        list,
                        negated: false,
                    },
                    span,
                }
            });
            arms.push((test, body));
            if !self.at_kw("WHEN") {
                break;
            }
        }
        // Build IF arm1 ELSE IF arm2 ... ELSE THROW from the last arm back.
        let span = self.cur_span();
        let mut tail = stmt(StmtKind::Throw(None), &span);
        for (test, body) in arms.into_iter().rev() {
            let body = block(body, span.clone());
            tail = match test {
                None => body,
                Some(cond) => stmt(
                    StmtKind::If {
                        cond,
                        then: Box::new(body),
                        otherwise: Some(Box::new(tail)),
                    },
                    &span,
                ),
            };
        }
        Ok((vec![tail], catches))
    }

    /// Whether the word `n` tokens ahead is a PL/pgSQL variable in scope.
    pub(super) fn is_pg_var(&self, n: usize) -> bool {
        !self.pg_vars.is_empty()
            && self.kind_at(n) == Some(Tok::Word)
            && (self.kind_at(n + 1) != Some(Tok::Dot) || self.kind_at(n + 2) == Some(Tok::Dot))
            && self.kind_at(n + 1) != Some(Tok::LParen)
            && self
                .tok_at(n)
                .is_some_and(|t| self.pg_vars.contains(&self.text(t).to_ascii_lowercase()))
    }

    /// A variable in scope, as its `@` name.
    pub(super) fn pg_var(&mut self) -> PResult<Ident> {
        self.note("a variable");
        if !self.is_pg_var(0) {
            return Err(self.unexpected());
        }
        let name = self.ident()?;
        let name = self.pg_loop_var(name);
        Ok(var_ident(&name.value, name.span))
    }

    /// A name that a FOR loop in scope declares is that loop's own variable.
    fn pg_loop_var(&self, name: Ident) -> Ident {
        match (self.pg_loop_vars.iter().rev()).find(|(n, _)| n.eq_ignore_ascii_case(&name.value)) {
            Some((_, own)) => Ident {
                value: own.clone(),
                span: name.span,
            },
            None => name,
        }
    }

    /// `INTO a, b` after a select list or RETURNING: the items become assignments.
    pub(super) fn pg_into(&mut self, items: &mut [SelectItem]) -> PResult<()> {
        let into = self.advance();
        let strict = self.eat_kw("STRICT");
        let mut vars = vec![self.pg_var()?];
        while self.eat(Tok::Comma) {
            vars.push(self.pg_var()?);
        }
        if vars.len() != items.len() {
            return Err(ParseError::new(
                into.start..self.prev_end(),
                format!(
                    "INTO names {} variable(s) for {} value(s)",
                    vars.len(),
                    items.len()
                ),
            ));
        }
        for (item, var) in items.iter_mut().zip(vars) {
            let expr = match item {
                SelectItem::Expr { expr, .. } => expr.clone(),
                _ => {
                    return Err(self.not_simulated(into.clone(), "INTO with a * select list"));
                }
            };
            *item = SelectItem::Assign { var, expr, strict };
        }
        Ok(())
    }
}

/// The error numbers an exception condition catches (the executor's numbers);
/// `Some([])` for OTHERS.
fn condition_numbers(name: &str) -> Option<&'static [i64]> {
    Some(match name {
        "others" => &[],
        "unique_violation" => &[2601, 2627],
        "lock_not_available" => &[1222],
        "deadlock_detected" => &[1205],
        // A snapshot's update conflict, and serializable snapshot isolation's failure
        // (`engine::RW_DEPENDENCY_FAILURE`).
        "serialization_failure" => &[3960, 100_001],
        // INTO STRICT's errors (P0002, P0003) have no number of their own elsewhere.
        "no_data_found" => &[100_002],
        "too_many_rows" => &[100_003],
        "division_by_zero" => &[8134],
        "raise_exception" => &[50000],
        "not_null_violation" => &[515],
        "check_violation" => &[547],
        // A foreign key's 23503 (`engine::FOREIGN_KEY_VIOLATION`).
        "foreign_key_violation" => &[100_004],
        _ => return None,
    })
}

/// `'x = %'` with its arguments: the text with each `%` replaced by the next argument.
fn format_message(fmt: &str, args: Vec<Expr>, span: Span) -> Expr {
    let text = |s: &str| Expr {
        kind: ExprKind::Literal(Literal::Str {
            value: s.into(),
            national: false,
        }),
        span: span.clone(),
    };
    let mut args = args.into_iter();
    let mut parts: Vec<Expr> = Vec::new();
    let mut rest = fmt;
    while let Some(k) = rest.find('%') {
        if rest[k + 1..].starts_with('%') {
            parts.push(text(&rest[..=k]));
            rest = &rest[k + 2..];
            continue;
        }
        parts.push(text(&rest[..k]));
        if let Some(a) = args.next() {
            let a_span = a.span.clone();
            parts.push(Expr {
                kind: ExprKind::Function {
                    name: crate::RAISE_ARG.into(),
                    args: vec![a],
                    star: false,
                    distinct: false,
                    over: None,
                    within_group: Vec::new(),
                },
                span: a_span,
            });
        }
        rest = &rest[k + 1..];
    }
    parts.push(text(rest));
    parts
        .into_iter()
        .reduce(|a, b| Expr {
            span: a.span.start.min(b.span.start)..a.span.end.max(b.span.end),
            kind: ExprKind::Binary {
                op: BinaryOp::Add,
                left: Box::new(a),
                right: Box::new(b),
            },
        })
        .unwrap_or_else(|| text(""))
}

fn var_ident(name: &str, span: Span) -> Ident {
    Ident {
        value: format!("@{name}"),
        span,
    }
}

fn var(name: &str) -> Expr {
    let name = if name.starts_with('@') {
        name.to_string()
    } else {
        format!("@{name}")
    };
    Expr {
        kind: ExprKind::Var(name),
        span: 0..0,
    }
}

fn global(name: &str) -> Expr {
    Expr {
        kind: ExprKind::Global(name.into()),
        span: 0..0,
    }
}

fn int(n: i64) -> Expr {
    Expr {
        kind: ExprKind::Literal(Literal::Int(n)),
        span: 0..0,
    }
}

fn binary(op: BinaryOp, left: Expr, right: Expr) -> Expr {
    Expr {
        span: left.span.start..right.span.end.max(left.span.end),
        kind: ExprKind::Binary {
            op,
            left: Box::new(left),
            right: Box::new(right),
        },
    }
}

fn eq(left: Expr, right: Expr) -> Expr {
    binary(BinaryOp::Eq, left, right)
}

fn add(left: Expr, right: Expr) -> Expr {
    binary(BinaryOp::Add, left, right)
}

fn sub(left: Expr, right: Expr) -> Expr {
    binary(BinaryOp::Sub, left, right)
}

fn stmt(kind: StmtKind, span: &Span) -> Stmt {
    Stmt {
        kind,
        span: span.clone(),
    }
}

fn block(stmts: Vec<Stmt>, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Block(stmts),
        span,
    }
}

fn set(name: &str, value: Expr, span: &Span) -> Stmt {
    let name = name.trim_start_matches('@');
    stmt(
        StmtKind::SetVar {
            name: var_ident(name, span.clone()),
            value,
        },
        span,
    )
}

fn decl(name: &str, ty: DataType, init: Option<Expr>, span: &Span) -> Stmt {
    let name = name.trim_start_matches('@');
    stmt(
        StmtKind::Declare(vec![VarDecl {
            name: var_ident(name, span.clone()),
            ty,
            init,
            span: span.clone(),
        }]),
        span,
    )
}

/// A call `name(args)` as a statement's only item: a procedure call when the name is
/// not one the executor knows as a function.
pub(super) fn routine_call(select: &crate::ast::Select) -> Option<StmtKind> {
    let [SelectItem::Expr { expr, alias }] = select.items.as_slice() else {
        return None;
    };
    let ExprKind::Function { name, args, .. } = &expr.kind else {
        return None;
    };
    if !select.from.is_empty() || select.where_clause.is_some() || is_builtin(name) {
        return None;
    }
    Some(StmtKind::Exec(Exec {
        return_var: None,
        result_column: Some(
            alias
                .as_ref()
                .map_or_else(|| name.to_ascii_lowercase(), |a| a.value.clone()),
        ),
        procedure: ObjectName {
            parts: vec![Ident {
                value: name.to_ascii_lowercase(),
                span: expr.span.clone(),
            }],
            span: expr.span.clone(),
        },
        args: args
            .iter()
            .map(|a| Arg {
                name: None,
                value: a.clone(),
                output: false,
                span: a.span.clone(),
            })
            .collect(),
    }))
}

/// Functions a lesson's `SELECT f(...)` means as the executor's, not a routine's.
fn is_builtin(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.starts_with("PG_")
        || [
            "SYSDATETIME",
            "TRANSACTION_TIMESTAMP",
            "CLOCK_TIMESTAMP",
            "COUNT",
            "SUM",
            "MIN",
            "MAX",
            "AVG",
            "COALESCE",
            "NULLIF",
            "UPPER",
            "LOWER",
            "LENGTH",
            "LEN",
            "ABS",
            "ROUND",
            "CONCAT",
            "REPLACE",
            "SUBSTRING",
            "RANDOM",
            "GREATEST",
            "LEAST",
            "CHAR_LENGTH",
            "CHARACTER_LENGTH",
            "SUBSTR",
            "STRPOS",
            "LPAD",
            "RPAD",
            "SPLIT_PART",
            "INITCAP",
            "FORMAT",
            "HASHTEXT",
            "CHR",
            "ASCII",
            "REPEAT",
            "REVERSE",
            "BTRIM",
            "LTRIM",
            "RTRIM",
            "TRIM",
            "LEFT",
            "RIGHT",
            "MOD",
            "TRUNC",
            "FLOOR",
            "CEIL",
            "CEILING",
            "POWER",
            "SQRT",
            "SIGN",
            "DATE_TRUNC",
            "DATE_PART",
            "NOW",
            "CLOCK_TIMESTAMP",
            "STATEMENT_TIMESTAMP",
        ]
        .contains(&upper.as_str())
}
