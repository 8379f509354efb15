//! PostgreSQL's own names for string, number and date functions lesson scripts use:
//! `length`, `substr`, `strpos`, `lpad`, `split_part`, `mod`, `trunc`, `random`,
//! `date_trunc`, `date_part` (and `extract`, which the parser makes a `date_part`).

use std::rc::Rc;

use crate::error::SqlError;
use crate::exec::{Exec, Interrupt};
use crate::value::{civil_from_days, days_from_civil, Value};

const DAY_US: i64 = 86_400_000_000;

/// The function's value, or `None` for a name this module does not know.
pub(super) fn call(
    x: &mut Exec<'_>,
    name: &str,
    args: &[Value],
) -> Option<Result<Value, Interrupt>> {
    let arg = |k: usize| args.get(k).cloned().unwrap_or(Value::Null);
    let text = |k: usize| -> Option<Rc<str>> {
        match args.get(k) {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.to_text_rc()),
        }
    };
    let int = |k: usize| args.get(k).and_then(Value::as_i64);
    let any_null = args.iter().any(Value::is_null);
    let v = match name {
        // Text only: the server has no length of a number or a boolean (no implicit cast
        // to text), and says the function does not exist for it.
        "LENGTH" | "CHAR_LENGTH" | "CHARACTER_LENGTH" | "OCTET_LENGTH"
            if !matches!(arg(0), Value::Text(_) | Value::Null) =>
        {
            let ty = super::operators::value_type(&arg(0));
            let e = super::operators::no_such_routine("function", name, &[ty]);
            return Some(Err(e.into()));
        }
        "LENGTH" | "CHAR_LENGTH" | "CHARACTER_LENGTH" => {
            text(0).map_or(Value::Null, |s| Value::Int(s.chars().count() as i64))
        }
        "OCTET_LENGTH" => text(0).map_or(Value::Null, |s| Value::Int(s.len() as i64)),
        // hashtext(s): the server's hash of the text's bytes, as an integer (applications
        // key advisory locks with it: `pg_advisory_xact_lock(hashtext('queue-a'))`).
        "HASHTEXT" => text(0).map_or(Value::Null, |s| {
            Value::Int(i64::from(hash_bytes(s.as_bytes()) as i32))
        }),
        "STRPOS" => match (text(0), text(1)) {
            (Some(s), Some(sub)) => Value::Int(match s.find(&*sub) {
                Some(b) => s[..b].chars().count() as i64 + 1,
                None => 0,
            }),
            _ => Value::Null,
        },
        "LPAD" | "RPAD" => match (text(0), int(1)) {
            _ if any_null => Value::Null,
            (Some(s), Some(n)) => {
                // n characters are at least n bytes.
                if let Err(e) = crate::value::text_fits(usize::try_from(n).unwrap_or(0)) {
                    return Some(Err(e.into()));
                }
                let fill: Vec<char> = text(2).map_or(vec![' '], |f| f.chars().collect());
                Value::Text(pad(&s, n.max(0) as usize, &fill, name == "LPAD").into())
            }
            _ => Value::Null,
        },
        "SPLIT_PART" => match (text(0), text(1), int(2)) {
            (Some(s), Some(d), Some(n)) if n != 0 => {
                let parts: Vec<&str> = if d.is_empty() {
                    vec![&s]
                } else {
                    s.split(&*d).collect()
                };
                let k = if n > 0 { n - 1 } else { parts.len() as i64 + n };
                let part = usize::try_from(k).ok().and_then(|k| parts.get(k));
                Value::Text(part.copied().unwrap_or("").into())
            }
            (Some(_), Some(_), Some(_)) => {
                return Some(Err(SqlError::generic(
                    0,
                    16,
                    "field position must not be zero",
                )
                .with_sqlstate("22023")
                .into()))
            }
            _ => Value::Null,
        },
        // chr(n): the character of code point n.
        "CHR" => match int(0) {
            None => Value::Null,
            Some(n) if n < 0 => {
                return Some(Err(SqlError::generic(
                    0,
                    16,
                    "character number must be positive",
                )
                .with_sqlstate("22023")
                .into()))
            }
            Some(0) => {
                return Some(Err(SqlError::generic(
                    0,
                    16,
                    "null character not permitted",
                )
                .with_sqlstate("54000")
                .into()))
            }
            Some(n) => match u32::try_from(n).ok().and_then(char::from_u32) {
                Some(c) => Value::Text(c.to_string().into()),
                None => {
                    return Some(Err(SqlError::generic(
                        0,
                        16,
                        format!("requested character too large for encoding: {n}"),
                    )
                    .with_sqlstate("54000")
                    .into()))
                }
            },
        },
        "INITCAP" => text(0).map_or(Value::Null, |s| Value::Text(initcap(&s).into())),
        "FORMAT" => match text(0) {
            None => Value::Null,
            Some(f) => match format(&f, &args[1..]) {
                Ok(s) => Value::Text(s.into()),
                Err(e) => return Some(Err(e.into())),
            },
        },
        "REPEAT" => match (text(0), int(1)) {
            (Some(s), Some(n)) => Value::Text(s.repeat(n.clamp(0, 10_000) as usize).into()),
            _ => Value::Null,
        },
        "BTRIM" => match text(0) {
            Some(s) => {
                let chars: Vec<char> = text(1).map_or(vec![' '], |c| c.chars().collect());
                Value::Text(s.trim_matches(|c| chars.contains(&c)).into())
            }
            None => Value::Null,
        },
        "MOD" => match (arg(0), arg(1)) {
            (Value::Int(_), Value::Int(0)) => return Some(Err(division_by_zero())),
            (Value::Int(a), Value::Int(b)) => Value::Int(a.wrapping_rem(b)),
            _ if any_null => Value::Null,
            (a, b) => match (a.as_f64(), b.as_f64()) {
                (Some(_), Some(0.0)) => return Some(Err(division_by_zero())),
                (Some(a), Some(b)) => Value::Decimal(a % b),
                _ => Value::Null,
            },
        },
        "TRUNC" => match (arg(0), int(1).unwrap_or(0)) {
            (Value::Int(n), _) => Value::Int(n),
            (Value::Decimal(d), places) => {
                let f = 10f64.powi(places as i32);
                Value::Decimal((d * f).trunc() / f)
            }
            _ => Value::Null,
        },
        // random(): from the run's own stream, so a seed replays it.
        "RANDOM" => {
            use rand_core::Rng;
            Value::Decimal((x.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
        }
        "DATE_TRUNC" => match (text(0), arg(1)) {
            (Some(unit), Value::DateTime(t, stamp)) => match truncate(&unit, t) {
                Some(t) => Value::DateTime(t, stamp),
                None => return Some(Err(unit_not_recognized(&unit))),
            },
            _ => Value::Null,
        },
        "DATE_PART" => match (text(0), arg(1)) {
            (Some(unit), Value::DateTime(t, _)) => match part(&unit, t) {
                Some(v) => v,
                None => return Some(Err(unit_not_recognized(&unit))),
            },
            _ => Value::Null,
        },
        _ => return None,
    };
    Some(Ok(v))
}

/// Functions the server has that the simulation does not: a call of one is "not
/// simulated", where a name of neither kind "does not exist" (42883).
pub(super) fn is_builtin(name: &str) -> bool {
    matches!(
        name,
        "current_setting"
            | "set_config"
            | "pg_backend_pid"
            | "pg_blocking_pids"
            | "pg_cancel_backend"
            | "pg_terminate_backend"
            | "pg_notify"
            | "txid_current"
            | "pg_current_xact_id"
            | "gen_random_uuid"
            | "nextval"
            | "currval"
            | "setval"
            | "to_char"
            | "to_timestamp"
            | "to_date"
            | "to_number"
            | "age"
            | "make_interval"
            | "regexp_replace"
            | "regexp_match"
            | "regexp_matches"
            | "md5"
            | "json_build_object"
            | "jsonb_build_object"
            | "row_to_json"
            | "to_json"
            | "to_jsonb"
            | "array_agg"
            | "array_length"
            | "unnest"
            | "generate_series"
            | "pg_typeof"
            | "version"
            | "current_database"
            | "current_schema"
            | "timeofday"
            | "pg_sleep_for"
            | "pg_sleep_until"
            | "stddev"
            | "variance"
    )
}

/// Each word's first letter upper-case, the rest lower-case; a word is a run of letters
/// and digits (`x_y` is `X_Y`, `3rd` stays `3rd`).
fn initcap(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_word = false;
    for c in s.chars() {
        if in_word {
            out.extend(c.to_lowercase());
        } else {
            out.extend(c.to_uppercase());
        }
        in_word = c.is_alphanumeric();
    }
    out
}

/// `format(f, ...)`: `%s` (NULL as nothing), `%L` (a quoted literal, NULL as `NULL`),
/// `%I` (an identifier, quoted unless plain lower-case), `%%`, a position `%2$s`, and a
/// width `%5s` / `%-5s`, with the server's errors (22023, 22004).
fn format(f: &str, args: &[Value]) -> Result<String, SqlError> {
    let error = |state: &'static str, text: &str| {
        SqlError::generic(0, 16, text.to_string()).with_sqlstate(state)
    };
    let mut out = String::new();
    let mut chars = f.chars().peekable();
    let mut next_arg = 0usize;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let digits = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
            let mut n: Option<usize> = None;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d as usize));
                chars.next();
            }
            n
        };
        let mut width = digits(&mut chars);
        if width.is_some() && chars.peek() == Some(&'$') {
            chars.next();
            let position = width.take().unwrap_or(0);
            if position == 0 {
                return Err(error(
                    "22023",
                    "format specifies argument 0, but arguments are numbered from 1",
                ));
            }
            next_arg = position - 1;
        }
        let left = chars.peek() == Some(&'-');
        if left {
            chars.next();
        }
        if chars.peek() == Some(&'*') {
            return Err(SqlError::not_simulated(
                "a width given by an argument in format()",
            ));
        }
        if width.is_none() {
            width = digits(&mut chars);
        }
        let Some(kind) = chars.next() else {
            return Err(error("22023", "unterminated format() type specifier"));
        };
        if !matches!(kind, 's' | 'I' | 'L') {
            return Err(error(
                "22023",
                &format!("unrecognized format() type specifier \"{kind}\" (HINT: For a single \"%\" use \"%%\".)"),
            ));
        }
        let Some(v) = args.get(next_arg) else {
            return Err(error("22023", "too few arguments for format()"));
        };
        next_arg += 1;
        let text = match (kind, v) {
            ('s', Value::Null) => String::new(),
            ('L', Value::Null) => "NULL".to_string(),
            ('I', Value::Null) => {
                return Err(error(
                    "22004",
                    "null values cannot be formatted as an SQL identifier",
                ))
            }
            ('s', v) => v.output_text(),
            ('L', v) => format!("'{}'", v.output_text().replace('\'', "''")),
            (_, v) => quote_ident(&v.output_text()),
        };
        let pad = width.unwrap_or(0).saturating_sub(text.chars().count());
        if left {
            out.push_str(&text);
            out.extend(std::iter::repeat_n(' ', pad));
        } else {
            out.extend(std::iter::repeat_n(' ', pad));
            out.push_str(&text);
        }
    }
    Ok(out)
}

