//! Expression evaluation: columns in scope, variables, built-in functions, aggregates.

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::rc::Rc;

use sql::ast::{BinaryOp, DataType, Expr, ExprKind, Literal, ObjectName, OrderItem, UnaryOp};

use crate::datepart::{date_add, date_diff, date_name, date_part, DatePart};
use crate::error::{Fallible, SqlError};
use crate::exec::{Exec, Interrupt};
use crate::syntax::is_aggregate;
use crate::value::{binary, compare, comparison, convert, in_items, truth, Stamp, Value};

/// A table (or derived table) visible in a query, and where its columns sit in a row.
#[derive(Clone, Debug)]
pub(crate) struct Binding {
    /// Alias, or the table's name, lower-cased.
    pub name: String,
    /// The base table's name, lower-cased, when the binding is a table.
    pub table: Option<String>,
    /// Shared with the table for base tables (`Table::column_names`).
    pub columns: Rc<[String]>,
    pub offset: usize,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Scope {
    pub bindings: Vec<Binding>,
    /// Names resolved so far: a scan resolves the same few column references for every
    /// row it reads, and looking them up again costs a pass over the bindings' columns.
    /// Emptied whenever a binding is added.
    resolved: RefCell<Vec<Resolved>>,
    /// Lookups made before any is kept: a scope that reads one row (most statements of
    /// a claim) resolves each name once, and keeping a copy of it would cost more.
    lookups: Cell<u32>,
}

/// One cached resolution, found again by the name's text (a name resolves the same
/// wherever it is written in the statement).
#[derive(Clone, Debug)]
struct Resolved {
    name: ObjectName,
    by: Qualifier,
    found: Option<usize>,
}

/// Resolutions a scope keeps: more names than this are looked up each time.
const RESOLVED_MAX: usize = 16;
/// Lookups a scope makes before it keeps what it resolves.
const RESOLVED_AFTER: u32 = 8;

impl Scope {
    pub fn width(&self) -> usize {
        self.bindings
            .last()
            .map_or(0, |b| b.offset + b.columns.len())
    }

    pub fn push(&mut self, name: String, table: Option<String>, columns: impl Into<Rc<[String]>>) {
        let columns = columns.into();
        let offset = self.width();
        self.resolved.get_mut().clear();
        self.bindings.push(Binding {
            name,
            table,
            columns,
            offset,
        });
    }

    /// The bindings `*` (no qualifier) or `t.*` expands to.
    pub fn star<'s>(
        &'s self,
        qualifier: Option<&'s sql::ast::Ident>,
    ) -> impl Iterator<Item = &'s Binding> {
        self.bindings
            .iter()
            .filter(move |b| qualifier.is_none_or(|q| q.value.eq_ignore_ascii_case(&b.name)))
    }

    /// Position of a column reference in the row, or why it cannot be resolved. A
    /// qualifier names a binding (an alias, or an unaliased table's name); only when none
    /// has that name may it name an aliased binding's table.
    pub fn resolve(&self, name: &ObjectName) -> Fallible<Option<usize>> {
        match self.resolve_by(name, Qualifier::Binding)? {
            Some(p) => Ok(Some(p)),
            None => self.resolve_by(name, Qualifier::Table),
        }
    }

    fn resolve_by(&self, name: &ObjectName, by: Qualifier) -> Fallible<Option<usize>> {
        if let Some(r) = self.resolved.borrow().iter().find(|r| {
            r.by == by
                && r.name.parts.len() == name.parts.len()
                && r.name
                    .parts
                    .iter()
                    .zip(&name.parts)
                    .all(|(a, b)| a.value == b.value)
        }) {
            return Ok(r.found);
        }
        let found = self.resolve_uncached(name, by)?;
        let lookups = self.lookups.get().saturating_add(1);
        self.lookups.set(lookups);
        let mut resolved = self.resolved.borrow_mut();
        if lookups > RESOLVED_AFTER && resolved.len() < RESOLVED_MAX {
            resolved.push(Resolved {
                name: name.clone(),
                by,
                found,
            });
        }
        Ok(found)
    }

    fn resolve_uncached(&self, name: &ObjectName, by: Qualifier) -> Fallible<Option<usize>> {
        let parts = &name.parts;
        let col = &parts[parts.len() - 1].value;
        // Bindings hold lower-cased names, so the qualifier is compared without case
        // rather than lower-cased (an allocation per column per row).
        let qual = if parts.len() >= 2 {
            Some(parts[parts.len() - 2].value.as_str())
        } else if by == Qualifier::Table {
            // An unqualified name has nothing to find by table.
            return Ok(None);
        } else {
            None
        };
        let mut found = None;
        for b in &self.bindings {
            if let Some(q) = &qual {
                let named = match by {
                    Qualifier::Binding => b.name.eq_ignore_ascii_case(q),
                    Qualifier::Table => b
                        .table
                        .as_deref()
                        .is_some_and(|t| t.eq_ignore_ascii_case(q)),
                };
                if !named {
                    continue;
                }
            }
            if let Some(p) = b.columns.iter().position(|c| c.eq_ignore_ascii_case(col)) {
                if found.is_some() && qual.is_none() {
                    return Err(SqlError::ambiguous_column(col).into());
                }
                found = Some(b.offset + p);
                if qual.is_some() {
                    break;
                }
            }
        }
        Ok(found)
    }
}

/// What a column's qualifier is matched against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Qualifier {
    /// The binding's name: its alias, or the table's name when it has none.
    Binding,
    /// The table behind the binding, aliased or not.
    Table,
}

/// The row an expression is evaluated against, with the enclosing query's row for
/// correlated subqueries and the group's rows for aggregates.
#[derive(Clone, Copy)]
pub(crate) struct RowCtx<'a> {
    pub scope: &'a Scope,
    pub row: &'a [Value],
    pub outer: Option<&'a RowCtx<'a>>,
    pub group: Option<&'a [Vec<Value>]>,
}

impl<'a> RowCtx<'a> {
    /// A row of `scope`, outside any other query and group.
    pub fn new(scope: &'a Scope, row: &'a [Value]) -> RowCtx<'a> {
        RowCtx {
            scope,
            row,
            outer: None,
            group: None,
        }
    }

    /// One row of this context's group, for an aggregate's argument.
    fn member(&self, row: &'a [Value]) -> RowCtx<'a> {
        RowCtx {
            scope: self.scope,
            row,
            outer: self.outer,
            group: None,
        }
    }
}

enum Cols<'a> {
    Found(&'a RowCtx<'a>, usize),
    Missing,
}

/// A column in the innermost query that has it: by binding name through every enclosing
/// query first, so in `(SELECT ... FROM v w WHERE w.g = v.g)` the outer `v` is found
/// rather than the inner table `v` aliased `w`; then by table name.
fn lookup<'a>(ctx: Option<&'a RowCtx<'a>>, name: &ObjectName) -> Fallible<Cols<'a>> {
    for by in [Qualifier::Binding, Qualifier::Table] {
        let mut cur = ctx;
        while let Some(c) = cur {
            if let Some(p) = c.scope.resolve_by(name, by)? {
                return Ok(Cols::Found(c, p));
            }
            cur = c.outer;
        }
    }
    Ok(Cols::Missing)
}

impl Exec<'_> {
    /// Fails as evaluating column `name` in `ctx` would where it names no column.
    pub(crate) fn check_column(
        &self,
        i: usize,
        name: &ObjectName,
        ctx: &RowCtx,
    ) -> Result<(), Interrupt> {
        match lookup(Some(ctx), name)? {
            Cols::Found(..) => Ok(()),
            Cols::Missing if self.handler_variable(i, name).is_some() => Ok(()),
            Cols::Missing if name.parts.len() > 1 && !qualifier_known(Some(ctx), name) => {
                Err(SqlError::unbound_identifier(name).into())
            }
            Cols::Missing => Err(SqlError::invalid_qualified_column(name).into()),
        }
    }
}

/// Whether a qualified name's qualifier (`j` in `j.id`) names a binding or a table of
/// the query or an enclosing one.
fn qualifier_known(ctx: Option<&RowCtx>, name: &ObjectName) -> bool {
    let q = &name.parts[name.parts.len() - 2].value;
    let mut cur = ctx;
    while let Some(c) = cur {
        if c.scope.bindings.iter().any(|b| {
            b.name.eq_ignore_ascii_case(q)
                || b.table.as_ref().is_some_and(|t| t.eq_ignore_ascii_case(q))
        }) {
            return true;
        }
        cur = c.outer;
    }
    false
}

