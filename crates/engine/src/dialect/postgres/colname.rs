//! The name PostgreSQL gives a result column that has no alias (the parser's
//! `FigureColname`): a column or variable its own name, a function call the function's
//! name as written (`count`, `pg_try_advisory_lock`, `now`), `CASE` its ELSE's name
//! when that is a column's or a call's, else "case", `EXISTS`
//! "exists", a scalar subquery its first column's name, a cast its operand's name or
//! else its type's (`'1'::int` is "int4"), anything else (`true` too, since version 15)
//! "?column?".
//! Names come from the script's text, as the AST keeps only what the engine runs
//! (`now()` and `current_timestamp` are one function there).

use sql::ast::{Expr, ExprKind, SelectItem};

const UNNAMED: &str = "?column?";

/// The column name of `expr`, whose span points into `source`.
pub(super) fn name(expr: &Expr, source: &str) -> String {
    figure(expr, source).map_or_else(|| UNNAMED.to_string(), |(n, _)| n)
}

/// The name and its strength: 2 for a name of its own (a column, a function), 1 for a
/// cast's type name, which an outer cast's type replaces.
fn figure(expr: &Expr, source: &str) -> Option<(String, u8)> {
    let text = source.get(expr.span.clone()).unwrap_or("").trim();
    match &expr.kind {
        ExprKind::Column(n) => Some((n.name().value.to_lowercase(), 2)),
        ExprKind::Var(v) => Some((v.trim_start_matches('@').to_lowercase(), 2)),
        ExprKind::Function { .. } => function_name(text).map(|n| (n, 2)),
        // Its ELSE's own name (a column, a call), else "case", which a cast's type
        // replaces.
        ExprKind::Case { otherwise, .. } => {
            match otherwise.as_deref().and_then(|e| figure(e, source)) {
                Some((n, 2)) => Some((n, 2)),
                _ => Some(("case".into(), 1)),
            }
        }
        ExprKind::Exists(_) => Some(("exists".into(), 2)),
        ExprKind::Subquery(q) => match q.items.first() {
            Some(SelectItem::Expr { alias: Some(a), .. }) => Some((a.value.to_lowercase(), 2)),
            Some(SelectItem::Expr { expr, .. }) => figure(expr, source),
            _ => None,
        },
        ExprKind::Cast { expr: inner, .. } => match figure(inner, source) {
            Some((n, 2)) => Some((n, 2)),
            inner_name => cast_type(text).map(|t| (t, 1)).or(inner_name),
        },
        _ => None,
    }
}

/// `pg_try_advisory_lock(3)` is "pg_try_advisory_lock", `public.f(1)` "f",
/// `CURRENT_TIMESTAMP` "current_timestamp", `"Odd"(1)` "Odd".
fn function_name(text: &str) -> Option<String> {
    let head = text.split('(').next()?.trim();
    let last = head.rsplit('.').next()?.trim();
    if last.is_empty() {
        return None;
    }
    let quoted = last.strip_prefix('"').and_then(|l| l.strip_suffix('"'));
    Some(match quoted {
        Some(quoted) => quoted.to_string(),
        // TRIM's forms are the server's btrim, ltrim and rtrim.
        None => match last.to_lowercase().as_str() {
            "trim" => trim_name(text).to_string(),
            lower => lower.to_string(),
        },
    })
}

/// `trim(x)` and `trim(BOTH ...)` are "btrim", `trim(LEADING ...)` "ltrim",
/// `trim(TRAILING ...)` "rtrim".
fn trim_name(text: &str) -> &'static str {
    let inside = text
        .split_once('(')
        .map_or("", |(_, rest)| rest)
        .trim_start()
        .to_ascii_lowercase();
    if inside.starts_with("leading") {
        "ltrim"
    } else if inside.starts_with("trailing") {
        "rtrim"
    } else {
        "btrim"
    }
}

