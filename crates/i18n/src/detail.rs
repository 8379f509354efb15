//! A check's verdict in the language in effect: the sentence for each [`Detail`], from
//! the `check` catalogue. Figures keep the name a lesson file gives them (`wait_ms`):
//! they are that file's words, as SQL is.

use lesson::{Bound, Detail, Whose};

use crate::{text, Arg};

/// `detail` as the language in effect words it.
pub fn detail(detail: &Detail) -> String {
    match detail {
        Detail::QueryFailed { line, col, message } => text(
            "detail-query-failed",
            &[
                ("line", Arg::from(*line)),
                ("col", Arg::from(*col)),
                ("message", Arg::from(message)),
            ],
        ),
        Detail::NoSession { session } => {
            text("detail-no-session", &[("session", Arg::from(session))])
        }
        Detail::NoResult {
            session,
            sets,
            result,
        } => text(
            "detail-no-result",
            &[
                ("session", Arg::from(session)),
                ("sets", Arg::from(*sets)),
                ("result", Arg::from(*result)),
            ],
        ),
        Detail::Figure {
            whose,
            figure,
            value,
            bound,
        } => {
            // An error's number is a code, written without digit groups (`3811`, not
            // `3,811`), as the server and the goal's own words write it.
            let code = *figure == lesson::Figure::ErrorNumber;
            let figure = figure.name();
            let got = number_arg(*value, code);
            let expected = expected_of(bound, code);
            match whose {
                Whose::Run => text(
                    "detail-figure-run",
                    &[
                        ("figure", Arg::from(figure)),
                        ("value", got),
                        ("expected", expected),
                    ],
                ),
                Whose::Session(session) => text(
                    "detail-figure-session",
                    &[
                        ("session", Arg::from(session)),
                        ("figure", Arg::from(figure)),
                        ("value", got),
                        ("expected", expected),
                    ],
                ),
                Whose::All => text(
                    "detail-figure-all",
                    &[
                        ("figure", Arg::from(figure)),
                        ("value", got),
                        ("expected", expected),
                    ],
                ),
            }
        }
        Detail::Rows { got } => text(
            "detail-rows",
            &[("got", Arg::from(lesson::plain_rows(got)))],
        ),
        Detail::RowsDiffer { expected, got } => text(
            "detail-rows-differ",
            &[
                ("expected", Arg::from(lesson::plain_rows(expected))),
                ("got", Arg::from(lesson::plain_rows(got))),
            ],
        ),
        Detail::RowCount {
            expected,
            got,
            rows,
        } => {
            let args = [("expected", Arg::from(*expected)), ("got", Arg::from(*got))];
            match rows {
                None => text("detail-row-count", &args),
                Some(rows) => {
                    let [a, b] = args;
                    text(
                        "detail-row-count-listed",
                        &[a, b, ("rows", Arg::from(lesson::plain_rows(rows)))],
                    )
                }
            }
        }
        Detail::Scalar { value, bound } => text(
            "detail-scalar",
            &[
                ("value", Arg::from(*value)),
                ("expected", expected_of(bound, false)),
            ],
        ),
        Detail::NotANumber { got } => text("detail-not-a-number", &[("got", Arg::from(got))]),
        Detail::NotOneNumber { got } => text("detail-not-one-number", &[("got", Arg::from(got))]),
        Detail::NoSeedRun => text("detail-no-seed-run", &[]),
        Detail::SessionError {
            session,
            number,
            sqlstate,
            message,
        } => text(
            "detail-session-error",
            &[
                ("session", Arg::from(session)),
                (
                    "number",
                    // The SQLSTATE where the dialect has one; an error without a number
                    // (see `engine::error_code`).
                    Arg::from(match sqlstate {
                        Some(code) => code.clone(),
                        None if *number == 0 => text("error-unnumbered", &[]),
                        None => number.to_string(),
                    }),
                ),
                ("message", Arg::from(message)),
            ],
        ),
    }
}

/// A figure's value: a number in the language's way, or a code as its digits.
fn number_arg(value: f64, code: bool) -> Arg {
    if code && value.fract() == 0.0 {
        Arg::Text(format!("{value:.0}"))
    } else {
        Arg::from(value)
    }
}

/// What a bound expects: `expected at least 1,000` (`3811` for a code).
fn expected_of(bound: &Bound, code: bool) -> Arg {
    let n = |v: f64| number_arg(v, code);
    Arg::Text(match (bound.equals, bound.min, bound.max) {
        (Some(e), _, _) => text("expected-equal", &[("value", n(e))]),
        (None, Some(lo), Some(hi)) => text("expected-between", &[("min", n(lo)), ("max", n(hi))]),
        (None, Some(lo), None) => text("expected-at-least", &[("min", n(lo))]),
        (None, None, Some(hi)) => text("expected-at-most", &[("max", n(hi))]),
        (None, None, None) => text("expected-anything", &[]),
    })
}
