//! Questions about parsed SQL that need no data: walking an expression, splitting a
//! WHERE into its conjuncts, a canonical text for comparing predicates, whether it holds a
//! subquery or an aggregate.

use sql::ast::{BinaryOp, Expr, ExprKind, Literal, UnaryOp};

pub(crate) fn has_subquery(e: &Expr) -> bool {
    let mut found = false;
    walk(e, &mut |x| {
        if matches!(
            x.kind,
            ExprKind::Exists(_) | ExprKind::Subquery(_) | ExprKind::InSubquery { .. }
        ) {
            found = true;
        }
    });
    found
}

/// Whether the expression calls a function `pick` accepts (by upper-cased name).
pub(crate) fn calls_function(e: &Expr, pick: &dyn Fn(&str) -> bool) -> bool {
    let mut found = false;
    walk(e, &mut |x| {
        if let ExprKind::Function { name, .. } = &x.kind {
            found |= pick(name);
        }
    });
    found
}

pub(crate) fn has_aggregate(e: &Expr) -> bool {
    let mut found = false;
    walk(e, &mut |x| {
        if let ExprKind::Function {
            name, over: None, ..
        } = &x.kind
        {
            if is_aggregate(name) {
                found = true;
            }
        }
    });
    found
}

pub(crate) fn is_aggregate(name: &str) -> bool {
    matches!(
        name,
        "COUNT"
            | "COUNT_BIG"
            | "SUM"
            | "MIN"
            | "MAX"
            | "AVG"
            | "STRING_AGG"
            | "BOOL_AND"
            | "BOOL_OR"
            | "EVERY"
    )
}

/// Visits every sub-expression (not into subqueries).
pub(crate) fn walk<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    f(e);
    children(e, &mut |c| walk(c, f));
}

/// Visits the expression's direct sub-expressions (not into subqueries).
fn children<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    match &e.kind {
        ExprKind::Unary { expr, .. } | ExprKind::IsNull { expr, .. } => f(expr),
        ExprKind::Binary { left, right, .. } => {
            f(left);
            f(right);
        }
        ExprKind::InList { expr, list, .. } => {
            f(expr);
            for x in list {
                f(x);
            }
        }
        ExprKind::InSubquery { expr, .. } => f(expr),
        ExprKind::Between {
            expr, low, high, ..
        } => {
            f(expr);
            f(low);
            f(high);
        }
        ExprKind::Like { expr, pattern, .. } => {
            f(expr);
            f(pattern);
        }
        ExprKind::Function { args, .. } => {
            for a in args {
                f(a);
            }
        }
        ExprKind::Cast { expr, .. } => f(expr),
        ExprKind::Case {
            operand,
            branches,
            otherwise,
        } => {
            if let Some(o) = operand {
                f(o);
            }
            for (w, t) in branches {
                f(w);
                f(t);
            }
            if let Some(o) = otherwise {
                f(o);
            }
        }
        _ => {}
    }
}

/// The column references of an expression, outside subqueries, where evaluating it
/// would look them up (a date part keyword, DATEADD's `minute`, is none).
pub(crate) fn column_refs<'e>(e: &'e Expr, out: &mut Vec<&'e sql::ast::ObjectName>) {
    match &e.kind {
        ExprKind::Column(n) => out.push(n),
        ExprKind::Function { name, args, .. }
            if matches!(
                name.as_str(),
                "DATEADD" | "DATEDIFF" | "DATEPART" | "DATENAME"
            ) =>
        {
            for (k, a) in args.iter().enumerate() {
                if k > 0 || !matches!(&a.kind, ExprKind::Column(n) if n.parts.len() == 1) {
                    column_refs(a, out);
                }
            }
        }
        _ => children(e, &mut |c| column_refs(c, out)),
    }
}

/// The first column reference outside an aggregate that is not grouped, where `grouped`
/// says which expressions (a grouping expression, a grouped or an outer column) are.
/// Subqueries are left alone.
pub(crate) fn ungrouped_column<'e>(
    e: &'e Expr,
    grouped: &dyn Fn(&Expr) -> bool,
) -> Option<&'e sql::ast::ObjectName> {
    if grouped(e) {
        return None;
    }
    match &e.kind {
        ExprKind::Column(n) => Some(n),
        // A window call's arguments are the group's values (its OVER is left alone).
        ExprKind::Function {
            name, over: None, ..
        } if is_aggregate(name) => None,
        _ => {
            let mut found = None;
            children(e, &mut |c| {
                if found.is_none() {
                    found = ungrouped_column(c, grouped);
                }
            });
            found
        }
    }
}

/// The window function calls (`... OVER (...)`) in an expression, outside subqueries.
pub(crate) fn window_calls<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    walk(e, &mut |x| {
        if let ExprKind::Function { over: Some(_), .. } = &x.kind {
            if !out.contains(&x) {
                out.push(x);
            }
        }
    });
}

/// The AND-ed parts of a predicate.
pub(crate) fn conjuncts(e: &Expr) -> Vec<&Expr> {
    // Collected into one list (every scan splits its predicate).
    fn push<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match &e.kind {
            ExprKind::Binary {
                op: BinaryOp::And,
                left,
                right,
            } => {
                push(left, out);
                push(right, out);
            }
            _ => out.push(e),
        }
    }
    let mut out = Vec::new();
    push(e, &mut out);
    out
}

