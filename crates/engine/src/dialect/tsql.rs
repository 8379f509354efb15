//! SQL Server: the executor's own behaviour, so every rule keeps its default. Its
//! statements (sp_getapplock, READPAST, OUTPUT, TRY/CATCH, ...) are the executor's
//! common ground, which other dialects share where they behave the same.

use crate::exec::Rules;

/// SQL Server's rules.
pub(crate) struct TSql;

impl Rules for TSql {}
