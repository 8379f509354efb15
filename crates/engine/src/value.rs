//! SQL values: comparison under SQL Server's default collation, arithmetic, conversion to
//! column types (with the truncation and overflow errors a real engine raises).

use std::cmp::Ordering;
use std::fmt;
use std::rc::Rc;

use sql::ast::{BinaryOp, DataType, Len};

use crate::error::{Fallible, SqlError};

/// A SQL value. Equality is SQL's for points in time: two equal instants are equal
/// whatever their [`Stamp`].
#[derive(Clone, Debug)]
pub enum Value {
    Null,
    Int(i64),
    /// A `boolean` (a dialect's own type), and a predicate's value where a query shows
    /// it (T-SQL's `bit` is an `Int`, 0 or 1); it compares with numbers as 0 and 1. Two
    /// variants without a payload, not `Bool(bool)`: a payload byte would sit next to the
    /// tag, and every copy of a value would become a partial, unaligned store again
    /// (the filtered-index setup ran 12 % slower so). Made by [`Value::bool`].
    True,
    False,
    Decimal(f64),
    /// Shared: rows are copied often (versions, scans, results), text rarely changes.
    Text(Rc<str>),
    /// A point in time: microseconds since 1970-01-01 (virtual time zero is
    /// [`CLOCK_ZERO_US`]), and how its type prints it.
    DateTime(i64, Stamp),
}

// A row is a vector of values: a bigger value makes every row copy bigger.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Value>() == 24);
#[cfg(target_pointer_width = "32")]
const _: () = assert!(std::mem::size_of::<Value>() == 16);

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::True, Value::True) | (Value::False, Value::False) => true,
            (Value::Decimal(a), Value::Decimal(b)) => a == b,
            (Value::Text(a), Value::Text(b)) => a == b,
            (Value::DateTime(a, _), Value::DateTime(b, _)) => a == b,
            _ => false,
        }
    }
}

/// How a point in time prints, which its type decides, as each engine shows it: most
/// types write all of their fractional digits (`datetime2(3)` `09:00:01.500`,
/// `TIMESTAMP(6)` `09:00:00.000000`, `datetime2(7)` seven digits),
/// `DataType::Timestamp` drops trailing zeros (`09:00:01.5`, `09:00:00`), a date has no
/// time and a time no date. Comparison ignores it.
/// On 64-bit targets aligned as the microseconds beside it, in the bytes a text's length
/// takes: packed into the padding next to `Value`'s tag, it made every copy of a value a
/// partial, unaligned store (natively the claim race ran 4 % slower, the filtered-index
/// setup 18 %). On wasm32 a value has no such bytes to spare (it is 16 bytes), so the
/// stamp stays in the padding there rather than make every value 24.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(target_pointer_width = "64", repr(align(8)))]
pub enum Stamp {
    /// Date and time with this many fractional digits (0 to 7; the seventh is always 0).
    Full(u8),
    /// `YYYY-MM-DD`.
    Date,
    /// `hh:mm:ss` with this many fractional digits.
    Time(u8),
    /// `DataType::Timestamp`: microseconds without their trailing zeros.
    Trimmed,
    /// `DataType::TimestampTz`: as `Trimmed`, then the zone, `+00` (UTC).
    TrimmedTz,
}

impl Stamp {
    /// How a value of column type `ty` prints.
    pub fn of(ty: &DataType) -> Stamp {
        match ty {
            DataType::DateTime => Stamp::Full(3),
            DataType::DateTime2(p) => Stamp::Full(*p),
            DataType::Timestamp(_) => Stamp::Trimmed,
            DataType::TimestampTz(_) => Stamp::TrimmedTz,
            DataType::Date => Stamp::Date,
            DataType::Time(p) => Stamp::Time(*p),
            _ => Stamp::Full(7),
        }
    }
}

impl Value {
    /// The value's type as SQL Server's messages name it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "int",
            Value::True | Value::False => "boolean",
            Value::Decimal(_) => "float",
            Value::Text(_) => "varchar",
            Value::DateTime(..) => "datetime2",
            Value::Null => "null",
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// SQL truth of a predicate result: NULL and 0 are not true.
    pub fn is_true(&self) -> bool {
        match self {
            Value::Int(i) => *i != 0,
            Value::True => true,
            Value::False => false,
            Value::Decimal(d) => *d != 0.0,
            _ => false,
        }
    }

    /// A number as a float (text parsed, NULL none).
    pub fn as_f64(&self) -> Option<f64> {
        as_f64(self)
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::True => Some(1),
            Value::False => Some(0),
            Value::Decimal(d) => Some(d.trunc() as i64),
            Value::Text(s) => s.trim().parse().ok(),
            Value::DateTime(t, _) => Some(*t),
            Value::Null => None,
        }
    }

    /// The value as text (a cast to text, a concatenation): a boolean is `true` here,
    /// where a result prints `t`.
    pub fn as_text(&self) -> String {
        match self {
            Value::Null => String::new(),
            Value::Text(s) => s.to_string(),
            Value::True => "true".to_string(),
            Value::False => "false".to_string(),
            other => other.to_string(),
        }
    }

    /// The value as a result or a message shows it: a boolean is `t`, as the server's
    /// output prints it, where a cast to text gives `true`.
    pub fn output_text(&self) -> String {
        match self {
            Value::True | Value::False => self.to_string(),
            other => other.as_text(),
        }
    }

    /// The value as shared text: a text value's own, else its printed form.
    pub fn to_text_rc(&self) -> Rc<str> {
        match self {
            Value::Text(s) => s.clone(),
            Value::Int(n) => int_text(*n),
            Value::True => Rc::from("true"),
            Value::False => Rc::from("false"),
            Value::Null => Rc::from(""),
            other => other.to_string().into(),
        }
    }

    /// A predicate's value: a dialect with booleans shows it (`t`); T-SQL never shows
    /// one, and its conditions read it as true or false.
    pub fn bool(b: bool) -> Value {
        if b {
            Value::True
        } else {
            Value::False
        }
    }

    /// A boolean's truth; `None` for any other value.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::True => Some(true),
            Value::False => Some(false),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("NULL"),
            Value::Int(i) => write!(f, "{i}"),
            // As psql and the server's text output print it.
            Value::True => f.write_str("t"),
            Value::False => f.write_str("f"),
            Value::Decimal(d) => write!(f, "{d}"),
            Value::Text(s) => f.write_str(s),
            Value::DateTime(us, stamp) => f.write_str(&stamp_text(*us, *stamp)),
        }
    }
}