impl Exec<'_> {
    /// [`convert`] as the dialect casts and assigns: a fraction cast to or stored in an
    /// integer is truncated where integers truncate, else rounded half away from zero.
    #[inline]
    pub(crate) fn convert(
        &self,
        v: &Value,
        ty: &DataType,
        target: Option<(&str, &str)>,
    ) -> Fallible<Value> {
        // A boolean stored in a number's column, or a number in a boolean's (rare: the
        // check is out of line, so every other stored value costs a compare or two).
        if let Some((_, column)) = target {
            if matches!(v, Value::True | Value::False) || matches!(ty, DataType::Boolean) {
                self.assignment_check(v, ty, column)?;
            }
        }
        convert_rounding(v, ty, target, !self.rules.truncating_integers())
    }

    #[cold]
    #[inline(never)]
    fn assignment_check(&self, v: &Value, ty: &DataType, column: &str) -> Fallible<()> {
        match self.rules.assignment_mismatch(v, ty, column) {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }

    /// Evaluates an expression that needs no row.
    pub(crate) fn eval_scalar(&mut self, i: usize, e: &Expr) -> Result<Value, Interrupt> {
        self.eval(i, e, None)
    }

    /// IF / WHILE conditions: truth and the logical reads their subqueries cost.
    pub(crate) fn eval_condition(&mut self, i: usize, e: &Expr) -> Result<(bool, u64), Interrupt> {
        let before = self.w.query_reads;
        let v = self.eval(i, e, None)?;
        Ok((v.is_true(), self.w.query_reads - before))
    }

    pub(crate) fn eval(
        &mut self,
        i: usize,
        e: &Expr,
        ctx: Option<&RowCtx>,
    ) -> Result<Value, Interrupt> {
        Ok(match &e.kind {
            ExprKind::Literal(l) => match l {
                Literal::Int(n) => Value::Int(*n),
                Literal::Decimal(d) => Value::Decimal(d.parse().unwrap_or(0.0)),
                Literal::Str { value, .. } => Value::Text(value.clone()),
                Literal::Bool(b) => Value::bool(*b),
                Literal::Null => Value::Null,
            },
            ExprKind::Var(name) => self
                .var(i, name)
                .map_err(|err| Box::new(err.pointing(e.span.start)))?,
            ExprKind::Global(g) => self.global(i, g)?,
            ExprKind::Column(name) => match lookup(ctx, name)? {
                Cols::Found(c, p) => {
                    if !self.w.outer_scopes.is_empty()
                        && self
                            .w
                            .outer_scopes
                            .contains(&(c.scope as *const Scope as usize))
                    {
                        self.w.outer_refs += 1; // a correlated subquery: not run once
                    }
                    c.row.get(p).cloned().unwrap_or(Value::Null)
                }
                Cols::Missing => match self.handler_variable(i, name) {
                    Some(v) => v,
                    None if name.parts.len() > 1 && !qualifier_known(ctx, name) => {
                        return Err(SqlError::unbound_identifier(name).into())
                    }
                    None => return Err(SqlError::invalid_qualified_column(name).into()),
                },
            },
            ExprKind::Unary { op, expr } => {
                let v = self.eval(i, expr, ctx)?;
                if *op == UnaryOp::Not {
                    self.condition_value(i, "NOT", (expr, &v), ctx)?;
                }
                match op {
                    UnaryOp::Neg => match v {
                        Value::Int(n) => Value::Int(n.checked_neg().ok_or_else(|| {
                            SqlError::arithmetic_overflow(&sql::ast::DataType::BigInt)
                        })?),
                        Value::Decimal(d) => Value::Decimal(-d),
                        Value::Null => Value::Null,
                        other => Value::Decimal(-other.as_text().parse::<f64>().unwrap_or(0.0)),
                    },
                    UnaryOp::Not => match v {
                        Value::Null => Value::Null,
                        v => Value::bool(!v.is_true()),
                    },
                    UnaryOp::BitNot => match v.as_i64() {
                        Some(n) => Value::Int(!n),
                        None => Value::Null,
                    },
                }
            }
            ExprKind::Binary { op, left, right } => {
                // AND / OR short-circuit the way three-valued logic allows.
                if matches!(op, BinaryOp::And | BinaryOp::Or) {
                    let place = if *op == BinaryOp::And { "AND" } else { "OR" };
                    let l = self.eval(i, left, ctx)?;
                    self.condition_value(i, place, (left, &l), ctx)?;
                    let lt = truth(&l);
                    if *op == BinaryOp::And && lt == Some(false) {
                        return Ok(Value::False);
                    }
                    if *op == BinaryOp::Or && lt == Some(true) {
                        return Ok(Value::True);
                    }
                    let r = self.eval(i, right, ctx)?;
                    self.condition_value(i, place, (right, &r), ctx)?;
                    let rt = truth(&r);
                    return Ok(match (op, lt, rt) {
                        (BinaryOp::And, Some(true), Some(true)) => Value::True,
                        (BinaryOp::And, _, Some(false)) => Value::False,
                        (BinaryOp::Or, _, Some(true)) => Value::True,
                        (BinaryOp::Or, Some(false), Some(false)) => Value::False,
                        _ => Value::Null,
                    });
                }
                let l = self.eval(i, left, ctx)?;
                // A comparison with a text literal (`status = 'new'`, per row of a scan)
                // compares with the literal's text instead of copying it into a value.
                if let ExprKind::Literal(Literal::Str { value, .. }) = &right.kind {
                    if let (Some(o), Value::Text(x)) = (comparison(*op), &l) {
                        return Ok(o(Some(crate::value::collate(x, value))));
                    }
                }
                let r = self.eval(i, right, ctx)?;
                if *op == BinaryOp::Pow {
                    return Ok(self.rules.power(&l, &r)?);
                }
                if op.is_comparison() {
                    self.comparable(i, *op, (left, &l), (right, &r), ctx)?;
                }
                let v = binary(*op, &l, &r)?;
                // Integers are 64-bit here; arithmetic on two `int`s is an `int` on both
                // servers and overflows past its range, on two `smallint`s a `smallint`
                // (looked into only past a smallint's range).
                if let Value::Int(n) = v {
                    let arithmetic = matches!(
                        op,
                        BinaryOp::Add
                            | BinaryOp::Sub
                            | BinaryOp::Mul
                            | BinaryOp::Div
                            | BinaryOp::Mod
                    );
                    if arithmetic && i16::try_from(n).is_err() {
                        if i32::try_from(n).is_err()
                            && self.narrow_int(i, left, ctx)
                            && self.narrow_int(i, right, ctx)
                        {
                            return Err(SqlError::arithmetic_overflow(&DataType::Int).into());
                        }
                        if self.smallint(i, left, ctx) && self.smallint(i, right, ctx) {
                            let ty = DataType::SmallInt;
                            return Err(SqlError::arithmetic_overflow(&ty).into());
                        }
                    }
                }
                v
            }
            ExprKind::IsNull { expr, negated } => {
                let v = self.eval(i, expr, ctx)?;
                Value::bool(v.is_null() != *negated)
            }
            ExprKind::InList {
                expr,
                list,
                negated,
            } => {
                let v = self.eval(i, expr, ctx)?;
                let items = list.iter().map(|x| {
                    let item = self.eval(i, x, ctx)?;
                    self.comparable(i, BinaryOp::Eq, (expr, &v), (x, &item), ctx)?;
                    Ok::<_, Interrupt>(item)
                });
                in_items(&v, items, *negated)?
            }
            ExprKind::InSubquery {
                expr,
                query,
                negated,
            } => {
                let v = self.eval(i, expr, ctx)?;
                let rows = self.subquery_in_expr(i, query, ctx)?;
                if rows.columns.len() > 1 {
                    return Err(SqlError::subquery_columns(true).into());
                }
                let items = (rows.rows.into_iter())
                    .map(|r| Ok::<_, Interrupt>(r.into_iter().next().unwrap_or(Value::Null)));
                in_items(&v, items, *negated)?
            }
            ExprKind::Between {
                expr,
                low,
                high,
                negated,
            } => {
                let v = self.eval(i, expr, ctx)?;
                let lo = self.eval(i, low, ctx)?;
                let hi = self.eval(i, high, ctx)?;
                self.comparable(i, BinaryOp::Ge, (expr, &v), (low, &lo), ctx)?;
                self.comparable(i, BinaryOp::Le, (expr, &v), (high, &hi), ctx)?;
                match (compare(&v, &lo), compare(&v, &hi)) {
                    (Some(a), Some(b)) => {
                        Value::bool((a != Ordering::Less && b != Ordering::Greater) != *negated)
                    }
                    _ => Value::Null,
                }
            }
            ExprKind::Like {
                expr,
                pattern,
                negated,
                case_insensitive,
            } => {
                let v = self.eval(i, expr, ctx)?;
                let p = self.eval(i, pattern, ctx)?;
                if v.is_null() || p.is_null() {
                    Value::Null
                } else {
                    let style = LikeStyle {
                        fold_case: *case_insensitive
                            || self.rules.collation() == crate::value::Collation::IgnoreCase,
                        sets: self.rules.like_bracket_sets(),
                    };
                    Value::bool(like_with(&v.as_text(), &p.as_text(), style) != *negated)
                }
            }
            // An INSERT's VALUES takes its DEFAULTs out before evaluating a row.
            ExprKind::Default => {
                return Err(SqlError::not_simulated("DEFAULT outside an INSERT's VALUES").into())
            }
            ExprKind::Exists(q) => {
                let rows = self.subquery_in_expr(i, q, ctx)?;
                Value::bool(!rows.rows.is_empty())
            }
            ExprKind::Subquery(q) => {
                let rows = self.subquery_in_expr(i, q, ctx)?;
                if rows.columns.len() > 1 {
                    return Err(SqlError::subquery_columns(false).into());
                }
                if rows.rows.len() > 1 {
                    return Err(SqlError::generic(
                        512,
                        16,
                        "Subquery returned more than 1 value. This is not permitted when the subquery follows =, !=, <, <= , >, >= or when the subquery is used as an expression.",
                    )
                    .into());
                }
                rows.rows
                    .into_iter()
                    .next()
                    .and_then(|r| r.into_iter().next())
                    .unwrap_or(Value::Null)
            }
            // TRY_CAST, TRY_CONVERT: NULL where the conversion fails. An error computing
            // the value itself, or a conversion the types never allow (529), still fails.
            ExprKind::Function { name, args, .. } if name == sql::TRY => {
                let Some(ExprKind::Cast { expr, ty, .. }) = args.first().map(|a| &a.kind) else {
                    return Ok(Value::Null);
                };
                let v = self.eval(i, expr, ctx)?;
                match self.convert(&v, ty, None) {
                    Ok(v) => v,
                    Err(e)
                        if matches!(
                            e.number,
                            241 | 242 | 244 | 245 | 248 | 8114 | 8115 | 220 | 232
                        ) =>
                    {
                        Value::Null
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            ExprKind::Function {
                name,
                args,
                star,
                distinct,
                over,
                within_group,
            } => {
                if over.is_some() {
                    // A query computes its window calls first (`with_windows`).
                    if let Some((_, v)) = self.w.windows.iter().rev().find(|(c, _)| c == e) {
                        return Ok(v.clone());
                    }
                    return Err(SqlError::generic(
                        4108,
                        15,
                        "Windowed functions can only appear in the SELECT or ORDER BY clauses.",
                    )
                    .into());
                }
                if self.rules.lacks_function(name) {
                    // Another dialect's function (`LEN` where the server has `length`):
                    // the server knows no such name, whatever the arguments.
                    let mut typed = Vec::with_capacity(args.len());
                    for a in args {
                        // The server resolves the arguments first: an unknown column in one
                        // is its error.
                        let v = self.eval(i, a, ctx)?;
                        typed.push((a, v));
                    }
                    return Err(self.rules.unknown_routine(name, &typed, true).into());
                }
                if is_aggregate(name) {
                    let agg = Aggregate {
                        name,
                        args,
                        star: *star,
                        distinct: *distinct,
                        order: within_group,
                    };
                    return self.aggregate(i, &agg, ctx);
                }
                // Shorthands for CASE: only the chosen argument is evaluated, and the result
                // takes the type of highest precedence among the arguments.
                if let Some(chosen) = self.case_shorthand(i, name, args, ctx)? {
                    let v = match chosen {
                        Some(e) => self.eval(i, e, ctx)?,
                        None => Value::Null,
                    };
                    let candidates = if name == "COALESCE" {
                        &args[..]
                    } else {
                        &args[1..]
                    };
                    return self.at_precedence(i, candidates, v, ctx);
                }
                let mut vals = Vec::with_capacity(args.len());
                for (k, a) in args.iter().enumerate() {
                    // A date part (`millisecond`, `day`) is a keyword, not a column.
                    let part = k == 0
                        && matches!(
                            name.as_str(),
                            "DATEADD" | "DATEDIFF" | "DATEPART" | "DATENAME"
                        )
                        && matches!(&a.kind, ExprKind::Column(n) if n.parts.len() == 1);
                    vals.push(if part {
                        Value::Null
                    } else {
                        self.eval(i, a, ctx)?
                    });
                }
                self.function(i, name, args, vals)?
            }
            ExprKind::Cast { expr, ty, .. } => {
                let v = self.eval(i, expr, ctx)?;
                self.convert(&v, ty, None)?
            }
            ExprKind::Case {
                operand,
                branches,
                otherwise,
            } => {
                let op = match operand {
                    Some(o) => Some(self.eval(i, o, ctx)?),
                    None => None,
                };
                for (w, t) in branches {
                    let hit = match &op {
                        Some(v) => {
                            let w = self.eval(i, w, ctx)?;
                            compare(v, &w) == Some(Ordering::Equal)
                        }
                        None => self.holds(i, "CASE/WHEN", w, ctx)?,
                    };
                    if hit {
                        return self.eval(i, t, ctx);
                    }
                }
                match otherwise {
                    Some(o) => self.eval(i, o, ctx)?,
                    None => Value::Null,
                }
            }
        })
    }

    /// Virtual µs the clock functions read (SYSDATETIME() and its kin): a runtime
    /// constant, the instant session `i`'s statement began (or its request, where the
    /// dialect fixes the time per request), even when the statement waited for a lock.
    fn clock(&self, i: usize) -> i64 {
        let s = &self.w.sessions[i];
        if self.rules.clock_per_request() {
            s.request_at as i64
        } else {
            s.statement_at as i64
        }
    }

    /// Whether `e` is typed as an integer of at most 32 bits without evaluating it: a
    /// literal in int's range, an int, smallint or tinyint column or variable, a cast to
    /// one, or arithmetic on such. Anything else (bigint, a call) is taken as wide.
    fn narrow_int(&self, i: usize, e: &Expr, ctx: Option<&RowCtx>) -> bool {
        self.int_typed(i, e, ctx, false)
    }

    /// Whether `e` is a `smallint` (a literal is an `int`): arithmetic on two stays one.
    fn smallint(&self, i: usize, e: &Expr, ctx: Option<&RowCtx>) -> bool {
        self.int_typed(i, e, ctx, true)
    }

    /// [`Self::narrow_int`], or with `small` [`Self::smallint`].
    fn int_typed(&self, i: usize, e: &Expr, ctx: Option<&RowCtx>, small: bool) -> bool {
        let narrow = |ty: &DataType| match small {
            true => matches!(ty, DataType::SmallInt),
            false => matches!(ty, DataType::Int | DataType::SmallInt | DataType::TinyInt),
        };
        match &e.kind {
            ExprKind::Literal(Literal::Int(n)) => !small && i32::try_from(*n).is_ok(),
            ExprKind::Var(_) | ExprKind::Column(_) | ExprKind::Cast { .. } => {
                self.declared_type(i, e, ctx).is_some_and(|ty| narrow(&ty))
            }
            ExprKind::Unary {
                op: UnaryOp::Neg,
                expr,
            } => self.int_typed(i, expr, ctx, small),
            ExprKind::Binary {
                op: BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod,
                left,
                right,
            } => self.int_typed(i, left, ctx, small) && self.int_typed(i, right, ctx, small),
            _ => false,
        }
    }

    /// Whether the dialect compares these two sides (`op` in `a op b`, IN's `=`,
    /// BETWEEN's `>=` and `<=`): text against a number, a boolean against a number are
    /// looked into, and nothing else costs more than a look at the two values.
    #[inline]
    fn comparable(
        &self,
        i: usize,
        op: BinaryOp,
        left: (&Expr, &Value),
        right: (&Expr, &Value),
        ctx: Option<&RowCtx>,
    ) -> Result<(), Interrupt> {
        if kinds_differ(left.1, right.1) {
            self.mismatch(i, op, left, right, ctx)
        } else {
            Ok(())
        }
    }

    #[cold]
    #[inline(never)]
    fn mismatch(
        &self,
        i: usize,
        op: BinaryOp,
        (left, l): (&Expr, &Value),
        (right, r): (&Expr, &Value),
        ctx: Option<&RowCtx>,
    ) -> Result<(), Interrupt> {
        let left = self.operand(i, left, l, ctx);
        let right = self.operand(i, right, r, ctx);
        match self.rules.comparison_mismatch(op, &left, &right) {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }

    /// Evaluates condition `e` (the argument of `place`: WHERE, HAVING, JOIN/ON, ...) on
    /// a row: whether it holds.
    pub(crate) fn holds(
        &mut self,
        i: usize,
        place: &'static str,
        e: &Expr,
        ctx: Option<&RowCtx>,
    ) -> Result<bool, Interrupt> {
        let v = self.eval(i, e, ctx)?;
        self.condition_value(i, place, (e, &v), ctx)
    }

    /// Whether a condition's value `v`, of expression `e`, holds; a value that is not a
    /// boolean is the dialect's error, if it has one for it.
    fn condition_value(
        &self,
        i: usize,
        place: &'static str,
        (e, v): (&Expr, &Value),
        ctx: Option<&RowCtx>,
    ) -> Result<bool, Interrupt> {
        match v {
            Value::True => Ok(true),
            Value::False | Value::Null => Ok(false),
            _ => self.not_boolean(i, place, e, v, ctx),
        }
    }

    /// Out of line: conditions are booleans on the common path.
    #[cold]
    #[inline(never)]
    fn not_boolean(
        &self,
        i: usize,
        place: &'static str,
        e: &Expr,
        v: &Value,
        ctx: Option<&RowCtx>,
    ) -> Result<bool, Interrupt> {
        let operand = self.operand(i, e, v, ctx);
        Ok(self.rules.condition_value(place, &operand)?)
    }

    /// The type a variable, a column or a cast was declared with.
    fn declared_type(&self, i: usize, e: &Expr, ctx: Option<&RowCtx>) -> Option<DataType> {
        match &e.kind {
            ExprKind::Var(name) => {
                let key = crate::names::lower(name);
                (self.w.sessions[i].frames.last())
                    .and_then(|f| f.vars.get(&*key))
                    .map(|(ty, _)| *ty)
            }
            ExprKind::Column(name) => match lookup(ctx, name) {
                Ok(Cols::Found(c, p)) => (c.scope.bindings.iter())
                    .find(|b| (b.offset..b.offset + b.columns.len()).contains(&p))
                    .and_then(|b| {
                        let t = self.w.db.table_id(b.table.as_deref()?)?;
                        let col = self.w.db.tables[t as usize].columns.get(p - b.offset)?;
                        Some(col.ty)
                    }),
                _ => None,
            },
            ExprKind::Cast { ty, .. } => Some(*ty),
            _ => None,
        }
    }

    /// A comparison's side, with what its expression says of its type.
    fn operand<'v>(
        &self,
        i: usize,
        e: &Expr,
        value: &'v Value,
        ctx: Option<&RowCtx>,
    ) -> crate::exec::Operand<'v> {
        let declared = self.declared_type(i, e, ctx);
        crate::exec::Operand {
            value,
            literal: matches!(e.kind, ExprKind::Literal(_)),
            declared,
        }
    }

    fn var(&self, i: usize, name: &str) -> Fallible<Value> {
        let key = crate::names::lower(name);
        self.w.sessions[i]
            .frames
            .last()
            .and_then(|f| f.vars.get(&*key))
            .map(|(_, v)| v.clone())
            .ok_or_else(|| SqlError::undeclared_variable(name).into())
    }

    fn global(&self, i: usize, g: &str) -> Fallible<Value> {
        let s = &self.w.sessions[i];
        Ok(match g {
            "ROWCOUNT" => Value::Int(s.rowcount),
            "FOUND" => Value::bool(s.frames.last().is_some_and(|f| f.found)),
            "TRANCOUNT" => Value::Int(s.tran_count as i64),
            "SPID" => Value::Int(s.spid as i64),
            "ERROR" => Value::Int(s.last_error),
            "LOCK_TIMEOUT" => Value::Int(s.options.lock_timeout_ms),
            "IDENTITY" => s
                .frames
                .iter()
                .rev()
                .find_map(|f| f.scope_identity)
                .map_or(Value::Null, Value::Int),
            other => return Err(SqlError::not_simulated(&format!("@@{other}")).into()),
        })
    }

    fn aggregate(
        &mut self,
        i: usize,
        agg: &Aggregate,
        ctx: Option<&RowCtx>,
    ) -> Result<Value, Interrupt> {
        let Aggregate {
            name,
            args,
            star,
            distinct,
            order,
        } = *agg;
        let Some(c) = ctx else {
            return Err(SqlError::generic(
                147,
                15,
                "An aggregate may not appear in the WHERE clause unless it is in a subquery contained in a HAVING clause or a select list, and the column being aggregated is an outer reference.",
            )
            .into());
        };
        if star {
            return Ok(Value::Int(c.group.map_or(1, <[_]>::len) as i64));
        }
        if matches!(name, "BOOL_AND" | "BOOL_OR" | "EVERY") && !self.rules.boolean_aggregates() {
            return Err(SqlError::not_simulated(&format!("function {name}()")).into());
        }
        let one = [c.row];
        let rows: Vec<&[Value]> = match c.group {
            Some(g) => g.iter().map(Vec::as_slice).collect(),
            None => one.to_vec(),
        };
        let Some(arg) = args.first() else {
            return Ok(Value::Null);
        };
        if name == "STRING_AGG" {
            return self.string_agg(i, arg, args.get(1), order, c, &rows);
        }
        // A type the aggregate has no operator for (SUM of text, MAX of a bit).
        if let Some(ty) = self.declared_type(i, arg, Some(c)) {
            if let Some(e) = SqlError::invalid_aggregate_operand(name, &ty) {
                return Err(e.into());
            }
        }
        let mut vals = Vec::new();
        for &r in &rows {
            let v = self.eval(i, arg, Some(&c.member(r)))?;
            if !v.is_null() {
                vals.push(v);
            }
        }
        Ok(fold(name, vals, distinct, self.rules.truncating_integers()))
    }

    /// `STRING_AGG(arg, sep) [WITHIN GROUP (ORDER BY ...)]` over a group's rows: the
    /// non-NULL values as text joined by `sep`, NULL when there are none.
    fn string_agg(
        &mut self,
        i: usize,
        arg: &Expr,
        sep: Option<&Expr>,
        order: &[OrderItem],
        c: &RowCtx,
        rows: &[&[Value]],
    ) -> Result<Value, Interrupt> {
        let Some(sep) = sep else {
            return Err(wrong_arity("STRING_AGG", 2).into());
        };
        let sep = self.eval(i, sep, c.outer)?.as_text();
        let mut items: Vec<(Vec<Value>, String)> = Vec::new();
        for &r in rows {
            let rc = c.member(r);
            let v = self.eval(i, arg, Some(&rc))?;
            if v.is_null() {
                continue;
            }
            let mut key = Vec::with_capacity(order.len());
            for o in order {
                key.push(self.eval(i, &o.expr, Some(&rc))?);
            }
            items.push((key, v.as_text()));
        }
        if items.is_empty() {
            return Ok(Value::Null);
        }
        // Stable: equal keys keep the rows' order. NULLs go where the dialect sorts them,
        // or where NULLS FIRST | LAST says, as in a query's ORDER BY.
        let dialect_high = self.rules.nulls_sort_high();
        items.sort_by(|a, b| {
            (a.0.iter().zip(&b.0).zip(order))
                .map(|((x, y), o)| {
                    let high = o.nulls_first.map_or(dialect_high, |first| first == o.desc);
                    let ord = crate::value::sort_cmp_nulls(x, y, high);
                    if o.desc {
                        ord.reverse()
                    } else {
                        ord
                    }
                })
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        });
        let texts: Vec<String> = items.into_iter().map(|(_, t)| t).collect();
        let seps = sep.len() * texts.len().saturating_sub(1);
        crate::value::text_fits(texts.iter().map(String::len).sum::<usize>() + seps)?;
        Ok(Value::Text(texts.join(&sep).into()))
    }

    /// IIF, CHOOSE and COALESCE: `Some(the argument chosen)` (`Some(None)` for NULL), or
    /// `None` when `name` is none of them. Only conditions and indexes are evaluated here.
    fn case_shorthand<'e>(
        &mut self,
        i: usize,
        name: &str,
        args: &'e [Expr],
        ctx: Option<&RowCtx>,
    ) -> Result<Option<Option<&'e Expr>>, Interrupt> {
        let arity = |min: usize, max: usize| {
            if (min..=max).contains(&args.len()) {
                Ok(())
            } else {
                Err(wrong_arity(name, min))
            }
        };
        Ok(Some(match name {
            "IIF" => {
                arity(3, 3)?;
                let cond = self.eval(i, &args[0], ctx)?.is_true();
                Some(&args[if cond { 1 } else { 2 }])
            }
            "CHOOSE" => {
                arity(2, usize::MAX)?;
                let n = self.eval(i, &args[0], ctx)?.as_i64();
                n.filter(|&n| n >= 1)
                    .and_then(|n| args[1..].get(n as usize - 1))
            }
            "COALESCE" => {
                arity(2, usize::MAX)?;
                let null = |a: &Expr| matches!(a.kind, ExprKind::Literal(Literal::Null));
                if args.iter().all(null) {
                    if let Some(e) = self.rules.all_null_coalesce() {
                        return Err(e.into());
                    }
                }
                let mut found = None;
                for a in args {
                    if !self.eval(i, a, ctx)?.is_null() {
                        found = Some(a);
                        break;
                    }
                }
                found
            }
            _ => return Ok(None),
        }))
    }

    /// Converts the value a CASE shorthand chose to the type of highest precedence among
    /// its candidates (SQL Server: datetime2 > float > int > varchar), so
    /// `COALESCE(NULL, '5', 1)` is the int 5 and `COALESCE('x', 1)` fails with 245.
    fn at_precedence(
        &mut self,
        i: usize,
        candidates: &[Expr],
        v: Value,
        ctx: Option<&RowCtx>,
    ) -> Result<Value, Interrupt> {
        let mut rank = value_rank(&v);
        for e in candidates {
            rank = rank.max(self.static_rank(i, e, ctx)?);
        }
        Ok(match (rank, &v) {
            (_, Value::Null) => Value::Null,
            (4, Value::DateTime(..)) | (3, Value::Decimal(_)) | (2, Value::Int(_)) | (1, _) => v,
            // A boolean (a dialect's own type) stays one beside other booleans and NULLs.
            (2, Value::True | Value::False) => v,
            (4, _) => convert(&v, &DataType::DateTime2(7), None)?,
            (3, _) => convert(&v, &DataType::Float, None)?,
            _ => convert(&v, &DataType::Int, None)?,
        })
    }

    /// The precedence rank of an expression's type where it is known without evaluating
    /// anything costly: literals, variables, casts, columns (by their value); 0 if unknown.
    fn static_rank(&mut self, i: usize, e: &Expr, ctx: Option<&RowCtx>) -> Result<u8, Interrupt> {
        Ok(match &e.kind {
            ExprKind::Literal(Literal::Int(_)) => 2,
            ExprKind::Literal(Literal::Decimal(_)) => 3,
            ExprKind::Literal(Literal::Str { .. }) => 1,
            ExprKind::Var(name) => {
                let key = name.to_ascii_lowercase();
                self.w.sessions[i]
                    .frames
                    .last()
                    .and_then(|f| f.vars.get(&key))
                    .map_or(0, |(ty, _)| type_rank(ty))
            }
            ExprKind::Cast { ty, .. } => type_rank(ty),
            // A NULL has its column's type: COALESCE(int_col, 'x') is an int either way.
            ExprKind::Column(_) => match value_rank(&self.eval(i, e, ctx)?) {
                0 => self.declared_type(i, e, ctx).map_or(0, |ty| type_rank(&ty)),
                rank => rank,
            },
            _ => 0,
        })
    }

    fn function(
        &mut self,
        i: usize,
        name: &str,
        args: &[Expr],
        v: Vec<Value>,
    ) -> Result<Value, Interrupt> {
        let arg = |n: usize| v.get(n).cloned().unwrap_or(Value::Null);
        Ok(match name {
            "SYSDATETIME" | "GETDATE" | "SYSUTCDATETIME" | "GETUTCDATE" | "CURRENT_TIMESTAMP"
            | "SYSDATETIMEOFFSET" => {
                // CURRENT_TIMESTAMP(p) names its digits; the reading is cut to
                // the digits shown, so it is never later than the clock.
                let stamp = match (name, arg(0)) {
                    ("CURRENT_TIMESTAMP", Value::Int(p @ 0..=6)) => Stamp::Full(p as u8),
                    _ => self.rules.clock_stamp(name),
                };
                let us = crate::value::CLOCK_ZERO_US + self.clock(i);
                let unit = match stamp {
                    Stamp::Full(p) if p < 6 => 10i64.pow(6 - u32::from(p)),
                    _ => 1,
                };
                Value::DateTime(us - us.rem_euclid(unit), stamp)
            }
            // A RAISE message's argument, made by the parser (no name a script can
            // call): the value as output prints it, NULL as `<NULL>`.
            sql::RAISE_ARG => match arg(0) {
                Value::Null => Value::Text("<NULL>".into()),
                v => Value::Text(v.output_text().into()),
            },
            // A text cast to an interval where a timestamp adds it, in days.
            sql::INTERVAL_OF => match arg(0) {
                Value::Null => Value::Null,
                v => {
                    let text = v.as_text();
                    match sql::interval_seconds(&text) {
                        Ok(secs) => Value::Decimal(secs / 86_400.0),
                        Err(None) => {
                            return Err(SqlError::generic(
                                245,
                                16,
                                format!("invalid input syntax for type interval: \"{text}\""),
                            )
                            .with_sqlstate("22007")
                            .into())
                        }
                        Err(Some(unit)) => {
                            return Err(
                                SqlError::not_simulated(&format!("intervals in {unit}")).into()
                            )
                        }
                    }
                }
            },
            // An INTERVAL 'n' UNIT literal, in days (what datetime arithmetic adds).
            "INTERVAL" => {
                let per_day = match arg(1).as_text().as_str() {
                    "SECOND" => 86_400.0,
                    "MINUTE" => 1_440.0,
                    "HOUR" => 24.0,
                    _ => 1.0,
                };
                match arg(0).as_text().trim().parse::<f64>() {
                    Ok(n) => Value::Decimal(n / per_day),
                    Err(_) => {
                        return Err(SqlError::generic(
                            3520,
                            16,
                            "A constant value in a query is not valid for column INTERVAL.",
                        )
                        .into())
                    }
                }
            }
            "USER" | "CURRENT_USER" | "SUSER_SNAME" => Value::Text(self.w.sessions[i].name.clone()),
            "CURRENT_DATE" => Value::DateTime(
                (crate::value::CLOCK_ZERO_US + self.clock(i)).div_euclid(86_400_000_000)
                    * 86_400_000_000,
                self.rules.clock_stamp(name),
            ),
            // The last identity value any session generated for the table (the seed
            // when none has been since it was made or truncated); numeric(38,0).
            "IDENT_CURRENT" => {
                let name = arg(0).as_text();
                let key = name
                    .rsplit('.')
                    .next()
                    .unwrap_or_default()
                    .trim_matches(['[', ']']);
                match self
                    .w
                    .db
                    .table_id(key)
                    .and_then(|t| self.w.db.tables[t as usize].identity.as_ref())
                {
                    Some(id) if id.next == id.seed => Value::Decimal(id.seed as f64),
                    Some(id) => Value::Decimal(id.next.saturating_sub(id.increment) as f64),
                    None => Value::Null,
                }
            }
            "SCOPE_IDENTITY" => self
                .frame(i)
                .scope_identity
                .map_or(Value::Null, |n| Value::Decimal(n as f64)),
            "OBJECT_ID" => {
                let text = arg(0).as_text();
                let key = text
                    .rsplit('.')
                    .next()
                    .unwrap_or("")
                    .trim_matches(|c| c == '[' || c == ']')
                    .to_ascii_lowercase();
                match self.w.db.table_id(&key) {
                    Some(id) => Value::Int(1_000 + id as i64),
                    None if self.w.db.procs.contains_key(&key) => {
                        Value::Int(900_000 + key.len() as i64)
                    }
                    None => Value::Null,
                }
            }
            "ISNULL" => {
                let a = arg(0);
                if a.is_null() {
                    arg(1)
                } else {
                    a
                }
            }
            "NULLIF" => {
                if compare(&arg(0), &arg(1)) == Some(Ordering::Equal) {
                    Value::Null
                } else {
                    arg(0)
                }
            }
            "LEN" => match arg(0) {
                Value::Null => Value::Null,
                x => Value::Int(crate::value::trim_spaces(&x.as_text()).chars().count() as i64),
            },
            "UPPER" => text_fn(arg(0), |s| s.to_uppercase()),
            "LOWER" => text_fn(arg(0), |s| s.to_lowercase()),
            // Spaces only (not tabs or line breaks), or the characters of the second
            // argument; NULL characters give NULL.
            "LTRIM" | "RTRIM" | "TRIM" if v.len() > 1 && arg(1).is_null() => Value::Null,
            "LTRIM" | "RTRIM" | "TRIM" => {
                let chars: Vec<char> = match v.get(1) {
                    Some(c) => c.as_text().chars().collect(),
                    None => vec![' '],
                };
                let cut = |c: char| chars.contains(&c);
                text_fn(arg(0), |s| {
                    match name {
                        "LTRIM" => s.trim_start_matches(cut),
                        "RTRIM" => s.trim_end_matches(cut),
                        _ => s.trim_matches(cut),
                    }
                    .to_string()
                })
            }
            // NULL arguments count as empty strings; CONCAT_WS skips them.
            "CONCAT" | "CONCAT_WS" => {
                let (min, values) = if name == "CONCAT" {
                    (2, &v[..])
                } else {
                    (3, v.get(1..).unwrap_or_default())
                };
                if !(min..=254).contains(&v.len()) {
                    return Err(SqlError::generic(
                        189,
                        15,
                        format!(
                            "The {} function requires {min} to 254 arguments.",
                            name.to_ascii_lowercase()
                        ),
                    )
                    .into());
                }
                let parts = values.iter().filter(|x| name == "CONCAT" || !x.is_null());
                let parts: Vec<String> = parts.map(Value::output_text).collect();
                let sep = if name == "CONCAT" {
                    String::new()
                } else {
                    v[0].as_text()
                };
                let seps = sep.len() * parts.len().saturating_sub(1);
                crate::value::text_fits(parts.iter().map(String::len).sum::<usize>() + seps)?;
                Value::Text(parts.join(&sep).into())
            }
            "LEFT" => {
                let n = arg(1).as_i64().unwrap_or(0).max(0) as usize;
                text_fn(arg(0), |s| s.chars().take(n).collect())
            }
            "RIGHT" => {
                let n = arg(1).as_i64().unwrap_or(0).max(0) as usize;
                text_fn(arg(0), |s| {
                    let c: Vec<char> = s.chars().collect();
                    c[c.len().saturating_sub(n)..].iter().collect()
                })
            }
            "SUBSTRING" | "SUBSTR" => {
                let start = arg(1).as_i64().unwrap_or(1);
                // Without a length (`substr(s, n)`, `substring(s FROM n)`): the rest.
                let len = match v.get(2) {
                    None => i64::MAX / 2,
                    Some(l) => l.as_i64().unwrap_or(0).max(0),
                };
                text_fn(arg(0), |s| {
                    let from = (start - 1).max(0) as usize;
                    let take = (len + (start - 1).min(0)).max(0) as usize;
                    s.chars().skip(from).take(take).collect()
                })
            }
            // CHARINDEX(find, search [, start]): where `find` first begins in `search`
            // at or after `start`, counted in characters from 1; 0 when it does not (or
            // is empty); NULL when either text is. The collation decides case.
            "CHARINDEX" => match (arg(0), arg(1)) {
                (Value::Null, _) | (_, Value::Null) => Value::Null,
                (find, search) => {
                    let fold = |v: &Value| {
                        let t = v.as_text();
                        if crate::value::ignores_case() {
                            t.to_lowercase()
                        } else {
                            t
                        }
                    };
                    let find: Vec<char> = fold(&find).chars().collect();
                    let search: Vec<char> = fold(&search).chars().collect();
                    let start = v.get(2).and_then(Value::as_i64).unwrap_or(1).max(1) as usize;
                    let at = (!find.is_empty())
                        .then(|| {
                            (start - 1..search.len()).find(|&k| search[k..].starts_with(&find))
                        })
                        .flatten();
                    Value::Int(at.map_or(0, |k| k as i64 + 1))
                }
            },
            "REPLICATE" => {
                // SQL Server cuts a non-max result at 8 000 bytes: never a string of
                // gigabytes (found by fuzzing).
                let n = arg(1).as_i64().unwrap_or(0).clamp(0, 8000) as usize;
                text_fn(arg(0), |s| {
                    let chars = s.chars().count().max(1);
                    s.repeat(n.min(8000 / chars + 1))
                        .chars()
                        .take(8000)
                        .collect()
                })
            }
            // CHAR(n): the character of code n (0 to 255; NULL outside), NCHAR(n) of any
            // code point; ASCII and UNICODE: the first character's code (NULL for '').
            "CHAR" | "NCHAR" => match arg(0).as_i64() {
                Some(n) if name == "CHAR" && !(0..=255).contains(&n) => Value::Null,
                Some(n) => u32::try_from(n)
                    .ok()
                    .and_then(char::from_u32)
                    .map_or(Value::Null, |c| Value::Text(c.to_string().into())),
                None => Value::Null,
            },
            "ASCII" | "UNICODE" => match arg(0) {
                Value::Null => Value::Null,
                v => v
                    .as_text()
                    .chars()
                    .next()
                    .map_or(Value::Null, |c| Value::Int(i64::from(u32::from(c)))),
            },
            // STUFF(s, start, length, r): `length` characters from `start` (counting from
            // 1) replaced by r; NULL for a start outside s or a negative length.
            "STUFF" => {
                let (start, len) = (arg(1).as_i64(), arg(2).as_i64());
                match (arg(0), start, len) {
                    (Value::Null, _, _) | (_, None, _) | (_, _, None) => Value::Null,
                    (v, Some(start), Some(len)) => {
                        let chars: Vec<char> = v.as_text().chars().collect();
                        if start < 1 || start as usize > chars.len() || len < 0 {
                            Value::Null
                        } else {
                            let from = start as usize - 1;
                            let to = (from + len as usize).min(chars.len());
                            let mut out: String = chars[..from].iter().collect();
                            if !arg(3).is_null() {
                                let r = arg(3).as_text();
                                crate::value::text_fits(v.as_text().len() + r.len())?;
                                out.push_str(&r);
                            }
                            out.extend(&chars[to..]);
                            Value::Text(out.into())
                        }
                    }
                }
            }
            "ABS" => {
                match arg(0) {
                    Value::Int(n) => Value::Int(n.checked_abs().ok_or_else(|| {
                        SqlError::arithmetic_overflow(&sql::ast::DataType::BigInt)
                    })?),
                    Value::Decimal(d) => Value::Decimal(d.abs()),
                    other => other,
                }
            }
            "ERROR_NUMBER" | "ERROR_MESSAGE" | "ERROR_SEVERITY" | "ERROR_STATE" | "ERROR_LINE"
            | "ERROR_PROCEDURE" => {
                let caught = self.caught_now(i);
                match caught {
                    None => Value::Null,
                    Some(e) => match name {
                        "ERROR_NUMBER" => Value::Int(e.number as i64),
                        "ERROR_MESSAGE" => Value::Text(e.message.as_str().into()),
                        "ERROR_SEVERITY" => Value::Int(e.severity as i64),
                        "ERROR_LINE" => Value::Int(e.origin.as_ref().map_or(1, |o| o.0) as i64),
                        // Schema-qualified since SQL Server 2017.
                        "ERROR_PROCEDURE" => match e.origin.as_deref() {
                            Some((_, Some(p))) if p.contains('.') => Value::Text(p.clone()),
                            Some((_, Some(p))) => Value::Text(format!("dbo.{p}").into()),
                            _ => Value::Null,
                        },
                        _ => Value::Int(e.state as i64),
                    },
                }
            }
            "APPLOCK_MODE" => {
                let res = crate::state::locks::Resource::Application {
                    name: arg(1).as_text(),
                };
                let owner = if arg(2).as_text().eq_ignore_ascii_case("session") {
                    Some(self.w.sessions[i].session_owner)
                } else {
                    self.w.sessions[i].txn.as_ref().map(|t| t.id)
                };
                let mode = owner
                    .and_then(|o| self.w.locks.held(o, &res))
                    .map(|(m, _)| m);
                Value::Text(mode.map_or("NoLock", |m| m.applock_name()).into())
            }
            "APPLOCK_TEST" => {
                let res = crate::state::locks::Resource::Application {
                    name: arg(1).as_text(),
                };
                let Some(mode) =
                    crate::state::locks::LockMode::from_applock_name(&arg(2).as_text())
                else {
                    return Err(SqlError::generic(
                        1225,
                        16,
                        "The application lock mode is invalid.",
                    )
                    .into());
                };
                let owner = if arg(3).as_text().eq_ignore_ascii_case("session") {
                    self.w.sessions[i].session_owner
                } else {
                    self.w.sessions[i].txn.as_ref().map_or(0, |t| t.id)
                };
                // An int, 1 or 0, as APPLOCK_TEST returns it.
                Value::Int(self.w.locks.conflicts(owner, &res, mode).is_empty() as i64)
            }
            "XACT_STATE" => Value::Int(match self.w.sessions[i].txn.as_ref() {
                Some(t) if t.doomed => -1,
                Some(t) if t.explicit => 1,
                _ => 0,
            }),
            "DATEDIFF" | "DATEADD" | "DATEPART" | "DATENAME" => {
                let word = match args.first().map(|a| &a.kind) {
                    Some(ExprKind::Column(n)) if n.parts.len() == 1 => n.name().value.clone(),
                    _ => {
                        return Err(SqlError::generic(
                            1023,
                            15,
                            format!(
                                "Invalid parameter 1 specified for {}.",
                                name.to_ascii_lowercase()
                            ),
                        )
                        .into())
                    }
                };
                let part = DatePart::parse(&word, name)?;
                let date = |n: usize| -> Result<Option<i64>, SqlError> {
                    match arg(n) {
                        Value::Null => Ok(None),
                        v => as_time(&v)
                            .map(Some)
                            .ok_or_else(SqlError::conversion_failed_datetime),
                    }
                };
                match name {
                    "DATEDIFF" => match (date(1)?, date(2)?) {
                        (Some(a), Some(b)) => Value::Int(date_diff(part, a, b)?),
                        _ => Value::Null,
                    },
                    // DATEADD returns its date's type; text converts to datetime.
                    "DATEADD" => match (arg(1).as_i64(), date(2)?) {
                        (Some(n), Some(t)) => Value::DateTime(
                            date_add(part, n, t)?,
                            match arg(2) {
                                Value::DateTime(_, stamp) => stamp,
                                _ => Stamp::Full(3),
                            },
                        ),
                        _ => Value::Null,
                    },
                    "DATEPART" => date(1)?.map_or(Value::Null, |t| Value::Int(date_part(part, t))),
                    _ => date(1)?.map_or(Value::Null, |t| Value::Text(date_name(part, t).into())),
                }
            }
            "REPLACE" => match (arg(0), arg(1), arg(2)) {
                (Value::Null, _, _) | (_, Value::Null, _) | (_, _, Value::Null) => Value::Null,
                (s, from, to) => {
                    let (s, from, to) = (s.as_text(), from.as_text(), to.as_text());
                    if from.is_empty() {
                        Value::Text(s.into())
                    } else {
                        let grows = to.len().saturating_sub(from.len());
                        if grows > 0 {
                            let found = s.matches(from.as_str()).count();
                            crate::value::text_fits(s.len() + found * grows)?;
                        }
                        Value::Text(s.replace(&from, &to).into())
                    }
                }
            },
            "REVERSE" => text_fn(arg(0), |s| s.chars().rev().collect()),
            "ROUND" | "FLOOR" | "CEILING" | "SIGN" | "SQRT" | "POWER" => {
                numeric_function(name, &v)?
            }
            "CEIL" => numeric_function("CEILING", &v)?,
            // NULLs are left out (SQL Server 2022, as the other dialect with them).
            "GREATEST" | "LEAST" => {
                let mut best = Value::Null;
                for x in v.iter().filter(|x| !x.is_null()) {
                    let better = match compare(x, &best) {
                        _ if best.is_null() => true,
                        Some(o) => {
                            (o == Ordering::Greater) == (name == "GREATEST") && o != Ordering::Equal
                        }
                        None => false,
                    };
                    if better {
                        best = x.clone();
                    }
                }
                best
            }
            "NEWID" => {
                use rand_core::Rng;
                let (a, b) = (self.rng.next_u64(), self.rng.next_u64());
                Value::Text(
                    format!(
                        "{:08X}-{:04X}-{:04X}-{:04X}-{:012X}",
                        a >> 32,
                        (a >> 16) & 0xffff,
                        a & 0xffff,
                        b >> 48,
                        b & 0xffff_ffff_ffff
                    )
                    .into(),
                )
            }
            other => {
                let rules = self.rules;
                match rules.call_function(self, i, other, &v) {
                    Some(result) => result?,
                    None => {
                        return Err(SqlError::not_simulated(&format!("function {other}()")).into())
                    }
                }
            }
        })
    }
}

