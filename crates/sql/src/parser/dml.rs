//! INSERT, UPDATE, DELETE and their OUTPUT clause; MERGE.

use super::select::{desugar_compound, var_expr};
use super::{PResult, Parser};
use crate::ast::{
    AssignTarget, Assignment, Cte, Delete, Expr, ExprKind, Insert, InsertSource, Merge,
    MergeAction, MergeClause, ObjectName, Output, OutputInto, SelectItem, TableFactor, TableRef,
};
use crate::keywords;
use crate::lexer::Tok;
use crate::ParseError;

impl Parser<'_> {
    /// `INSERT [TOP (n)] [INTO] target [WITH (hints)] [(columns)] [OUTPUT ...] source`.
    pub(crate) fn insert(&mut self, ctes: Vec<Cte>) -> PResult<Insert> {
        self.expect_kw("INSERT")?;
        let top = if self.at_kw("TOP") {
            Some(self.top(false)?)
        } else {
            None
        };
        self.eat_kw("INTO");
        let mut target = self.dml_target(true)?;
        // PostgreSQL's `INSERT INTO t AS a`: the name ON CONFLICT's DO UPDATE and
        // RETURNING use for the table's row.
        if self.postgres() && self.eat_kw("AS") {
            let name = self.ident()?;
            if let TableFactor::Table { alias, .. } = &mut target {
                *alias = Some(name);
            }
        }
        let columns = if self.at(Tok::LParen) && !self.kw_at(1, "SELECT") {
            self.ident_list_in_parens()?
        } else {
            Vec::new()
        };
        let output = self.opt_output()?;
        let source = if self.eat_kw("VALUES") {
            InsertSource::Values(self.values_rows_with(true)?)
        } else if self.at_kw("SELECT") || self.at_kw("WITH") {
            InsertSource::Select(Box::new(self.select_query()?))
        } else if self.at_kw("EXEC") || self.at_kw("EXECUTE") {
            InsertSource::Exec(Box::new(self.exec()?))
        } else if self.at_kw("DEFAULT") {
            self.advance();
            self.expect_kw("VALUES")?;
            InsertSource::DefaultValues
        } else {
            return Err(self.unexpected());
        };
        let on_conflict = if self.postgres() && self.kw_at(0, "ON") && self.kw_at(1, "CONFLICT") {
            Some(self.pg_on_conflict()?)
        } else {
            None
        };
        let output = match output {
            None if self.postgres() => self.pg_returning(false, &target)?,
            output => output,
        };
        Ok(Insert {
            ctes,
            top,
            target,
            columns,
            output,
            source,
            on_conflict,
        })
    }

    /// A table variable takes INSERT and SELECT only: its rows live apart from the
    /// tables, outside locks and transactions, and the writes that find rows in a
    /// table do not reach them. Said where the learner wrote it, before anything runs.
    fn no_table_variable(&self, target: &TableFactor, what: &str) -> PResult<()> {
        match target {
            TableFactor::TableVar { span, .. } => Err(self.not_simulated(span.clone(), what)),
            _ => Ok(()),
        }
    }

    /// The target of INSERT/UPDATE/DELETE or OUTPUT INTO: a table variable, or a table name
    /// with optional `WITH (hints)` (`hints_allowed`).
    fn dml_target(&mut self, hints_allowed: bool) -> PResult<TableFactor> {
        let start = self.cur_start();
        if self.at(Tok::Var) {
            let name = self.var_ident()?;
            self.use_var(&name, true)?;
            return Ok(TableFactor::TableVar {
                name,
                alias: None,
                span: start..self.prev_end(),
            });
        }
        let name = self.object_name()?;
        let hints = if hints_allowed && self.at_kw("WITH") && self.kind_at(1) == Some(Tok::LParen) {
            let with = self.advance();
            self.table_hints(with.start)?
        } else {
            Vec::new()
        };
        Ok(TableFactor::Table {
            name,
            alias: None,
            hints,
            span: start..self.prev_end(),
        })
    }

    /// PostgreSQL's `UPDATE t [AS] a` and `DELETE FROM t [AS] a`: the alias becomes the
    /// target, with the table in FROM (T-SQL's `UPDATE a ... FROM t AS a`).
    fn pg_aliased(&mut self, target: TableFactor) -> PResult<(TableFactor, Vec<TableRef>)> {
        if !self.postgres() {
            return Ok((target, Vec::new()));
        }
        let implicit = self.kind_at(0) == Some(Tok::Word)
            && self
                .word_at(0)
                .is_some_and(|w| w != "USING" && keywords::can_be_alias(&w, self.dialect));
        let alias = if self.eat_kw("AS") || implicit {
            Some(self.ident()?)
        } else {
            None
        };
        let target = match (target, alias) {
            (
                TableFactor::Table {
                    name, hints, span, ..
                },
                Some(alias),
            ) => TableFactor::Table {
                name,
                alias: Some(alias),
                hints,
                span: span.start..self.prev_end(),
            },
            (target, _) => target,
        };
        Ok(aliased_target(target))
    }

    /// `UPDATE [TOP (n)] target [WITH (hints)] SET ... [OUTPUT ...] [FROM ...] [WHERE ...]`.
    pub(crate) fn update(&mut self, ctes: Vec<Cte>) -> PResult<crate::ast::Update> {
        self.expect_kw("UPDATE")?;
        let top = if self.at_kw("TOP") {
            Some(self.top(false)?)
        } else {
            None
        };
        if self.kw_at(0, "STATISTICS") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "UPDATE STATISTICS"));
        }
        let target = self.dml_target(true)?;
        self.no_table_variable(&target, "UPDATE of a table variable")?;
        let (target, mut from) = self.pg_aliased(target)?;
        self.expect_kw("SET")?;
        let mut assignments = Vec::new();
        loop {
            if self.postgres() && self.at(Tok::LParen) {
                assignments.extend(self.pg_multi_assignment()?);
            } else {
                assignments.push(self.assignment()?);
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let output = self.opt_output()?;
        if self.eat_kw("FROM") {
            from.extend(self.table_refs()?);
        }
        let where_clause = self.where_clause()?;
        let output = match output {
            None if self.postgres() => self.pg_returning(false, &target)?,
            output => output,
        };
        self.no_query_hints()?;
        Ok(crate::ast::Update {
            ctes,
            top,
            target,
            assignments,
            output,
            from,
            where_clause,
        })
    }

    /// PostgreSQL's `(a, b) = (x, y)` (also `= ROW (x, y)`): one assignment per column,
    /// each value read from the row as it was, as separate assignments are.
    fn pg_multi_assignment(&mut self) -> PResult<Vec<Assignment>> {
        let start = self.cur_start();
        self.expect(Tok::LParen)?;
        let mut columns = vec![self.object_name()?];
        while self.eat(Tok::Comma) {
            columns.push(self.object_name()?);
        }
        self.expect(Tok::RParen)?;
        self.expect(Tok::Eq)?;
        let row = self.eat_kw("ROW");
        if !self.at(Tok::LParen) {
            return Err(self.unexpected());
        }
        if self.kw_at(1, "SELECT") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "(columns) = (SELECT ...)"));
        }
        self.advance();
        let mut values = vec![self.expr()?];
        while self.eat(Tok::Comma) {
            values.push(self.expr()?);
        }
        self.expect(Tok::RParen)?;
        if values.len() != columns.len() {
            return Err(ParseError::new(
                start..self.prev_end(),
                // One value in parentheses is that value, not a row (the server's words).
                if values.len() == 1 && !row {
                    "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression".to_string()
                } else {
                    "number of columns does not match number of values".to_string()
                },
            ));
        }
        let span = start..self.prev_end();
        Ok(columns
            .into_iter()
            .zip(values)
            .map(|(c, value)| Assignment {
                target: AssignTarget::Column(c),
                value,
                span: span.clone(),
            })
            .collect())
    }

    /// `col = e`, `t.col = e`, `@v = e`, `@v = col = e`, and the compound forms (`+=`).
    pub(super) fn assignment(&mut self) -> PResult<Assignment> {
        let start = self.cur_start();
        let (target, op) = if self.at(Tok::Var) {
            let var = self.var_ident()?;
            self.use_var(&var, false)?;
            let op = self.assign_op()?;
            // `@v = col = expr`
            if op.is_none() && self.ident_at(0) && self.column_then_eq() {
                let column = self.object_name()?;
                self.expect(Tok::Eq)?;
                (AssignTarget::VarAndColumn(var, column), None)
            } else {
                (AssignTarget::Var(var), op)
            }
        } else {
            let column = self.object_name()?;
            if self.at(Tok::Dot) {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "column methods (.WRITE)"));
            }
            let op = self.assign_op()?;
            (AssignTarget::Column(column), op)
        };
        let value = self.expr()?;
        let value = match (&target, op) {
            (_, None) => value,
            (AssignTarget::Var(v), op) => desugar_compound(op, var_expr(v), value),
            (AssignTarget::Column(c) | AssignTarget::VarAndColumn(_, c), op) => {
                let column = Expr {
                    kind: ExprKind::Column(c.clone()),
                    span: c.span.clone(),
                };
                desugar_compound(op, column, value)
            }
        };
        Ok(Assignment {
            target,
            value,
            span: start..self.prev_end(),
        })
    }

    /// Whether `a[.b...] =` follows (quiet), for `@v = col = expr`.
    fn column_then_eq(&self) -> bool {
        let mut n = 0;
        loop {
            if !self.ident_at(n) {
                return false;
            }
            match self.kind_at(n + 1) {
                Some(Tok::Dot) => n += 2,
                Some(Tok::Eq) => return true,
                _ => return false,
            }
        }
    }

    /// `=` (→ `None`) or a compound operator such as `+=` (→ `Some(Add)`).
    pub(crate) fn assign_op(&mut self) -> PResult<Option<crate::ast::BinaryOp>> {
        self.note("'='");
        for &(tok, _) in super::select::COMPOUND_OPS {
            self.note(super::tok_name(tok));
        }
        match self.assign_op_at(0) {
            Some(op) => {
                if op.is_some() {
                    self.tsql_only("compound assignment", self.cur_span())?;
                }
                self.advance();
                Ok(op)
            }
            None => Err(self.unexpected()),
        }
    }

    /// `DELETE [TOP (n)] [FROM] target [WITH (hints)] [OUTPUT ...] [FROM ...] [WHERE ...]`.
    pub(crate) fn delete(&mut self, ctes: Vec<Cte>) -> PResult<Delete> {
        self.expect_kw("DELETE")?;
        let top = if self.at_kw("TOP") {
            Some(self.top(false)?)
        } else {
            None
        };
        self.eat_kw("FROM");
        let target = self.dml_target(true)?;
        self.no_table_variable(&target, "DELETE from a table variable")?;
        let (target, mut from) = self.pg_aliased(target)?;
        let output = self.opt_output()?;
        // PostgreSQL's `DELETE FROM t USING others`: T-SQL's second FROM.
        if (self.postgres() && self.eat_kw("USING")) || (!self.postgres() && self.eat_kw("FROM")) {
            from.extend(self.table_refs()?);
        }
        let where_clause = self.where_clause()?;
        let output = match output {
            None if self.postgres() => self.pg_returning(true, &target)?,
            output => output,
        };
        self.no_query_hints()?;
        Ok(Delete {
            ctes,
            top,
            target,
            output,
            from,
            where_clause,
        })
    }

    fn no_query_hints(&mut self) -> PResult<()> {
        if self.kw_at(0, "OPTION") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "query hints (OPTION)"));
        }
        Ok(())
    }

    /// `OUTPUT items [INTO target [(columns)]]`.
    fn opt_output(&mut self) -> PResult<Option<Output>> {
        if !self.at_kw("OUTPUT") {
            return Ok(None);
        }
        let start = self.cur_start();
        self.tsql_only("OUTPUT", self.cur_span())?;
        self.advance();
        let mut items = vec![self.output_item()?];
        while self.eat(Tok::Comma) {
            items.push(self.output_item()?);
        }
        let into = if self.eat_kw("INTO") {
            let target = self.dml_target(false)?;
            let columns = if self.at(Tok::LParen) {
                self.ident_list_in_parens()?
            } else {
                Vec::new()
            };
            Some(OutputInto { target, columns })
        } else {
            None
        };
        if self.kw_at(0, "OUTPUT") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "a second OUTPUT clause"));
        }
        Ok(Some(Output {
            items,
            into,
            span: start..self.prev_end(),
        }))
    }

    fn output_item(&mut self) -> PResult<SelectItem> {
        self.select_item(false)
    }

    /// `MERGE [INTO] t [WITH (hints)] [[AS] a] USING source ON cond WHEN ... THEN ...`, in
    /// both dialects; T-SQL adds hints, `BY TARGET` and `AND condition` to a clause.
    pub(crate) fn merge(&mut self) -> PResult<Merge> {
        self.advance();
        if self.kw_at(0, "TOP") && !self.teradata() {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "MERGE TOP"));
        }
        self.eat_kw("INTO");
        let start = self.cur_start();
        let name = self.object_name()?;
        let target = if self.teradata() {
            self.teradata_table_factor(name, start)?
        } else {
            // `t WITH (HOLDLOCK) AS a` as SQL Server writes it, or the alias first.
            let mut hints = self.merge_hints()?;
            let alias = if self.at_kw("USING") {
                None
            } else {
                self.opt_table_alias()?
            };
            if hints.is_empty() {
                hints = self.merge_hints()?;
            }
            TableFactor::Table {
                name,
                alias,
                hints,
                span: start..self.prev_end(),
            }
        };
        self.expect_kw("USING")?;
        let source = self.table_factor()?;
        self.expect_kw("ON")?;
        let on = self.condition()?;
        let mut clauses: Vec<MergeClause> = Vec::new();
        if !self.at_kw("WHEN") {
            return Err(self.unexpected());
        }
        while self.at_kw("WHEN") {
            let clause = self.merge_clause()?;
            let earlier = clauses.iter().find(|c| c.matched == clause.matched);
            // Teradata allows one clause of a kind; T-SQL several, all but the last with AND.
            if earlier.is_some_and(|e| self.teradata() || e.condition.is_none()) {
                let which = if clause.matched {
                    "WHEN MATCHED"
                } else {
                    "WHEN NOT MATCHED"
                };
                let message = if self.teradata() {
                    format!("a MERGE has at most one {which} clause")
                } else {
                    format!("only the last {which} clause of a MERGE may omit its AND condition")
                };
                return Err(ParseError::new(clause.span, message));
            }
            clauses.push(clause);
        }
        if self.kw_at(0, "LOGGING") {
            return Err(self.not_simulated(self.cur_span(), "MERGE ... LOGGING ERRORS"));
        }
        let output = self.opt_output()?;
        if self.kw_at(0, "OPTION") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "MERGE ... OPTION"));
        }
        Ok(Merge {
            target,
            source,
            on,
            clauses,
            output,
        })
    }

    fn merge_hints(&mut self) -> PResult<Vec<crate::ast::TableHint>> {
        if self.at_kw("WITH") && self.kind_at(1) == Some(Tok::LParen) {
            let with = self.advance();
            return self.table_hints(with.start);
        }
        Ok(Vec::new())
    }

    fn merge_clause(&mut self) -> PResult<MergeClause> {
        let start = self.advance().start;
        let matched = !self.eat_kw("NOT");
        self.expect_kw("MATCHED")?;
        let mut condition = None;
        if !self.teradata() {
            if !matched && self.eat_kw("BY") {
                if self.kw_at(0, "SOURCE") {
                    let span = start..self.cur_span().end;
                    return Err(self.not_simulated(span, "WHEN NOT MATCHED BY SOURCE"));
                }
                self.expect_kw("TARGET")?;
            }
            if self.eat_kw("AND") {
                condition = Some(self.condition()?);
            }
        }
        self.expect_kw("THEN")?;
        let action = if matched {
            if self.at_kw("UPDATE") || self.kw_at(0, "UPD") {
                self.advance();
                self.expect_kw("SET")?;
                let mut assignments = vec![self.assignment()?];
                while self.eat(Tok::Comma) {
                    assignments.push(self.assignment()?);
                }
                MergeAction::Update(assignments)
            } else if self.at_kw("DELETE") || self.kw_at(0, "DEL") {
                self.advance();
                MergeAction::Delete
            } else {
                return Err(self.unexpected());
            }
        } else {
            if !(self.at_kw("INSERT") || self.kw_at(0, "INS")) {
                return Err(self.unexpected());
            }
            self.advance();
            let columns = if self.at(Tok::LParen) {
                self.ident_list_in_parens()?
            } else {
                Vec::new()
            };
            self.expect_kw("VALUES")?;
            let values = self.values_row()?;
            MergeAction::Insert { columns, values }
        };
        Ok(MergeClause {
            matched,
            condition,
            action,
            span: start..self.prev_end(),
        })
    }
}

/// A target table with an alias becomes the alias, with the table in FROM: the T-SQL
/// tree's form of `UPDATE/DELETE alias FROM t AS alias`.
pub(super) fn aliased_target(table: TableFactor) -> (TableFactor, Vec<TableRef>) {
    match table {
        TableFactor::Table {
            alias: Some(ref alias),
            ..
        } => {
            let target = TableFactor::Table {
                name: ObjectName {
                    span: alias.span.clone(),
                    parts: vec![alias.clone()],
                },
                alias: None,
                hints: Vec::new(),
                span: alias.span.clone(),
            };
            let from = vec![TableRef {
                factor: table,
                joins: Vec::new(),
            }];
            (target, from)
        }
        other => (other, Vec::new()),
    }
}
