//! SELECT, CTEs, FROM with joins and table hints, TOP, ORDER BY.

use super::{PResult, Parser};
use crate::ast::{
    Cte, Expr, ExprKind, HintKind, Ident, Join, JoinKind, Offset, OrderItem, Select, SelectItem,
    SetOp, Span, Stmt, StmtKind, TableFactor, TableHint, TableRef, Top,
};
use crate::keywords;
use crate::lexer::{unquote_string, Tok};
use crate::Dialect;

/// Tables one FROM may join (see [`Parser::table_refs`]).
const MAX_TABLES: usize = 256;

/// Compound assignment tokens and the operator they apply (`@x += 1` is `@x = @x + 1`).
pub(crate) const COMPOUND_OPS: &[(Tok, crate::ast::BinaryOp)] = {
    use crate::ast::BinaryOp::*;
    &[
        (Tok::PlusEq, Add),
        (Tok::MinusEq, Sub),
        (Tok::StarEq, Mul),
        (Tok::SlashEq, Div),
        (Tok::PercentEq, Mod),
        (Tok::AmpEq, BitAnd),
        (Tok::PipeEq, BitOr),
        (Tok::CaretEq, BitXor),
    ]
};

impl Parser<'_> {
    /// `[WITH ctes] SELECT ...`, as a statement, subquery or CTE body.
    pub(crate) fn select_query(&mut self) -> PResult<Select> {
        self.enter("query")?;
        let start = self.cur_start();
        let ctes = if self.at_kw("WITH") {
            self.ctes()?
        } else {
            Vec::new()
        };
        let mut select = self.select_body()?;
        select.ctes = ctes;
        select.span.start = start;
        self.leave();
        Ok(select)
    }

    /// `WITH a AS (...), b (x, y) AS (...)`.
    pub(crate) fn ctes(&mut self) -> PResult<Vec<Cte>> {
        self.expect_kw("WITH")?;
        if self.kw_at(0, "XMLNAMESPACES") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "WITH XMLNAMESPACES"));
        }
        let mut ctes = Vec::new();
        loop {
            let name = self.ident()?;
            let columns = if self.at(Tok::LParen) {
                self.ident_list_in_parens()?
            } else {
                Vec::new()
            };
            self.expect_kw("AS")?;
            self.expect(Tok::LParen)?;
            let modify = if self.postgres()
                && ["INSERT", "UPDATE", "DELETE"]
                    .iter()
                    .any(|w| self.kw_at(0, w))
            {
                if !self.statement_with {
                    // The server refuses it too (0A000), when it analyses the statement.
                    let span = self.cur_span();
                    return Err(self.not_simulated(
                        span,
                        "INSERT, UPDATE or DELETE in a WITH that is not at the top level",
                    ));
                }
                // Its own statement's WITH is not the top level's.
                self.statement_with = false;
                let start = self.cur_span().start;
                let kind = if self.kw_at(0, "INSERT") {
                    StmtKind::Insert(self.insert(Vec::new())?)
                } else if self.kw_at(0, "UPDATE") {
                    StmtKind::Update(self.update(Vec::new())?)
                } else {
                    StmtKind::Delete(self.delete(Vec::new())?)
                };
                self.statement_with = true;
                Some(Box::new(Stmt {
                    kind,
                    span: start..self.prev_end(),
                }))
            } else {
                None
            };
            let query = match &modify {
                Some(m) => empty_select(m.span.clone()),
                None => {
                    // A WITH inside the body is not at the top level.
                    let top = std::mem::replace(&mut self.statement_with, false);
                    let query = self.select_query();
                    self.statement_with = top;
                    query?
                }
            };
            self.expect(Tok::RParen)?;
            ctes.push(Cte {
                span: name.span.start..self.prev_end(),
                name,
                columns,
                query: Box::new(query),
                modify,
            });
            if !self.eat(Tok::Comma) {
                return Ok(ctes);
            }
        }
    }

    /// SELECT cores joined by set operators, then ORDER BY for the whole.
    fn select_body(&mut self) -> PResult<Select> {
        self.chain(Self::select_links)
    }

    fn select_links(&mut self) -> PResult<Select> {
        let mut head = self.select_core()?;
        let mut rest: Vec<(SetOp, Select)> = Vec::new();
        loop {
            if ["UNION", "EXCEPT", "INTERSECT"]
                .iter()
                .any(|w| self.at_kw(w))
                || (self.teradata() && self.at_kw("MINUS"))
            {
                self.link("query")?;
            }
            let op = if self.eat_kw("UNION") {
                if self.eat_kw("ALL") {
                    SetOp::UnionAll
                } else {
                    SetOp::Union
                }
            } else if self.eat_kw("EXCEPT") {
                SetOp::Except
            } else if self.eat_kw("INTERSECT") {
                SetOp::Intersect
            } else if self.teradata() && self.eat_kw("MINUS") {
                SetOp::Except
            } else {
                break;
            };
            if self.at(Tok::LParen) {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "parenthesized set operands"));
            }
            rest.push((op, self.select_core()?));
        }
        if self.at_kw("ORDER") {
            head.order_by = self.order_by()?;
            if self.kw_at(0, "OFFSET") && self.teradata() {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "OFFSET ... FETCH"));
            }
            if self.kw_at(0, "OFFSET") && !self.postgres() {
                head.offset = Some(self.tsql_offset(head.top.is_some())?);
            }
        }
        if self.postgres() {
            self.pg_query_tail(&mut head, !rest.is_empty())?;
        }
        self.teradata_clauses_not_simulated()?;
        if self.kw_at(0, "OPTION") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "query hints (OPTION)"));
        }
        if self.kw_at(0, "FOR") {
            let span = self.cur_span();
            // PostgreSQL's row-locking clause, typed in a T-SQL script: SQL Server takes it
            // only in DECLARE CURSOR, and locks a query's rows by table hints instead.
            const LOCKING: [&str; 4] = ["UPDATE", "SHARE", "NO", "KEY"];
            let words: Vec<String> = (1..5)
                .map_while(|k| self.word_at(k).filter(|w| LOCKING.contains(&w.as_str())))
                .collect();
            if !words.is_empty() && !self.teradata() {
                let end = self.tok_at(words.len()).map_or(span.end, |t| t.end);
                return Err(crate::ParseError::new(
                    span.start..end,
                    format!(
                        "FOR {} is not T-SQL outside DECLARE CURSOR: lock the rows a query \
                         reads with table hints after the table name, e.g. \
                         FROM dbo.task WITH (UPDLOCK, READPAST, ROWLOCK) for PostgreSQL's \
                         FOR UPDATE SKIP LOCKED",
                        words.join(" ")
                    ),
                ));
            }
            if !words.is_empty() {
                let end = self.tok_at(words.len()).map_or(span.end, |t| t.end);
                return Err(crate::ParseError::new(
                    span.start..end,
                    format!(
                        "FOR {} is not Teradata SQL: lock the rows a query reads with a \
                         LOCKING modifier before it (LOCKING ROW FOR WRITE SELECT ...), and \
                         take each row of a queue table once with SELECT AND CONSUME TOP 1",
                        words.join(" ")
                    ),
                ));
            }
            return Err(self.not_simulated(span, "FOR XML/JSON/BROWSE"));
        }
        // Nest the chain to the right: a.set_op = (op1, b), b.set_op = (op2, c).
        let end = self.prev_end();
        let mut tail: Option<(SetOp, Box<Select>)> = None;
        while let Some((op, mut select)) = rest.pop() {
            select.set_op = tail.take();
            select.span.end = end;
            tail = Some((op, Box::new(select)));
        }
        head.set_op = tail;
        head.span.end = end;
        Ok(head)
    }

    fn select_core(&mut self) -> PResult<Select> {
        if !self.at_select() {
            return Err(self.unexpected());
        }
        let start = self.advance().start;
        if self.kw_at(0, "AND") && self.kw_at(1, "CONSUME") {
            let span = start..self.tok_at(1).map_or(self.eof, |t| t.end);
            if self.teradata() {
                // A statement or INSERT source never gets here: only nested queries do.
                return Err(crate::ParseError::new(
                    span,
                    "SELECT AND CONSUME cannot be used in a subquery or with a set operator",
                ));
            }
            return Err(self.teradata_syntax("SELECT AND CONSUME", span));
        }
        let distinct = if self.eat_kw("DISTINCT") {
            if self.postgres() && self.at_kw("ON") {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "DISTINCT ON"));
            }
            true
        } else {
            self.eat_kw("ALL");
            false
        };
        let top = if self.at_kw("TOP") {
            Some(self.top(true)?)
        } else {
            None
        };
        let mut items = vec![self.select_item(true)?];
        while self.eat(Tok::Comma) {
            items.push(self.select_item(true)?);
        }
        check_assignments(&items)?;
        if self.postgres() && self.kw_at(0, "INTO") && !self.pg_vars.is_empty() {
            self.pg_into(&mut items)?;
        }
        let mut into = None;
        if self.kw_at(0, "INTO") {
            if self.teradata() || self.kind_at(1) == Some(Tok::Var) {
                let into = self.advance();
                let end = if self.ident_at(0) || self.kind_at(0) == Some(Tok::Var) {
                    self.advance().end
                } else {
                    into.end
                };
                return Err(self.not_simulated(into.start..end, "SELECT INTO"));
            }
            self.advance();
            into = Some(self.object_name()?);
        }
        let from = if self.eat_kw("FROM") {
            self.table_refs()?
        } else {
            Vec::new()
        };
        let where_clause = self.where_clause()?;
        let mut group_by = Vec::new();
        if self.eat_kw("GROUP") {
            self.expect_kw("BY")?;
            if self.kw_at(0, "ALL") {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "GROUP BY ALL"));
            }
            group_by.push(self.expr()?);
            while self.eat(Tok::Comma) {
                group_by.push(self.expr()?);
            }
            if self.kw_at(0, "WITH") && !matches!(self.kind_at(1), Some(Tok::LParen)) {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "GROUP BY ... WITH ROLLUP/CUBE"));
            }
        }
        let having = if self.eat_kw("HAVING") {
            Some(self.condition()?)
        } else {
            None
        };
        self.teradata_clauses_not_simulated()?;
        Ok(Select {
            ctes: Vec::new(),
            distinct,
            top,
            items,
            into,
            from,
            where_clause,
            group_by,
            having,
            order_by: Vec::new(),
            offset: None,
            set_op: None,
            span: start..self.prev_end(),
        })
    }

    pub(crate) fn where_clause(&mut self) -> PResult<Option<Expr>> {
        if !self.eat_kw("WHERE") {
            return Ok(None);
        }
        if self.kw_at(0, "CURRENT") && self.kw_at(1, "OF") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "cursors (WHERE CURRENT OF)"));
        }
        Ok(Some(self.condition()?))
    }

    /// T-SQL's `OFFSET n {ROW | ROWS} [FETCH {FIRST | NEXT} m {ROW | ROWS} ONLY]`.
    fn tsql_offset(&mut self, top: bool) -> PResult<Offset> {
        let start = self.expect_kw("OFFSET")?.start;
        if top {
            return Err(crate::ParseError::new(
                start..self.cur_start(),
                "A TOP can not be used in the same query or sub-query as a OFFSET.",
            ));
        }
        let skip = self.expr()?;
        self.row_or_rows()?;
        let mut fetch = None;
        if self.eat_kw("FETCH") {
            if !self.eat_kw("NEXT") {
                self.note("NEXT");
                self.expect_kw("FIRST")?;
            }
            fetch = Some(self.expr()?);
            self.row_or_rows()?;
            self.expect_kw("ONLY")?;
        }
        Ok(Offset {
            skip,
            fetch,
            span: start..self.prev_end(),
        })
    }

    /// `ROW` or `ROWS`, after an OFFSET or FETCH count.
    pub(crate) fn row_or_rows(&mut self) -> PResult<()> {
        if !self.eat_kw("ROW") {
            self.note("ROW");
            self.expect_kw("ROWS")?;
        }
        Ok(())
    }

    /// `TOP (expr) [PERCENT] [WITH TIES]`; `TOP n` without parentheses only in SELECT.
    pub(crate) fn top(&mut self, bare_allowed: bool) -> PResult<Top> {
        let start = self.expect_kw("TOP")?.start;
        if self.postgres() {
            return Err(self.tsql_syntax("TOP (use LIMIT)", start..self.prev_end()));
        }
        if self.teradata() && self.kind_at(0) == Some(Tok::LParen) {
            return Err(self.tsql_syntax("TOP (n)", self.cur_span()));
        }
        let count = if self.at(Tok::LParen) {
            self.tsql_only("TOP (n)", self.cur_span())?;
            self.advance();
            let e = self.expr()?;
            self.expect(Tok::RParen)?;
            e
        } else if bare_allowed && self.at(Tok::Int) {
            self.primary_number()?
        } else {
            return Err(self.unexpected());
        };
        let percent = self.eat_kw("PERCENT");
        let with_ties = if self.kw_at(0, "WITH") && self.kw_at(1, "TIES") {
            self.advance();
            self.advance();
            true
        } else {
            false
        };
        Ok(Top {
            count,
            percent,
            with_ties,
            span: start..self.prev_end(),
        })
    }

    fn primary_number(&mut self) -> PResult<Expr> {
        let span = self.advance();
        let text = &self.src[span.clone()];
        let n = text
            .parse::<i64>()
            .map_err(|_| crate::ParseError::new(span.clone(), "number too large"))?;
        Ok(Expr {
            kind: ExprKind::Literal(crate::ast::Literal::Int(n)),
            span,
        })
    }

    pub(crate) fn order_by(&mut self) -> PResult<Vec<OrderItem>> {
        self.expect_kw("ORDER")?;
        self.expect_kw("BY")?;
        let mut items = Vec::new();
        loop {
            let expr = self.expr()?;
            let desc = if self.eat_kw("DESC") {
                true
            } else {
                self.eat_kw("ASC");
                false
            };
            let nulls_first = if self.dialect == Dialect::Postgres && self.kw_at(0, "NULLS") {
                self.advance();
                if self.eat_kw("FIRST") {
                    Some(true)
                } else {
                    self.expect_kw("LAST")?;
                    Some(false)
                }
            } else {
                None
            };
            items.push(OrderItem {
                expr,
                desc,
                nulls_first,
            });
            if !self.eat(Tok::Comma) {
                return Ok(items);
            }
        }
    }

    /// One item of a select list, or of OUTPUT (`allow_assign` false).
    pub(crate) fn select_item(&mut self, allow_assign: bool) -> PResult<SelectItem> {
        if self.at(Tok::Star) {
            let span = self.advance();
            return Ok(SelectItem::Wildcard {
                qualifier: None,
                span,
            });
        }
        // `t.*`
        if self.ident_at(0)
            && self.kind_at(1) == Some(Tok::Dot)
            && self.kind_at(2) == Some(Tok::Star)
        {
            let qualifier = self.ident()?;
            self.advance();
            let end = self.advance().end;
            return Ok(SelectItem::Wildcard {
                span: qualifier.span.start..end,
                qualifier: Some(qualifier),
            });
        }
        // `@v = expr`: an assignment, never an alias.
        if allow_assign && self.kind_at(0) == Some(Tok::Var) {
            if let Some(op) = self.assign_op_at(1) {
                let var = self.var_ident()?;
                self.use_var(&var, false)?;
                self.advance();
                let value = self.expr()?;
                let expr = desugar_compound(op, var_expr(&var), value);
                return Ok(SelectItem::Assign {
                    var,
                    expr,
                    strict: false,
                });
            }
        }
        // `alias = expr`; in PostgreSQL a comparison, whose value is a boolean.
        if self.kind_at(1) == Some(Tok::Eq)
            && (self.ident_at(0) || self.kind_at(0) == Some(Tok::Str))
            && !self.postgres()
        {
            let span = self.cur_start()..self.tok_at(1).map_or(self.eof, |t| t.end);
            self.tsql_only("alias = expression in a select list", span)?;
            let alias = self.alias_name()?;
            self.advance();
            let expr = self.expr()?;
            return Ok(SelectItem::Expr {
                expr,
                alias: Some(alias),
            });
        }
        let expr = self.expr()?;
        let alias = self.opt_alias()?;
        Ok(SelectItem::Expr { expr, alias })
    }

    /// `=` or a compound assignment operator `n` tokens ahead (quiet): `None` for plain `=`
    /// is `Some(None)`, for `+=` it is `Some(Some(Add))`.
    pub(crate) fn assign_op_at(&self, n: usize) -> Option<Option<crate::ast::BinaryOp>> {
        let kind = self.kind_at(n)?;
        if kind == Tok::Eq {
            return Some(None);
        }
        COMPOUND_OPS
            .iter()
            .find(|(t, _)| *t == kind)
            .map(|&(_, op)| Some(op))
    }

    /// An identifier or a string used as a column alias.
    fn alias_name(&mut self) -> PResult<Ident> {
        if self.at(Tok::Str) {
            let span = self.advance();
            return Ok(Ident {
                value: unquote_string(&self.src[span.clone()]),
                span,
            });
        }
        self.ident()
    }

    /// `[AS] alias` after a select item.
    fn opt_alias(&mut self) -> PResult<Option<Ident>> {
        if self.eat_kw("AS") {
            // PostgreSQL takes any keyword after AS as a column label (`AS top`,
            // `AS order`): its grammar's ColLabel.
            if self.dialect == Dialect::Postgres && self.kind_at(0) == Some(Tok::Word) {
                let t = &self.toks[self.pos];
                let span = self.advance();
                return Ok(Some(Ident {
                    value: self.text(t).to_string(),
                    span,
                }));
            }
            return Ok(Some(self.alias_name()?));
        }
        self.note("an alias");
        let implicit = match self.tok_at(0) {
            Some(t) if t.kind == Tok::Word => keywords::can_be_alias(self.text(t), self.dialect),
            Some(t) => matches!(t.kind, Tok::QuotedIdent | Tok::Str),
            None => false,
        };
        if implicit {
            Ok(Some(self.alias_name()?))
        } else {
            Ok(None)
        }
    }

    /// `[AS] alias` after a table (no strings).
    pub(super) fn opt_table_alias(&mut self) -> PResult<Option<Ident>> {
        if self.eat_kw("AS") {
            return Ok(Some(self.ident()?));
        }
        self.note("an alias");
        let implicit = match self.tok_at(0) {
            Some(t) if t.kind == Tok::Word => keywords::can_be_alias(self.text(t), self.dialect),
            Some(t) => t.kind == Tok::QuotedIdent,
            None => false,
        };
        if implicit {
            Ok(Some(self.ident()?))
        } else {
            Ok(None)
        }
    }

    pub(crate) fn table_refs(&mut self) -> PResult<Vec<TableRef>> {
        let mut refs = vec![self.table_ref()?];
        while self.eat(Tok::Comma) {
            refs.push(self.table_ref()?);
        }
        // The simulator joins by nested loops and resolves names among every table
        // joined so far: 3 000 joins took seconds for one statement.
        let spans = refs
            .iter()
            .flat_map(|r| std::iter::once(r.factor.span()).chain(r.joins.iter().map(|j| &j.span)));
        if let Some(span) = spans.clone().nth(MAX_TABLES) {
            return Err(self.not_simulated(
                span.clone(),
                &format!("more than {MAX_TABLES} tables in one FROM (SQL Server takes more)"),
            ));
        }
        Ok(refs)
    }

    fn table_ref(&mut self) -> PResult<TableRef> {
        let factor = self.table_factor()?;
        let mut joins = Vec::new();
        loop {
            let start = self.cur_start();
            let kind = if self.eat_kw("JOIN") {
                JoinKind::Inner
            } else if self.eat_kw("INNER") {
                self.join_keyword()?;
                JoinKind::Inner
            } else if self.eat_kw("LEFT") {
                self.eat_kw("OUTER");
                self.join_keyword()?;
                JoinKind::LeftOuter
            } else if self.eat_kw("RIGHT") {
                self.eat_kw("OUTER");
                self.join_keyword()?;
                JoinKind::RightOuter
            } else if self.eat_kw("FULL") {
                self.eat_kw("OUTER");
                self.join_keyword()?;
                JoinKind::FullOuter
            } else if self.eat_kw("CROSS") {
                if self.teradata() && self.kw_at(0, "APPLY") {
                    let span = start..self.cur_span().end;
                    return Err(self.tsql_syntax("CROSS APPLY", span));
                }
                if self.eat_kw("APPLY") {
                    JoinKind::CrossApply
                } else {
                    self.expect_kw("JOIN")?;
                    JoinKind::Cross
                }
            } else if self.teradata() && self.kw_at(0, "OUTER") && self.kw_at(1, "APPLY") {
                let span = start..self.tok_at(1).map_or(self.eof, |t| t.end);
                return Err(self.tsql_syntax("OUTER APPLY", span));
            } else if !self.teradata() && self.at_kw("OUTER") && self.kw_at(1, "APPLY") {
                self.advance();
                self.advance();
                JoinKind::OuterApply
            } else {
                return Ok(TableRef { factor, joins });
            };
            let factor = self.table_factor()?;
            let on = match kind {
                JoinKind::Cross | JoinKind::CrossApply | JoinKind::OuterApply => None,
                _ => {
                    if self.at_kw("USING") {
                        let span = self.cur_span();
                        return Err(self.not_simulated(span, "JOIN ... USING (write ON a.c = b.c)"));
                    }
                    self.expect_kw("ON")?;
                    Some(self.condition()?)
                }
            };
            joins.push(Join {
                kind,
                factor,
                on,
                span: start..self.prev_end(),
            });
        }
    }

    /// `JOIN` after INNER/LEFT/...; join hints (`LOOP`, `HASH`, ...) are not simulated.
    fn join_keyword(&mut self) -> PResult<()> {
        if let Some(w @ ("LOOP" | "HASH" | "MERGE" | "REMOTE")) = self.word_at(0).as_deref() {
            let span = self.cur_span();
            return Err(self.not_simulated(span, &format!("join hint {w}")));
        }
        self.expect_kw("JOIN")?;
        Ok(())
    }

    pub(crate) fn table_factor(&mut self) -> PResult<TableFactor> {
        let start = self.cur_start();
        if self.at(Tok::LParen) {
            if self.select_at(1) || self.kw_at(1, "WITH") {
                self.advance();
                let query = self.select_query()?;
                self.expect(Tok::RParen)?;
                let (alias, columns) = self.derived_alias()?;
                return Ok(TableFactor::Derived {
                    query: Box::new(query),
                    alias,
                    columns,
                    span: start..self.prev_end(),
                });
            }
            if self.kw_at(1, "VALUES") {
                let span = self.cur_start()..self.tok_at(1).map_or(self.eof, |t| t.end);
                // Standard SQL, which PostgreSQL has too; Teradata has not.
                if self.teradata() {
                    self.tsql_only("VALUES as a table", span)?;
                }
                self.advance();
                self.advance();
                let rows = self.values_rows()?;
                self.expect(Tok::RParen)?;
                let (alias, columns) = self.derived_alias()?;
                return Ok(TableFactor::Values {
                    rows,
                    alias,
                    columns,
                    span: start..self.prev_end(),
                });
            }
            let span = self.cur_span();
            return Err(self.not_simulated(span, "parenthesized joins"));
        }
        if self.at(Tok::Var) {
            let name = self.var_ident()?;
            self.use_var(&name, true)?;
            let alias = self.opt_table_alias()?;
            return Ok(TableFactor::TableVar {
                name,
                alias,
                span: start..self.prev_end(),
            });
        }
        let name = self.object_name()?;
        if self.teradata() {
            return self.teradata_table_factor(name, start);
        }
        if self.postgres()
            && self.at(Tok::LParen)
            && name.parts.len() == 1
            && name.name().value.eq_ignore_ascii_case("generate_series")
        {
            return self.pg_series(name.name().clone(), start);
        }
        let mut hints = Vec::new();
        if self.at(Tok::LParen) {
            if !self.hint_word_at(1) {
                return Err(self.not_simulated(name.span, "table-valued functions"));
            }
            hints = self.table_hints(self.cur_start())?;
        }
        let alias = self.opt_table_alias()?;
        if self.kw_at(0, "TABLESAMPLE") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "TABLESAMPLE"));
        }
        if hints.is_empty() {
            if self.at_kw("WITH") && self.kind_at(1) == Some(Tok::LParen) {
                let with = self.advance();
                hints = self.table_hints(with.start)?;
            } else if self.at(Tok::LParen) && self.hint_word_at(1) {
                hints = self.table_hints(self.cur_start())?;
            }
        }
        Ok(TableFactor::Table {
            name,
            alias,
            hints,
            span: start..self.prev_end(),
        })
    }

    /// A table name and its alias in Teradata; T-SQL's hints are reported without being
    /// listed among the expected tokens.
    pub(super) fn teradata_table_factor(
        &mut self,
        name: crate::ast::ObjectName,
        start: usize,
    ) -> PResult<TableFactor> {
        if self.kind_at(0) == Some(Tok::LParen) {
            if self.hint_word_at(1) {
                self.table_hints(self.cur_start())?;
            }
            return Err(self.not_simulated(name.span, "table functions"));
        }
        let alias = self.opt_table_alias()?;
        if self.kw_at(0, "WITH") && self.kind_at(1) == Some(Tok::LParen) {
            let with = self.advance();
            self.table_hints(with.start)?;
        }
        if self.kind_at(0) == Some(Tok::LParen) && self.hint_word_at(1) {
            self.table_hints(self.cur_start())?;
        }
        Ok(TableFactor::Table {
            name,
            alias,
            hints: Vec::new(),
            span: start..self.prev_end(),
        })
    }

    /// Teradata clauses that are valid but not simulated: QUALIFY, SAMPLE, WITH ... BY.
    fn teradata_clauses_not_simulated(&self) -> PResult<()> {
        if !self.teradata() {
            return Ok(());
        }
        for w in ["QUALIFY", "SAMPLE", "EXPAND"] {
            if self.kw_at(0, w) {
                return Err(self.not_simulated(self.cur_span(), w));
            }
        }
        if self.kw_at(0, "WITH") {
            return Err(self.not_simulated(self.cur_span(), "WITH ... BY (summary lines)"));
        }
        Ok(())
    }

    /// `[AS] alias [(columns)]` after a derived table or VALUES; the alias is required.
    /// `generate_series(start, stop [, step]) [[AS] alias [(column)]]` after its name.
    fn pg_series(&mut self, name: Ident, start: usize) -> PResult<TableFactor> {
        self.expect(Tok::LParen)?;
        let mut args = vec![self.expr()?];
        while self.eat(Tok::Comma) {
            args.push(self.expr()?);
        }
        let close = self.expect(Tok::RParen)?;
        if !(2..=3).contains(&args.len()) {
            return Err(crate::ParseError::new(
                name.span.start..close.end,
                "generate_series takes a start, a stop and an optional step",
            ));
        }
        let name = Ident {
            value: name.value.to_lowercase(),
            span: name.span,
        };
        let alias = self.opt_table_alias()?;
        let column = match (&alias, self.at(Tok::LParen)) {
            (Some(_), true) => {
                let mut columns = self.ident_list_in_parens()?;
                if columns.len() != 1 {
                    return Err(crate::ParseError::new(
                        columns[0].span.start..self.prev_end(),
                        "generate_series has one column",
                    ));
                }
                columns.remove(0)
            }
            (Some(a), false) => a.clone(),
            (None, _) => name.clone(),
        };
        Ok(TableFactor::Series {
            args,
            alias: alias.unwrap_or(name),
            column,
            span: start..self.prev_end(),
        })
    }

    fn derived_alias(&mut self) -> PResult<(Ident, Vec<Ident>)> {
        self.eat_kw("AS");
        let alias = self.ident()?;
        let columns = if self.at(Tok::LParen) {
            self.ident_list_in_parens()?
        } else {
            Vec::new()
        };
        Ok((alias, columns))
    }

    /// `(a, b), (c, d)` after VALUES.
    pub(crate) fn values_rows(&mut self) -> PResult<Vec<Vec<Expr>>> {
        self.values_rows_with(false)
    }

    /// VALUES rows; `defaults`: an INSERT's, where `DEFAULT` may stand for a value.
    pub(crate) fn values_rows_with(&mut self, defaults: bool) -> PResult<Vec<Vec<Expr>>> {
        let mut rows = Vec::new();
        loop {
            self.expect(Tok::LParen)?;
            let mut row = vec![self.value_or_default(defaults)?];
            while self.eat(Tok::Comma) {
                row.push(self.value_or_default(defaults)?);
            }
            self.expect(Tok::RParen)?;
            rows.push(row);
            if !self.eat(Tok::Comma) {
                return Ok(rows);
            }
        }
    }

    fn value_or_default(&mut self, defaults: bool) -> PResult<Expr> {
        if defaults
            && self.at_kw("DEFAULT")
            && matches!(self.kind_at(1), Some(Tok::Comma | Tok::RParen))
        {
            let span = self.advance();
            return Ok(Expr {
                kind: ExprKind::Default,
                span,
            });
        }
        self.expr()
    }

    fn hint_word_at(&self, n: usize) -> bool {
        self.word_at(n)
            .is_some_and(|w| hint_kind(&w).is_some() || w == "INDEX")
    }

    /// `(UPDLOCK, READPAST, ROWLOCK)`; the caller has consumed `WITH` if there was one.
    /// SQL Server still takes hints separated by spaces (`(UPDLOCK READPAST)`, deprecated
    /// but common in older code), so a comma is optional between them.
    pub(crate) fn table_hints(&mut self, start: usize) -> PResult<Vec<TableHint>> {
        self.tsql_only("table hints", start..self.cur_span().end)?;
        self.expect(Tok::LParen)?;
        let mut hints = Vec::new();
        loop {
            hints.push(self.table_hint()?);
            if self.eat(Tok::Comma) {
                continue;
            }
            self.note("a table hint");
            if self.hint_word_at(0) {
                continue;
            }
            self.expect(Tok::RParen)?;
            return Ok(hints);
        }
    }

    fn table_hint(&mut self) -> PResult<TableHint> {
        self.note("a table hint");
        let span = self.cur_span();
        let Some(word) = self.word_at(0) else {
            return Err(self.unexpected());
        };
        if let Some(kind) = hint_kind(&word) {
            self.advance();
            if kind == HintKind::ForceSeek && self.at(Tok::LParen) {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "FORCESEEK with an index and columns"));
            }
            return Ok(TableHint { kind, span });
        }
        if word == "INDEX" {
            self.advance();
            let mut names = Vec::new();
            if self.eat(Tok::Eq) {
                let paren = self.eat(Tok::LParen);
                names.push(self.index_ref()?);
                if paren {
                    self.expect(Tok::RParen)?;
                }
            } else {
                self.expect(Tok::LParen)?;
                names.push(self.index_ref()?);
                while self.eat(Tok::Comma) {
                    names.push(self.index_ref()?);
                }
                self.expect(Tok::RParen)?;
            }
            return Ok(TableHint {
                kind: HintKind::Index(names),
                span: span.start..self.prev_end(),
            });
        }
        if NOT_SIMULATED_HINTS.contains(&word.as_str()) {
            return Err(self.not_simulated(span, &format!("table hint {word}")));
        }
        Err(self.unexpected())
    }

    /// An index name, or an index id (`0`, `1`) kept as text.
    fn index_ref(&mut self) -> PResult<Ident> {
        if self.at(Tok::Int) {
            let span = self.advance();
            return Ok(Ident {
                value: self.src[span.clone()].to_string(),
                span,
            });
        }
        self.ident()
    }
}