/// An aggregate of `vals`, the non-NULL values of its argument (DISTINCT ones if asked);
/// `truncating_integers`: AVG of integers is an integer (`Rules::truncating_integers`).
pub(crate) fn fold(
    name: &str,
    mut vals: Vec<Value>,
    distinct: bool,
    truncating_integers: bool,
) -> Value {
    if distinct {
        vals.sort_by(crate::value::sort_cmp);
        vals.dedup_by(|a, b| compare(a, b) == Some(Ordering::Equal));
    }
    match name {
        "COUNT" | "COUNT_BIG" => Value::Int(vals.len() as i64),
        "MIN" => vals
            .into_iter()
            .min_by(crate::value::sort_cmp)
            .unwrap_or(Value::Null),
        "MAX" => vals
            .into_iter()
            .max_by(crate::value::sort_cmp)
            .unwrap_or(Value::Null),
        "SUM" | "AVG" => {
            if vals.is_empty() {
                Value::Null
            } else {
                let all_int = vals.iter().all(|v| matches!(v, Value::Int(_)));
                let n = vals.len() as i64;
                if all_int && (name == "SUM" || truncating_integers) {
                    let sum: i64 = vals.iter().filter_map(Value::as_i64).sum();
                    if name == "SUM" {
                        Value::Int(sum)
                    } else {
                        Value::Int(sum / n)
                    }
                } else {
                    let sum: f64 = vals
                        .iter()
                        .map(|v| v.as_text().parse::<f64>().unwrap_or(0.0))
                        .sum();
                    if name == "SUM" {
                        Value::Decimal(sum)
                    } else {
                        Value::Decimal(sum / n as f64)
                    }
                }
            }
        }
        // A boolean's truth; NULLs were left out, and no row at all is NULL.
        "BOOL_AND" | "EVERY" if !vals.is_empty() => Value::bool(vals.iter().all(Value::is_true)),
        "BOOL_OR" if !vals.is_empty() => Value::bool(vals.iter().any(Value::is_true)),
        _ => Value::Null,
    }
}

