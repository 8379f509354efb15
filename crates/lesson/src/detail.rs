//! What a check found, expected against actual, as data: `Display` writes it in English
//! (the CLI's text and JSON, `lockstep check`), and the interface words it in the
//! reader's language from the same fields (`i18n::detail`). Rows are written as SQL
//! literals in every language.

use std::fmt;

use crate::check::{Bound, Figure};
use crate::codec::{Codec, DecodeError, Reader, Writer};

/// Whose figure a check read.
#[derive(Clone, Debug, PartialEq)]
pub enum Whose {
    /// The whole run (`end_ms`).
    Run,
    /// One session's.
    Session(String),
    /// Summed over all sessions.
    All,
}

/// A check's verdict in words' stead: one variant per sentence.
#[derive(Clone, Debug, PartialEq)]
pub enum Detail {
    /// The check's SQL failed at `line:col` of its text.
    QueryFailed {
        line: u32,
        col: u32,
        message: String,
    },
    /// The session the check reads did not run with these settings.
    NoSession { session: String },
    /// The session returned `sets` result sets; the check reads number `result`.
    NoResult {
        session: String,
        sets: usize,
        result: usize,
    },
    /// A figure of the outcome and the bound it was held to.
    Figure {
        whose: Whose,
        figure: Figure,
        value: f64,
        bound: Bound,
    },
    /// Rows as expected (`got`: the rows as SQL literals).
    Rows { got: String },
    /// Rows other than expected.
    RowsDiffer { expected: String, got: String },
    /// A row count; `rows` lists them when there were some and the count is wrong.
    RowCount {
        expected: u64,
        got: usize,
        rows: Option<String>,
    },
    /// A single number and its bound.
    Scalar { value: f64, bound: Bound },
    /// A single value that is no number.
    NotANumber { got: String },
    /// Rows that are not one row of one value.
    NotOneNumber { got: String },
    /// An exercise's goal before any seed ran.
    NoSeedRun,
    /// A session's error that breaks a built-in property.
    SessionError {
        session: String,
        number: u32,
        /// The SQLSTATE, where the dialect numbers errors so (shown in the number's place).
        sqlstate: Option<String>,
        message: String,
    },
}

