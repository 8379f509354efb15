//! Lockstep's SQL front end: a `logos` lexer and a hand-written recursive-descent parser
//! for the T-SQL subset and the Teradata subset the simulator runs, with byte spans on
//! every node and precise errors (`found '3', expected one of: an operator, ',', ')'`,
//! `not simulated: WHEN NOT MATCHED BY SOURCE`).
//!
//! No I/O and no threads, so it builds for wasm32.
//!
//! # Teradata
//!
//! [`Dialect::Teradata`] reads what a lesson would type into BTEQ in either session mode:
//! `CREATE [SET|MULTISET] TABLE q, QUEUE [, FALLBACK] [, NO BEFORE JOURNAL] ... (...)
//! [UNIQUE] PRIMARY INDEX (...)`, `SELECT AND CONSUME TOP 1 ...`, `INSERT ... SELECT AND
//! CONSUME TOP 1 ...`, `BT`/`ET`, `BEGIN`/`END TRANSACTION`, `COMMIT [WORK]`,
//! `ROLLBACK [WORK]`, `ABORT`, the `LOCKING` modifier, `INSERT` (one row, `VALUES` optional),
//! `UPDATE` (`FROM` before `SET`), `DELETE` (`ALL`), `MERGE`, `SELECT` with `TOP n`,
//! `SEL`/`INS`/`UPD`/`DEL`/`CT`, `a MOD b`, `DATE '...'`, `INTERVAL '0.001' SECOND`,
//! `CURRENT_TIMESTAMP(6)`, `USER`; `--` and `/* */` comments; identifiers case-insensitive,
//! `"quoted"`, Teradata's reserved words. Statements are separated by `;` and grouped into
//! requests by line (see [`parse_script`]).
//!
//! # PostgreSQL
//!
//! [`Dialect::Postgres`] reads what a worker sends through psql: each statement is a
//! batch of its own, `BEGIN`/`START TRANSACTION`/`COMMIT`/`ROLLBACK`, `SET [LOCAL]
//! lock_timeout`, isolation levels, `LIMIT`, `FOR UPDATE | NO KEY UPDATE | SHARE | KEY
//! SHARE [OF t] [NOWAIT | SKIP LOCKED]`, `RETURNING`, `serial` and PostgreSQL's types,
//! `::` casts, `pg_sleep`, and PL/pgSQL in `DO $$ ... $$` and `CREATE FUNCTION |
//! PROCEDURE ... LANGUAGE plpgsql`, mapped onto the same AST (see `parser/postgres.rs`
//! and `parser/plpgsql.rs`).
//!
//! # Errors
//!
//! A [`ParseError`] has a byte span and one of these messages; [`ParseError::render`]
//! prefixes `line:col: ` (1-based, columns in chars):
//! - `found 'X', expected one of: ',', ')'` (or `expected ')'` for a single option): the
//!   exact set of what the grammar accepts at that token. Binary operators are summarised as
//!   `an operator`; prefix operators fall under `an expression`. When a `)` is wanted and
//!   a `(` is never closed, the message ends `(the '(' on the line above, at column 29, is
//!   not closed)` (lines counted from the error's, so they hold wherever the script sits).
//! - `unexpected end of input, expected ...`
//! - `unterminated string literal`, `unterminated comment`, `unterminated quoted identifier`,
//!   `unexpected character 'X'`
//! - `not simulated: cursors` (`SAVE TRANSACTION @name`, `SELECT INTO @v`, `WAITFOR TIME`, ...), spanned on the
//!   construct: valid T-SQL that the simulator does not model
//! - `not simulated: SELECT AND CONSUME (Teradata syntax; this lesson's dialect is T-SQL)`,
//!   and the other way round `table hints: T-SQL syntax; this lesson's dialect is Teradata`
//!   (also `TOP (n)`, `BEGIN TRY`, `variables (@x)`, `GO`, `DECLARE`, `OUTPUT`, ...)
//! - Teradata's rules, named: `SELECT AND CONSUME allows only TOP 1`, `SELECT AND CONSUME
//!   cannot have a WHERE clause` (`... a GROUP BY clause`, `... an ORDER BY clause`),
//!   `SELECT AND CONSUME cannot join tables`, `a Teradata INSERT ... VALUES inserts one row:
//!   write one INSERT per row`, `a queue table's first column must be its QITS column: ...`
//! - `expression nested too deeply` (`statement ...`, `query ...`): nesting is bounded so
//!   that no input can overflow the stack; `expression too long: its operators and
//!   parentheses nest more than 100 levels` (`query too long` for UNION and the other set
//!   operators): each operator of a chain such as `1 + 1 + ... + 1` nests the tree it
//!   builds one level deeper, so it counts as a level too
//! - a few compile-time rules of SQL Server, in plain words (see [`ast`]).

pub mod ast;
mod error;
mod keywords;
mod lexer;
mod parser;
mod print;

pub use ast::statement_label;
pub use error::{line_col, ParseError};
pub use print::binary_symbol;

/// The function a PL/pgSQL `RAISE` message's `%` argument becomes: the value as the
/// server's output prints it, NULL as `<NULL>`. No script can name it (it starts with
/// `%`), so the executor's own meaning cannot clash with a user's function.
pub const RAISE_ARG: &str = "%RAISE_ARG";

/// The variable a PostgreSQL `DO` block sets to 1 when it began the transaction it
/// runs in (0: it runs inside the session's transaction block, which its COMMIT and
/// ROLLBACK may not end). No script can name it.
pub const DO_TXN: &str = "@%do_txn";