/// ROUND(x [, places]), FLOOR, CEILING, SIGN, SQRT and POWER(x, y): an integer stays one
/// where the result is whole (SQRT and POWER give a fraction's type), NULL gives NULL.
fn numeric_function(name: &str, v: &[Value]) -> Fallible<Value> {
    let num = |k: usize| -> Fallible<Option<f64>> {
        match v.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Int(n)) => Ok(Some(*n as f64)),
            Some(Value::Decimal(d)) => Ok(Some(*d)),
            Some(Value::Text(s)) => s
                .trim()
                .parse::<f64>()
                .map(Some)
                .map_err(|_| SqlError::conversion_failed(s, &DataType::Float).into()),
            Some(other) => {
                Err(SqlError::explicit_conversion(other.type_name(), &DataType::Float).into())
            }
        }
    };
    let want = match name {
        "ROUND" => 1..=2,
        "POWER" => 2..=2,
        _ => 1..=1,
    };
    if !want.contains(&v.len()) {
        return Err(wrong_arity(name, *want.start()).into());
    }
    let int_in = matches!(v.first(), Some(Value::Int(_)));
    let Some(x) = num(0)? else {
        return Ok(Value::Null);
    };
    let whole = |r: f64| {
        if int_in {
            Value::Int(r as i64)
        } else {
            Value::Decimal(r)
        }
    };
    Ok(match name {
        "ROUND" => {
            let places = match num(1)? {
                Some(p) => p as i32,
                None if v.len() == 2 => return Ok(Value::Null),
                None => 0,
            };
            let f = 10f64.powi(places);
            whole((x * f).round() / f)
        }
        "FLOOR" => whole(x.floor()),
        "CEILING" => whole(x.ceil()),
        "SIGN" => whole(x.signum() * f64::from(x != 0.0)),
        "SQRT" => {
            if x < 0.0 {
                return Err(SqlError::generic(
                    3623,
                    16,
                    "An invalid floating point operation occurred.",
                )
                .into());
            }
            Value::Decimal(x.sqrt())
        }
        _ => match num(1)? {
            Some(y) => {
                let r = x.powf(y);
                if int_in
                    && matches!(v.get(1), Some(Value::Int(_)))
                    && r.fract() == 0.0
                    && r.abs() < 9.0e15
                {
                    Value::Int(r as i64)
                } else {
                    Value::Decimal(r)
                }
            }
            None => Value::Null,
        },
    })
}

