//! PostgreSQL's `^`: a power in double precision, with the server's errors.

use crate::error::{Fallible, SqlError};
use crate::value::Value;

/// PostgreSQL's `a ^ b`: double precision (integers are converted), with its errors.
/// (A numeric operand makes the result numeric there, printed to 16 decimal places;
/// here it is the same number without that scale, as for every numeric value.)
pub(super) fn power(l: &Value, r: &Value) -> Fallible<Value> {
    let num = |v: &Value| match v {
        Value::Int(n) => Ok(*n as f64),
        Value::Decimal(d) => Ok(*d),
        Value::Text(s) => s.trim().parse::<f64>().map_err(|_| {
            SqlError::generic(
                0,
                16,
                format!("invalid input syntax for type double precision: \"{s}\""),
            )
            .with_sqlstate("22P02")
        }),
        _ => Err(*crate::value::no_operator(sql::ast::BinaryOp::Pow, l, r)),
    };
    let (a, b) = (num(l)?, num(r)?);
    if a == 0.0 && b < 0.0 {
        return Err(
            SqlError::generic(0, 16, "zero raised to a negative power is undefined")
                .with_sqlstate("2201F")
                .into(),
        );
    }
    if a < 0.0 && b.fract() != 0.0 {
        return Err(SqlError::generic(
            0,
            16,
            "a negative number raised to a non-integer power yields a complex result",
        )
        .with_sqlstate("2201F")
        .into());
    }
    let v = a.powf(b);
    if v.is_infinite() {
        return Err(SqlError::generic(0, 16, "value out of range: overflow")
            .with_sqlstate("22003")
            .into());
    }
    Ok(Value::Decimal(v))
}