/// Canonical text of an expression, for matching a filtered index's predicate.
pub(crate) fn canonical(e: &Expr) -> String {
    let mut s = String::with_capacity(32);
    canon(e, &mut s);
    s
}

/// The canonical texts a conjunct matches a filter's as: an equality or inequality
/// either way round (`'new' = status` implies `status = 'new'`).
pub(crate) fn canonical_forms(e: &Expr) -> Vec<String> {
    let mut forms = vec![canonical(e)];
    if let ExprKind::Binary {
        op: op @ (BinaryOp::Eq | BinaryOp::Ne),
        left,
        right,
    } = &e.kind
    {
        let mut s = String::from("(");
        canon(right, &mut s);
        s.push_str(op_word(*op));
        canon(left, &mut s);
        s.push(')');
        forms.push(s);
    }
    forms
}

/// Appends `text` lowercased as `to_ascii_lowercase` would, without a copy first.
fn push_ascii_lower(s: &mut String, text: &str) {
    let start = s.len();
    s.push_str(text);
    s[start..].make_ascii_lowercase();
}

/// An operator's word between its operands' texts, one per operator (`^` is XOR in one
/// dialect and a power in another; the symbols alone would not tell them apart).
fn op_word(op: BinaryOp) -> &'static str {
    use BinaryOp::*;
    match op {
        Add => " + ",
        Sub => " - ",
        Mul => " * ",
        Div => " / ",
        Mod => " % ",
        Eq => " = ",
        Ne => " <> ",
        IsDistinct => " is distinct from ",
        IsNotDistinct => " is not distinct from ",
        Lt => " < ",
        Le => " <= ",
        Gt => " > ",
        Ge => " >= ",
        And => " and ",
        Or => " or ",
        BitAnd => " & ",
        BitOr => " | ",
        BitXor => " xor ",
        Concat => " || ",
        Pow => " pow ",
    }
}

fn canon(e: &Expr, s: &mut String) {
    // Written into the one buffer: access paths canonicalize every query's predicate.
    match &e.kind {
        ExprKind::Column(n) => push_ascii_lower(s, &n.name().value),
        ExprKind::Literal(Literal::Int(i)) => crate::value::push_int(s, *i),
        ExprKind::Literal(Literal::Str { value, .. }) => {
            s.push('\'');
            // ASCII text (the usual) lowercases by character; other text as a whole, as
            // `to_lowercase` treats a final sigma.
            if value.is_ascii() {
                push_ascii_lower(s, value);
            } else {
                s.push_str(&value.to_lowercase());
            }
            s.push('\'');
        }
        ExprKind::Literal(Literal::Decimal(d)) => s.push_str(d),
        ExprKind::Literal(Literal::Null) => s.push_str("null"),
        ExprKind::Literal(Literal::Bool(b)) => s.push_str(if *b { "true" } else { "false" }),
        ExprKind::Var(v) => push_ascii_lower(s, v),
        ExprKind::Binary { op, left, right } => {
            s.push('(');
            canon(left, s);
            s.push_str(op_word(*op));
            canon(right, s);
            s.push(')');
        }
        ExprKind::IsNull { expr, negated } => {
            canon(expr, s);
            s.push_str(if *negated { " is not null" } else { " is null" });
        }
        ExprKind::InList {
            expr,
            list,
            negated,
        } => {
            canon(expr, s);
            s.push_str(if *negated { " not in (" } else { " in (" });
            for x in list {
                canon(x, s);
                s.push(',');
            }
            s.push(')');
        }
        ExprKind::Unary { op, expr } => {
            s.push_str(match op {
                UnaryOp::Neg => "(-",
                UnaryOp::Not => "(not ",
                UnaryOp::BitNot => "(~",
            });
            canon(expr, s);
            s.push(')');
        }
        ExprKind::Function {
            name,
            args,
            star,
            distinct,
            over: None,
            within_group,
        } if within_group.is_empty() => {
            push_ascii_lower(s, name);
            s.push_str(if *distinct { "(distinct " } else { "(" });
            if *star {
                s.push('*');
            }
            for a in args {
                canon(a, s);
                s.push(',');
            }
            s.push(')');
        }
        // The rest as the SQL it prints as: equal only when written alike.
        _ => push_ascii_lower(s, &e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::canonical;
    use sql::Dialect;

    fn canon(s: &str) -> String {
        canonical(&sql::parse_expr(s, Dialect::TSql).unwrap())
    }

    /// Different calls, negations and casts are different predicates (they all used to
    /// read as one kind of expression, so a query on `upper(owner)` matched an index on
    /// `lower(status)`); names and keywords compare without case.
    #[test]
    fn canonical_texts_tell_calls_and_negations_apart() {
        assert_ne!(canon("upper(owner) = 'x'"), canon("lower(status) = 'x'"));
        assert_ne!(canon("NOT (a = 1)"), canon("NOT (b = 1)"));
        assert_ne!(canon("a = -1"), canon("a = -2"));
        assert_ne!(canon("CAST(a AS int) = 1"), canon("CAST(b AS int) = 1"));
        assert_eq!(canon("LOWER(Status) = 'x'"), canon("lower(status) = 'X'"));
        assert_eq!(canon("cast(a as int) = 1"), canon("CAST(A AS INT) = 1"));
    }
}
