//! Comparisons the server's types refuse: text against a number and a boolean against
//! a number have no operator (42883, naming both types); a quoted literal has no type
//! until it meets the other side's, and fails there when it does not read as one.

use sql::ast::{BinaryOp, DataType, Len};

use crate::error::SqlError;
use crate::exec::Operand;
use crate::value::Value;

pub(super) fn comparison_mismatch(
    op: BinaryOp,
    left: &Operand<'_>,
    right: &Operand<'_>,
) -> Option<SqlError> {
    // A quoted literal is read as the other side's type.
    for (text, other) in [(left, right), (right, left)] {
        if let (Value::Text(s), true) = (text.value, text.literal) {
            return literal_as(s, other);
        }
    }
    Some(
        SqlError::generic(
            0,
            16,
            format!(
                "operator does not exist: {} {} {}",
                type_name(left),
                operator(op),
                type_name(right)
            ),
        )
        .with_sqlstate("42883"),
    )
}

/// What a condition that is not a boolean means: a quoted literal is read as a boolean
/// (22P02 when it is none); anything else is `argument of WHERE must be type boolean, not
/// type integer` (42804), as the server says when it analyses the statement.
pub(super) fn condition_value(place: &str, operand: &Operand<'_>) -> Result<bool, SqlError> {
    if let (Value::Text(s), true) = (operand.value, operand.literal) {
        return crate::value::parse_bool(s).ok_or_else(|| {
            SqlError::generic(
                0,
                16,
                format!("invalid input syntax for type boolean: \"{s}\""),
            )
            .with_sqlstate("22P02")
        });
    }
    Err(SqlError::generic(
        0,
        16,
        format!(
            "argument of {place} must be type boolean, not type {}",
            type_name(operand)
        ),
    )
    .with_sqlstate("42804"))
}

/// `function length(integer) does not exist` (42883): no routine `name` of `kind`
/// (function, procedure) takes arguments of these types.
pub(super) fn no_such_routine(kind: &str, name: &str, types: &[&str]) -> SqlError {
    SqlError::generic(
        0,
        16,
        format!(
            "{kind} {}({}) does not exist",
            name.to_lowercase(),
            types.join(", ")
        ),
    )
    .with_sqlstate("42883")
}

/// A quoted literal compared with a number: an error when its text is no such number.
fn literal_as(s: &str, other: &Operand<'_>) -> Option<SqlError> {
    let ty = type_name(other);
    let t = s.trim();
    let reads = match other.value {
        Value::Int(_) => t.parse::<i64>().is_ok(),
        Value::Decimal(_) => t.parse::<f64>().is_ok(),
        // A boolean against a number has no operator whatever the literal says.
        _ => return None,
    };
    (!reads).then(|| {
        SqlError::generic(
            0,
            16,
            format!("invalid input syntax for type {ty}: \"{s}\""),
        )
        .with_sqlstate("22P02")
    })
}

/// The type the server gives a side: its declared type, else its value's.
fn type_name(o: &Operand<'_>) -> &'static str {
    o.declared
        .as_ref()
        .and_then(declared_name)
        .unwrap_or_else(|| value_type(o.value))
}

/// A declared number, boolean or text type in the server's words.
pub(super) fn declared_name(ty: &DataType) -> Option<&'static str> {
    Some(match ty {
        DataType::SmallInt | DataType::TinyInt => "smallint",
        DataType::Int => "integer",
        DataType::BigInt => "bigint",
        DataType::Float => "double precision",
        DataType::Decimal { .. } | DataType::Money => "numeric",
        DataType::VarChar(Len::N(_)) => "character varying",
        DataType::Char(_) | DataType::NChar(_) => "character",
        DataType::Boolean | DataType::Bit => "boolean",
        _ => return None,
    })
}

/// The type the server resolves a value as where nothing declares one (a function's
/// argument, a computed side): an integer that fits is `integer`, text is `text`.
pub(super) fn value_type(v: &Value) -> &'static str {
    match v {
        Value::Int(n) if i32::try_from(*n).is_ok() => "integer",
        Value::Int(_) => "bigint",
        Value::Decimal(_) => "numeric",
        Value::True | Value::False => "boolean",
        Value::DateTime(..) => "timestamp with time zone",
        _ => "text",
    }
}

/// A boolean stored in a number's column, or a number in a boolean's: the server has no
/// assignment cast between them (42804). Text goes either way (`'1'` is a boolean).
pub(super) fn assignment_mismatch(v: &Value, ty: &DataType, column: &str) -> Option<SqlError> {
    let numeric_or_boolean = matches!(
        ty,
        DataType::SmallInt
            | DataType::TinyInt
            | DataType::Int
            | DataType::BigInt
            | DataType::Float
            | DataType::Decimal { .. }
            | DataType::Money
            | DataType::Boolean
    );
    let column_type = declared_name(ty).filter(|_| numeric_or_boolean)?;
    let value_type = match v {
        Value::True | Value::False if column_type != "boolean" => "boolean",
        Value::Int(n) if column_type == "boolean" && i32::try_from(*n).is_ok() => "integer",
        Value::Int(_) if column_type == "boolean" => "bigint",
        Value::Decimal(_) if column_type == "boolean" => "numeric",
        _ => return None,
    };
    Some(
        SqlError::generic(
            0,
            16,
            format!("column \"{column}\" is of type {column_type} but expression is of type {value_type}"),
        )
        .with_sqlstate("42804"),
    )
}

fn operator(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Eq => "=",
        BinaryOp::Ne => "<>",
        BinaryOp::Lt => "<",
        BinaryOp::Le => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::Ge => ">=",
        _ => "?",
    }
}
