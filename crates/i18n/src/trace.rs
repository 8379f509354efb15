//! A trace event's line in the language in effect. English is the engine's own line
//! (`Event`'s `Display`, which the trace tests assert); Polish and Japanese word the same
//! facts from `trace.ftl`. The run's own names (sessions, tables, keys, resources, lock
//! modes, SQL, error messages) stay as the run gives them.

use engine::locks::LockMode;
use engine::{Access, Event, ReleaseReason, UNNUMBERED};

use crate::{key_words, lang, Lang};

/// `event`'s line in the language in effect.
pub fn event_line(event: &Event) -> String {
    match lang() {
        Lang::En => event.to_string(),
        other => worded(other, event),
    }
}

/// `event` worded from the catalogue of `lang` (English too, for the tests that hold
/// the English messages to the engine's lines).
pub(crate) fn worded(lang: Lang, event: &Event) -> String {
    use Event::*;
    let ms = |us: u64| trace_ms(lang, us);
    let text = |s: &str| s.to_owned();
    match event {
        SetupFinished { statements, tables } => {
            t!("trace-setup" in lang, statements = *statements, tables = *tables)
        }
        SessionStarted { session } => t!("trace-connects" in lang, session = text(session)),
        SessionFinished { session } => t!("trace-script-done" in lang, session = text(session)),
        StatementStarted {
            session,
            line,
            text: sql,
            in_proc,
            ..
        } => match in_proc {
            Some(p) => t!("trace-runs-in-proc" in lang, session = text(session), proc = text(p),
                line = line.to_string(), text = text(sql)),
            None => t!("trace-runs" in lang, session = text(session), line = line.to_string(),
                text = text(sql)),
        },
        StatementFinished {
            session,
            label,
            rows,
            reads,
            cost_us,
            reads_name,
            flush_wait_us,
        } => {
            let mut list = Vec::new();
            if let Some(r) = rows {
                list.push(t!("trace-statement-rows" in lang, rows = *r));
            }
            if *reads > 0 {
                list.push(t!("trace-statement-reads" in lang, reads = *reads,
                    reads_name = reads_name_in(lang, reads_name)));
            }
            let details = if list.is_empty() {
                String::new()
            } else {
                t!("trace-statement-details" in lang, list = joined(lang, &list))
            };
            let flush = if *flush_wait_us > 0 {
                t!("trace-statement-flush" in lang, ms = ms(*flush_wait_us))
            } else {
                String::new()
            };
            t!("trace-statement-done" in lang, session = text(session), label = label_in(lang, label),
                details = details, ms = ms(*cost_us), flush = flush)
        }
        TransactionBegan {
            session,
            explicit: true,
        } => {
            t!("trace-begins" in lang, session = text(session))
        }
        TransactionBegan {
            session,
            explicit: false,
        } => {
            t!("trace-begins-autocommit" in lang, session = text(session))
        }
        TransactionCommitted {
            session,
            locks_released,
            intent_locks,
            pages,
        } => {
            t!("trace-commits" in lang, session = text(session), locks = *locks_released,
                intent = intent(lang, *intent_locks, *pages))
        }
        TransactionRolledBack {
            session,
            locks_released,
            intent_locks,
            why,
            pages,
        } => {
            t!("trace-rolls-back" in lang, session = text(session), why = rollback_why(lang, why),
                locks = *locks_released, intent = intent(lang, *intent_locks, *pages))
        }
        LockGranted {
            session,
            resource,
            mode,
            waited_us,
            mode_name,
        } => {
            let mode = mode_text(*mode, *mode_name);
            match waited_us {
                Some(w) => t!("trace-gets-after" in lang, session = text(session), mode = mode,
                    resource = key_words(lang, resource), ms = ms(*w)),
                None => t!("trace-gets" in lang, session = text(session), mode = mode,
                    resource = key_words(lang, resource)),
            }
        }
        LockWaiting {
            session,
            resource,
            mode,
            holders,
            mode_name,
            holder_mode_names,
            queued,
            nowait,
        } => {
            let mode = mode_text(*mode, *mode_name);
            let holders = holders_text(lang, holders, holder_mode_names, queued.as_deref());
            if *nowait {
                t!("trace-asks-nowait" in lang, session = text(session), mode = mode,
                    resource = key_words(lang, resource), holders = holders)
            } else {
                t!("trace-waits" in lang, session = text(session), mode = mode,
                    resource = key_words(lang, resource), holders = holders)
            }
        }
        LockRefused {
            session,
            resource,
            mode,
            holders,
            function,
            mode_name,
            holder_mode_names,
            queued,
        } => {
            t!("trace-refused" in lang, session = text(session),
                mode = mode_text(*mode, *mode_name), resource = key_words(lang, resource),
                holders = holders_text(lang, holders, holder_mode_names, queued.as_deref()),
                function = *function)
        }
        LockReleased {
            session,
            resource,
            mode,
            reason,
            mode_name,
        } => {
            let (session, mode) = (text(session), mode_text(*mode, *mode_name));
            match reason {
                ReleaseReason::Commit => t!("trace-releases-commit" in lang, session = session,
                    mode = mode, resource = key_words(lang, resource)),
                ReleaseReason::Rollback => t!("trace-releases-rollback" in lang,
                    session = session, mode = mode, resource = key_words(lang, resource)),
                ReleaseReason::EndOfStatement => t!("trace-releases-statement" in lang,
                    session = session, mode = mode, resource = key_words(lang, resource)),
                ReleaseReason::Explicit => t!("trace-releases-request" in lang,
                    session = session, mode = mode, resource = key_words(lang, resource)),
            }
        }
        RowSkipped {
            session,
            table,
            key,
            holder,
            held,
            wanted,
            clause,
            held_name,
            wanted_name,
        } => {
            t!("trace-skips" in lang, session = text(session), table = text(table), key = key,
                clause = *clause, holder = holder, held = mode_text(*held, *held_name),
                wanted = mode_text(*wanted, *wanted_name))
        }
        RowsRead {
            session,
            table,
            rows,
            logical_reads,
            access,
            reads_name,
        } => {
            t!("trace-reads" in lang, session = text(session), rows = *rows, table = text(table),
                access = access_text(lang, access), reads = *logical_reads,
                reads_name = reads_name_in(lang, reads_name))
        }
        RowInserted {
            session,
            table,
            key,
        } => {
            t!("trace-inserts" in lang, session = text(session), table = text(table), key = key)
        }
        RowUpdated {
            session,
            table,
            key,
            changes,
        } if changes.is_empty() => {
            t!("trace-updates" in lang, session = text(session), table = text(table), key = key)
        }
        RowUpdated {
            session,
            table,
            key,
            changes,
        } => {
            let changes: Vec<String> = changes
                .iter()
                .map(|(column, old, new)| {
                    t!("trace-change" in lang, column = column, old = old, new = new)
                })
                .collect();
            t!("trace-updates-values" in lang, session = text(session), table = text(table),
                key = key, changes = joined(lang, &changes))
        }
        RowDeleted {
            session,
            table,
            key,
        } => {
            t!("trace-deletes" in lang, session = text(session), table = text(table), key = key)
        }
        ForeignKeyChecked {
            session,
            constraint,
            reads,
            key,
            action: None,
            ..
        } => {
            t!("trace-fk-exists" in lang, session = text(session), constraint = text(constraint),
                reads = text(reads), key = key)
        }
        ForeignKeyChecked {
            session,
            constraint,
            table,
            reads,
            key,
            action: Some(a),
        } => {
            let effect = match a.effect {
                "are deleted too" => t!("trace-fk-deleted" in lang),
                "are set to NULL" => t!("trace-fk-set-null" in lang),
                "are set to their default" => t!("trace-fk-set-default" in lang),
                other => other.to_owned(),
            };
            t!("trace-fk-action" in lang, session = text(session), constraint = text(constraint),
                on = a.on, action = a.name, reads = text(reads), table = text(table), key = key,
                effect = effect)
        }
        ResultReturned {
            session,
            columns,
            rows,
            first_row,
        } => {
            let columns = columns.join(", ");
            match first_row {
                Some(first) => t!("trace-result-first" in lang, session = text(session),
                    rows = *rows, columns = columns, first = first),
                None => t!("trace-result" in lang, session = text(session), rows = *rows,
                    columns = columns),
            }
        }
        Sleeping {
            session,
            delay_us,
            call,
            ..
        } => {
            t!("trace-sleeps" in lang, session = text(session), ms = ms(*delay_us), call = *call)
        }
        Error {
            session,
            number,
            severity,
            state,
            message,
            caught,
            sqlstate,
        } => {
            let code = match sqlstate {
                Some(code) => code.to_string(),
                None if *number == UNNUMBERED => engine::NO_NUMBER.to_owned(),
                None if *severity == engine::NO_SEVERITY => number.to_string(),
                None => t!("trace-error-severity" in lang, number = number.to_string(),
                    severity = severity.to_string(), state = state.to_string()),
            };
            if *caught {
                t!("trace-error-caught" in lang, session = text(session), code = code,
                    message = message)
            } else {
                t!("trace-error" in lang, session = text(session), code = code, message = message)
            }
        }
        WaitTimedOut {
            session,
            resource,
            nowait: true,
            ..
        } => {
            t!("trace-no-wait" in lang, session = text(session), resource = key_words(lang, resource))
        }
        WaitTimedOut {
            session,
            resource,
            waited_us,
            nowait: false,
            setting,
        } => {
            t!("trace-stops-waiting" in lang, session = text(session), resource = key_words(lang, resource),
                ms = ms(*waited_us), setting = *setting)
        }
        Deadlock { victim, cycle } => {
            let edges: Vec<String> = cycle
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let next = &cycle[(k + 1) % cycle.len()];
                    t!("trace-deadlock-edge" in lang, from = s, to = next)
                })
                .collect();
            t!("trace-deadlock" in lang, cycle = joined(lang, &edges), victim = victim)
        }
        Printed {
            session,
            text: printed,
        } => {
            t!("trace-prints" in lang, session = text(session), text = printed)
        }
        ProcedureCalled { session, procedure } => {
            t!("trace-calls" in lang, session = text(session), procedure = text(procedure))
        }
        ProcedureReturned {
            session,
            procedure,
            error: Some(e),
            ..
        } => {
            t!("trace-leaves-on-error" in lang, session = text(session),
                procedure = text(procedure), error = text(e))
        }
        ProcedureReturned {
            session,
            procedure,
            code: Some(code),
            ..
        } => {
            t!("trace-returns-code" in lang, session = text(session), procedure = text(procedure),
                code = code.to_string())
        }
        ProcedureReturned {
            session, procedure, ..
        } => {
            t!("trace-returns" in lang, session = text(session), procedure = text(procedure))
        }
        ConsumeDelayed { session, table } => {
            t!("trace-consume-delayed" in lang, session = text(session), table = text(table))
        }
        ConsumeResumed {
            session,
            table,
            delayed_us,
        } => {
            t!("trace-consume-resumed" in lang, session = text(session), table = text(table),
                ms = ms(*delayed_us))
        }
        FifoCacheRebuilt {
            session,
            table,
            reads,
        } => {
            t!("trace-fifo-rebuilt" in lang, session = text(session), table = text(table),
                reads = *reads)
        }
        ExternalCall { session, key } => {
            t!("trace-external-call" in lang, session = text(session), key = key)
        }
        AppLockRequested {
            session,
            resource,
            mode,
            code,
            holders,
        } => {
            let meaning = match code {
                0 => t!("trace-applock-granted" in lang),
                1 => t!("trace-applock-granted-after-wait" in lang),
                -1 if holders.is_empty() => t!("trace-applock-timed-out" in lang),
                -1 => t!("trace-applock-timed-out-held" in lang,
                    holders = joined(lang, holders)),
                -3 => t!("trace-applock-victim" in lang),
                _ => t!("trace-applock-error" in lang),
            };
            t!("trace-applock" in lang, session = text(session), mode = mode.applock_name(),
                resource = key_words(lang, resource), code = code.to_string(), meaning = meaning)
        }
        LockEscalated {
            session,
            resource,
            mode,
            released,
        } => {
            t!("trace-escalated" in lang, session = text(session), resource = key_words(lang, resource),
                mode = mode.to_string(), released = *released)
        }
    }
}