/// An identifier as `quote_ident` writes it: as is when lower-case letters, digits and
/// underscores (not first a digit), else in double quotes.
fn quote_ident(s: &str) -> String {
    let plain = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '$');
    if plain {
        s.to_string()
    } else {
        format!("\"{}\"", s.replace('"', "\"\""))
    }
}

fn division_by_zero() -> Interrupt {
    SqlError::generic(8134, 16, "Divide by zero error encountered.").into()
}

fn unit_not_recognized(unit: &str) -> Interrupt {
    SqlError::generic(
        0,
        16,
        format!(
            "unit \"{}\" not recognized for type timestamp without time zone",
            unit.to_lowercase()
        ),
    )
    .with_sqlstate("22023")
    .into()
}

/// `s` filled on the left (or right) with `fill` to `n` characters, or cut to `n`.
fn pad(s: &str, n: usize, fill: &[char], left: bool) -> String {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() >= n || fill.is_empty() {
        return chars[..n.min(chars.len())].iter().collect();
    }
    let extra: String = fill.iter().cycle().take(n - chars.len()).collect();
    if left {
        extra + s
    } else {
        s.to_string() + &extra
    }
}

/// `t` (µs since 1970) cut down to the start of its `unit`.
fn truncate(unit: &str, t: i64) -> Option<i64> {
    let fixed = |us: i64| Some(t - t.rem_euclid(us));
    let (y, m, _) = civil_from_days(t.div_euclid(DAY_US));
    let day = |y: i64, m: i64| Some(days_from_civil(y, m, 1) * DAY_US);
    match unit.to_ascii_lowercase().as_str() {
        "microseconds" | "microsecond" => Some(t),
        "milliseconds" | "millisecond" => fixed(1_000),
        "second" | "seconds" => fixed(1_000_000),
        "minute" | "minutes" => fixed(60_000_000),
        "hour" | "hours" => fixed(3_600_000_000),
        "day" | "days" => fixed(DAY_US),
        // Weeks begin on Monday (ISO); 1970-01-01 was a Thursday.
        "week" | "weeks" => {
            let days = t.div_euclid(DAY_US);
            Some((days - (days + 3).rem_euclid(7)) * DAY_US)
        }
        "month" | "months" => day(y, m),
        "quarter" => day(y, (m - 1) / 3 * 3 + 1),
        "year" | "years" => day(y, 1),
        _ => None,
    }
}