/// Msg 174: a built-in function called with too few (or too many) arguments.
fn wrong_arity(name: &str, count: usize) -> SqlError {
    let name = name.to_ascii_lowercase();
    SqlError::generic(
        174,
        15,
        format!("The {name} function requires {count} argument(s)."),
    )
}

/// An aggregate call: `COUNT(*)`, `SUM(DISTINCT x)`, `STRING_AGG(x, ',') WITHIN GROUP (...)`.
struct Aggregate<'a> {
    name: &'a str,
    args: &'a [Expr],
    star: bool,
    distinct: bool,
    /// WITHIN GROUP's order (STRING_AGG).
    order: &'a [OrderItem],
}

/// [`convert`], rounding a fraction for an integer type half away from zero if `round`.
pub(crate) fn convert_rounding(
    v: &Value,
    ty: &DataType,
    target: Option<(&str, &str)>,
    round: bool,
) -> Fallible<Value> {
    match (v, round) {
        (Value::Decimal(d), true) if type_rank(ty) == 2 => {
            convert(&Value::Decimal(d.round()), ty, target)
        }
        _ => convert(v, ty, target),
    }
}

/// SQL Server's data type precedence, coarsely: 4 datetime, 3 float and decimal, 2
/// integers, 1 text; 0 for NULL (no type).
fn value_rank(v: &Value) -> u8 {
    match v {
        Value::Null => 0,
        Value::Text(_) => 1,
        Value::Int(_) | Value::True | Value::False => 2,
        Value::Decimal(_) => 3,
        Value::DateTime(..) => 4,
    }
}