/// The function T-SQL's `TRY_CAST(x AS ty)` and `TRY_CONVERT(ty, x)` become: its one
/// argument is the cast, whose value is NULL where the conversion fails. No script can
/// name it.
pub const TRY: &str = "%TRY";

/// The function a PostgreSQL cast to `interval` becomes where a timestamp adds or
/// subtracts it (`run_at + (n || ' seconds')::interval`): its text read as an interval
/// when evaluated, in days (see [`interval_seconds`]). No script can name it.
pub const INTERVAL_OF: &str = "%INTERVAL_OF";

/// An interval's text as seconds (`'5 minutes'`, `'1 day 02:00:00'`, `'30 s ago'`):
/// `Err(None)` when it is no interval, `Err(Some(unit))` for a calendar unit (months,
/// years) the simulator does not model.
pub fn interval_seconds(text: &str) -> Result<f64, Option<&'static str>> {
    parser::interval_seconds(text)
}

use lexer::{lex, lex_in, Tok, Token};
use parser::Parser;

/// The SQL dialect a lesson is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    #[default]
    TSql,
    Teradata,
    /// PostgreSQL 15: statements as psql sends them, each on its own (see [`parse_script`]).
    Postgres,
}

/// Parses a script. Spans are byte offsets into `src`.
///
/// In T-SQL, batches are separated by `GO` lines.
///
/// In PostgreSQL, every statement is a batch of its own, as psql sends them: outside
/// `BEGIN ... COMMIT` each one commits on its own. A `DO $$ ... $$` block is one statement.
///
/// In Teradata, each batch is one request as BTEQ would send it: statements end with `;`,
/// and a `;` that is the last token of its line (a trailing comment allowed) ends the
/// request. So `SELECT AND CONSUME TOP 1 * FROM q; UPDATE q SET c = 1;` on one line is one
/// multi-statement request of two statements, while the same statements on two lines are
/// two requests. A statement may span several lines (`SELECT AND CONSUME TOP 1 *` then
/// `FROM myqueue;`). The end of the script ends the last request, with or without `;`. In
/// Teradata session mode a request outside BT/ET is one implicit transaction, which is
/// what Teradata's one-consume rule (T4) and its multi-statement rule (T10,
/// [`ast::Batch::consume_conflict`]) are about.
///
/// Never panics; the first error in text order is returned.
pub fn parse_script(src: &str, dialect: Dialect) -> Result<ast::Script, ParseError> {
    if dialect == Dialect::Teradata {
        let (tokens, lex_error) = lex_in(src, dialect);
        let batches = Parser::new(src, &tokens, dialect, lex_error).requests()?;
        return Ok(ast::Script { batches });
    }
    if dialect == Dialect::Postgres {
        // psql sends each `;`-terminated statement on its own: one batch per statement.
        let (tokens, lex_error) = lex_in(src, dialect);
        let batch = Parser::new(src, &tokens, dialect, lex_error).batch()?;
        let batches = batch
            .statements
            .into_iter()
            .filter(|s| !matches!(s.kind, ast::StmtKind::Empty))
            .map(|s| ast::Batch {
                span: s.span.clone(),
                statements: vec![s],
            })
            .collect();
        return Ok(ast::Script { batches });
    }
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
            let parsed = Parser::new(src, toks, dialect, batch_lex_error).batch();
            batches.push(parsed.map_err(|e| cut_by_go(src, e, tokens.get(end)))?);
        }
        start = end + 1;
    }
    Ok(ast::Script { batches })
}

/// An error at the end of a batch that a `GO` line ended, not the script: placed at the
/// `GO` and said so (`GO` inside a procedure's body cut it in two).
fn cut_by_go(src: &str, e: ParseError, go: Option<&lexer::Token>) -> ParseError {
    let Some(go) = go else { return e };
    let Some(rest) = e.message.strip_prefix("unexpected end of input") else {
        return e;
    };
    let (line, _) = error::line_col(src, go.start);
    ParseError::new(
        go.start..go.end,
        format!(
            "unexpected end of the batch{rest} (the GO on line {line} ends it: GO splits a \
             script into batches, so a procedure's body or a BEGIN ... END cannot hold one)"
        ),
    )
}

/// Parses one statement in which the words `vars` (lower-case) are variables, read as
/// `@name`, as in a PL/pgSQL body: the queries an engine runs on a statement's behalf
/// (a foreign key's check) take their values this way. The text is the engine's own.
pub fn parse_statement_with_vars(
    src: &str,
    dialect: Dialect,
    vars: &[String],
) -> Result<ast::Stmt, ParseError> {
    let (tokens, lex_error) = lex_in(src, dialect);
    let mut parser = Parser::new(src, &tokens, dialect, lex_error);
    parser.pg_vars = vars.to_vec();
    let batch = parser.batch()?;
    (batch.statements.into_iter())
        .find(|s| !matches!(s.kind, ast::StmtKind::Empty))
        .ok_or_else(|| ParseError::new(0..src.len(), "no statement"))
}

/// Parses one expression (a lesson check, a toggle value); the whole text must be used.
pub fn parse_expr(src: &str, dialect: Dialect) -> Result<ast::Expr, ParseError> {
    let (tokens, lex_error) = lex_in(src, dialect);
    Parser::new(src, &tokens, dialect, lex_error).whole_expr()
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