/// `date_part(unit, t)`: whole units as integers, seconds with their fraction.
fn part(unit: &str, t: i64) -> Option<Value> {
    let days = t.div_euclid(DAY_US);
    let in_day = t.rem_euclid(DAY_US);
    let (y, m, d) = civil_from_days(days);
    let int = |n: i64| Some(Value::Int(n));
    let exact = |us: i64, per: f64| {
        let v = us as f64 / per;
        Some(if v.fract() == 0.0 {
            Value::Int(v as i64)
        } else {
            Value::Decimal(v)
        })
    };
    match unit.to_ascii_lowercase().as_str() {
        "year" | "years" => int(y),
        "quarter" => int((m - 1) / 3 + 1),
        "month" | "months" => int(m),
        "day" | "days" => int(d),
        "hour" | "hours" => int(in_day / 3_600_000_000),
        "minute" | "minutes" => int(in_day / 60_000_000 % 60),
        "second" | "seconds" => exact(in_day % 60_000_000, 1e6),
        "milliseconds" => exact(in_day % 60_000_000, 1e3),
        "microseconds" => int(in_day % 60_000_000),
        // 0 = Sunday.
        "dow" => int((days + 4).rem_euclid(7)),
        "isodow" => int((days + 3).rem_euclid(7) + 1),
        "doy" => int(days - days_from_civil(y, 1, 1) + 1),
        "epoch" => exact(t, 1e6),
        _ => None,
    }
}