fn type_rank(ty: &DataType) -> u8 {
    match ty {
        DataType::TinyInt
        | DataType::SmallInt
        | DataType::Int
        | DataType::BigInt
        | DataType::Bit
        | DataType::Boolean
        | DataType::ByteInt => 2,
        DataType::Decimal { .. } | DataType::Float | DataType::Money => 3,
        DataType::DateTime
        | DataType::DateTime2(_)
        | DataType::Timestamp(_)
        | DataType::TimestampTz(_)
        | DataType::Date
        | DataType::Time(_) => 4,
        DataType::Char(_)
        | DataType::VarChar(_)
        | DataType::NChar(_)
        | DataType::NVarChar(_)
        | DataType::SysName
        | DataType::UniqueIdentifier => 1,
    }
}

fn as_time(v: &Value) -> Option<i64> {
    match v {
        Value::DateTime(t, _) => Some(*t),
        Value::Text(s) => crate::value::parse_datetime(s),
        // An integer is days after 1900-01-01, as when it converts to datetime.
        Value::Int(n) => n
            .checked_mul(86_400_000_000)
            .and_then(|d| d.checked_add(crate::value::days_from_civil(1900, 1, 1) * 86_400_000_000))
            .filter(|&t| crate::value::in_datetime_range(t)),
        _ => None,
    }
}

