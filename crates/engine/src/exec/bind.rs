//! Create-time column checks. SQL Server resolves the names in a procedure's statements
//! when the procedure is created: a table that does not exist yet is resolved when its
//! statement first runs (deferred name resolution), but a column that a table which does
//! exist lacks fails CREATE PROCEDURE with error 207 ("CREATE PROCEDURE", Deferred Name
//! Resolution). Checked per statement, conservatively: a statement that names a table
//! not there yet (a temp table, a table variable) is left to run time, and a name counts
//! as known when any table, CTE, derived table or select-list alias of its statement has
//! it, so a misspelt column is caught and no valid statement is refused.

use sql::ast::{
    AssignTarget, Cte, Expr, ExprKind, InsertSource, ObjectName, OrderItem, Output, Select,
    SelectItem, Span, Stmt, StmtKind, TableFactor, TableRef,
};

use crate::state::Db;
use crate::syntax;

/// The first column a statement of `body` names that none of its statement's tables
/// in `db` has, with where it is named.
pub(crate) fn missing_column(body: &[Stmt], db: &Db) -> Option<(String, Span)> {
    let columns = |n: &ObjectName| {
        db.table_id(&n.name().value)
            .map(|id| &*db.tables[id as usize].column_names)
    };
    statements(body, &columns)
}

fn statements<'a>(
    body: &[Stmt],
    columns: &dyn Fn(&ObjectName) -> Option<&'a [String]>,
) -> Option<(String, Span)> {
    body.iter().find_map(|s| statement(s, columns))
}

fn statement<'a>(
    s: &Stmt,
    columns: &dyn Fn(&ObjectName) -> Option<&'a [String]>,
) -> Option<(String, Span)> {
    let mut names = Names::default();
    match &s.kind {
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => {
            return unit(columns, |n| n.expr(cond))
                .or_else(|| statement(then, columns))
                .or_else(|| otherwise.as_deref().and_then(|o| statement(o, columns)));
        }
        StmtKind::While { cond, body } => {
            return unit(columns, |n| n.expr(cond)).or_else(|| statement(body, columns));
        }
        StmtKind::Block(body) => return statements(body, columns),
        StmtKind::TryCatch { body, handler, .. } => {
            return statements(body, columns).or_else(|| statements(handler, columns));
        }
        StmtKind::Declare(decls) => decls
            .iter()
            .flat_map(|d| &d.init)
            .for_each(|e| names.expr(e)),
        StmtKind::SetVar { value, .. } => names.expr(value),
        StmtKind::Return(Some(e)) | StmtKind::Print(e) => names.expr(e),
        StmtKind::Select(q) => names.select(q),
        StmtKind::Insert(x) => {
            names.ctes(&x.ctes);
            names.factor(&x.target);
            names
                .refs
                .extend(x.columns.iter().map(|c| (c.value.clone(), c.span.clone())));
            names.output(x.output.as_ref());
            match &x.source {
                InsertSource::Values(rows) => rows.iter().flatten().for_each(|e| names.expr(e)),
                InsertSource::Select(q) => names.select(q),
                _ => return None,
            }
        }
        StmtKind::Update(x) => {
            names.ctes(&x.ctes);
            names.factor(&x.target);
            for a in &x.assignments {
                if let AssignTarget::Column(c) | AssignTarget::VarAndColumn(_, c) = &a.target {
                    names.column(c);
                }
                names.expr(&a.value);
            }
            names.output(x.output.as_ref());
            names.from(&x.from);
            names.opt(x.where_clause.as_ref());
        }
        StmtKind::Delete(x) => {
            names.ctes(&x.ctes);
            names.factor(&x.target);
            names.output(x.output.as_ref());
            names.from(&x.from);
            names.opt(x.where_clause.as_ref());
        }
        _ => return None,
    }
    names.missing(columns)
}

/// One statement's expression alone (an IF's or a WHILE's condition).
fn unit<'a>(
    columns: &dyn Fn(&ObjectName) -> Option<&'a [String]>,
    f: impl FnOnce(&mut Names),
) -> Option<(String, Span)> {
    let mut names = Names::default();
    f(&mut names);
    names.missing(columns)
}

/// What one statement names: its tables, the names it defines (CTEs, aliases, derived
/// tables' columns) and the columns it refers to.
#[derive(Default)]
struct Names {
    tables: Vec<ObjectName>,
    /// The statement is resolved when it runs.
    deferred: bool,
    defined: Vec<String>,
    refs: Vec<(String, Span)>,
}