/// The type a cast names, as PostgreSQL's catalog spells it: `x::int` and
/// `CAST(x AS integer)` are "int4", `::varchar(20)` "varchar", `::timestamptz`
/// "timestamptz".
fn cast_type(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let written = if let Some(at) = lower.rfind("::") {
        &lower[at + 2..]
    } else {
        // CAST(x AS type): the last " as " before the closing parenthesis.
        let inner = lower.strip_suffix(')')?;
        let at = inner.rfind(" as ")?;
        &inner[at + 4..]
    };
    let words: Vec<&str> = written
        .split('(')
        .next()?
        .split_whitespace()
        .filter(|w| !w.is_empty())
        .collect();
    let ty = match words.join(" ").as_str() {
        "" => return None,
        "int" | "integer" | "int4" => "int4",
        "bigint" | "int8" => "int8",
        "smallint" | "int2" => "int2",
        "boolean" | "bool" => "bool",
        "decimal" | "numeric" => "numeric",
        "real" | "float4" => "float4",
        "double precision" | "float" | "float8" => "float8",
        "character varying" | "varchar" => "varchar",
        "character" | "char" | "bpchar" => "bpchar",
        "timestamp" | "timestamp without time zone" => "timestamp",
        "timestamp with time zone" | "timestamptz" => "timestamptz",
        other => return Some(other.to_string()),
    };
    Some(ty.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(sql: &str) -> String {
        let src = format!("SELECT {sql}");
        let script = sql::parse_script(&src, sql::Dialect::Postgres).expect("parses");
        let sql::ast::StmtKind::Select(s) = &script.batches[0].statements[0].kind else {
            panic!("not a select: {src}");
        };
        match &s.items[0] {
            SelectItem::Expr { expr, .. } => name(expr, &src),
            _ => panic!("not an expression"),
        }
    }

    /// Each as PostgreSQL 15.18's psql headed the column (`psql -x`, December 2026).
    #[test]
    fn names_as_postgresql_does() {
        let cases = [
            ("count(*)", "count"),
            ("COUNT(DISTINCT x)", "count"),
            ("pg_try_advisory_lock(3)", "pg_try_advisory_lock"),
            ("now()", "now"),
            ("CURRENT_TIMESTAMP", "current_timestamp"),
            ("coalesce(NULL, 1)", "coalesce"),
            ("trim(' a ')", "btrim"),
            ("TRIM(LEADING 'x' FROM 'xa')", "ltrim"),
            ("trim(trailing from 'a ')", "rtrim"),
            ("trim(both 'x' from 'xax')", "btrim"),
            ("ltrim(' a')", "ltrim"),
            ("1", "?column?"),
            ("1 + 2", "?column?"),
            ("'a'", "?column?"),
            ("1 = 1", "?column?"),
            ("true", "?column?"),
            ("-x", "?column?"),
            ("x IS NULL", "?column?"),
            ("'a'::text", "text"),
            ("1::bigint", "int8"),
            ("2::numeric(5,2)", "numeric"),
            ("'2020-01-01'::timestamp", "timestamp"),
            ("'2020-01-01'::timestamptz", "timestamptz"),
            ("1::double precision", "float8"),
            ("CAST(1 AS float)", "float8"),
            ("'a'::char(2)", "bpchar"),
            ("x::int", "x"),
            ("(x + 1)::int::bigint", "int8"),
            ("CURRENT_TIMESTAMP::date", "current_timestamp"),
            ("'1'::int", "int4"),
            ("CAST('1' AS integer)", "int4"),
            ("'x'::varchar(20)", "varchar"),
            ("now()::date", "now"),
            ("CASE WHEN 1 = 1 THEN 'a' END", "case"),
            ("CASE WHEN 1 = 1 THEN 'a' ELSE relname END", "relname"),
            ("CASE WHEN true THEN 1 ELSE 2 END", "case"),
            ("CASE WHEN true THEN 'a' END::text", "text"),
            ("CASE WHEN true THEN 1 ELSE count(*) END", "count"),
            ("CASE WHEN true THEN 'a' ELSE 'b'::text END", "case"),
            ("CASE relname WHEN 'x' THEN 1 ELSE oid::int END", "oid"),
            ("EXISTS (SELECT 1)", "exists"),
            ("(SELECT max(id) FROM t)", "max"),
            ("(SELECT id AS n FROM t)", "n"),
            ("t.id", "id"),
            ("(id)", "id"),
        ];
        let got: Vec<(&str, String)> = cases.iter().map(|(sql, _)| (*sql, named(sql))).collect();
        let want: Vec<(&str, String)> = cases.iter().map(|(s, n)| (*s, n.to_string())).collect();
        assert_eq!(got, want);
    }
}