/// Microseconds in a day.
const DAY_US: i64 = 86_400_000_000;

/// Virtual time zero as a wall-clock instant: 2026-01-05 09:00:00, in microseconds since
/// 1970-01-01. datetime values are microseconds since 1970, so they print as real dates.
pub const CLOCK_ZERO_US: i64 = (20_458 * 86_400 + 9 * 3_600) * 1_000_000;

/// A point in time as its [`Stamp`] prints it.
pub fn stamp_text(us: i64, stamp: Stamp) -> String {
    match stamp {
        Stamp::Full(p) if p > 6 => {
            let mut s = format_datetime(us, 6);
            s.extend(std::iter::repeat_n('0', (p - 6) as usize));
            s
        }
        Stamp::Full(p) => format_datetime(us, p),
        Stamp::Date => {
            let mut s = format_datetime(us, 0);
            s.truncate(s.len() - 9);
            s
        }
        Stamp::Time(p) => {
            let s = format_datetime(us, p.min(6));
            let at = s.len() - 8 - if p == 0 { 0 } else { 1 + p.min(6) as usize };
            let mut s = s[at..].to_string();
            s.extend(std::iter::repeat_n('0', p.saturating_sub(6) as usize));
            s
        }
        Stamp::Trimmed => {
            let s = format_datetime(us, 6);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
        Stamp::TrimmedTz => {
            let s = format_datetime(us, 6);
            let mut s = s.trim_end_matches('0').trim_end_matches('.').to_string();
            s.push_str("+00");
            s
        }
    }
}

/// `2026-01-05 09:00:01.500` for a datetime with `precision` fractional digits.
pub fn format_datetime(us: i64, precision: u8) -> String {
    let days = us.div_euclid(86_400_000_000);
    let in_day = us.rem_euclid(86_400_000_000);
    let (y, m, d) = civil_from_days(days);
    let secs = in_day / 1_000_000;
    let frac = in_day % 1_000_000;
    let (hh, mm, ss) = (secs / 3600, secs / 60 % 60, secs % 60);
    let p = precision.min(6) as usize;
    if (0..=9999).contains(&y) {
        // Written into one buffer: results and updated rows print many datetimes.
        let mut b = *b"0000-00-00 00:00:00.000000";
        let mut put = |at: usize, width: usize, n: u64| {
            let mut m = n;
            for k in (at..at + width).rev() {
                b[k] = b'0' + (m % 10) as u8;
                m /= 10;
            }
        };
        put(0, 4, y as u64);
        put(5, 2, m as u64);
        put(8, 2, d as u64);
        put(11, 2, hh as u64);
        put(14, 2, mm as u64);
        put(17, 2, ss as u64);
        put(20, 6, frac as u64);
        let len = if p > 0 { 20 + p } else { 19 };
        return String::from_utf8_lossy(&b[..len]).into_owned();
    }
    if p == 0 {
        format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02}:{ss:02}")
    } else {
        let digits = format!("{frac:06}");
        format!(
            "{y:04}-{m:02}-{d:02} {hh:02}:{mm:02}:{ss:02}.{}",
            &digits[..p]
        )
    }
}

/// Writes `n`'s decimal digits at the end of `buf`; returns where they start.
fn write_digits(buf: &mut [u8; 21], n: u64) -> usize {
    let mut at = buf.len();
    let mut m = n;
    loop {
        at -= 1;
        buf[at] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            return at;
        }
    }
}

/// `n` as shared text, as `Display` writes it, without the formatting machinery (key
/// texts and CASTs of integers are written for every row). Written on the stack, so the
/// shared text is the only allocation.
/// Appends an integer's digits to `s` without the formatting machinery.
pub(crate) fn push_int(s: &mut String, n: i64) {
    let mut buf = [b'0'; 21];
    let mut at = write_digits(&mut buf, n.unsigned_abs());
    if n < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    s.push_str(std::str::from_utf8(&buf[at..]).unwrap_or("0"));
}

pub(crate) fn int_text(n: i64) -> Rc<str> {
    let mut buf = [b'0'; 21];
    let mut at = write_digits(&mut buf, n.unsigned_abs());
    if n < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    Rc::from(std::str::from_utf8(&buf[at..]).unwrap_or("0"))
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
pub(crate) fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Compares two non-NULL values the way SQL Server does for `=`, `<` and ORDER BY under the
/// default case-insensitive, accent-sensitive collation; trailing spaces are ignored.
/// Returns None when either side is NULL.
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Null, _) | (_, Value::Null) => None,
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::True | Value::False, Value::True | Value::False) => {
            Some(a.as_bool().cmp(&b.as_bool()))
        }
        // A quoted literal beside a boolean is read as one (`done = 'yes'`).
        (Value::True | Value::False, Value::Text(s)) => {
            parse_bool(s).map(|y| a.as_bool().cmp(&Some(y)))
        }
        (Value::Text(s), Value::True | Value::False) => {
            parse_bool(s).map(|x| Some(x).cmp(&b.as_bool()))
        }
        (Value::Text(x), Value::Text(y)) => Some(collate(x, y)),
        (Value::DateTime(x, _), Value::DateTime(y, _)) => Some(x.cmp(y)),
        (Value::Text(s), Value::DateTime(_, stamp)) => {
            parse_datetime(s).and_then(|t| compare(&Value::DateTime(t, *stamp), b))
        }
        (Value::DateTime(_, stamp), Value::Text(s)) => {
            parse_datetime(s).and_then(|t| compare(a, &Value::DateTime(t, *stamp)))
        }
        (x, y) => {
            let (fx, fy) = (as_f64(x)?, as_f64(y)?);
            fx.partial_cmp(&fy)
        }
    }
}