fn text_fn(v: Value, f: impl FnOnce(&str) -> String) -> Value {
    match v {
        Value::Null => Value::Null,
        x => Value::Text(f(&x.as_text()).into()),
    }
}

/// How a dialect's LIKE reads its pattern.
#[derive(Clone, Copy)]
struct LikeStyle {
    /// Without regard to case (a case-insensitive collation, or ILIKE).
    fold_case: bool,
    /// `[...]` sets (T-SQL); elsewhere `[` is itself, and `\` escapes the next
    /// character (the default ESCAPE of dialects without sets).
    sets: bool,
}

impl Exec<'_> {
    /// The error the innermost running handler caught, if any.
    fn caught_now(&self, i: usize) -> Option<&SqlError> {
        (self.w.sessions[i].frames.iter().rev()).find_map(|f| f.caught.last())
    }

    /// A handler's own variables where the dialect has them (`SQLSTATE`, `SQLERRM`: the
    /// caught error's code and message), for a name no column has.
    fn handler_variable(&self, i: usize, name: &ObjectName) -> Option<Value> {
        if name.parts.len() != 1 || !self.rules.handler_variables() {
            return None;
        }
        let e = self.caught_now(i)?;
        match name.name().value.to_ascii_lowercase().as_str() {
            "sqlstate" => Some(Value::Text(e.code().into())),
            // The message without the DETAIL line the trace shows beside it.
            "sqlerrm" => Some(Value::Text(
                e.message
                    .split(" (DETAIL: ")
                    .next()
                    .unwrap_or_default()
                    .into(),
            )),
            _ => None,
        }
    }
}