/// Bob Jenkins' 2006 hash ("lookup3"), as the server applies it to bytes (`hash_bytes`
/// in its common/hashfn.c): three 32-bit words start from a constant plus the length;
/// each 12-byte block is added in little-endian words and mixed; the last 0 to 11
/// bytes are added (the third word's bytes one place up, its lowest byte being left
/// for the length), and a final mix leaves the answer in the third word.
fn hash_bytes(k: &[u8]) -> u32 {
    fn mix(a: &mut u32, b: &mut u32, c: &mut u32) {
        *a = a.wrapping_sub(*c) ^ c.rotate_left(4);
        *c = c.wrapping_add(*b);
        *b = b.wrapping_sub(*a) ^ a.rotate_left(6);
        *a = a.wrapping_add(*c);
        *c = c.wrapping_sub(*b) ^ b.rotate_left(8);
        *b = b.wrapping_add(*a);
        *a = a.wrapping_sub(*c) ^ c.rotate_left(16);
        *c = c.wrapping_add(*b);
        *b = b.wrapping_sub(*a) ^ a.rotate_left(19);
        *a = a.wrapping_add(*c);
        *c = c.wrapping_sub(*b) ^ b.rotate_left(4);
        *b = b.wrapping_add(*a);
    }
    let word = |w: &[u8]| u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
    let init = 0x9e37_79b9_u32
        .wrapping_add(k.len() as u32)
        .wrapping_add(3_923_095);
    let (mut a, mut b, mut c) = (init, init, init);
    let mut blocks = k.chunks_exact(12);
    for w in &mut blocks {
        a = a.wrapping_add(word(&w[0..4]));
        b = b.wrapping_add(word(&w[4..8]));
        c = c.wrapping_add(word(&w[8..12]));
        mix(&mut a, &mut b, &mut c);
    }
    for (j, &byte) in blocks.remainder().iter().enumerate() {
        let byte = u32::from(byte);
        match j {
            0..=3 => a = a.wrapping_add(byte << (8 * j)),
            4..=7 => b = b.wrapping_add(byte << (8 * (j - 4))),
            _ => c = c.wrapping_add(byte << (8 * (j - 7))),
        }
    }
    // final(a, b, c)
    c ^= b;
    c = c.wrapping_sub(b.rotate_left(14));
    a ^= c;
    a = a.wrapping_sub(c.rotate_left(11));
    b ^= a;
    b = b.wrapping_sub(a.rotate_left(25));
    c ^= b;
    c = c.wrapping_sub(b.rotate_left(16));
    a ^= c;
    a = a.wrapping_sub(c.rotate_left(4));
    b ^= a;
    b = b.wrapping_sub(a.rotate_left(14));
    c ^= b;
    c.wrapping_sub(b.rotate_left(24))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Stamp;

    fn at(s: &str) -> i64 {
        crate::value::parse_datetime(s).unwrap()
    }

    #[test]
    fn date_trunc_and_date_part_as_the_server() {
        let t = at("2026-01-07 10:17:05.25");
        let show = |t: Option<i64>| Value::DateTime(t.unwrap(), Stamp::Trimmed).to_string();
        assert_eq!(show(truncate("hour", t)), "2026-01-07 10:00:00");
        assert_eq!(show(truncate("week", t)), "2026-01-05 00:00:00");
        assert_eq!(show(truncate("quarter", t)), "2026-01-01 00:00:00");
        assert_eq!(part("minute", t), Some(Value::Int(17)));
        assert_eq!(part("second", t), Some(Value::Decimal(5.25)));
        assert_eq!(part("dow", t), Some(Value::Int(3)));
        assert_eq!(part("doy", t), Some(Value::Int(7)));
        assert_eq!(part("fortnight", t), None);
    }

    #[test]
    fn pad_fills_or_cuts() {
        assert_eq!(pad("7", 3, &['0'], true), "007");
        assert_eq!(pad("ab", 5, &['x', 'y'], false), "abxyx");
        assert_eq!(pad("abcdef", 3, &['0'], true), "abc");
    }
}