/// Text read as a boolean (the standard's literals, as the one dialect with booleans
/// reads them): `t`, `true`, `yes`, `on`, `1` and their false
/// counterparts, any case, surrounding spaces ignored, a unique prefix enough (`tr`,
/// `of`; `o` alone is neither).
#[inline(never)]
pub fn parse_bool(text: &str) -> Option<bool> {
    let t = text.trim().to_ascii_lowercase();
    let prefix = |word: &str, min: usize| t.len() >= min && word.starts_with(t.as_str());
    if t == "1" || prefix("true", 1) || prefix("yes", 1) || prefix("on", 2) {
        Some(true)
    } else if t == "0" || prefix("false", 1) || prefix("no", 1) || prefix("off", 2) {
        Some(false)
    } else {
        None
    }
}

fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::True => Some(1.0),
        Value::False => Some(0.0),
        Value::Decimal(d) => Some(*d),
        Value::Text(s) => s.trim().parse().ok(),
        Value::DateTime(t, _) => Some(*t as f64),
        Value::Null => None,
    }
}

/// How text compares, sorts and matches LIKE patterns: a dialect's default collation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collation {
    /// Case-insensitive, trailing spaces ignored (SQL Server's default collation, which
    /// pads for `=`; NOT CASESPECIFIC text elsewhere).
    IgnoreCase,
    /// By the bytes of the UTF-8 text, trailing spaces included (a deterministic `C`
    /// collation: `'a' <> 'A'`, and `'B'` sorts before `'a'`).
    Binary,
}

thread_local! {
    /// The collation of the simulation running on this thread. A `Value` does not know
    /// its dialect, and every comparison (indexes' `Ord` included) goes through
    /// [`collate`]: each entry into a simulation sets its dialect's collation here, so
    /// simulations of different dialects can take turns on one thread.
    static COLLATION: std::cell::Cell<Collation> = const { std::cell::Cell::new(Collation::IgnoreCase) };
}

/// Makes `c` the collation of every text comparison on this thread from now on.
pub fn use_collation(c: Collation) {
    COLLATION.with(|cell| cell.set(c));
}

/// The collation text compares under on this thread (see [`use_collation`]).
fn collation() -> Collation {
    COLLATION.with(std::cell::Cell::get)
}

/// A predicate's value in three-valued logic: None when unknown (NULL).
pub(crate) fn truth(v: &Value) -> Option<bool> {
    match v {
        Value::Null => None,
        v => Some(v.is_true()),
    }
}

/// `v [NOT] IN (items)` in three-valued logic: true at the first item equal to `v` (the
/// rest are not computed), else unknown when a comparison was (a NULL on either side).
pub(crate) fn in_items<E>(
    v: &Value,
    items: impl IntoIterator<Item = Result<Value, E>>,
    negated: bool,
) -> Result<Value, E> {
    let mut any_null = v.is_null();
    for item in items {
        match compare(v, &item?) {
            Some(Ordering::Equal) => return Ok(Value::bool(!negated)),
            None => any_null = true,
            _ => {}
        }
    }
    Ok(if any_null {
        Value::Null
    } else {
        Value::bool(negated)
    })
}

/// Whether the thread's collation ignores case (where text is searched, not compared).
pub(crate) fn ignores_case() -> bool {
    collation() == Collation::IgnoreCase
}

/// Compares two texts under the thread's [`Collation`].
pub fn collate(a: &str, b: &str) -> Ordering {
    match collation() {
        Collation::IgnoreCase => collate_ignoring_case(a, b),
        Collation::Binary => a.cmp(b),
    }
}

/// Case-insensitive comparison, ignoring trailing spaces (SQL Server pads for `=`).
pub fn collate_ignoring_case(a: &str, b: &str) -> Ordering {
    let a = trim_spaces(a);
    let b = trim_spaces(b);
    // The same text (a filter's `status = 'new'` on a waiting row) is equal at once.
    if a == b {
        return Ordering::Equal;
    }
    if a.is_ascii() && b.is_ascii() {
        // The common case, without Unicode case tables: byte by byte, then by length.
        for (x, y) in a.bytes().zip(b.bytes()) {
            let (x, y) = (x.to_ascii_lowercase(), y.to_ascii_lowercase());
            if x != y {
                return x.cmp(&y);
            }
        }
        return a.len().cmp(&b.len());
    }
    let mut ai = a.chars().flat_map(char::to_lowercase);
    let mut bi = b.chars().flat_map(char::to_lowercase);
    loop {
        match (ai.next(), bi.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x != y => return x.cmp(&y),
            _ => {}
        }
    }
}

/// `s` without its trailing spaces, which comparisons and length checks ignore, as
/// SQL Server's do. (By bytes: `trim_end_matches(' ')` goes through the general
/// pattern searcher, and comparisons in scans call this for every row.)
pub fn trim_spaces(s: &str) -> &str {
    let b = s.as_bytes();
    let mut n = b.len();
    while n > 0 && b[n - 1] == b' ' {
        n -= 1;
    }
    // A space is one byte, so `n` ends the last character before the spaces.
    &s[..n]
}

/// A total order over values for sorting and keys: NULL first (as SQL Server sorts it).
pub fn sort_cmp(a: &Value, b: &Value) -> Ordering {
    sort_cmp_nulls(a, b, false)
}