/// Virtual time as the rest of the page writes it in `lang` (`2 500,185 ms`), or as the
/// engine's lines do in English (`2500.185 ms`, which the English messages are held to).
fn trace_ms(lang: Lang, us: u64) -> String {
    match lang {
        Lang::En if us % 1000 == 0 => format!("{} ms", us / 1000),
        Lang::En => format!("{:.3} ms", us as f64 / 1000.0),
        Lang::Pl | Lang::Ja => format!("{} ms", crate::decimal_in(lang, us / 1000, us % 1000)),
    }
}

fn joined(lang: Lang, parts: &[String]) -> String {
    parts.join(&t!("trace-list-sep" in lang))
}

fn mode_text(mode: LockMode, name: Option<&'static str>) -> String {
    name.map_or_else(|| mode.to_string(), str::to_owned)
}

/// Whom a wait waits for: the holders, then the earlier requests it is queued behind.
fn holders_text(
    lang: Lang,
    holders: &[(String, LockMode)],
    names: &[Option<&'static str>],
    queued: Option<&engine::Queued>,
) -> String {
    let name = |names: &[Option<&'static str>], k: usize| names.get(k).copied().flatten();
    let each: Vec<String> = holders
        .iter()
        .enumerate()
        .map(|(k, (h, m))| {
            t!("trace-holder" in lang, holder = h, mode = mode_text(*m, name(names, k)))
        })
        .chain(queued.into_iter().flat_map(|q| {
            q.sessions.iter().enumerate().map(|(k, (s, m))| {
                t!("trace-queued-ahead" in lang, session = s,
                    mode = mode_text(*m, name(&q.mode_names, k)))
            })
        }))
        .collect();
    if each.is_empty() {
        return t!("trace-holders-queued" in lang);
    }
    joined(lang, &each)
}

fn intent(lang: Lang, count: usize, pages: bool) -> String {
    match (count, pages) {
        (0, _) => String::new(),
        (n, true) => t!("trace-intent-pages" in lang, count = n),
        (n, false) => t!("trace-intent-tables" in lang, count = n),
    }
}

/// Why a transaction rolled back, as the engine words it: a statement (`ROLLBACK`,
/// `COMMIT`, a Teradata request) stays as written.
fn rollback_why(lang: Lang, why: &str) -> String {
    match why {
        "ROLLBACK in a trigger" => t!("trace-why-trigger" in lang),
        "the session ended with an open transaction" => t!("trace-why-session-ended" in lang),
        "error with no number" => t!("trace-why-unnumbered" in lang),
        _ => match why.strip_prefix("error ") {
            Some(code) => t!("trace-why-error" in lang, code = code),
            None => why.to_owned(),
        },
    }
}

fn access_text(lang: Lang, access: &Access) -> String {
    match access {
        Access::ClusteredSeek => t!("trace-access-clustered-seek" in lang),
        Access::ClusteredScan => t!("trace-access-clustered-scan" in lang),
        Access::IndexSeek(ix) => t!("trace-access-index-seek" in lang, index = ix),
        Access::PrimaryIndex => t!("trace-access-primary-index" in lang),
        Access::Constant => t!("trace-access-constant" in lang),
        Access::SeqScan => t!("trace-access-seq-scan" in lang),
        Access::AllRowsScan => t!("trace-access-all-rows-scan" in lang),
        Access::IndexScan(ix) => t!("trace-access-index-scan" in lang, index = ix),
    }
}

/// A statement's label: SQL's own words as they are, PL/pgSQL's `v := …` by name.
fn label_in(lang: Lang, label: &str) -> String {
    match label {
        "assignment" => t!("trace-label-assignment" in lang),
        other => other.to_owned(),
    }
}

fn reads_name_in(lang: Lang, reads_name: &str) -> String {
    match reads_name {
        "shared buffers hit" => t!("figure-buffers" in lang),
        "logical reads" => t!("figure-reads" in lang),
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::rc::Rc;

    use engine::{Event, KeyAction, Source};
    use lesson::Lesson;

    use super::*;

    /// Digits grouped as a language groups them (`20,040`) read as the engine writes
    /// them (`20040`); everything else is compared as it is.
    fn ungrouped(text: &str) -> String {
        let chars: Vec<char> = text.chars().collect();
        let mut out = String::new();
        for (k, &c) in chars.iter().enumerate() {
            let between_digits = k > 0
                && chars[k - 1].is_ascii_digit()
                && chars.get(k + 1).is_some_and(char::is_ascii_digit);
            if !(c == ',' && between_digits) {
                out.push(c);
            }
        }
        out
    }

    fn rc(s: &str) -> Rc<str> {
        Rc::from(s)
    }

    /// One event of each shape the engine's lines take, the rare ones included.
    #[rustfmt::skip]
    fn every_shape() -> Vec<Event> {
        use engine::locks::LockMode::{S, U, X};
        let a = || rc("A");
        let holders = vec![("B".to_string(), X), ("C".to_string(), S)];
        vec![
            Event::SetupFinished { statements: 1, tables: 2 },
            Event::SetupFinished { statements: 20_040, tables: 1 },
            Event::SessionStarted { session: a() },
            Event::SessionFinished { session: a() },
            Event::StatementStarted { session: a(), label: "UPDATE", line: 3, text: rc("UPDATE t SET x = 1"), source: Source::Session(0), span: (0, 1), in_proc: None },
            Event::StatementStarted { session: a(), label: "UPDATE", line: 3, text: rc("UPDATE t SET x = 1"), source: Source::Setup, span: (0, 1), in_proc: Some(rc("dbo.claim")) },
            Event::StatementFinished { session: a(), label: "UPDATE", rows: Some(1), reads: 3, cost_us: 40, reads_name: "logical reads", flush_wait_us: 0 },
            Event::StatementFinished { session: a(), label: "SELECT", rows: Some(5), reads: 0, cost_us: 2_000, reads_name: "shared buffers hit", flush_wait_us: 0 },
            Event::StatementFinished { session: a(), label: "COMMIT", rows: None, reads: 0, cost_us: 12_500, reads_name: "logical reads", flush_wait_us: 12_000 },
            Event::TransactionBegan { session: a(), explicit: true },
            Event::TransactionBegan { session: a(), explicit: false },
            Event::TransactionCommitted { session: a(), locks_released: 1, intent_locks: 0, pages: false },
            Event::TransactionCommitted { session: a(), locks_released: 5, intent_locks: 3, pages: true },
            Event::TransactionCommitted { session: a(), locks_released: 2, intent_locks: 1, pages: false },
            Event::TransactionRolledBack { session: a(), locks_released: 2, intent_locks: 1, why: "error 1205".into(), pages: true },
            Event::TransactionRolledBack { session: a(), locks_released: 0, intent_locks: 0, why: "ROLLBACK in a trigger".into(), pages: false },
            Event::TransactionRolledBack { session: a(), locks_released: 1, intent_locks: 0, why: "the session ended with an open transaction".into(), pages: false },
            Event::TransactionRolledBack { session: a(), locks_released: 1, intent_locks: 0, why: "error with no number".into(), pages: false },
            Event::TransactionRolledBack { session: a(), locks_released: 1, intent_locks: 0, why: "ROLLBACK".into(), pages: false },
            Event::LockGranted { session: a(), resource: "KEY task (1)".into(), mode: U, waited_us: None, mode_name: None },
            Event::LockGranted { session: a(), resource: "TUPLE job (1)".into(), mode: X, waited_us: Some(2_000_000), mode_name: Some("FOR UPDATE") },
            Event::LockWaiting { session: a(), resource: "KEY task (1)".into(), mode: U, holders: holders.clone(), mode_name: None, holder_mode_names: vec![None, None], queued: None, nowait: false },
            Event::LockWaiting { session: a(), resource: "KEY task (1)".into(), mode: U, holders: Vec::new(), mode_name: None, holder_mode_names: Vec::new(), queued: None, nowait: false },
            Event::LockWaiting { session: a(), resource: "TUPLE job (1)".into(), mode: X, holders: holders.clone(), mode_name: Some("FOR UPDATE"), holder_mode_names: vec![Some("FOR UPDATE"), None], queued: None, nowait: true },
            Event::LockRefused { session: a(), resource: "APPLOCK doc 7".into(), mode: X, holders: holders.clone(), function: "pg_try_advisory_lock", mode_name: None, holder_mode_names: vec![None, None], queued: None },
            Event::LockReleased { session: a(), resource: "KEY task (1)".into(), mode: X, reason: ReleaseReason::Commit, mode_name: None },
            Event::LockReleased { session: a(), resource: "KEY task (1)".into(), mode: S, reason: ReleaseReason::Rollback, mode_name: None },
            Event::LockReleased { session: a(), resource: "KEY task (1)".into(), mode: S, reason: ReleaseReason::EndOfStatement, mode_name: None },
            Event::LockReleased { session: a(), resource: "APPLOCK doc 7".into(), mode: X, reason: ReleaseReason::Explicit, mode_name: None },
            Event::RowSkipped { session: a(), table: rc("task"), key: "2".into(), holder: "B".into(), held: X, wanted: U, clause: "READPAST", held_name: None, wanted_name: None },
            Event::RowsRead { session: a(), table: rc("task"), rows: 20_040, logical_reads: 61, access: Access::ClusteredScan, reads_name: "logical reads" },
            Event::RowsRead { session: a(), table: rc("task"), rows: 1, logical_reads: 2, access: Access::ClusteredSeek, reads_name: "logical reads" },
            Event::RowsRead { session: a(), table: rc("task"), rows: 2, logical_reads: 2, access: Access::IndexSeek("ix_status".into()), reads_name: "logical reads" },
            Event::RowsRead { session: a(), table: rc("queue"), rows: 1, logical_reads: 1, access: Access::PrimaryIndex, reads_name: "logical reads" },
            Event::RowsRead { session: a(), table: rc("t"), rows: 0, logical_reads: 0, access: Access::Constant, reads_name: "logical reads" },
            Event::RowsRead { session: a(), table: rc("job"), rows: 3, logical_reads: 4, access: Access::SeqScan, reads_name: "shared buffers hit" },
            Event::RowsRead { session: a(), table: rc("queue"), rows: 4, logical_reads: 1, access: Access::AllRowsScan, reads_name: "logical reads" },
            Event::RowsRead { session: a(), table: rc("job"), rows: 1, logical_reads: 3, access: Access::IndexScan("job_pkey".into()), reads_name: "shared buffers hit" },
            Event::RowInserted { session: a(), table: rc("claim"), key: "7".into() },
            Event::RowUpdated { session: a(), table: rc("item"), key: "1".into(), changes: Vec::new() },
            Event::RowUpdated { session: a(), table: rc("task"), key: "1".into(), changes: vec![("status".into(), "'new'".into(), "'taken'".into()), ("owner".into(), "NULL".into(), "'A'".into()) ] },
            Event::RowDeleted { session: a(), table: rc("task"), key: "1".into() },
            Event::ForeignKeyChecked { session: a(), constraint: rc("run_job_fk"), table: rc("job_run"), reads: rc("job"), key: "1".into(), action: None },
            Event::ForeignKeyChecked { session: a(), constraint: rc("run_job_fk"), table: rc("job"), reads: rc("job_run"), key: "1".into(), action: Some(KeyAction { on: "DELETE", name: "CASCADE", effect: "are deleted too" }) },
            Event::ForeignKeyChecked { session: a(), constraint: rc("run_job_fk"), table: rc("job"), reads: rc("job_run"), key: "1".into(), action: Some(KeyAction { on: "UPDATE", name: "SET NULL", effect: "are set to NULL" }) },
            Event::ForeignKeyChecked { session: a(), constraint: rc("run_job_fk"), table: rc("job"), reads: rc("job_run"), key: "1".into(), action: Some(KeyAction { on: "DELETE", name: "SET DEFAULT", effect: "are set to their default" }) },
            Event::ResultReturned { session: a(), columns: vec!["id".into(), "status".into()], rows: 1, first_row: Some("(1, 'new')".into()) },
            Event::ResultReturned { session: a(), columns: vec!["id".into()], rows: 0, first_row: None },
            Event::Sleeping { session: a(), until_us: 1, delay_us: 1_000_000, call: "WAITFOR DELAY '00:00:01'" },
            Event::Error { session: a(), number: 1205, severity: 13, state: 51, message: "Transaction was deadlocked.".into(), caught: false, sqlstate: None },
            Event::Error { session: a(), number: 2627, severity: 14, state: 1, message: "Violation of PRIMARY KEY constraint.".into(), caught: true, sqlstate: None },
            Event::Error { session: a(), number: 0, severity: 0, state: 0, message: "no number".into(), caught: false, sqlstate: None },
            Event::Error { session: a(), number: 3807, severity: 0, state: 0, message: "Object does not exist.".into(), caught: false, sqlstate: None },
            Event::Error { session: a(), number: 1, severity: 0, state: 0, message: "could not obtain lock".into(), caught: false, sqlstate: Some("55P03") },
            Event::WaitTimedOut { session: a(), resource: "KEY task (1)".into(), waited_us: 0, nowait: true, setting: "NOWAIT" },
            Event::WaitTimedOut { session: a(), resource: "KEY task (1)".into(), waited_us: 1_500_000, nowait: false, setting: "LOCK_TIMEOUT" },
            Event::Deadlock { victim: "B".into(), cycle: vec!["A".into(), "B".into()] },
            Event::Printed { session: a(), text: "done".into() },
            Event::ProcedureCalled { session: a(), procedure: rc("dbo.claim") },
            Event::ProcedureReturned { session: a(), procedure: rc("dbo.claim"), code: None, error: Some(rc("1205")) },
            Event::ProcedureReturned { session: a(), procedure: rc("dbo.claim"), code: Some(-1), error: None },
            Event::ProcedureReturned { session: a(), procedure: rc("dbo.claim"), code: None, error: None },
            Event::ConsumeDelayed { session: a(), table: rc("orders_qt") },
            Event::ConsumeResumed { session: a(), table: rc("orders_qt"), delayed_us: 2_500 },
            Event::FifoCacheRebuilt { session: a(), table: rc("orders_qt"), reads: 1_200 },
            Event::ExternalCall { session: a(), key: "1".into() },
            Event::AppLockRequested { session: a(), resource: "doc 7".into(), mode: X, code: 0, holders: Vec::new() },
            Event::AppLockRequested { session: a(), resource: "doc 7".into(), mode: X, code: 1, holders: Vec::new() },
            Event::AppLockRequested { session: a(), resource: "doc 7".into(), mode: X, code: -1, holders: Vec::new() },
            Event::AppLockRequested { session: a(), resource: "doc 7".into(), mode: X, code: -1, holders: vec!["B".into()] },
            Event::AppLockRequested { session: a(), resource: "doc 7".into(), mode: X, code: -3, holders: Vec::new() },
            Event::AppLockRequested { session: a(), resource: "doc 7".into(), mode: X, code: -999, holders: Vec::new() },
            Event::LockEscalated { session: a(), resource: "OBJECT t".into(), mode: X, released: 5_019 },
            Event::LockWaiting { session: a(), resource: "KEY task (1)".into(), mode: S, holders: Vec::new(), mode_name: None, holder_mode_names: Vec::new(), queued: Some(Box::new(engine::Queued { sessions: holders.clone(), mode_names: Vec::new() })), nowait: false },
            Event::LockWaiting { session: a(), resource: "KEY t (end of index)".into(), mode: X, holders: holders[..1].to_vec(), mode_name: Some("RangeI-N"), holder_mode_names: vec![Some("RangeS-U")], queued: Some(Box::new(engine::Queued { sessions: holders[1..].to_vec(), mode_names: vec![Some("RangeS-U")] })), nowait: false },
            Event::LockRefused { session: a(), resource: "advisory 1".into(), mode: S, holders: Vec::new(), function: "pg_try_advisory_lock_shared", mode_name: None, holder_mode_names: Vec::new(), queued: Some(Box::new(engine::Queued { sessions: holders[..1].to_vec(), mode_names: Vec::new() })) },
        ]
    }

    /// Up to 20 events of each kind from every lesson's default run.
    fn lesson_events() -> Vec<Event> {
        let dir = format!("{}/../../lessons", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "md") && !p.ends_with("README.md"))
            .collect();
        files.sort();
        assert!(files.len() >= 20, "{files:?}");
        let mut events = Vec::new();
        for path in files {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let l = Lesson::parse(&name, &std::fs::read_to_string(&path).unwrap()).unwrap();
            let applied = l.apply(&l.settings_default()).unwrap();
            let report = lesson::run(&applied, l.seed).unwrap();
            let mut per_kind: BTreeMap<String, usize> = BTreeMap::new();
            for entry in report.trace.entries {
                let kind = format!("{:?}", std::mem::discriminant(&entry.event));
                let n = per_kind.entry(kind).or_default();
                *n += 1;
                if *n <= 20 {
                    events.push(entry.event);
                }
            }
        }
        events
    }

    /// The English messages word every line as the engine does, so the other languages,
    /// translated from them, say what the engine's line says.
    #[test]
    fn english_messages_word_each_line_as_the_engine_does() {
        let events: Vec<Event> = every_shape().into_iter().chain(lesson_events()).collect();
        assert!(events.len() > 500, "{}", events.len());
        for event in &events {
            assert_eq!(ungrouped(&worded(Lang::En, event)), event.to_string());
        }
    }

    #[test]
    fn polish_and_japanese_word_every_line_from_their_catalogues() {
        for event in every_shape() {
            let english = event.to_string();
            for lang in [Lang::Pl, Lang::Ja] {
                let line = worded(lang, &event);
                assert!(!line.contains('⟦'), "{line}");
                assert_ne!(line, english, "{}: not translated", lang.as_str());
                // Nothing English is left of the line's own words.
                for word in [
                    " gets ",
                    " waits for ",
                    " holds ",
                    " releases ",
                    " reads ",
                    " row(s)",
                    " lock(s)",
                    " finishes ",
                    " runs line ",
                ] {
                    assert!(!line.contains(word), "{}: {line}", lang.as_str());
                }
            }
        }
    }

    #[test]
    fn lines_in_polish_and_japanese() {
        let shapes = every_shape();
        let line = |lang, k: usize| worded(lang, &shapes[k]);
        // Row counts take the language's plural forms and groups; ms its decimal mark.
        assert_eq!(line(Lang::Pl, 30), "A czyta 20\u{a0}040 wierszy z tabeli task przez skanowanie indeksu klastrowanego (odczyty logiczne: 61)");
        assert_eq!(
            line(Lang::Pl, 6),
            "A kończy UPDATE w 0,04 ms, 1 wiersz, odczyty logiczne: 3"
        );
        assert_eq!(
            line(Lang::Pl, 20),
            "A dostaje FOR UPDATE na TUPLE job (1) po 2000 ms czekania"
        );
        assert_eq!(
            line(Lang::Pl, 12),
            "A zatwierdza i zwalnia 5 blokad, w tym 3 na tabelach lub stronach"
        );
        assert_eq!(
            line(Lang::Pl, 21),
            "A czeka na U na KEY task (1): B trzyma X, C trzyma S"
        );
        assert_eq!(
            line(Lang::Pl, 56),
            "zakleszczenie: A czeka na B, B czeka na A; ofiarą zostaje B"
        );
        assert_eq!(
            line(Lang::Pl, 40),
            "A zmienia task (1): status 'new' -> 'taken', owner NULL -> 'A'"
        );
        assert_eq!(
            line(Lang::Ja, 20),
            "A が 2,000 ms 待って TUPLE job (1) に FOR UPDATE を取得します"
        );
        assert_eq!(
            line(Lang::Ja, 29),
            "A が READPAST で task (2) をスキップします: B が X を保持、A には U が必要"
        );
        assert_eq!(
            line(Lang::Ja, 49),
            "A がエラー 1205 (重大度 13、状態 51) を受け取ります: Transaction was deadlocked."
        );
        assert_eq!(
            line(Lang::Ja, 8),
            "A が 12.5 ms (うち 12 ms は遅いログフラッシュ待ち) で COMMIT を終えます"
        );
        // A request queued behind earlier ones names them with the modes they wait for;
        // so does a try lock refused for one (the last shape).
        let n = shapes.len() - 1;
        assert_eq!(
            shapes[n].to_string(),
            "A is refused S on advisory 1: B is queued ahead for X; pg_try_advisory_lock_shared returns false"
        );
        assert_eq!(
            shapes[n - 2].to_string(),
            "A waits for S on KEY task (1): B is queued ahead for X, C is queued ahead for S"
        );
        assert_eq!(
            shapes[n - 1].to_string(),
            "A waits for RangeI-N on KEY t (end of index): B holds RangeS-U, C is queued ahead for RangeS-U"
        );
        assert_eq!(
            line(Lang::Pl, n - 1),
            "A czeka na RangeI-N na KEY t (koniec indeksu): B trzyma RangeS-U, C czeka wcześniej w kolejce na RangeS-U"
        );
        assert_eq!(
            line(Lang::Ja, n - 2),
            "A が KEY task (1) の S を待ちます: B が先に X を待っています、C が先に S を待っています"
        );
        assert_eq!(
            line(Lang::Pl, n),
            "A dostaje odmowę S na advisory 1: B czeka wcześniej w kolejce na X; pg_try_advisory_lock_shared zwraca false"
        );
        assert_eq!(
            line(Lang::Ja, n),
            "A は advisory 1 の S を拒否されます: B が先に X を待っています。pg_try_advisory_lock_shared は false を返します"
        );
    }
}