impl Names {
    fn missing<'a>(
        self,
        columns: &dyn Fn(&ObjectName) -> Option<&'a [String]>,
    ) -> Option<(String, Span)> {
        if self.deferred {
            return None;
        }
        let mut known: Vec<&str> = self.defined.iter().map(String::as_str).collect();
        for t in &self.tables {
            let name = &t.name().value;
            match columns(t) {
                Some(cols) => known.extend(cols.iter().map(String::as_str)),
                // A CTE of the statement, or a table resolved when the statement runs.
                None if self.defined.iter().any(|d| d.eq_ignore_ascii_case(name)) => {}
                None => return None,
            }
        }
        self.refs
            .into_iter()
            .find(|(r, _)| !known.iter().any(|k| k.eq_ignore_ascii_case(r)))
    }

    fn column(&mut self, n: &ObjectName) {
        let last = n.name();
        self.refs.push((last.value.clone(), last.span.clone()));
    }

    fn ctes(&mut self, ctes: &[Cte]) {
        for c in ctes {
            self.defined.push(c.name.value.clone());
            self.defined
                .extend(c.columns.iter().map(|x| x.value.clone()));
            self.select(&c.query);
        }
    }

    fn select(&mut self, q: &Select) {
        self.ctes(&q.ctes);
        if let Some(t) = &q.top {
            self.expr(&t.count);
        }
        for item in &q.items {
            match item {
                SelectItem::Wildcard { .. } => {}
                SelectItem::Expr { expr, alias } => {
                    self.expr(expr);
                    self.defined.extend(alias.iter().map(|a| a.value.clone()));
                }
                SelectItem::Assign { expr, .. } => self.expr(expr),
            }
        }
        self.from(&q.from);
        self.opt(q.where_clause.as_ref());
        q.group_by.iter().for_each(|e| self.expr(e));
        self.opt(q.having.as_ref());
        self.order(&q.order_by);
        if let Some(o) = &q.offset {
            self.expr(&o.skip);
            self.opt(o.fetch.as_ref());
        }
        if let Some((_, next)) = &q.set_op {
            self.select(next);
        }
    }

    fn from(&mut self, from: &[TableRef]) {
        for t in from {
            self.factor(&t.factor);
            for j in &t.joins {
                self.factor(&j.factor);
                self.opt(j.on.as_ref());
            }
        }
    }

    fn factor(&mut self, f: &TableFactor) {
        match f {
            TableFactor::Table { name, .. } => self.tables.push(name.clone()),
            TableFactor::Derived { query, columns, .. } => {
                self.defined.extend(columns.iter().map(|c| c.value.clone()));
                self.select(query);
            }
            TableFactor::Values { rows, columns, .. } => {
                self.defined.extend(columns.iter().map(|c| c.value.clone()));
                rows.iter().flatten().for_each(|e| self.expr(e));
            }
            TableFactor::Series { args, column, .. } => {
                self.defined.push(column.value.clone());
                args.iter().for_each(|e| self.expr(e));
            }
            // A table variable's columns are its declaration's: left to run time.
            TableFactor::TableVar { .. } => self.deferred = true,
        }
    }

    fn output(&mut self, o: Option<&Output>) {
        let Some(o) = o else { return };
        for item in &o.items {
            if let SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. } = item {
                self.expr(expr);
            }
        }
        if let Some(into) = &o.into {
            self.factor(&into.target);
            self.refs.extend(
                into.columns
                    .iter()
                    .map(|c| (c.value.clone(), c.span.clone())),
            );
        }
    }

    fn order(&mut self, items: &[OrderItem]) {
        items.iter().for_each(|o| self.expr(&o.expr));
    }

    fn opt(&mut self, e: Option<&Expr>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn expr(&mut self, e: &Expr) {
        // Subqueries, and a window's expressions, after the walk (it does not enter them).
        let mut selects: Vec<&Select> = Vec::new();
        let mut more: Vec<&Expr> = Vec::new();
        let mut date_parts: Vec<*const Expr> = Vec::new();
        let mut refs = Vec::new();
        syntax::walk(e, &mut |x| match &x.kind {
            ExprKind::Column(n) if !date_parts.contains(&(x as *const Expr)) => {
                let last = n.name();
                refs.push((last.value.clone(), last.span.clone()));
            }
            ExprKind::InSubquery { query, .. }
            | ExprKind::Exists(query)
            | ExprKind::Subquery(query) => {
                selects.push(query);
            }
            ExprKind::Function {
                name,
                args,
                over,
                within_group,
                ..
            } => {
                // A date part (`second`, `day`) is a keyword, not a column.
                if matches!(
                    name.as_str(),
                    "DATEADD" | "DATEDIFF" | "DATEPART" | "DATENAME"
                ) {
                    date_parts.extend(args.first().map(|a| a as *const Expr));
                }
                if let Some(w) = over {
                    more.extend(&w.partition_by);
                    more.extend(w.order_by.iter().map(|o| &o.expr));
                }
                more.extend(within_group.iter().map(|o| &o.expr));
            }
            _ => {}
        });
        self.refs.extend(refs);
        selects.into_iter().for_each(|q| self.select(q));
        more.into_iter().for_each(|x| self.expr(x));
    }
}