/// [`sort_cmp`] with NULL after every value when `nulls_high` (a dialect whose NULLs
/// sort last ascending and first descending, in ORDER BY and in its indexes alike).
pub fn sort_cmp_nulls(a: &Value, b: &Value, nulls_high: bool) -> Ordering {
    // Integer keys, the common case in clustered order, without the general match.
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        return x.cmp(y);
    }
    let low = if nulls_high {
        Ordering::Greater
    } else {
        Ordering::Less
    };
    match (a.is_null(), b.is_null()) {
        (true, true) => Ordering::Equal,
        (true, false) => low,
        (false, true) => low.reverse(),
        _ => compare(a, b).unwrap_or(Ordering::Equal),
    }
}

/// Parses `'00:00:00.020'`-style WAITFOR DELAY text into microseconds.
pub fn parse_delay(text: &str) -> Option<u64> {
    // The usual `hh:mm:ss.fff`, digits only: read by bytes (every WAITFOR of a loop
    // parses its delay). Anything else takes the general path below.
    if let [h1, h2, b':', m1, m2, b':', s1, s2, b'.', rest @ ..] = text.as_bytes() {
        let digits = [*h1, *h2, *m1, *m2, *s1, *s2];
        if digits.iter().all(u8::is_ascii_digit)
            && !rest.is_empty()
            && rest.len() <= 6
            && rest.iter().all(u8::is_ascii_digit)
        {
            let two = |a: u8, b: u8| u64::from(a - b'0') * 10 + u64::from(b - b'0');
            let (h, m, s) = (two(*h1, *h2), two(*m1, *m2), two(*s1, *s2));
            // A time of day: '00:00:99' and '99:99:99' are Msg 148 on the server.
            if h > 23 || m > 59 || s > 59 {
                return None;
            }
            let secs = (h * 60 + m) * 60 + s;
            let mut frac = 0u64;
            for &d in rest {
                frac = frac * 10 + u64::from(d - b'0');
            }
            return Some(secs * 1_000_000 + frac * 10u64.pow(6 - rest.len() as u32));
        }
    }
    let t = text.trim();
    let (hms, frac) = match t.split_once('.') {
        Some((a, b)) => (a, b),
        None => (t, ""),
    };
    // Parsed in one pass over the parts: every WAITFOR of a loop parses its delay.
    // Checked: `WAITFOR DELAY '21474836470004'` is text, not a time (found by fuzzing).
    let mut secs = 0u64;
    let mut parts = 0;
    let count = hms.split(':').count();
    for p in hms.split(':') {
        parts += 1;
        if parts > 3 {
            return None;
        }
        let n = p.trim().parse::<u64>().ok()?;
        // Hours, then minutes and seconds, of a time of day (one part alone is as given).
        let most = if count == 1 {
            u64::MAX
        } else if parts == 1 {
            23
        } else {
            59
        };
        if n > most {
            return None;
        }
        secs = secs.checked_mul(60)?.checked_add(n)?;
    }
    // Two parts are hours and minutes (`'09:30'`, `WAITFOR DELAY '00:05'`), not minutes
    // and seconds: the seconds are what is left out.
    if parts == 2 {
        if !frac.is_empty() {
            return None;
        }
        secs = secs.checked_mul(60)?;
    }
    // Pad the fraction to microseconds: '.020' is 20 ms.
    let mut frac_us = 0u64;
    if !frac.is_empty() {
        let mut digits = 0;
        for c in frac.chars().take(6) {
            frac_us = frac_us * 10 + u64::from(c.to_digit(10)?);
            digits += 1;
        }
        frac_us *= 10u64.pow(6 - digits);
    }
    secs.checked_mul(1_000_000)?.checked_add(frac_us)
}

