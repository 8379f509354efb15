//! Recursive-descent parser over the tokens of one batch.
//!
//! Error reporting: every check of the current token (`at`, `at_kw`, `note`) records what
//! would have been accepted there; when parsing fails at that token, the error lists exactly
//! that set (`found '3', expected one of: an operator, ',', ')'`). Checks made to peek further
//! ahead use the quiet `*_at(n)` helpers, which record nothing.

mod ddl;
mod dialect;
mod dml;
mod expr;
mod plpgsql;
mod postgres;
pub(crate) use postgres::interval_seconds;
mod select;
mod stmt;
mod teradata;

pub(crate) use dialect::dialect_name;
pub(crate) use expr::{NILADIC, TERADATA_NILADIC};

use crate::ast::{Batch, Ident, ObjectName, Span};
use crate::error::ParseError;
use crate::keywords;
use crate::lexer::{unquote_ident, Tok, Token};
use crate::Dialect;

pub(crate) type PResult<T> = Result<T, ParseError>;

/// Deep enough for any real script, shallow enough for a 1 MB wasm stack in a debug build.
const MAX_DEPTH: u32 = 100;

pub(crate) struct Parser<'a> {
    src: &'a str,
    toks: &'a [Token],
    pos: usize,
    /// Where "end of input" is reported: just after the last token.
    eof: usize,
    dialect: Dialect,
    expected: Vec<&'static str>,
    expected_at: usize,
    depth: u32,
    /// The chain whose links count in `depth`, if any (see [`Parser::link`]): what a
    /// nesting error then names as too long.
    chain_of: Option<&'static str>,
    /// A lexical error right after the last token; it explains any "end of input".
    lex_error: Option<ParseError>,
    /// Statements begun so far at the top level of the batch (CREATE PROCEDURE must be first).
    top_level_count: usize,
    /// The WITH being parsed begins a statement, where PostgreSQL allows an INSERT,
    /// UPDATE or DELETE as a CTE.
    statement_with: bool,
    /// PL/pgSQL variables in scope (lower-case), which expressions read as `@name`.
    pub(crate) pg_vars: Vec<String>,
    /// Integer FOR loops' variables in scope, innermost last: each is a variable of its
    /// own (`i#1`), which hides one of the same name outside the loop.
    pg_loop_vars: Vec<(String, String)>,
    /// FOR loops parsed so far, which number their variables.
    pg_loops: usize,
    /// A PERFORM was parsed: its hidden variable must be declared.
    pg_perform: bool,
    /// Inside a PL/pgSQL body, where `FOUND` names the routine's special variable.
    plpgsql: bool,
    /// T-SQL variables declared so far in the batch's text (compared ignoring ASCII
    /// case, as the interpreter looks them up), or `None` where
    /// no batch is parsed (a lesson's expression). SQL Server resolves a variable against
    /// the DECLAREs before it in the batch's text, whatever runs, when the batch
    /// compiles: an undeclared one fails the whole batch (Msg 137) and nothing runs.
    tsql_vars: Option<Vec<String>>,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(
        src: &'a str,
        toks: &'a [Token],
        dialect: Dialect,
        lex_error: Option<ParseError>,
    ) -> Self {
        let eof = toks.last().map_or(0, |t| t.end);
        Parser {
            src,
            toks,
            pos: 0,
            eof,
            dialect,
            expected: Vec::new(),
            expected_at: 0,
            depth: 0,
            chain_of: None,
            lex_error,
            top_level_count: 0,
            statement_with: false,
            pg_vars: Vec::new(),
            pg_loop_vars: Vec::new(),
            pg_loops: 0,
            pg_perform: false,
            plpgsql: false,
            tsql_vars: None,
        }
    }

    /// The statements of a whole batch.
    pub(crate) fn batch(&mut self) -> PResult<Batch> {
        let start = self.toks.first().map_or(0, |t| t.start);
        if self.dialect == Dialect::TSql {
            self.tsql_vars = Some(Vec::new());
        }
        let mut statements = Vec::new();
        while !self.at_eof() {
            statements.push(self.statement_in_list()?);
            self.top_level_count += 1;
        }
        if let Some(e) = self.lex_error.take() {
            return Err(e);
        }
        Ok(Batch {
            statements,
            span: start..self.eof,
        })
    }

    /// A single expression filling the whole input.
    pub(crate) fn whole_expr(&mut self) -> PResult<crate::ast::Expr> {
        let e = self.expr()?;
        if !self.at_eof() {
            return Err(self.unexpected());
        }
        if let Some(e) = self.lex_error.take() {
            return Err(e);
        }
        Ok(e)
    }

    // ---- token access -------------------------------------------------------------------

    fn tok_at(&self, n: usize) -> Option<&'a Token> {
        self.toks.get(self.pos + n)
    }

    fn kind_at(&self, n: usize) -> Option<Tok> {
        self.tok_at(n).map(|t| t.kind)
    }

    fn text(&self, t: &Token) -> &'a str {
        &self.src[t.start..t.end]
    }

    /// Whether the token `n` ahead is the keyword `kw` (quiet).
    fn kw_at(&self, n: usize, kw: &str) -> bool {
        self.tok_at(n)
            .is_some_and(|t| t.kind == Tok::Word && self.text(t).eq_ignore_ascii_case(kw))
    }

    /// Whether the token `n` ahead begins a query: `SELECT`, or Teradata's `SEL` (quiet).
    fn select_at(&self, n: usize) -> bool {
        self.kw_at(n, "SELECT") || (self.teradata() && self.kw_at(n, "SEL"))
    }

    /// `SELECT` (or `SEL` in Teradata) at the current token, noted as `SELECT`.
    fn at_select(&mut self) -> bool {
        self.note("SELECT");
        self.select_at(0)
    }

    /// The upper-cased word `n` ahead, if it is a word (quiet).
    fn word_at(&self, n: usize) -> Option<String> {
        self.tok_at(n)
            .filter(|t| t.kind == Tok::Word)
            .map(|t| self.text(t).to_ascii_uppercase())
    }

    fn at_eof(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Start offset of the current token (end of input when there is none).
    fn cur_start(&self) -> usize {
        self.tok_at(0).map_or(self.eof, |t| t.start)
    }

    fn cur_span(&self) -> Span {
        self.tok_at(0)
            .map_or(self.eof..self.eof, |t| t.start..t.end)
    }

    /// End offset of the last consumed token.
    fn prev_end(&self) -> usize {
        if self.pos == 0 {
            self.toks.first().map_or(0, |t| t.start)
        } else {
            self.toks[self.pos - 1].end
        }
    }

    fn advance(&mut self) -> Span {
        let span = self.cur_span();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        span
    }

    // ---- checks that record what was expected -------------------------------------------

    fn note(&mut self, what: &'static str) {
        if self.expected_at != self.pos {
            self.expected.clear();
            self.expected_at = self.pos;
        }
        // Duplicates are removed when a message is made: this runs for every check.
        self.expected.push(what);
    }

    fn at(&mut self, kind: Tok) -> bool {
        self.note(tok_name(kind));
        self.kind_at(0) == Some(kind)
    }

    fn at_kw(&mut self, kw: &'static str) -> bool {
        self.note(kw);
        self.kw_at(0, kw)
    }

    fn eat(&mut self, kind: Tok) -> bool {
        let yes = self.at(kind);
        if yes {
            self.advance();
        }
        yes
    }

    fn eat_kw(&mut self, kw: &'static str) -> bool {
        let yes = self.at_kw(kw);
        if yes {
            self.advance();
        }
        yes
    }

    fn expect(&mut self, kind: Tok) -> PResult<Span> {
        if self.at(kind) {
            Ok(self.advance())
        } else {
            Err(self.unexpected())
        }
    }

    fn expect_kw(&mut self, kw: &'static str) -> PResult<Span> {
        if self.at_kw(kw) {
            Ok(self.advance())
        } else {
            Err(self.unexpected())
        }
    }

    // ---- errors ---------------------------------------------------------------------------

    /// `found 'X', expected one of: ...` at the current token, from what was noted there.
    fn unexpected(&mut self) -> ParseError {
        let expected = if self.expected_at == self.pos {
            summarize(&self.expected)
        } else {
            Vec::new()
        };
        let mut wanted = match expected.as_slice() {
            [] => String::new(),
            [one] => format!("expected {one}"),
            many => format!("expected one of: {}", many.join(", ")),
        };
        // A string that ran over lines into the error: a quote left open is the likelier
        // mistake (`status = 'new` swallows the text up to the next quote), and a '('
        // it swallowed the ')' of is no clue then.
        let swallowed = self
            .pos
            .checked_sub(1)
            .and_then(|k| self.toks.get(k))
            .filter(|t| matches!(t.kind, Tok::Str | Tok::NStr) && self.text(t).contains('\n'));
        if let Some(s) = swallowed {
            // Counted from the error, as for a '(' below.
            let (line, col) = crate::error::line_col(self.src, s.start);
            let (end_line, _) = crate::error::line_col(self.src, s.end);
            let place = match end_line.saturating_sub(line) {
                1 => format!("on the line above, at column {col},"),
                n => format!("{n} lines up, at column {col},"),
            };
            wanted.push_str(&format!(
                " (the string opened {place} runs to here: is its closing quote missing?)"
            ));
        } else if expected.contains(&tok_name(Tok::RParen)) {
            if let Some(open) = self.unclosed_paren() {
                // Lines counted from the error, which stay right when the script is one
                // block of several (a lesson's joined setup) and the error is placed in it.
                let here = self.tok_at(0).map_or(self.eof, |t| t.start);
                let (line, col) = crate::error::line_col(self.src, open.start);
                let (error_line, _) = crate::error::line_col(self.src, here);
                let place = match error_line.saturating_sub(line) {
                    0 => format!("at column {col}"),
                    1 => format!("on the line above, at column {col},"),
                    n => format!("{n} lines up, at column {col},"),
                };
                wanted.push_str(&format!(" (the '(' {place} is not closed)"));
            }
        }
        match self.tok_at(0) {
            None => {
                if let Some(e) = self.lex_error.take() {
                    return e;
                }
                let msg = if wanted.is_empty() {
                    "unexpected end of input".to_string()
                } else {
                    format!("unexpected end of input, {wanted}")
                };
                ParseError::new(self.eof..self.eof, msg)
            }
            Some(t) => {
                let found = found_text(self.text(t));
                let mut msg = if wanted.is_empty() {
                    format!("unexpected '{found}'")
                } else {
                    let hint = self.reserved_hint(t, &expected);
                    format!("found '{found}'{hint}, {wanted}")
                };
                if let Some(habit) = self.postgres_habit() {
                    msg.push_str(&format!(" ({habit})"));
                }
                ParseError::new(t.start..t.end, msg)
            }
        }
    }

    /// What PostgreSQL's syntax at the error means in T-SQL, when a T-SQL script uses it:
    /// `LIMIT n` (read as an alias, then `n` is the error), `RETURNING`, `::`.
    fn postgres_habit(&self) -> Option<&'static str> {
        if self.dialect != Dialect::TSql {
            return None;
        }
        let word = |k: usize| {
            self.toks
                .get(k)
                .filter(|t| t.kind == Tok::Word)
                .map(|t| self.text(t))
        };
        let here = self.pos;
        let limit = |w: Option<&str>| w.is_some_and(|w| w.eq_ignore_ascii_case("LIMIT"));
        if limit(word(here)) || here.checked_sub(1).is_some_and(|k| limit(word(k))) {
            return Some(
                "LIMIT is PostgreSQL's: T-SQL writes SELECT TOP (n) ..., or OFFSET ... FETCH \
                 NEXT n ROWS ONLY after ORDER BY",
            );
        }
        if word(here).is_some_and(|w| w.eq_ignore_ascii_case("RETURNING")) {
            return Some(
                "RETURNING is PostgreSQL's: T-SQL writes OUTPUT inserted.column (deleted. for \
                 the old values) before VALUES, FROM or WHERE",
            );
        }
        let colon = |k: usize| self.toks.get(k).is_some_and(|t| self.text(t) == ":");
        if colon(here) && colon(here + 1) {
            return Some("`::` is PostgreSQL's cast: T-SQL writes CAST(x AS type)");
        }
        None
    }

    /// The innermost '(' open at the current token, when the text leaves a '(' open for
    /// good: the ')' expected here is then the missing one, and naming where its '('
    /// opened tells the reader which. It is the innermost even when a later ')' would
    /// close it by count (`WITH next AS ( ... WITH (UPDLOCK, READPAST ... )`: the later
    /// ')' is the outer one's). `None` when the parentheses balance later
    /// (`IN (1, 2 3)` wants a comma, not a ')').
    fn unclosed_paren(&self) -> Option<&'a Token> {
        let mut open: Vec<&'a Token> = Vec::new();
        for t in &self.toks[..self.pos.min(self.toks.len())] {
            match t.kind {
                Tok::LParen => open.push(t),
                Tok::RParen => {
                    open.pop();
                }
                _ => {}
            }
        }
        // The ')'s after this point that close a '(' opened before it.
        let (mut depth, mut closing) = (0usize, 0usize);
        for t in self.toks.get(self.pos..).unwrap_or_default() {
            match t.kind {
                Tok::LParen => depth += 1,
                Tok::RParen if depth == 0 => closing += 1,
                Tok::RParen => depth -= 1,
                _ => {}
            }
        }
        (closing < open.len())
            .then(|| open.last().copied())
            .flatten()
    }

    /// ` (a reserved word in Teradata; ...)` when a name was expected and the token is one
    /// of Teradata's reserved words that T-SQL allows as names (`rank`, `date`, `queue`).
    fn reserved_hint(&self, t: &Token, expected: &[&str]) -> String {
        let name_wanted = ["an identifier", "an expression", "an alias"]
            .iter()
            .any(|w| expected.contains(w));
        let word = self.text(t);
        let reserved_here = t.kind == Tok::Word
            && self.teradata()
            && keywords::is_reserved(word, Dialect::Teradata)
            && !keywords::is_reserved(word, Dialect::TSql);
        if name_wanted && reserved_here {
            format!(" (a reserved word in Teradata; as a name write \"{word}\")")
        } else {
            String::new()
        }
    }

    fn not_simulated(&self, span: Span, what: &str) -> ParseError {
        ParseError::new(span, format!("not simulated: {what}"))
    }

    /// Counts one level of nesting; the caller undoes it with `leave` on success.
    fn enter(&mut self, what: &str) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(match self.chain_of {
                Some(chain) => self.too_long(chain),
                None => ParseError::new(self.cur_span(), format!("{what} nested too deeply")),
            });
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Runs `f`, which parses a chain (`a + b + c`, `x UNION y UNION z`), and then gives
    /// back the levels its links took (see [`Self::link`]).
    fn chain<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        let (depth, chain_of) = (self.depth, self.chain_of);
        let parsed = f(self);
        (self.depth, self.chain_of) = (depth, chain_of);
        parsed
    }

    /// Counts one more link of a chain, at its operator: the tree a chain builds is one
    /// level deeper per operator, and the engine walks it recursively, so a chain's
    /// length counts as nesting does (5 000 `+` would overflow the stack).
    fn link(&mut self, what: &'static str) -> PResult<()> {
        self.chain_of = Some(what);
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.too_long(what));
        }
        Ok(())
    }

    fn too_long(&self, what: &str) -> ParseError {
        ParseError::new(
            self.cur_span(),
            format!(
                "{what} too long: its operators and parentheses nest more than {MAX_DEPTH} levels"
            ),
        )
    }

    // ---- names ------------------------------------------------------------------------------

    /// Whether the current token can be an identifier (quiet).
    fn ident_at(&self, n: usize) -> bool {
        match self.tok_at(n) {
            Some(t) if t.kind == Tok::QuotedIdent => true,
            Some(t) if t.kind == Tok::Word => !keywords::is_reserved(self.text(t), self.dialect),
            _ => false,
        }
    }

    /// An identifier: a non-reserved word, `[quoted]` or `"quoted"`.
    fn ident(&mut self) -> PResult<Ident> {
        self.note("an identifier");
        if !self.ident_at(0) {
            return Err(self.unexpected());
        }
        let t = &self.toks[self.pos];
        self.advance();
        let text = self.text(t);
        let value = if t.kind == Tok::QuotedIdent {
            if text.starts_with('[') {
                self.tsql_only("[bracketed] identifiers", t.start..t.end)?;
            }
            unquote_ident(text)
        } else {
            text.to_string()
        };
        Ok(Ident {
            value,
            span: t.start..t.end,
        })
    }

    /// A variable name token (`@x`) as an Ident that keeps its `@`.
    fn var_ident(&mut self) -> PResult<Ident> {
        let span = self.expect(Tok::Var)?;
        Ok(Ident {
            value: self.src[span.clone()].to_string(),
            span,
        })
    }

    /// A variable the batch declares here (DECLARE, a procedure's parameter); a second
    /// declaration of a name fails the batch (Msg 134).
    fn declare_var(&mut self, name: &Ident) -> PResult<()> {
        let Some(vars) = &mut self.tsql_vars else {
            return Ok(());
        };
        if vars.iter().any(|v| v.eq_ignore_ascii_case(&name.value)) {
            return Err(crate::ParseError::new(
                name.span.clone(),
                format!(
                    "Msg 134: The variable name '{}' has already been declared. Variable \
                     names must be unique within a query batch or stored procedure.",
                    name.value
                ),
            ));
        }
        vars.push(name.value.clone());
        Ok(())
    }

    /// A variable the batch reads or sets: declared earlier in the batch's text, or the
    /// batch does not compile (Msg 137; Msg 1087 for a table variable).
    fn use_var(&self, name: &Ident, table: bool) -> PResult<()> {
        let Some(vars) = &self.tsql_vars else {
            return Ok(());
        };
        if vars.iter().any(|v| v.eq_ignore_ascii_case(&name.value)) {
            return Ok(());
        }
        let (number, what) = if table {
            (1087, "table")
        } else {
            (137, "scalar")
        };
        Err(crate::ParseError::new(
            name.span.clone(),
            format!(
                "Msg {number}: Must declare the {what} variable \"{}\".",
                name.value
            ),
        ))
    }

    /// `a`, `a.b`, `a.b.c`, `a.b.c.d`.
    fn object_name(&mut self) -> PResult<ObjectName> {
        let first = self.ident()?;
        let start = first.span.start;
        let mut parts = vec![first];
        while self.kind_at(0) == Some(Tok::Dot) && parts.len() < 4 {
            if self.kind_at(1) == Some(Tok::Dot) {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "names with an omitted part (a..b)"));
            }
            if self.kind_at(1) == Some(Tok::Star) {
                break; // `t.*`, handled by the caller
            }
            self.advance();
            parts.push(self.ident()?);
        }
        Ok(ObjectName {
            span: start..self.prev_end(),
            parts,
        })
    }

    /// `(a, b, c)`.
    fn ident_list_in_parens(&mut self) -> PResult<Vec<Ident>> {
        self.expect(Tok::LParen)?;
        let mut names = vec![self.ident()?];
        while self.eat(Tok::Comma) {
            names.push(self.ident()?);
        }
        self.expect(Tok::RParen)?;
        Ok(names)
    }
}