const NOT_SIMULATED_HINTS: &[&str] = &[
    // Page locks instead of row locks: the simulator locks rows, key ranges and tables.
    "PAGLOCK",
    "NOEXPAND",
    "SNAPSHOT",
    "KEEPIDENTITY",
    "KEEPDEFAULTS",
    "IGNORE_CONSTRAINTS",
    "IGNORE_TRIGGERS",
    "SPATIAL_WINDOW_MAX_CELLS",
    "FASTFIRSTROW",
];

fn hint_kind(word: &str) -> Option<HintKind> {
    Some(match word {
        "NOLOCK" => HintKind::NoLock,
        "READUNCOMMITTED" => HintKind::ReadUncommitted,
        "READCOMMITTED" => HintKind::ReadCommitted,
        "READCOMMITTEDLOCK" => HintKind::ReadCommittedLock,
        "REPEATABLEREAD" => HintKind::RepeatableRead,
        "SERIALIZABLE" => HintKind::Serializable,
        "HOLDLOCK" => HintKind::HoldLock,
        "UPDLOCK" => HintKind::UpdLock,
        "XLOCK" => HintKind::XLock,
        "ROWLOCK" => HintKind::RowLock,
        "TABLOCK" => HintKind::TabLock,
        "TABLOCKX" => HintKind::TabLockX,
        "READPAST" => HintKind::ReadPast,
        "NOWAIT" => HintKind::NoWait,
        "FORCESEEK" => HintKind::ForceSeek,
        "FORCESCAN" => HintKind::ForceScan,
        _ => return None,
    })
}