/// Parses `2026-01-05 09:00:01.500` or `2026-01-05` into microseconds since 1970.
pub fn parse_datetime(text: &str) -> Option<i64> {
    let t = text.trim();
    let (date, time) = match t.split_once([' ', 'T']) {
        Some((d, tm)) => (d, tm.trim()),
        None => (t, "00:00:00"),
    };
    let mut parts = date.split('-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    // datetime2's years 1–9999 only: far years overflowed the day count.
    if parts.next().is_some()
        || !(1..=9999).contains(&y)
        || !(1..=12).contains(&m)
        || !(1..=31).contains(&d)
    {
        return None;
    }
    // No February 30th: a day past its month's end is no date (it rolled over).
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    if d > days_from_civil(ny, nm, 1) - days_from_civil(y, m, 1) {
        return None;
    }
    // A time of day is less than a day (no hour 25).
    let us = i64::try_from(parse_delay(time)?)
        .ok()
        .filter(|&us| us < 86_400_000_000)?;
    days_from_civil(y, m, d)
        .checked_mul(86_400_000_000)?
        .checked_add(us)
}

/// Converts a value for storing in (or casting to) a column of type `ty`, raising the
/// errors SQL Server raises. `column` and `table` name the target for error 2628.
pub fn convert(v: &Value, ty: &DataType, target: Option<(&str, &str)>) -> Fallible<Value> {
    if v.is_null() {
        return Ok(Value::Null);
    }
    match ty {
        DataType::TinyInt => int_in(v, ty, 0, 255),
        DataType::ByteInt => int_in(v, ty, -128, 127),
        DataType::SmallInt => int_in(v, ty, i16::MIN as i64, i16::MAX as i64),
        DataType::Int => int_in(v, ty, i32::MIN as i64, i32::MAX as i64),
        DataType::BigInt => int_in(v, ty, i64::MIN, i64::MAX),
        DataType::Boolean => to_boolean(v, ty),
        DataType::Bit => match v {
            Value::Text(s) if s.eq_ignore_ascii_case("true") => Ok(Value::Int(1)),
            Value::Text(s) if s.eq_ignore_ascii_case("false") => Ok(Value::Int(0)),
            _ => Ok(Value::Int((to_number(v, ty)? != 0.0) as i64)),
        },
        DataType::Decimal { scale, .. } => {
            let n = to_number(v, ty)?;
            if *scale == sql::ast::ANY_SCALE {
                return Ok(Value::Decimal(n));
            }
            let f = 10f64.powi(*scale as i32);
            Ok(Value::Decimal((n * f).round() / f))
        }
        DataType::Float | DataType::Money => Ok(Value::Decimal(to_number(v, ty)?)),
        DataType::Char(n) | DataType::NChar(n) => {
            fit_text(v, Some(*n), target).map_err(|mut e| {
                // A dialect whose message names the type tells fixed width from varying.
                e.key = Some(Box::new(("character".into(), n.to_string())));
                e
            })
        }
        DataType::VarChar(len) | DataType::NVarChar(len) => {
            let n = match len {
                Len::N(n) => Some(*n),
                Len::Max => None,
            };
            fit_text(v, n, target)
        }
        DataType::SysName => fit_text(v, Some(128), target),
        DataType::DateTime
        | DataType::DateTime2(_)
        | DataType::Timestamp(_)
        | DataType::TimestampTz(_)
        | DataType::Date
        | DataType::Time(_) => match v {
            Value::DateTime(t, _) => Ok(Value::DateTime(round_datetime(*t, ty), Stamp::of(ty))),
            // Text with a zone (`+02`, `-05:30`, `Z`) is that moment in UTC.
            Value::Text(s) if matches!(ty, DataType::TimestampTz(_)) => zoned(s)
                .and_then(|(local, offset)| Some(parse_datetime(local)? - offset))
                .map(|t| Value::DateTime(round_datetime(t, ty), Stamp::of(ty)))
                .ok_or_else(|| SqlError::not_a_datetime(s, ty).into()),
            Value::Text(s) => parse_datetime(s)
                // A time of day alone (`'09:30'`) is a `time`, on no date of its own.
                .or_else(|| {
                    matches!(ty, DataType::Time(_))
                        .then(|| parse_datetime(&format!("1900-01-01 {}", s.trim())))
                        .flatten()
                })
                .map(|t| Value::DateTime(round_datetime(t, ty), Stamp::of(ty)))
                .ok_or_else(|| SqlError::not_a_datetime(s, ty).into()),
            _ => Err(SqlError::explicit_conversion(v.type_name(), ty).into()),
        },
        DataType::UniqueIdentifier => Ok(Value::Text(v.to_text_rc())),
    }
}

/// A timestamp's text split from its zone: the local part and the zone's offset from
/// UTC in microseconds (0 without a zone, which the session's zone, UTC, gives).
fn zoned(s: &str) -> Option<(&str, i64)> {
    let t = s.trim();
    if let Some(local) = t.strip_suffix(['Z', 'z']) {
        return Some((local, 0));
    }
    // The sign of a zone comes after the time (`10:00+02`), never in the date.
    let Some(at) = t.rfind(['+', '-']).filter(|&at| t[..at].contains(':')) else {
        return Some((t, 0));
    };
    let (local, zone) = t.split_at(at);
    let sign = if zone.starts_with('-') { -1 } else { 1 };
    let digits = &zone[1..];
    let (h, m) = match digits.split_once(':') {
        Some((h, m)) => (h, m),
        None if digits.len() == 4 => digits.split_at(2),
        None => (digits, "0"),
    };
    let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
    if h > 15 || m > 59 || local.trim().is_empty() {
        return None;
    }
    Some((local.trim_end(), sign * (h * 3600 + m * 60) * 1_000_000))
}

fn round_datetime(us: i64, ty: &DataType) -> i64 {
    // A date is the day's midnight: the time of day goes (both servers truncate).
    if matches!(ty, DataType::Date) {
        return us.div_euclid(DAY_US) * DAY_US;
    }
    let p = match ty {
        DataType::DateTime2(p)
        | DataType::Time(p)
        | DataType::Timestamp(p)
        | DataType::TimestampTz(p) => *p,
        DataType::DateTime => 3,
        _ => 0,
    };
    if p >= 6 {
        return us;
    }
    let unit = 10i64.pow(6 - p as u32);
    (us + unit / 2).div_euclid(unit) * unit
}

/// A value stored in (or cast to) a boolean: out of line, as only one dialect has the
/// type and every value stored passes through `convert`.
#[inline(never)]
fn to_boolean(v: &Value, ty: &DataType) -> Fallible<Value> {
    match v {
        Value::True | Value::False => Ok(v.clone()),
        Value::Text(s) => parse_bool(s)
            .map(Value::bool)
            .ok_or_else(|| SqlError::conversion_failed(s, ty).into()),
        _ => Ok(Value::bool(to_number(v, ty)? != 0.0)),
    }
}

fn to_number(v: &Value, ty: &DataType) -> Fallible<f64> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::True => Ok(1.0),
        Value::False => Ok(0.0),
        Value::Decimal(d) => Ok(*d),
        Value::Text(s) => s
            .trim()
            .parse::<f64>()
            .map_err(|_| SqlError::conversion_failed(s, ty).into()),
        Value::DateTime(..) => Err(SqlError::explicit_conversion(v.type_name(), ty).into()),
        Value::Null => Ok(0.0),
    }
}

