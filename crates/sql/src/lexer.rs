//! Tokens of T-SQL and Teradata SQL. Keywords are not tokens of their own: they are `Word`s
//! that the parser compares case-insensitively, because most keywords are also valid
//! identifiers.

use logos::{FilterResult, Logos};

use crate::error::ParseError;
use crate::Dialect;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum LexError {
    #[default]
    Unexpected,
    UnterminatedString,
    UnterminatedComment,
    UnterminatedIdent,
    EmptyVariable,
}

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(error = LexError)]
#[logos(skip r"[ \t\r\n\f\v]+")]
// A byte-order mark at the start of a pasted or saved script.
#[logos(skip("\u{FEFF}", priority = 3))]
#[logos(skip(r"--[^\n]*", allow_greedy = true))]
pub(crate) enum Tok {
    /// Block comments nest in T-SQL, which a regular expression cannot express.
    #[token("/*", block_comment)]
    Comment,

    #[regex(r"[A-Za-z_#][A-Za-z0-9_@$#]*", word_tail)]
    #[regex(r"[^\x00-\x7F]", unicode_word)]
    /// MERGE's OUTPUT names the action of each row `$action`, a column of its own.
    #[regex(r"\$[Aa][Cc][Tt][Ii][Oo][Nn]")]
    Word,
    /// `[name]` or `"name"`.
    #[token("[", |lex| quoted(lex, ']'))]
    #[token("\"", |lex| quoted(lex, '"'))]
    QuotedIdent,
    #[token("@", variable)]
    Var,
    #[token("@@", variable)]
    Global,
    #[regex(r"[0-9]+")]
    Int,
    #[regex(r"[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?")]
    #[regex(r"\.[0-9]+([eE][+-]?[0-9]+)?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+")]
    Decimal,
    #[regex(r"0[xX][0-9A-Fa-f]*")]
    Binary,
    #[token("'", string)]
    Str,
    #[regex(r"[Nn]'", string)]
    NStr,
    /// PostgreSQL's dollar-quoted string, `$$...$$` or `$tag$...$tag$` (a DO block's body).
    #[regex(r"\$[A-Za-z_]*\$", dollar_string)]
    DollarStr,
    /// A sqlcmd variable outside a string: not T-SQL, reported by the parser.
    #[regex(r"\$\([^)\n]*\)?", allow_greedy = true)]
    SqlcmdVar,

    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token(",")]
    Comma,
    #[token(".")]
    Dot,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("~")]
    Tilde,
    #[token("=")]
    Eq,
    #[token("<>")]
    #[token("!=")]
    Ne,
    #[token("<")]
    Lt,
    #[token("<=")]
    #[token("!>")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    #[token("!<")]
    Ge,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
    #[token("*=")]
    StarEq,
    #[token("/=")]
    SlashEq,
    #[token("%=")]
    PercentEq,
    #[token("&=")]
    AmpEq,
    #[token("|=")]
    PipeEq,
    #[token("^=")]
    CaretEq,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '@' | '$' | '#')
}

/// Extends an ASCII-started word over any non-ASCII letters that follow (`zadanieą`).
fn word_tail(lex: &mut logos::Lexer<Tok>) {
    let n: usize = lex
        .remainder()
        .chars()
        .take_while(|&c| is_word_char(c))
        .map(char::len_utf8)
        .sum();
    lex.bump(n);
}

/// A word that starts with a non-ASCII letter (`żółw`); any other non-ASCII char is an error.
fn unicode_word(lex: &mut logos::Lexer<Tok>) -> Result<(), LexError> {
    let first = lex.slice().chars().next().unwrap_or(' ');
    if first.is_alphabetic() {
        word_tail(lex);
        Ok(())
    } else {
        Err(LexError::Unexpected)
    }
}

fn variable(lex: &mut logos::Lexer<Tok>) -> Result<(), LexError> {
    let n: usize = lex
        .remainder()
        .chars()
        .take_while(|&c| is_word_char(c))
        .map(char::len_utf8)
        .sum();
    if n == 0 {
        return Err(LexError::EmptyVariable);
    }
    lex.bump(n);
    Ok(())
}

/// Scans to the closing quote; a doubled quote is an escaped one.
fn string(lex: &mut logos::Lexer<Tok>) -> Result<(), LexError> {
    scan_quoted(lex, '\'', LexError::UnterminatedString)
}

/// Scans to the closing tag, which is the opening one (`$$` or `$tag$`).
fn dollar_string(lex: &mut logos::Lexer<Tok>) -> Result<(), LexError> {
    let tag = lex.slice().to_string();
    match lex.remainder().find(&tag) {
        Some(i) => {
            lex.bump(i + tag.len());
            Ok(())
        }
        None => {
            lex.bump(lex.remainder().len());
            Err(LexError::UnterminatedString)
        }
    }
}

fn quoted(lex: &mut logos::Lexer<Tok>, close: char) -> Result<(), LexError> {
    scan_quoted(lex, close, LexError::UnterminatedIdent)
}

