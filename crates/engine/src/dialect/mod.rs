//! Dialects: one module each, behind the executor's [`Rules`] trait. Everything that only
//! one dialect does lives in its module: SQL Server (`tsql`) is the executor's default
//! behaviour; Teradata (`teradata`) has its own statements, lock mode names, request and
//! transaction rules, queue tables and client commands; PostgreSQL (`postgres`) reads
//! row versions, locks rows with its four row-lock clauses and numbers errors with
//! SQLSTATEs. A new dialect is a new module and
//! one arm in [`Dialect::rules`] and [`Dialect::parser`].

use crate::exec::Rules;

mod postgres;
mod teradata;
mod tsql;

/// The SQL dialect of a scenario: its parser and its rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    #[default]
    TSql,
    Teradata,
    Postgres,
}

impl Dialect {
    pub(crate) fn rules(self) -> &'static dyn Rules {
        match self {
            Dialect::TSql => &tsql::TSql,
            Dialect::Teradata => &teradata::Teradata,
            Dialect::Postgres => &postgres::Postgres,
        }
    }

    /// A lock mode as this dialect's manuals name it, when that differs from the mode's
    /// abbreviation (Teradata's READ and WRITE); players label lock matrices with it.
    pub fn mode_name(self, mode: crate::state::locks::LockMode) -> Option<&'static str> {
        self.rules().mode_name(mode)
    }

    /// A lock mode on `resource` (its trace text) as this dialect's manuals name it:
    /// on a key range SQL Server's RangeS-S, RangeS-U and RangeI-N, else `mode_name`.
    pub fn mode_name_on(
        self,
        resource: &str,
        mode: crate::state::locks::LockMode,
    ) -> Option<&'static str> {
        self.rules().mode_name_on(resource, mode)
    }

    /// What this dialect's own tools call a session's pages read, the `logical_reads`
    /// figure: SQL Server's and Teradata's logical reads, PostgreSQL's shared buffers hit
    /// (EXPLAIN (ANALYZE, BUFFERS)).
    pub fn reads_name(self) -> &'static str {
        self.rules().reads_name()
    }

    /// Whether `text` holds a statement, not only spaces and comments. Text that does
    /// not parse holds one: running it names the error.
    pub fn holds_sql(self, text: &str) -> bool {
        sql::parse_script(text, self.parser())
            .map_or(true, |s| s.batches.iter().any(|b| !b.statements.is_empty()))
    }

    pub(crate) fn parser(self) -> sql::Dialect {
        match self {
            Dialect::TSql => sql::Dialect::TSql,
            Dialect::Teradata => sql::Dialect::Teradata,
            Dialect::Postgres => sql::Dialect::Postgres,
        }
    }
}