fn int_in(v: &Value, ty: &DataType, min: i64, max: i64) -> Fallible<Value> {
    let n = match v {
        Value::Int(i) => *i,
        Value::True => 1,
        Value::False => 0,
        // `as` would saturate: a number past even a bigint overflows like any other.
        Value::Decimal(d) if d.trunc() >= i64::MIN as f64 && d.trunc() < i64::MAX as f64 => {
            d.trunc() as i64
        }
        Value::Decimal(_) => return Err(SqlError::arithmetic_overflow(ty).into()),
        Value::Text(s) => match s.trim().parse::<i64>() {
            Ok(n) if n < min || n > max => return Err(SqlError::text_overflow(s, ty).into()),
            Ok(n) => n,
            // Digits past even a bigint are an overflow too, not a wrong number.
            Err(_) if is_integer_text(s) => return Err(SqlError::text_overflow(s, ty).into()),
            Err(_) => return Err(SqlError::conversion_failed(s, ty).into()),
        },
        Value::DateTime(..) => return Err(SqlError::explicit_conversion(v.type_name(), ty).into()),
        Value::Null => return Ok(Value::Null),
    };
    if n < min || n > max {
        let small = matches!(ty, DataType::SmallInt | DataType::TinyInt);
        if small && matches!(v, Value::Int(_)) && i32::try_from(n).is_ok() {
            return Err(SqlError::int_overflow(ty, n).into());
        }
        return Err(SqlError::arithmetic_overflow(ty).into());
    }
    Ok(Value::Int(n))
}

/// `123`, `-45`, `+6`: an integer written out, whatever its size.
fn is_integer_text(s: &str) -> bool {
    let t = s.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn fit_text(v: &Value, max_chars: Option<u32>, target: Option<(&str, &str)>) -> Fallible<Value> {
    let s = v.to_text_rc();
    if let Some(n) = max_chars {
        // Trailing spaces are trimmed before the length check, as SQL Server does.
        // Bytes bound characters from above: trim and count only when it could matter.
        let len = if s.len() <= n as usize {
            s.len()
        } else {
            trim_spaces(&s).chars().count()
        };
        if len > n as usize {
            return match target {
                Some((table, column)) => Err(SqlError::truncation(table, column, &s, n).into()),
                // CAST silently truncates; only storing into a column is an error.
                None => Ok(Value::Text(
                    s.chars().take(n as usize).collect::<String>().into(),
                )),
            };
        }
    }
    Ok(Value::Text(s))
}

/// A literal that evaluates back to `v` (a datetime as its text, which converts back).
pub(crate) fn to_literal(v: Value) -> sql::ast::Literal {
    match v {
        Value::Null => sql::ast::Literal::Null,
        Value::Int(n) => sql::ast::Literal::Int(n),
        Value::True => sql::ast::Literal::Bool(true),
        Value::False => sql::ast::Literal::Bool(false),
        Value::Decimal(d) => sql::ast::Literal::Decimal(d.to_string()),
        Value::Text(s) => sql::ast::Literal::Str {
            value: s,
            national: true,
        },
        Value::DateTime(t, _) => sql::ast::Literal::Str {
            value: format_datetime(t, 6).into(),
            national: false,
        },
    }
}

/// Bytes the value takes in a row, for the page model.
pub fn stored_len(v: &Value, ty: &DataType) -> u32 {
    match (v, ty) {
        (Value::Null, _) => 0,
        (Value::Text(s), DataType::NVarChar(_)) | (Value::Text(s), DataType::SysName) => {
            2 * s.chars().count() as u32
        }
        (_, DataType::NVarChar(_)) | (_, DataType::SysName) => {
            2 * v.as_text().chars().count() as u32
        }
        (Value::Text(s), DataType::VarChar(_)) => s.len() as u32,
        (_, DataType::VarChar(_)) => v.as_text().len() as u32,
        _ => 0,
    }
}

/// The longest text one value may hold. The servers take a gigabyte or two, more than a
/// browser tab has: a script that doubles a string in a loop stops here with the
/// simulator's limit instead of taking the tab down.
pub(crate) const MAX_TEXT_BYTES: usize = 16 << 20;

/// Fails when a text of `bytes` would be longer than [`MAX_TEXT_BYTES`].
pub(crate) fn text_fits(bytes: usize) -> Fallible<()> {
    if bytes > MAX_TEXT_BYTES {
        return Err(SqlError::limit(format!(
            "a text value of {} MB, more than the {} MB the simulator keeps in one value",
            bytes >> 20,
            MAX_TEXT_BYTES >> 20
        ))
        .into());
    }
    Ok(())
}

/// `a` then `b` as one shared text: short texts (the usual `N'task ' + ...`) are joined on
/// the stack, so the shared text is the only allocation.
fn concat(a: &str, b: &str) -> Rc<str> {
    let n = a.len() + b.len();
    let mut buf = [0u8; 64];
    if n <= buf.len() {
        buf[..a.len()].copy_from_slice(a.as_bytes());
        buf[a.len()..n].copy_from_slice(b.as_bytes());
        if let Ok(s) = std::str::from_utf8(&buf[..n]) {
            return Rc::from(s);
        }
    }
    let mut s = String::with_capacity(n);
    s.push_str(a);
    s.push_str(b);
    s.into()
}

/// For a comparison operator, its result from the order of its operands (NULL when
/// they do not compare).
pub(crate) fn comparison(op: BinaryOp) -> Option<fn(Option<Ordering>) -> Value> {
    use BinaryOp::*;
    fn result(o: Option<Ordering>, holds: fn(Ordering) -> bool) -> Value {
        o.map_or(Value::Null, |o| Value::bool(holds(o)))
    }
    Some(match op {
        Eq => |o| result(o, |o| o == Ordering::Equal),
        Ne => |o| result(o, |o| o != Ordering::Equal),
        Lt => |o| result(o, |o| o == Ordering::Less),
        Le => |o| result(o, |o| o != Ordering::Greater),
        Gt => |o| result(o, |o| o == Ordering::Greater),
        Ge => |o| result(o, |o| o != Ordering::Less),
        _ => return None,
    })
}

/// `operator does not exist` (42883), for arithmetic on a boolean, or a power of a value
/// that is no number: out of line, so the arithmetic above stays small.
#[cold]
#[inline(never)]
pub(crate) fn no_operator(op: BinaryOp, l: &Value, r: &Value) -> Box<SqlError> {
    SqlError::no_operator(op, operand_type(l), operand_type(r)).into()
}

/// A value's type as the messages of the dialect with booleans name it.
fn operand_type(v: &Value) -> &'static str {
    match v {
        Value::Null | Value::Text(_) => "text",
        Value::Int(_) => "integer",
        Value::True | Value::False => "boolean",
        Value::Decimal(_) => "numeric",
        Value::DateTime(..) => "timestamp without time zone",
    }
}