fn scan_quoted(lex: &mut logos::Lexer<Tok>, close: char, err: LexError) -> Result<(), LexError> {
    let rest = lex.remainder();
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == close {
            if chars.peek().map(|&(_, c)| c) == Some(close) {
                chars.next();
                continue;
            }
            lex.bump(i + c.len_utf8());
            return Ok(());
        }
    }
    lex.bump(rest.len());
    Err(err)
}

fn block_comment(lex: &mut logos::Lexer<Tok>) -> FilterResult<(), LexError> {
    let rest = lex.remainder().as_bytes();
    let mut depth = 1usize;
    let mut i = 0;
    while i < rest.len() {
        match (rest[i], rest.get(i + 1)) {
            (b'/', Some(b'*')) => {
                depth += 1;
                i += 2;
            }
            (b'*', Some(b'/')) => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    lex.bump(i);
                    return FilterResult::Skip;
                }
            }
            _ => i += 1,
        }
    }
    lex.bump(rest.len());
    FilterResult::Error(LexError::UnterminatedComment)
}

/// A token with its byte span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
}

/// Lexes the whole text. On a lexical error returns the tokens before it and the error, so
/// that the parser can report an earlier syntax error first (errors come in text order).
pub(crate) fn lex(src: &str) -> (Vec<Token>, Option<ParseError>) {
    let mut tokens = Vec::new();
    let mut lexer = Tok::lexer(src);
    while let Some(result) = lexer.next() {
        let span = lexer.span();
        match result {
            Ok(kind) => tokens.push(Token {
                kind,
                start: span.start,
                end: span.end,
            }),
            Err(e) => {
                let message = match e {
                    LexError::UnterminatedString => "unterminated string literal".to_string(),
                    LexError::UnterminatedComment => "unterminated comment".to_string(),
                    LexError::UnterminatedIdent => "unterminated quoted identifier".to_string(),
                    LexError::EmptyVariable => "expected a variable name after '@'".to_string(),
                    LexError::Unexpected => {
                        let c = src[span.start..].chars().next().unwrap_or(' ');
                        format!("unexpected character '{}'", c.escape_debug())
                    }
                };
                let end = match e {
                    // Unterminated: point at the opening quote, not at the whole rest of the text.
                    LexError::UnterminatedString
                    | LexError::UnterminatedComment
                    | LexError::UnterminatedIdent => {
                        span.start + src[span.start..].chars().next().map_or(0, char::len_utf8)
                    }
                    _ => span.end,
                };
                return (tokens, Some(ParseError::new(span.start..end, message)));
            }
        }
    }
    (tokens, None)
}

/// Lexes for a dialect.
///
/// In Teradata, Unicode spaces such as the no-break spaces of SQL copied from a web page
/// (seed 002's examples are indented with them) are whitespace; they are lexed as ASCII
/// spaces of the same byte length, so spans still point into `src`. And Teradata has no
/// `@variables`: the first `@x` or `@@x` ends the token stream with an error naming T-SQL,
/// so that an earlier syntax error still wins. PostgreSQL has none either.
pub(crate) fn lex_in(src: &str, dialect: Dialect) -> (Vec<Token>, Option<ParseError>) {
    let unicode_space = |c: char| !c.is_ascii() && c.is_whitespace();
    let (mut tokens, lex_error) = if dialect == Dialect::Teradata && src.contains(unicode_space) {
        let spaced: String = src
            .chars()
            .map(|c| {
                if unicode_space(c) {
                    " ".repeat(c.len_utf8())
                } else {
                    c.to_string()
                }
            })
            .collect();
        lex(&spaced)
    } else {
        lex(src)
    };
    if dialect != Dialect::TSql {
        let var = tokens
            .iter()
            .position(|t| matches!(t.kind, Tok::Var | Tok::Global));
        if let Some(i) = var {
            let t = &tokens[i];
            let text = &src[t.start..t.end];
            let what = if t.kind == Tok::Global {
                format!("global variables ({text})")
            } else {
                format!("variables ({text})")
            };
            let e = ParseError::new(
                t.start..t.end,
                format!(
                    "{what}: T-SQL syntax; this lesson's dialect is {}",
                    crate::parser::dialect_name(dialect)
                ),
            );
            tokens.truncate(i);
            return (tokens, Some(e));
        }
    }
    (tokens, lex_error)
}

/// The text of a string literal token without quotes, `''` unescaped.
pub(crate) fn unquote_string(slice: &str) -> String {
    let body = slice.strip_prefix(['N', 'n']).unwrap_or(slice);
    let inner = &body[1..body.len() - 1];
    inner.replace("''", "'")
}

/// The name inside `[...]` or `"..."`, doubled closers unescaped.
pub(crate) fn unquote_ident(slice: &str) -> String {
    let inner = &slice[1..slice.len() - 1];
    if slice.starts_with('[') {
        inner.replace("]]", "]")
    } else {
        inner.replace("\"\"", "\"")
    }
}