/// How a token kind is named in "expected ..." lists.
fn tok_name(kind: Tok) -> &'static str {
    match kind {
        Tok::Comment => "a comment",
        Tok::Word | Tok::QuotedIdent => "an identifier",
        Tok::Var => "a variable",
        Tok::Global => "a global variable",
        Tok::Int | Tok::Decimal => "a number",
        Tok::Binary => "a binary literal",
        Tok::Str | Tok::NStr => "a string",
        Tok::DollarStr => "a dollar-quoted string",
        Tok::SqlcmdVar => "a sqlcmd variable",
        Tok::LParen => "'('",
        Tok::RParen => "')'",
        Tok::Comma => "','",
        Tok::Dot => "'.'",
        Tok::Semi => "';'",
        Tok::Colon => "':'",
        Tok::Plus => "'+'",
        Tok::Minus => "'-'",
        Tok::Star => "'*'",
        Tok::Slash => "'/'",
        Tok::Percent => "'%'",
        Tok::Amp => "'&'",
        Tok::Pipe => "'|'",
        Tok::Caret => "'^'",
        Tok::Tilde => "'~'",
        Tok::Eq => "'='",
        Tok::Ne => "'<>'",
        Tok::Lt => "'<'",
        Tok::Le => "'<='",
        Tok::Gt => "'>'",
        Tok::Ge => "'>='",
        Tok::PlusEq => "'+='",
        Tok::MinusEq => "'-='",
        Tok::StarEq => "'*='",
        Tok::SlashEq => "'/='",
        Tok::PercentEq => "'%='",
        Tok::AmpEq => "'&='",
        Tok::PipeEq => "'|='",
        Tok::CaretEq => "'^='",
    }
}