/// Whether a point in time (µs from 1970) lies within datetime2's years 0001–9999.
pub(crate) fn in_datetime_range(us: i64) -> bool {
    // 0001-01-01 and 10000-01-01 in µs from 1970-01-01.
    (-62_135_596_800_000_000..253_402_300_800_000_000).contains(&us)
}

/// A binary operator on two values (arithmetic, comparison, concatenation), with SQL
/// Server's NULL and type rules.
pub(crate) fn binary(op: BinaryOp, l: &Value, r: &Value) -> Fallible<Value> {
    use BinaryOp::*;
    if let Some(result) = comparison(op) {
        return Ok(result(compare(l, r)));
    }
    if let IsDistinct | IsNotDistinct = op {
        let same = match (l.is_null(), r.is_null()) {
            (true, true) => true,
            (false, false) => compare(l, r) == Some(Ordering::Equal),
            _ => false,
        };
        return Ok(Value::bool(same == (op == IsNotDistinct)));
    }
    if l.is_null() || r.is_null() {
        return Ok(Value::Null);
    }
    match op {
        // `||`, standard SQL's concatenation: either side as text (`'task ' || 3`).
        Concat => {
            let (a, b) = (l.as_text(), r.as_text());
            text_fits(a.len() + b.len())?;
            return Ok(Value::Text(concat(&a, &b)));
        }
        // A boolean takes part only in comparisons and AND/OR/NOT.
        _ if l.as_bool().is_some() || r.as_bool().is_some() => {
            return Err(no_operator(op, l, r));
        }
        // `^` as a power is a dialect's operator (`Rules::power`); a filtered index's
        // predicate, evaluated without one, has none.
        Pow => return Err(SqlError::not_simulated("^ as a power outside a query").into()),
        _ => {}
    }
    // `+` concatenates when either side is text that is not a number (T-SQL's precedence
    // converts text to the number type otherwise).
    if op == Add {
        if let (Value::Text(a), Value::Text(b)) = (l, r) {
            text_fits(a.len() + b.len())?;
            return Ok(Value::Text(concat(a, b)));
        }
        if let (Value::Text(a), other) | (other, Value::Text(a)) = (l, r) {
            if a.trim().parse::<f64>().is_err() {
                if matches!(other, Value::Int(_) | Value::Decimal(_)) {
                    return Err(SqlError::conversion_failed(a, &DataType::Int).into());
                }
                let (x, y) = if matches!(l, Value::Text(_)) {
                    (a.to_string(), other.as_text())
                } else {
                    (other.as_text(), a.to_string())
                };
                return Ok(Value::Text(format!("{x}{y}").into()));
            }
        }
    }
    // Text beside an integer is read as an integer, as both servers convert it (`1 + '1'`
    // is the int 2; `1 + '1.5'` fails to convert, 245 / 22P02).
    if let (Value::Int(_), Value::Text(a)) | (Value::Text(a), Value::Int(_)) = (l, r) {
        let n = a
            .trim()
            .parse::<i64>()
            .map_err(|_| SqlError::conversion_failed(a, &DataType::Int))?;
        return match (l, r) {
            (Value::Text(_), _) => binary(op, &Value::Int(n), r),
            _ => binary(op, l, &Value::Int(n)),
        };
    }
    if let (Value::DateTime(..), Value::DateTime(..), Sub) = (l, r, op) {
        // An interval (or datetime's days since 1900) has no value here.
        return Err(
            SqlError::not_simulated("one point in time minus another (an interval)").into(),
        );
    }
    if let (Value::DateTime(t, stamp), Value::Decimal(d)) = (l, r) {
        // datetime + a fraction of days (an INTERVAL literal is one), to the microsecond.
        let us = (d * 86_400_000_000.0).round();
        let moved = (us.abs() < 9.0e18)
            .then_some(us as i64)
            .and_then(|us| match op {
                Add => t.checked_add(us),
                Sub => t.checked_sub(us),
                _ => Some(*t),
            });
        return moved
            .filter(|&m| in_datetime_range(m))
            .map(|m| Value::DateTime(m, *stamp))
            .ok_or_else(|| SqlError::datetime_overflow().into());
    }
    if let (Value::DateTime(t, stamp), Value::Int(n)) = (l, r) {
        // datetime + int adds days, as in SQL Server.
        let days = n.checked_mul(86_400_000_000);
        let moved = match op {
            Add => days.and_then(|d| t.checked_add(d)),
            Sub => days.and_then(|d| t.checked_sub(d)),
            _ => Some(*t),
        };
        return moved
            .filter(|&m| in_datetime_range(m))
            .map(|m| Value::DateTime(m, *stamp))
            .ok_or_else(|| SqlError::datetime_overflow().into());
    }
    match (l, r) {
        (Value::Int(a), Value::Int(b)) => {
            let (a, b) = (*a, *b);
            Ok(Value::Int(match op {
                Add => a
                    .checked_add(b)
                    .ok_or_else(|| SqlError::arithmetic_overflow(&DataType::BigInt))?,
                Sub => a
                    .checked_sub(b)
                    .ok_or_else(|| SqlError::arithmetic_overflow(&DataType::BigInt))?,
                Mul => a
                    .checked_mul(b)
                    .ok_or_else(|| SqlError::arithmetic_overflow(&DataType::BigInt))?,
                Div => {
                    if b == 0 {
                        return Err(SqlError::divide_by_zero().into());
                    }
                    a.checked_div(b)
                        .ok_or_else(|| SqlError::arithmetic_overflow(&DataType::BigInt))?
                }
                Mod => {
                    if b == 0 {
                        return Err(SqlError::divide_by_zero().into());
                    }
                    a.checked_rem(b)
                        .ok_or_else(|| SqlError::arithmetic_overflow(&DataType::BigInt))?
                }
                BitAnd => a & b,
                BitOr => a | b,
                BitXor => a ^ b,
                _ => 0,
            }))
        }
        _ => {
            let num = |v: &Value| match v {
                Value::Int(n) => Ok(*n as f64),
                Value::Decimal(d) => Ok(*d),
                Value::Text(s) => s
                    .trim()
                    .parse::<f64>()
                    .map_err(|_| SqlError::conversion_failed(s, &DataType::Float)),
                other => Err(SqlError::explicit_conversion(
                    other.type_name(),
                    &DataType::Float,
                )),
            };
            let (a, b) = (num(l)?, num(r)?);
            Ok(Value::Decimal(match op {
                Add => a + b,
                Sub => a - b,
                Mul => a * b,
                Div => {
                    if b == 0.0 {
                        return Err(SqlError::divide_by_zero().into());
                    }
                    a / b
                }
                Mod => a % b,
                _ => 0.0,
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_parse_to_microseconds() {
        assert_eq!(parse_delay("00:00:00.020"), Some(20_000));
        assert_eq!(parse_delay("00:00:05"), Some(5_000_000));
        assert_eq!(parse_delay("00:00:04.5"), Some(4_500_000));
        assert_eq!(parse_delay("nonsense"), None);
        // Not a time of day: the server's Msg 148.
        for bad in [
            "00:00:99",
            "99:99:99",
            "24:00:00",
            "00:60:00",
            "00:00:99.5",
            "25:00",
        ] {
            assert_eq!(parse_delay(bad), None, "{bad}");
        }
        assert_eq!(parse_delay("23:59:59.997"), Some(86_399_997_000));
    }

    #[test]
    fn text_compares_case_insensitively_and_sorts_alphabetically() {
        use_collation(Collation::IgnoreCase);
        assert_eq!(collate("Wysoki", "wysoki "), Ordering::Equal);
        let mut labels = vec!["Niski", "Krytyczny", "Wysoki", "Normalny"];
        labels.sort_by(|a, b| collate(b, a));
        assert_eq!(labels, ["Wysoki", "Normalny", "Niski", "Krytyczny"]);
    }

    #[test]
    fn a_binary_collation_compares_bytes() {
        use_collation(Collation::Binary);
        assert_eq!(collate("Wysoki", "wysoki"), Ordering::Less);
        assert_eq!(collate("new", "new "), Ordering::Less);
        assert_eq!(collate("new", "new"), Ordering::Equal);
        use_collation(Collation::IgnoreCase);
        assert_eq!(collate("new", "NEW "), Ordering::Equal);
    }

    #[test]
    fn datetimes_print_as_format_would() {
        for us in [0, CLOCK_ZERO_US, CLOCK_ZERO_US + 1_500_123, -86_400_000_001] {
            for p in [0u8, 3, 6] {
                let days = us.div_euclid(86_400_000_000);
                let in_day = us.rem_euclid(86_400_000_000);
                let (y, m, d) = civil_from_days(days);
                let secs = in_day / 1_000_000;
                let (hh, mm, ss) = (secs / 3600, secs / 60 % 60, secs % 60);
                let digits = format!("{:06}", in_day % 1_000_000);
                let mut want = format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02}:{ss:02}");
                if p > 0 {
                    want = format!("{want}.{}", &digits[..p as usize]);
                }
                assert_eq!(format_datetime(us, p), want);
            }
        }
        assert_eq!(&*int_text(-120), "-120");
        assert_eq!(&*int_text(i64::MIN), i64::MIN.to_string());
        assert_eq!(parse_delay("00:01:02.5"), Some(62_500_000));
        // The byte path and the general one agree where they meet.
        assert_eq!(parse_delay("01:02:03.456789"), Some(3_723_456_789));
        assert_eq!(parse_delay("01:02:03.4567891"), Some(3_723_456_789));
        assert_eq!(parse_delay(" 01:02:03.456789"), Some(3_723_456_789));
        assert_eq!(parse_delay("01:02:03.4x"), None);
        assert_eq!(parse_delay("1:2:3:4"), None);
        // hh:mm, as both servers read a time of two parts.
        assert_eq!(parse_delay("00:05"), Some(300_000_000));
        assert_eq!(parse_delay("9:05"), Some(32_700_000_000));
        assert_eq!(
            parse_datetime("2026-01-05 09:00"),
            parse_datetime("2026-01-05 09:00:00")
        );
        assert_eq!(parse_delay("00:00:00.x"), None);
    }

    #[test]
    fn datetimes_round_trip_through_text() {
        let t = CLOCK_ZERO_US + 1_500_000;
        let text = format_datetime(t, 6);
        assert_eq!(text, "2026-01-05 09:00:01.500000");
        assert_eq!(parse_datetime(&text), Some(t));
    }

    #[test]
    fn storing_too_long_text_fails_like_sql_server() {
        let err = convert(
            &Value::Text("in_progress".into()),
            &DataType::VarChar(Len::N(10)),
            Some(("task", "status")),
        )
        .unwrap_err();
        assert_eq!(err.number, 2628);
        assert!(err.message.contains("column 'status'"), "{}", err.message);
    }
}
