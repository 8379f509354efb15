//! The one place where dialects differ. Dialect-specific syntax calls `tsql_only` (table
//! hints, `TOP (n)`, OUTPUT, TRY/CATCH, ...) or `teradata_syntax` (SELECT AND CONSUME,
//! BT/ET, LOCKING), so that a script in one dialect is rejected, with a message naming the
//! dialect, when it uses the other's syntax.

use super::{PResult, Parser};
use crate::ast::Span;
use crate::{Dialect, ParseError};

impl Parser<'_> {
    /// Accepts T-SQL-only syntax in T-SQL; rejects it in any other dialect.
    pub(crate) fn tsql_only(&self, what: &str, span: Span) -> PResult<()> {
        match self.dialect {
            Dialect::TSql => Ok(()),
            Dialect::Teradata | Dialect::Postgres => Err(self.tsql_syntax(what, span)),
        }
    }

    /// The error for T-SQL syntax met in a Teradata or PostgreSQL script.
    pub(crate) fn tsql_syntax(&self, what: &str, span: Span) -> ParseError {
        ParseError::new(
            span,
            format!(
                "{what}: T-SQL syntax; this lesson's dialect is {}",
                dialect_name(self.dialect)
            ),
        )
    }

    pub(crate) fn teradata(&self) -> bool {
        self.dialect == Dialect::Teradata
    }

    pub(crate) fn postgres(&self) -> bool {
        self.dialect == Dialect::Postgres
    }

    /// The error for Teradata syntax: in T-SQL it names the dialect mix-up; in Teradata it
    /// is a construct not simulated yet.
    pub(crate) fn teradata_syntax(&self, what: &str, span: Span) -> ParseError {
        let message = match self.dialect {
            Dialect::TSql => {
                format!("not simulated: {what} (Teradata syntax; this lesson's dialect is T-SQL)")
            }
            Dialect::Postgres => format!(
                "not simulated: {what} (Teradata syntax; this lesson's dialect is PostgreSQL)"
            ),
            Dialect::Teradata => format!("not simulated: {what}"),
        };
        ParseError::new(span, message)
    }
}

/// A dialect as its lessons' readers name it.
pub(crate) fn dialect_name(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::TSql => "T-SQL",
        Dialect::Teradata => "Teradata",
        Dialect::Postgres => "PostgreSQL",
    }
}

#[cfg(test)]
mod tests {
    use crate::lexer::lex;
    use crate::parser::Parser;
    use crate::{line_col, Dialect};

    /// Parses as Teradata past the top-level "dialect not simulated" gate, to check that the
    /// T-SQL-only checkpoints fire when Teradata parsing is added.
    fn teradata(src: &str) -> String {
        let (toks, lex_error) = lex(src);
        let err = Parser::new(src, &toks, Dialect::Teradata, lex_error)
            .batch()
            .expect_err("T-SQL syntax must be rejected in Teradata");
        let (line, col) = line_col(src, err.span.start);
        format!("{line}:{col}: {}", err.message)
    }

    #[test]
    fn tsql_syntax_is_rejected_in_teradata() {
        assert_eq!(
            teradata("SELECT TOP 1 * FROM q WITH (READPAST)"),
            "1:23: table hints: T-SQL syntax; this lesson's dialect is Teradata"
        );
        assert_eq!(
            teradata("SELECT TOP (1) * FROM q"),
            "1:12: TOP (n): T-SQL syntax; this lesson's dialect is Teradata"
        );
        assert_eq!(
            teradata("SELECT * FROM q (NOLOCK)"),
            "1:17: table hints: T-SQL syntax; this lesson's dialect is Teradata"
        );
        assert_eq!(
            teradata("BEGIN TRY SELECT 1 END TRY BEGIN CATCH END CATCH"),
            "1:1: BEGIN TRY: T-SQL syntax; this lesson's dialect is Teradata"
        );
    }
}