/// What may follow any operand; listed as "an operator" when they all were expected.
const OPERATORS: &[&str] = &[
    "'*'", "'/'", "'%'", "'+'", "'-'", "'&'", "'|'", "'^'", "'='", "'<>'", "'<'", "'<='", "'>'",
    "'>='", "NOT", "IS", "IN", "BETWEEN", "LIKE", "AND", "OR",
];

/// Prefix operators, implied by "an expression".
const EXPR_PREFIXES: &[&str] = &["'-'", "'+'", "'~'", "NOT"];

/// Shortens an expected set without losing information: the binary operators become
/// "an operator", and prefix operators are left to "an expression".
fn summarize(expected: &[&'static str]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for e in expected {
        if !out.contains(e) {
            out.push(e);
        }
    }
    // Most binary operators (the arithmetic and logical ones that can follow a
    // comparison's right side, say): one word says it as well as a dozen symbols.
    if OPERATORS.iter().filter(|op| out.contains(op)).count() >= 8 {
        let first = out.iter().position(|e| OPERATORS.contains(e)).unwrap_or(0);
        out.retain(|e| !OPERATORS.contains(e));
        out.insert(first.min(out.len()), "an operator");
    }
    if out.contains(&"an expression") {
        out.retain(|e| !EXPR_PREFIXES.contains(e));
    }
    out
}

/// The source text of a found token, shortened for messages.
fn found_text(text: &str) -> String {
    const MAX: usize = 40;
    let first_line = text.lines().next().unwrap_or("");
    if first_line.chars().count() > MAX || first_line.len() < text.len() {
        let short: String = first_line.chars().take(MAX).collect();
        format!("{short}...")
    } else {
        text.to_string()
    }
}
