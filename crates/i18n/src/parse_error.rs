//! A SQL parse error in the language in effect. The parser words its errors in English
//! (`found 'WHERE', expected one of: ',', ')' (the '(' at column 28 is not closed)`),
//! as the CLI and the tests read them; this rewords the frame of the ones a learner
//! meets in the exercise editor. SQL's own words (`WHERE`, `','`), the server's error
//! texts and any part it does not know stay as written.

use crate::{lang, text, Arg, Lang};

/// `message` (a [`sql::ParseError`]'s text, without its `line:col`) in the language in
/// effect; English, and a message of another shape, come back unchanged.
pub fn parse_error(message: &str) -> String {
    if lang() == Lang::En {
        return message.to_string();
    }
    if let Some(what) = message.strip_prefix("not simulated: ") {
        return text("sqlerr-not-simulated", &[("what", Arg::from(what))]);
    }
    reworded(message).unwrap_or_else(|| message.to_string())
}

fn reworded(message: &str) -> Option<String> {
    // What was found: a token, or the end of the text.
    let (found, rest) = if let Some(rest) = message.strip_prefix("unexpected end of input") {
        (text("sqlerr-end", &[]), rest)
    } else {
        let rest = message.strip_prefix("found '")?;
        // The token is cut to one line and 40 characters: its quote is the last one
        // before `, expected` or a parenthesis of the parser's own.
        let end = rest.find("', expected ").or_else(|| rest.find("' ("))?;
        let found = text("sqlerr-found", &[("token", Arg::from(&rest[..end]))]);
        (found, &rest[end + 1..])
    };
    let Some(rest) = rest.strip_prefix(", expected ") else {
        // `found 'X'` with something after it but no list: leave it whole.
        return rest.is_empty().then_some(found);
    };
    let (items, tail) = items(rest.strip_prefix("one of: ").unwrap_or(rest))?;
    let expected = match items.as_slice() {
        [one] => text("sqlerr-expected-one", &[("item", Arg::from(one))]),
        many => text(
            "sqlerr-expected-many",
            &[("items", Arg::from(many.join(", ")))],
        ),
    };
    let mut out = text(
        "sqlerr-join",
        &[
            ("found", Arg::from(found)),
            ("expected", Arg::from(expected)),
        ],
    );
    out.push_str(&place_note(tail));
    Some(out)
}

/// The expected items at the start of `list`, each in the language in effect, and what
/// follows them; `None` when an item is of no known shape.
fn items(list: &str) -> Option<(Vec<String>, &str)> {
    let mut out = Vec::new();
    let mut rest = list;
    loop {
        let (item, after) = item(rest)?;
        out.push(item);
        match after.strip_prefix(", ") {
            Some(next) => rest = next,
            None => return Some((out, after)),
        }
    }
}

/// Phrases the parser lists for what is not one token, and their keys.
const PHRASES: &[(&str, &str)] = &[
    (
        "a dollar-quoted body ($$ ... $$)",
        "sqlerr-item-dollar-body",
    ),
    ("a transaction name", "sqlerr-item-transaction-name"),
    ("an expression", "sqlerr-item-expression"),
    ("an identifier", "sqlerr-item-identifier"),
    ("an operator", "sqlerr-item-operator"),
    ("a statement", "sqlerr-item-statement"),
    ("a table hint", "sqlerr-item-table-hint"),
    ("a SET option", "sqlerr-item-set-option"),
    ("a data type", "sqlerr-item-data-type"),
    ("a variable", "sqlerr-item-variable"),
    ("a constant", "sqlerr-item-constant"),
    ("a duration", "sqlerr-item-duration"),
    ("an alias", "sqlerr-item-alias"),
    ("a setting", "sqlerr-item-setting"),
    ("a number", "sqlerr-item-number"),
    ("a string", "sqlerr-item-string"),
];

/// One item: a quoted token (`','`, `')'`), a keyword (`WITH`, `NO ACTION`) or a phrase.
fn item(s: &str) -> Option<(String, &str)> {
    if let Some(quoted) = s.strip_prefix('\'') {
        // The token is at least one character, so `','` closes at its third.
        let first = quoted.chars().next()?;
        let close = first.len_utf8() + quoted[first.len_utf8()..].find('\'')?;
        let end = 1 + close + 1;
        return Some((s[..end].to_string(), &s[end..]));
    }
    if let Some((phrase, key)) = PHRASES.iter().find(|(p, _)| s.starts_with(p)) {
        return Some((text(key, &[]), &s[phrase.len()..]));
    }
    let keyword = |c: char| c.is_ascii_uppercase() || c == '_' || c == ' ';
    let len = s.find(|c: char| !keyword(c)).unwrap_or(s.len());
    let word = s[..len].trim_end();
    (!word.is_empty() && word.starts_with(|c: char| c.is_ascii_uppercase()))
        .then(|| (word.to_string(), &s[word.len()..]))
}

/// The parser's note on a PostgreSQL statement whose `;` is missing before a new line.
const SEMICOLON_NOTE: &str = "a statement ends at its ';': without one, PostgreSQL reads this \
                              line as more of the statement above";

/// The parser's note on where a '(' or a string opened (` (the '(' at column 28 is
/// not closed)`), reworded; any other tail is kept as written.
fn place_note(tail: &str) -> String {
    let reword = |inner: &str| -> Option<String> {
        if inner == SEMICOLON_NOTE {
            return Some(text("sqlerr-semicolon", &[]));
        }
        if let Some(place) = inner
            .strip_prefix("the '(' ")
            .and_then(|p| p.strip_suffix(" is not closed"))
        {
            return Some(text(
                "sqlerr-paren",
                &[("place", Arg::from(place_text(place)?))],
            ));
        }
        let place = inner
            .strip_prefix("the string opened ")?
            .strip_suffix(" runs to here: is its closing quote missing?")?;
        Some(text(
            "sqlerr-string",
            &[("place", Arg::from(place_text(place)?))],
        ))
    };
    match tail
        .strip_prefix(" (")
        .and_then(|t| t.strip_suffix(')'))
        .and_then(reword)
    {
        Some(note) => format!(" ({note})"),
        None => tail.to_string(),
    }
}

/// `at column 28`, `on the line above, at column 28,`, `3 lines up, at column 28,`.
fn place_text(place: &str) -> Option<String> {
    if let Some(col) = place.strip_prefix("at column ") {
        return Some(text("sqlerr-place-here", &[("col", Arg::from(col))]));
    }
    if let Some(col) = place
        .strip_prefix("on the line above, at column ")
        .and_then(|c| c.strip_suffix(','))
    {
        return Some(text("sqlerr-place-above", &[("col", Arg::from(col))]));
    }
    let (lines, col) = place.split_once(" lines up, at column ")?;
    let col = col.strip_suffix(',')?;
    // A number, for the language's plural of "lines".
    let lines: u32 = lines.parse().ok()?;
    Some(text(
        "sqlerr-place-up",
        &[("lines", Arg::from(lines)), ("col", Arg::from(col))],
    ))
}