/// Rows as a reader says them: one value plainly (`197`), a row in parentheses
/// (`(3, "BUSY", NULL)`), several rows as their rows (`(1, "A"), (2, NULL)`), so an
/// expectation and what came back read alike. Anything else is kept as written.
pub fn plain_rows(rows: &str) -> String {
    let Some(inner) = rows.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else {
        return rows.to_string();
    };
    // The rows' own texts, split at the brackets outside quoted values.
    let mut list: Vec<&str> = Vec::new();
    let (mut quoted, mut open) = (false, None);
    for (at, c) in inner.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '[' if !quoted && open.is_none() => open = Some(at + 1),
            '[' if !quoted => return rows.to_string(),
            ']' if !quoted => match open.take() {
                Some(from) => list.push(&inner[from..at]),
                None => return rows.to_string(),
            },
            ',' | ' ' if !quoted && open.is_none() => {}
            _ if open.is_none() => return rows.to_string(),
            _ => {}
        }
    }
    if quoted || open.is_some() || list.is_empty() || list.iter().any(|r| r.trim().is_empty()) {
        return rows.to_string();
    }
    match list.as_slice() {
        [one] if !has_comma(one) => one.to_string(),
        _ => (list.iter())
            .map(|r| format!("({r})"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Whether a row's text has a comma outside its quoted values (more than one value).
fn has_comma(row: &str) -> bool {
    let mut quoted = false;
    row.chars().any(|c| {
        if c == '"' {
            quoted = !quoted;
        }
        c == ',' && !quoted
    })
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Detail::QueryFailed { line, col, message } => {
                write!(f, "query failed at {line}:{col}: {message}")
            }
            Detail::NoSession { session } => {
                write!(f, "session {session} did not run with these settings")
            }
            Detail::NoResult {
                session,
                sets,
                result,
            } => {
                let noun = if *sets == 1 {
                    "result set"
                } else {
                    "result sets"
                };
                write!(
                    f,
                    "session {session} returned {sets} {noun}; the check reads result {result}"
                )
            }
            Detail::Figure {
                whose,
                figure,
                value,
                bound,
            } => {
                match whose {
                    Whose::Run => {}
                    Whose::Session(name) => write!(f, "{name} ")?,
                    Whose::All => f.write_str("all sessions ")?,
                }
                write!(f, "{} = {value} ({})", figure.name(), bound.describe())
            }
            Detail::Rows { got } => write!(f, "got {}", plain_rows(got)),
            Detail::RowsDiffer { expected, got } => {
                write!(
                    f,
                    "expected {}, got {}",
                    plain_rows(expected),
                    plain_rows(got)
                )
            }
            Detail::RowCount {
                expected,
                got,
                rows,
            } => {
                let noun = if *expected == 1 { "row" } else { "rows" };
                write!(f, "expected {expected} {noun}, got {got}")?;
                match rows {
                    Some(rows) => write!(f, ": {}", plain_rows(rows)),
                    None => Ok(()),
                }
            }
            Detail::Scalar { value, bound } => write!(f, "got {value} ({})", bound.describe()),
            Detail::NotANumber { got } => write!(f, "expected a number, got {got}"),
            Detail::NotOneNumber { got } => {
                write!(f, "expected one row with one number, got {got}")
            }
            Detail::NoSeedRun => f.write_str("no seed was run"),
            Detail::SessionError {
                session,
                number,
                sqlstate,
                message,
            } => write!(
                f,
                "{session} gets error {}: {message}",
                engine::error_code(*number, sqlstate.as_deref())
            ),
        }
    }
}

// Check runs in the browser's worker, and its report, details included, crosses to
// the page.
impl Codec for Whose {
    fn put(&self, w: &mut Writer) {
        match self {
            Whose::Run => w.tag(0),
            Whose::Session(name) => {
                w.tag(1);
                name.put(w);
            }
            Whose::All => w.tag(2),
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            0 => Ok(Whose::Run),
            1 => Ok(Whose::Session(Codec::get(r)?)),
            2 => Ok(Whose::All),
            _ => r.bad_tag(),
        }
    }
}

impl Codec for Detail {
    fn put(&self, w: &mut Writer) {
        match self {
            Detail::QueryFailed { line, col, message } => {
                w.tag(0);
                line.put(w);
                col.put(w);
                message.put(w);
            }
            Detail::NoSession { session } => {
                w.tag(1);
                session.put(w);
            }
            Detail::NoResult {
                session,
                sets,
                result,
            } => {
                w.tag(2);
                session.put(w);
                sets.put(w);
                result.put(w);
            }
            Detail::Figure {
                whose,
                figure,
                value,
                bound,
            } => {
                w.tag(3);
                whose.put(w);
                figure.put(w);
                value.put(w);
                bound.put(w);
            }
            Detail::Rows { got } => {
                w.tag(4);
                got.put(w);
            }
            Detail::RowsDiffer { expected, got } => {
                w.tag(5);
                expected.put(w);
                got.put(w);
            }
            Detail::RowCount {
                expected,
                got,
                rows,
            } => {
                w.tag(6);
                expected.put(w);
                got.put(w);
                rows.put(w);
            }
            Detail::Scalar { value, bound } => {
                w.tag(7);
                value.put(w);
                bound.put(w);
            }
            Detail::NotANumber { got } => {
                w.tag(8);
                got.put(w);
            }
            Detail::NotOneNumber { got } => {
                w.tag(9);
                got.put(w);
            }
            Detail::NoSeedRun => w.tag(10),
            Detail::SessionError {
                session,
                number,
                sqlstate,
                message,
            } => {
                w.tag(11);
                session.put(w);
                number.put(w);
                sqlstate.put(w);
                message.put(w);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(match r.tag()? {
            0 => Detail::QueryFailed {
                line: Codec::get(r)?,
                col: Codec::get(r)?,
                message: Codec::get(r)?,
            },
            1 => Detail::NoSession {
                session: Codec::get(r)?,
            },
            2 => Detail::NoResult {
                session: Codec::get(r)?,
                sets: Codec::get(r)?,
                result: Codec::get(r)?,
            },
            3 => Detail::Figure {
                whose: Codec::get(r)?,
                figure: Codec::get(r)?,
                value: Codec::get(r)?,
                bound: Codec::get(r)?,
            },
            4 => Detail::Rows {
                got: Codec::get(r)?,
            },
            5 => Detail::RowsDiffer {
                expected: Codec::get(r)?,
                got: Codec::get(r)?,
            },
            6 => Detail::RowCount {
                expected: Codec::get(r)?,
                got: Codec::get(r)?,
                rows: Codec::get(r)?,
            },
            7 => Detail::Scalar {
                value: Codec::get(r)?,
                bound: Codec::get(r)?,
            },
            8 => Detail::NotANumber {
                got: Codec::get(r)?,
            },
            9 => Detail::NotOneNumber {
                got: Codec::get(r)?,
            },
            10 => Detail::NoSeedRun,
            11 => Detail::SessionError {
                session: Codec::get(r)?,
                number: Codec::get(r)?,
                sqlstate: Codec::get(r)?,
                message: Codec::get(r)?,
            },
            _ => return r.bad_tag(),
        })
    }
}

#[cfg(test)]
mod plain_rows_tests {
    use super::plain_rows;

    #[test]
    fn rows_read_alike_however_many() {
        assert_eq!(plain_rows("[[197]]"), "197");
        assert_eq!(plain_rows(r#"[[3, "BUSY", NULL]]"#), r#"(3, "BUSY", NULL)"#);
        assert_eq!(
            plain_rows(r#"[["A", 1], ["B", 1]]"#),
            r#"("A", 1), ("B", 1)"#
        );
        assert_eq!(plain_rows("[[1], [2]]"), "(1), (2)");
        // Brackets and commas inside a quoted value are the value's own.
        assert_eq!(plain_rows(r#"[["a, [b]"]]"#), r#""a, [b]""#);
        for kept in ["[]", "[[]]", "12", "[[1]", "[1, 2]", r#"[["x]]"#] {
            assert_eq!(plain_rows(kept), kept);
        }
    }
}
