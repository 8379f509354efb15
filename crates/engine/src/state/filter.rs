//! Filtered indexes' predicates, evaluated on stored rows without a session: only
//! columns, literals, comparisons, AND/OR/NOT, IS NULL and IN appear in them.

use std::cmp::Ordering;

use sql::ast::{BinaryOp, Expr, ExprKind};

use crate::syntax::conjuncts;
use crate::value::{binary, compare, Value};

/// A column's position by name, from the table the filter is on.
pub(crate) type Columns<'a> = &'a dyn Fn(&str) -> Option<usize>;

/// Evaluates a filtered index's predicate on a row: `eqs` is its conjunction of
/// `column = literal` when it is one ([`filter_equalities`]), `filter` the expression.
pub(crate) fn filter_passes(
    t: Columns<'_>,
    eqs: Option<&[(usize, Value)]>,
    filter: Option<&Expr>,
    row: &[Value],
) -> bool {
    if let Some(eqs) = eqs {
        // The usual filter, `col = literal AND ...`, without walking the expression.
        return eqs
            .iter()
            .all(|(c, v)| compare(&row[*c], v) == Some(Ordering::Equal));
    }
    match filter {
        None => true,
        Some(f) => pure_eval(t, f, row).is_true(),
    }
}

/// A filter that is a conjunction of `column = literal`, as (position, value) pairs.
pub(crate) fn filter_equalities(t: Columns<'_>, filter: &Expr) -> Option<Vec<(usize, Value)>> {
    let mut out = Vec::new();
    for c in conjuncts(filter) {
        let ExprKind::Binary {
            op: BinaryOp::Eq,
            left,
            right,
        } = &c.kind
        else {
            return None;
        };
        let (ExprKind::Column(n), ExprKind::Literal(l)) = (&left.kind, &right.kind) else {
            return None;
        };
        let col = t(&n.name().value)?;
        let v = pure_eval(
            t,
            &Expr {
                kind: ExprKind::Literal(l.clone()),
                span: 0..0,
            },
            &[],
        );
        out.push((col, v));
    }
    Some(out)
}

fn pure_eval(t: Columns<'_>, e: &Expr, row: &[Value]) -> Value {
    match &e.kind {
        ExprKind::Literal(sql::ast::Literal::Int(n)) => Value::Int(*n),
        ExprKind::Literal(sql::ast::Literal::Str { value, .. }) => Value::Text(value.clone()),
        ExprKind::Literal(sql::ast::Literal::Decimal(d)) => {
            Value::Decimal(d.parse().unwrap_or(0.0))
        }
        ExprKind::Literal(sql::ast::Literal::Null) => Value::Null,
        ExprKind::Literal(sql::ast::Literal::Bool(b)) => Value::bool(*b),
        ExprKind::Column(n) => t(&n.name().value).map_or(Value::Null, |p| row[p].clone()),
        ExprKind::Binary {
            op: BinaryOp::And,
            left,
            right,
        } => Value::bool(pure_eval(t, left, row).is_true() && pure_eval(t, right, row).is_true()),
        ExprKind::Binary {
            op: BinaryOp::Or,
            left,
            right,
        } => Value::bool(pure_eval(t, left, row).is_true() || pure_eval(t, right, row).is_true()),
        ExprKind::Binary { op, left, right } => {
            binary(*op, &pure_eval(t, left, row), &pure_eval(t, right, row)).unwrap_or(Value::Null)
        }
        ExprKind::Unary {
            op: sql::ast::UnaryOp::Not,
            expr,
        } => Value::bool(!pure_eval(t, expr, row).is_true()),
        ExprKind::IsNull { expr, negated } => {
            Value::bool(pure_eval(t, expr, row).is_null() != *negated)
        }
        ExprKind::InList {
            expr,
            list,
            negated,
        } => {
            let v = pure_eval(t, expr, row);
            let hit = list
                .iter()
                .any(|x| compare(&v, &pure_eval(t, x, row)) == Some(Ordering::Equal));
            Value::bool(hit != *negated)
        }
        _ => Value::Null,
    }
}
