//! Filtered indexes' predicates, evaluated on stored rows without a session: only
//! columns, literals, comparisons, AND/OR/NOT, IS NULL and IN appear in them.

use std::cmp::Ordering;

use sql::ast::{BinaryOp, Expr, ExprKind};

use crate::syntax::conjuncts;
use crate::value::{binary, compare, in_items, truth, Value};

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

/// What in a filtered index's predicate [`filter_passes`] cannot evaluate, if anything
/// (`not simulated: ...` names it): it knows columns, constants, operators, NOT, IS NULL
/// and IN, and without the others an index would file the wrong rows.
pub(crate) fn unsupported(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Literal(_) | ExprKind::Column(_) => None,
        ExprKind::Unary {
            op: sql::ast::UnaryOp::BitNot,
            ..
        } => Some("~".into()),
        ExprKind::Binary { left, right, .. } => unsupported(left).or_else(|| unsupported(right)),
        ExprKind::Unary { expr, .. } | ExprKind::IsNull { expr, .. } => unsupported(expr),
        ExprKind::InList { expr, list, .. } => {
            unsupported(expr).or_else(|| list.iter().find_map(unsupported))
        }
        ExprKind::Function { name, .. } => Some(format!("a call of {name}")),
        ExprKind::Cast {
            expr, style: None, ..
        } => unsupported(expr),
        ExprKind::Cast { .. } => Some("CONVERT with a style".into()),
        ExprKind::Case { .. } => Some("CASE".into()),
        ExprKind::Between { .. } => Some("BETWEEN".into()),
        ExprKind::Like { .. } => Some("LIKE".into()),
        ExprKind::Var(_) | ExprKind::Global(_) => Some("a variable".into()),
        _ => Some("a subquery".into()),
    }
}

/// A predicate's value on a stored row, in SQL's three-valued logic (a filter files a row
/// only when true: `NOT (owner = 'x')` leaves out a row whose owner is NULL).
fn pure_eval(t: Columns<'_>, e: &Expr, row: &[Value]) -> Value {
    let three = |b: Option<bool>| b.map_or(Value::Null, Value::bool);
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
            op: op @ (BinaryOp::And | BinaryOp::Or),
            left,
            right,
        } => {
            let l = truth(&pure_eval(t, left, row));
            let r = truth(&pure_eval(t, right, row));
            // A side that decides alone (false for AND, true for OR) decides.
            let decides = *op == BinaryOp::Or;
            three(if l == Some(decides) || r == Some(decides) {
                Some(decides)
            } else {
                l.and(r)
            })
        }
        ExprKind::Binary { op, left, right } => {
            binary(*op, &pure_eval(t, left, row), &pure_eval(t, right, row)).unwrap_or(Value::Null)
        }
        ExprKind::Unary {
            op: sql::ast::UnaryOp::Not,
            expr,
        } => three(truth(&pure_eval(t, expr, row)).map(|b| !b)),
        ExprKind::Unary {
            op: sql::ast::UnaryOp::Neg,
            expr,
        } => match pure_eval(t, expr, row) {
            Value::Int(n) => n.checked_neg().map_or(Value::Null, Value::Int),
            Value::Decimal(d) => Value::Decimal(-d),
            _ => Value::Null,
        },
        // `'new'::text`, `CAST('20040101' AS datetime)`: as the type converts it (a
        // value that does not convert files nothing).
        ExprKind::Cast {
            expr,
            ty,
            style: None,
        } => crate::value::convert(&pure_eval(t, expr, row), ty, None).unwrap_or(Value::Null),
        ExprKind::IsNull { expr, negated } => {
            Value::bool(pure_eval(t, expr, row).is_null() != *negated)
        }
        ExprKind::InList {
            expr,
            list,
            negated,
        } => {
            let v = pure_eval(t, expr, row);
            let items = list
                .iter()
                .map(|x| Ok::<_, std::convert::Infallible>(pure_eval(t, x, row)));
            let Ok(result) = in_items(&v, items, *negated);
            result
        }
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sql::Dialect;

    fn passes(filter: &str, row: &[Value]) -> bool {
        let f = sql::parse_expr(filter, Dialect::TSql).unwrap();
        let cols = |n: &str| {
            ["owner", "prio"]
                .iter()
                .position(|c| c.eq_ignore_ascii_case(n))
        };
        filter_passes(&cols, None, Some(&f), row)
    }

    /// A NULL makes a comparison unknown, and NOT of unknown is unknown: the row is not
    /// filed (it used to be, as NOT of "not true").
    #[test]
    fn filters_follow_three_valued_logic() {
        let none = [Value::Null, Value::Null];
        assert!(!passes("NOT (owner = 'x')", &none));
        assert!(!passes("NOT (owner = 'x' AND prio > 1)", &none));
        assert!(!passes(
            "NOT (prio IN (1, NULL))",
            &[Value::Null, Value::Int(2)]
        ));
        assert!(passes(
            "NOT (owner = 'x' AND prio > 1)",
            &[Value::Null, Value::Int(0)]
        ));
        assert!(passes("prio > -1", &[Value::Null, Value::Int(0)]));
        assert!(!passes("prio > -1", &[Value::Null, Value::Int(-1)]));
    }

    /// What the filter cannot evaluate is named.
    #[test]
    fn unsupported_names_what_a_filter_cannot_evaluate() {
        let u = |s: &str| unsupported(&sql::parse_expr(s, Dialect::TSql).unwrap());
        assert_eq!(u("owner = 'x' OR NOT prio IN (1, 2)"), None);
        assert_eq!(u("lower(owner) = 'x'").as_deref(), Some("a call of LOWER"));
        assert_eq!(u("prio BETWEEN 1 AND 2").as_deref(), Some("BETWEEN"));
        assert_eq!(u("owner = CAST('x' AS varchar(5))"), None);
    }
}