/// SQL Server rejects a SELECT that both assigns variables and returns columns (Msg 141).
fn check_assignments(items: &[SelectItem]) -> PResult<()> {
    let assigns = items
        .iter()
        .filter(|i| matches!(i, SelectItem::Assign { .. }))
        .count();
    if assigns == 0 || assigns == items.len() {
        return Ok(());
    }
    let span = items
        .iter()
        .find_map(|i| match i {
            SelectItem::Wildcard { span, .. } => Some(span.clone()),
            SelectItem::Expr { expr, .. } => Some(expr.span.clone()),
            SelectItem::Assign { .. } => None,
        })
        .unwrap_or(0..0);
    Err(crate::ParseError::new(
        span,
        "a SELECT that assigns to variables cannot also return columns",
    ))
}

pub(crate) fn var_expr(var: &Ident) -> Expr {
    Expr {
        kind: ExprKind::Var(var.value.clone()),
        span: var.span.clone(),
    }
}

/// `target op= value` → `target op value`; plain `=` leaves the value as is.
pub(crate) fn desugar_compound(
    op: Option<crate::ast::BinaryOp>,
    target: Expr,
    value: Expr,
) -> Expr {
    match op {
        None => value,
        Some(op) => Expr {
            span: target.span.start.min(value.span.start)..value.span.end,
            kind: ExprKind::Binary {
                op,
                left: Box::new(target),
                right: Box::new(value),
            },
        },
    }
}

/// A SELECT with nothing in it: the body of a data-modifying CTE, whose rows come from
/// its statement's RETURNING.
fn empty_select(span: Span) -> Select {
    Select {
        ctes: Vec::new(),
        distinct: false,
        top: None,
        items: Vec::new(),
        into: None,
        from: Vec::new(),
        where_clause: None,
        group_by: Vec::new(),
        having: None,
        order_by: Vec::new(),
        offset: None,
        set_op: None,
        span,
    }
}