/// LIKE with `%`, `_` and `[...]`, case-insensitive like the default collation.
#[cfg(test)]
fn like(s: &str, p: &str) -> bool {
    like_with(
        s,
        p,
        LikeStyle {
            fold_case: true,
            sets: true,
        },
    )
}

/// LIKE with `%` and `_`, and `[...]` sets or `\` escapes as `style` says.
fn like_with(s: &str, p: &str, style: LikeStyle) -> bool {
    enum Tok {
        Any,
        One,
        Lit(char),
        /// `[...]`, `[^...]`: characters and `a-z` ranges.
        Set(bool, Vec<(char, char)>),
    }
    let (s, p): (Vec<char>, Vec<char>) = if style.fold_case {
        (
            s.to_lowercase().chars().collect(),
            p.to_lowercase().chars().collect(),
        )
    } else {
        (s.chars().collect(), p.chars().collect())
    };
    let mut toks = Vec::new();
    let mut k = 0;
    while k < p.len() {
        match p[k] {
            '%' => toks.push(Tok::Any),
            '_' => toks.push(Tok::One),
            '\\' if !style.sets && k + 1 < p.len() => {
                k += 1;
                toks.push(Tok::Lit(p[k]));
            }
            '[' if style.sets => {
                let Some(end) = p[k..].iter().position(|&c| c == ']').map(|e| k + e) else {
                    return false;
                };
                let mut set = &p[k + 1..end];
                let neg = set.first() == Some(&'^');
                if neg {
                    set = &set[1..];
                }
                let mut ranges = Vec::new();
                let mut j = 0;
                while j < set.len() {
                    if j + 2 < set.len() && set[j + 1] == '-' {
                        ranges.push((set[j], set[j + 2]));
                        j += 3;
                    } else {
                        ranges.push((set[j], set[j]));
                        j += 1;
                    }
                }
                toks.push(Tok::Set(neg, ranges));
                k = end;
            }
            c => toks.push(Tok::Lit(c)),
        }
        k += 1;
    }
    // The pieces between `%`s are fixed-length: the first is anchored at the start, the
    // last at the end, and each middle one is placed leftmost after the one before. That
    // greedy placement finds a match when there is one, in about text × piece time, where
    // backtracking over many `%` would be exponential.
    let one = |t: &Tok, c: char| match t {
        Tok::One => true,
        Tok::Lit(l) => c == *l,
        Tok::Set(neg, ranges) => ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *neg,
        Tok::Any => true,
    };
    let fits = |piece: &[Tok], at: usize| {
        at + piece.len() <= s.len() && piece.iter().zip(&s[at..]).all(|(t, &c)| one(t, c))
    };
    let pieces: Vec<&[Tok]> = toks.split(|t| matches!(t, Tok::Any)).collect();
    if pieces.len() == 1 {
        return s.len() == toks.len() && fits(&toks, 0);
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !fits(first, 0) || first.len() + last.len() > s.len() {
        return false;
    }
    let end = s.len() - last.len();
    if !fits(last, end) {
        return false;
    }
    let mut at = first.len();
    for piece in &pieces[1..pieces.len() - 1] {
        match (at..=end.saturating_sub(piece.len()))
            .find(|&k| k + piece.len() <= end && fits(piece, k))
        {
            Some(k) => at = k + piece.len(),
            None => return false,
        }
    }
    at <= end
}

/// Text against a number, or a boolean against a number: values no comparison of one
/// kind makes.
#[inline]
fn kinds_differ(l: &Value, r: &Value) -> bool {
    use Value::{Decimal, False, Int, Text, True};
    matches!(
        (l, r),
        (Text(_), Int(_) | Decimal(_))
            | (Int(_) | Decimal(_), Text(_))
            | (True | False, Int(_) | Decimal(_))
            | (Int(_) | Decimal(_), True | False)
    )
}

#[cfg(test)]
mod tests {
    use super::{like, Scope};
    use sql::ast::{Ident, ObjectName};

    fn name(parts: &[&str]) -> ObjectName {
        ObjectName {
            parts: parts
                .iter()
                .map(|p| Ident {
                    value: p.to_string(),
                    span: 0..0,
                })
                .collect(),
            span: 0..0,
        }
    }

    fn columns(names: &[&str]) -> Vec<String> {
        names.iter().map(|c| c.to_string()).collect()
    }

    /// A scope remembers what it resolved, by the name's text: a name made afresh in the
    /// same place (here the loop's variable, at one address each turn) is resolved by
    /// what it says.
    #[test]
    fn cached_resolutions_follow_the_name_not_its_address() {
        let mut scope = Scope::default();
        scope.push(
            "t".into(),
            Some("t".into()),
            columns(&["id", "status", "owner"]),
        );
        for _ in 0..4 {
            for (col, at) in [("owner", 2), ("id", 0), ("status", 1), ("ID", 0)] {
                let n = name(&["t", col]);
                assert_eq!(scope.resolve(&n).ok().flatten(), Some(at), "{col}");
            }
        }
        let unknown = name(&["nope"]);
        assert_eq!(scope.resolve(&unknown).ok().flatten(), None);
    }

    /// A binding added after a name was resolved can make it ambiguous.
    #[test]
    fn a_new_binding_forgets_what_was_resolved() {
        let mut scope = Scope::default();
        scope.push("a".into(), Some("a".into()), columns(&["id"]));
        let id = name(&["id"]);
        for _ in 0..super::RESOLVED_AFTER + 1 {
            assert_eq!(scope.resolve(&id).ok().flatten(), Some(0));
        }
        scope.push("b".into(), Some("b".into()), columns(&["x", "id"]));
        assert!(scope.resolve(&id).is_err(), "id is in both a and b");
        assert_eq!(scope.resolve(&name(&["b", "id"])).ok().flatten(), Some(2));
    }

    /// The plain backtracking definition, for small inputs.
    fn reference(s: &[char], p: &[char]) -> bool {
        match p.first() {
            None => s.is_empty(),
            Some('%') => (0..=s.len()).any(|k| reference(&s[k..], &p[1..])),
            Some('_') => !s.is_empty() && reference(&s[1..], &p[1..]),
            Some(c) => !s.is_empty() && s[0] == *c && reference(&s[1..], &p[1..]),
        }
    }

    #[test]
    fn like_agrees_with_backtracking_on_every_small_case() {
        let alphabet = ['a', 'b', '%', '_'];
        let words = |n: usize, with: &[char]| -> Vec<String> {
            let mut out = vec![String::new()];
            for _ in 0..n {
                let more: Vec<String> = out
                    .iter()
                    .flat_map(|w| with.iter().map(move |c| format!("{w}{c}")))
                    .collect();
                out.extend(more);
            }
            out.sort();
            out.dedup();
            out
        };
        let texts = words(5, &['a', 'b']);
        let patterns = words(5, &alphabet);
        for p in &patterns {
            let pc: Vec<char> = p.chars().collect();
            for t in &texts {
                let tc: Vec<char> = t.chars().collect();
                assert_eq!(like(t, p), reference(&tc, &pc), "{t:?} LIKE {p:?}");
            }
        }
    }

    #[test]
    fn like_knows_sets_ranges_and_case() {
        assert!(like("Task-7", "task-[0-9]"));
        assert!(!like("task-x", "task-[0-9]"));
        assert!(like("task-x", "task-[^0-9]"));
        assert!(like("50%", "50[%]"));
        assert!(!like("abc", "a[bc"));
    }
}
