//! Lockstep's SQL front end: a `logos` lexer and a hand-written recursive-descent parser
//! for the T-SQL subset the simulator runs, with byte spans on every node and precise
//! errors (`found 'READPAST', expected one of: ',', ')'`, `not simulated: MERGE`).
//!
//! No I/O and no threads, so it builds for wasm32.
//!
//! # Errors
//!
//! A [`ParseError`] has a byte span and one of these messages; [`ParseError::render`]
//! prefixes `line:col: ` (1-based, columns in chars):
//! - `found 'X', expected one of: ',', ')'` (or `expected ')'` for a single option): the
//!   exact set of what the grammar accepts at that token. Binary operators are summarised as
//!   `an operator`; prefix operators fall under `an expression`.
//! - `unexpected end of input, expected ...`
//! - `unterminated string literal`, `unterminated comment`, `unterminated quoted identifier`,
//!   `unexpected character 'X'`
//! - `not simulated: MERGE` (`cursors`, `SELECT INTO`, `WAITFOR TIME`, ...), spanned on the
//!   construct: valid T-SQL that the simulator does not model
//! - `not simulated: SELECT AND CONSUME (Teradata syntax; this lesson's dialect is T-SQL)`
//! - `expression nested too deeply` (`statement ...`, `query ...`): nesting is bounded so
//!   that no input can overflow the stack
//! - a few compile-time rules of SQL Server, in plain words (see [`ast`]).

pub mod ast;
mod error;
mod keywords;
mod lexer;
mod parser;
mod print;

pub use ast::statement_label;
pub use error::{line_col, ParseError};

use lexer::{lex, Tok, Token};
use parser::Parser;

/// The SQL dialect a lesson is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    #[default]
    TSql,
    Teradata,
}

/// Parses a script: batches separated by `GO` lines. Spans are byte offsets into `src`.
///
/// Never panics; the first error in text order is returned.
pub fn parse_script(src: &str, dialect: Dialect) -> Result<ast::Script, ParseError> {
    dialect_supported(dialect)?;
    let (tokens, mut lex_error) = lex(src);
    let mut batches = Vec::new();
    let mut start = 0;
    for end in 0..=tokens.len() {
        let at_end = end == tokens.len();
        if !at_end && !is_go_line(src, &tokens[end]) {
            continue;
        }
        let toks = &tokens[start..end];
        // A lexical error stops the token stream, so it belongs to the last batch.
        let batch_lex_error = if at_end { lex_error.take() } else { None };
        if toks.is_empty() {
            if let Some(e) = batch_lex_error {
                return Err(e);
            }
        } else {
            batches.push(Parser::new(src, toks, dialect, batch_lex_error).batch()?);
        }
        start = end + 1;
    }
    Ok(ast::Script { batches })
}

/// Parses one expression (a lesson check, a toggle value); the whole text must be used.
pub fn parse_expr(src: &str, dialect: Dialect) -> Result<ast::Expr, ParseError> {
    dialect_supported(dialect)?;
    let (tokens, lex_error) = lex(src);
    Parser::new(src, &tokens, dialect, lex_error).whole_expr()
}

fn dialect_supported(dialect: Dialect) -> Result<(), ParseError> {
    match dialect {
        Dialect::TSql => Ok(()),
        Dialect::Teradata => Err(ParseError::new(0..0, "not simulated: Teradata dialect")),
    }
}

/// `GO` is a client-side batch separator, recognised only alone on its line (a trailing
/// `--` comment allowed), as sqlcmd and SSMS do.
fn is_go_line(src: &str, tok: &Token) -> bool {
    if tok.kind != Tok::Word || !src[tok.start..tok.end].eq_ignore_ascii_case("GO") {
        return false;
    }
    let line_start = src[..tok.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = src[tok.end..].find('\n').map_or(src.len(), |i| tok.end + i);
    let before = &src[line_start..tok.start];
    let after = src[tok.end..line_end].trim();
    before.trim().is_empty() && (after.is_empty() || after.starts_with("--"))
}
