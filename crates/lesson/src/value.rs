//! Text of SQL values, shared by check details, the CLI and the player.

use engine::Value;

/// A value as a result grid shows it: `NULL`, `42`, `2.5`, `task 1`, `1970-01-01 00:00:01.500`.
pub fn value_text(value: &Value) -> String {
    match value {
        Value::Null => "NULL".to_string(),
        Value::Int(i) => i.to_string(),
        // PostgreSQL's boolean, as psql prints it.
        Value::True => "t".to_string(),
        Value::False => "f".to_string(),
        Value::Decimal(d) => d.to_string(),
        Value::Text(s) => s.to_string(),
        Value::DateTime(..) => value.to_string(),
    }
}

/// A value as a literal in a check's detail, close to how the author wrote the
/// expectation in TOML: text and datetimes quoted, `NULL` bare.
pub(crate) fn value_literal(value: &Value) -> String {
    match value {
        Value::Text(s) => format!("{s:?}"),
        Value::DateTime(..) => format!("{:?}", value.to_string()),
        other => value_text(other),
    }
}

/// Microseconds as milliseconds (µs precision survives: 2500123 → 2500.123).
pub fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}
