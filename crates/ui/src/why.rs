//! "Why": the rule behind a wait, a skip, an error or an anomaly, in a few sentences
//! with its evidence from the run (which lock, which holder since when, in which
//! statement), and the dialect's lock compatibility matrix with the cell that decided
//! it. Built from the engine's events and the run's anomalies only: no text is written
//! per lesson. Pure, so it is tested natively.

use std::rc::Rc;

use engine::locks::{compatible, LockMode};
use engine::{Dialect, Event, TraceEntry};
use lesson::{values_text, Anomaly, AnomalyKind, AnomalyRule, Duplicate, Kept, Lost, Unmatched};

use crate::present::ms_label;
use crate::run::RunModel;
use crate::t;

/// An explanation of one event.
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    /// Trace index of the event explained.
    pub event: usize,
    pub title: String,
    pub sentences: Vec<String>,
    pub matrix: Option<Matrix>,
}

/// Lock compatibility for the modes that matter: `compatible[r][c]` says whether a
/// lock in mode `names[r]` can be granted while another session holds `names[c]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    /// Whose names these are ("SQL Server", "Teradata").
    pub dialect: &'static str,
    pub names: Vec<String>,
    pub compatible: Vec<Vec<bool>>,
    /// The row of the mode asked for, and the columns of the modes held.
    pub asked: usize,
    pub held: Vec<usize>,
}

/// How far back the trace is searched for a holder's grant or a statement (bounded, so
/// a long run stays fast).
const LOOK_BACK: usize = 50_000;

/// The explanation for the playhead after `events` events: the event at the playhead
/// when it has one (a wait, skip, error, deadlock or anomaly), else the latest such
/// event of the same step, else the wait of a session still `waiting` now.
pub fn explain_at(run: &RunModel, events: usize, waiting: &[String]) -> Option<Why> {
    let events = events.min(run.trace.len());
    let explainable = |k: usize| explainable(&run.trace[k].event, k, &run.anomalies);
    let marked = run.marked_events(events);
    let target = events
        .checked_sub(1)
        .filter(|&k| explainable(k))
        .or_else(|| {
            marked
                .clone()
                .filter(|&k| k < events)
                .rev()
                .find(|&k| explainable(k))
        })
        .or_else(|| {
            waiting.iter().find_map(|s| {
                run.trace[..events]
                    .iter()
                    .enumerate()
                    .rev()
                    .take(LOOK_BACK)
                    .find(|(_, e)| {
                        matches!(&e.event, Event::LockWaiting { session, .. } if **session == **s)
                    })
                    .map(|(k, _)| k)
            })
        })?;
    // The rules' labels and verbs in the page's language.
    explain(
        &run.trace,
        &run.anomalies,
        &crate::anomaly_text::rules_shown(&run.applied),
        run.applied.scenario.dialect,
        target,
    )
}

fn explainable(event: &Event, k: usize, anomalies: &[Anomaly]) -> bool {
    matches!(
        event,
        Event::LockWaiting { .. }
            | Event::LockRefused { .. }
            | Event::RowSkipped { .. }
            | Event::Error { .. }
            | Event::Deadlock { .. }
            | Event::WaitTimedOut { .. }
            | Event::AppLockRequested { code: -1, .. }
    ) || anomalies.binary_search_by_key(&k, |a| a.event).is_ok()
}

/// The explanation of trace event `k`, if it is one that has a rule behind it.
pub fn explain(
    trace: &[TraceEntry],
    anomalies: &[Anomaly],
    rules: &[AnomalyRule],
    dialect: Dialect,
    k: usize,
) -> Option<Why> {
    // Declared anomalies at this event (a call may be both a repeat and unrecorded):
    // the first one's title, every one's sentences.
    let label = |a: &Anomaly| crate::anomaly_text::label(a, rules);
    let from = anomalies.partition_point(|a| a.event < k);
    let declared: Vec<Why> = anomalies[from..]
        .iter()
        .take_while(|a| a.event == k)
        .filter_map(|a| match &a.kind {
            AnomalyKind::Duplicate(d) => Some(duplicate(trace, rules, d, &label(a), k)),
            AnomalyKind::Unmatched(u) => Some(unmatched(trace, rules, u, &label(a), k)),
            AnomalyKind::Lost(l) => Some(lost(trace, l, &label(a), k)),
            AnomalyKind::Kept(x) => Some(kept(trace, rules, x, &label(a), k)),
            _ => None,
        })
        .collect();
    if let Some((first, rest)) = declared.split_first() {
        let mut why = first.clone();
        for other in rest {
            why.sentences.push(t!("why-sentence", text = &other.title));
            why.sentences.extend(other.sentences.iter().cloned());
        }
        return Some(why);
    }
    let entry = trace.get(k)?;
    let why = |title: String, sentences: Vec<String>, matrix: Option<Matrix>| Why {
        event: k,
        title,
        sentences,
        matrix,
    };
    Some(match &entry.event {
        Event::LockWaiting {
            session,
            resource,
            mode,
            holders,
            queued,
            ..
        } => {
            let asked = mode_name_on(dialect, resource, *mode);
            let res = resource_text(resource);
            let session = session.to_string();
            // The statement that asks: a script names a lock mode rarely, its statements
            // (a DELETE needing FOR UPDATE) always.
            let mut first = vec![match statement_before(trace, k + 1, &session) {
                Some(st) => t!(
                    "why-wait-asks-in",
                    session = &session,
                    mode = &asked,
                    resource = &res,
                    statement = st
                ),
                None => t!(
                    "why-wait-asks",
                    session = &session,
                    mode = &asked,
                    resource = &res
                ),
            }];
            let queued = queued.as_deref().map_or(&[][..], |q| &q.sessions[..]);
            if holders.is_empty() && queued.is_empty() {
                first.push(t!("why-wait-queued", session = &session, resource = &res));
            }
            let (s, m) = conflict(
                (trace, k, dialect),
                (*mode, resource),
                (holders, queued),
                first,
                |holder, held| {
                    t!(
                        "why-wait-incompatible",
                        mode = &asked,
                        held = held,
                        session = &session,
                        holder = holder
                    )
                },
                |ahead, wanted, aside| {
                    t!(
                        "why-wait-behind",
                        queued = ahead,
                        wanted = wanted,
                        resource = &res,
                        aside = aside,
                        mode = &asked,
                        session = &session
                    )
                },
            );
            why(t!("why-wait-title", session = &session), s, Some(m))
        }
        Event::LockRefused {
            session,
            resource,
            mode,
            holders,
            function,
            queued,
            ..
        } => {
            let asked = mode_name_on(dialect, resource, *mode);
            let res = resource_text(resource);
            let session = session.to_string();
            let first = vec![t!(
                "why-refused-asks",
                session = &session,
                mode = &asked,
                resource = &res,
                function = function.to_string()
            )];
            let queued = queued.as_deref().map_or(&[][..], |q| &q.sessions[..]);
            let (s, m) = conflict(
                (trace, k, dialect),
                (*mode, resource),
                (holders, queued),
                first,
                |holder, held| {
                    t!(
                        "why-refused-incompatible",
                        mode = &asked,
                        held = held,
                        holder = holder,
                        function = function.to_string(),
                        session = &session
                    )
                },
                |ahead, wanted, aside| {
                    t!(
                        "why-refused-behind",
                        queued = ahead,
                        wanted = wanted,
                        resource = &res,
                        aside = aside,
                        mode = &asked,
                        function = function.to_string(),
                        session = &session
                    )
                },
            );
            why(t!("why-refused-title", session = &session), s, Some(m))
        }
        Event::RowSkipped {
            session,
            table,
            key,
            holder,
            held,
            wanted,
            clause,
            ..
        } => why(
            t!(
                "why-skip-title",
                session = session.to_string(),
                table = table.to_string(),
                key = key.to_string()
            ),
            vec![
                t!(
                    "why-skip-rule",
                    session = session.to_string(),
                    table = table.to_string(),
                    key = key.to_string(),
                    clause = clause.to_string()
                ),
                t!(
                    "why-skip-holder",
                    holder = holder.to_string(),
                    held = mode_name(dialect, *held),
                    session = session.to_string(),
                    wanted = mode_name(dialect, *wanted)
                ),
            ],
            Some(matrix(dialect, *wanted, &[*held])),
        ),
        Event::Error {
            session,
            number,
            message,
            caught,
            sqlstate,
            ..
        } => {
            let mut s = vec![format!("{message}")];
            let session = session.to_string();
            if let Some(st) = statement_before(trace, k, &session) {
                s.push(t!("why-error-in", session = &session, statement = st));
            }
            if let Some(st) = rethrown_from(trace, k, &session, *number) {
                s.push(t!("why-error-rethrown", statement = st));
            }
            if let Some((victim, cycle)) = deadlock_before(trace, k, &session) {
                s.push(t!("why-error-deadlock", victim = victim, cycle = cycle));
            }
            // An update conflict (SQL Server's 3960 under SNAPSHOT; PostgreSQL's 40001
            // under REPEATABLE READ and SERIALIZABLE, numbered 3960 inside).
            if *number == SERIALIZATION_FAILURE {
                s.push(t!("why-error-serialization", session = &session));
            }
            // Serializable snapshot isolation's failure (40001, no SQL Server number).
            if *number == engine::RW_DEPENDENCY_FAILURE {
                s.push(t!("why-error-rw-dependencies", session = &session));
            }
            // Errors whose message alone leaves the cause unsaid.
            match (dialect, *number) {
                (Dialect::TSql, 650) => s.push(t!("why-error-readpast-level")),
                (Dialect::TSql, 1934) => s.push(t!("why-error-set-options")),
                (Dialect::TSql | Dialect::Postgres, 2601 | 2627) => s.push(t!("why-error-unique")),
                (Dialect::Teradata, 3128) => {
                    s.push(t!("why-error-delayed-limit", session = &session))
                }
                (Dialect::Teradata, 3510) => {
                    s.push(t!("why-error-no-transaction", session = &session))
                }
                _ => {}
            }
            // PL/pgSQL handles errors in EXCEPTION blocks, T-SQL in TRY...CATCH; a
            // Teradata request has neither, and BTEQ goes on with the next request.
            s.push(match (*caught, dialect) {
                (false, Dialect::Teradata) => t!("why-error-reached-client"),
                (true, Dialect::Postgres) => t!("why-error-caught-exception"),
                (false, Dialect::Postgres) => t!("why-error-uncaught-exception"),
                (true, _) => t!("why-error-caught"),
                (false, _) => t!("why-error-uncaught"),
            });
            why(
                t!(
                    "why-error-title",
                    session = &session,
                    number = crate::i18n::error_code(*number, *sqlstate)
                ),
                s,
                None,
            )
        }
        Event::Deadlock { victim, cycle } => why(
            t!("why-deadlock-title", victim = victim.to_string()),
            vec![
                t!("why-deadlock-circle", cycle = cycle.join(" → ")),
                t!("why-deadlock-victim", victim = victim.to_string()),
            ],
            None,
        ),
        Event::WaitTimedOut {
            session,
            resource,
            nowait: true,
            ..
        } => why(
            t!("why-nowait-title", session = session.to_string()),
            vec![t!(
                "why-nowait",
                session = session.to_string(),
                resource = resource_text(resource)
            )],
            None,
        ),
        Event::WaitTimedOut {
            session,
            resource,
            waited_us,
            nowait: false,
            setting,
        } => why(
            t!("why-timeout-title", session = session.to_string()),
            vec![t!(
                "why-timeout",
                session = session.to_string(),
                waited = ms_label(*waited_us),
                resource = resource_text(resource),
                setting = *setting
            )],
            None,
        ),
        // sp_getapplock's timeout is a return code, not an error: the lesson's point.
        Event::AppLockRequested {
            session,
            resource,
            mode,
            code: -1,
            holders,
        } => why(
            t!("why-applock-timeout-title", session = session.to_string()),
            vec![t!(
                "why-applock-timeout",
                session = session.to_string(),
                mode = mode.applock_name(),
                resource = resource.as_str(),
                holders = if holders.is_empty() {
                    t!("why-applock-someone")
                } else {
                    holders.join(", ")
                }
            )],
            None,
        ),
        _ => return None,
    })
}

/// "worker2 claimed task_id 17 again (claim 18): worker1 read it at … and claimed it
/// at …; worker2 read it at …, before worker1's write committed at …".
fn duplicate(
    trace: &[TraceEntry],
    rules: &[AnomalyRule],
    d: &Duplicate,
    label: &str,
    k: usize,
) -> Why {
    // The lesson's own verb ("claimed") is the lesson's words, as written.
    let verb = rules
        .get(d.rule)
        .map_or_else(|| t!("why-verb-wrote"), |r| r.verb.clone());
    let values = values_text(&d.values);
    let at = |k: usize| ms_label(trace[k].at_us);
    let (first, second) = d.writers(trace);
    let (first, second) = (&first, &second);
    let read = |w: &lesson::Writer| match w.read {
        Some(r) => t!("why-dup-read-at", time = at(r)),
        None => t!("why-dup-no-read"),
    };
    let mut s = t!(
        "why-dup-again",
        second = &second.session,
        verb = &verb,
        values = &values,
        table = &d.table,
        key = &d.key,
        update = if d.by_update {
            t!("why-dup-by-update")
        } else {
            String::new()
        },
        first = &first.session,
        first_read = read(first),
        first_write = at(first.write),
        second_read = read(second)
    );
    match (second.read, first.commit) {
        (Some(r), Some(c)) if trace[r].at_us < trace[c].at_us => s.push_str(&t!(
            "why-dup-before-commit",
            first = &first.session,
            time = at(c)
        )),
        (Some(_), Some(c)) => s.push_str(&t!(
            "why-dup-after-commit",
            first = &first.session,
            time = at(c)
        )),
        (Some(_), None) => s.push_str(&t!("why-dup-uncommitted", first = &first.session)),
        (None, _) => s.push_str(&t!("why-period")),
    }
    let mut sentences = vec![s];
    // Each read a sentence of its own: a language whose sentence starts with a capital
    // ("Odczytem sesji …") cannot be joined with "; ".
    sentences.extend([first, second].iter().filter_map(|w| {
        let r = w.read?;
        let read = t!(
            "why-dup-read-was",
            session = &w.session,
            statement = statement_before(trace, r + 1, &w.session)?
        );
        Some(t!("why-sentence", text = read))
    }));
    let gap = matches!((second.read, first.commit), (Some(r), Some(c)) if trace[r].at_us < trace[c].at_us);
    if gap {
        sentences.push(t!("why-dup-gap"));
    }
    sentences.push(t!(
        "why-dup-both",
        table = &d.table,
        first_key = &d.first_key,
        key = &d.key,
        values = &values
    ));
    Why {
        event: k,
        title: t!("why-title", label = label),
        sentences,
        matrix: None,
    }
}

/// "user2 called external_system 1001 (OrderId 1001) at 6,000.135 ms; no send row has
/// OrderId 1001 at the end: user2 got error 2601 at …, in its INSERT …".
fn unmatched(
    trace: &[TraceEntry],
    rules: &[AnomalyRule],
    u: &Unmatched,
    label: &str,
    k: usize,
) -> Why {
    let verb = rules
        .get(u.rule)
        .map_or_else(|| t!("why-verb-wrote"), |r| r.verb.clone());
    let values = values_text(&u.values);
    let wanted = u
        .match_columns
        .iter()
        .zip(&u.values)
        .map(|(c, (_, v))| format!("{c} {v}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut sentences = vec![t!(
        "why-unmatched",
        session = &u.session,
        verb = &verb,
        table = &u.table,
        key = &u.key,
        values = &values,
        time = ms_label(trace[u.insert].at_us),
        match_table = &u.match_table,
        wanted = &wanted
    )];
    // A matching row that was there and was deleted: that delete is the story, not
    // what the inserting session did next.
    if let Some((d, by)) = &u.removed {
        sentences.push(t!(
            "why-unmatched-removed",
            by = by,
            match_table = &u.match_table,
            wanted = &wanted,
            time = ms_label(trace[*d].at_us),
            table = &u.table,
            key = &u.key
        ));
    } else {
        match u.error {
            Some((e, number)) => {
                let mut s = t!(
                    "why-unmatched-error",
                    session = &u.session,
                    number = code_at(trace, e, number),
                    time = ms_label(trace[e].at_us)
                );
                if let Some(st) = statement_before(trace, e, &u.session) {
                    s.push_str(&t!("why-in-statement", statement = st));
                }
                s.push_str(&t!(
                    "why-unmatched-unrecorded",
                    match_table = &u.match_table
                ));
                sentences.push(s);
            }
            None => sentences.push(t!(
                "why-unmatched-finished",
                session = &u.session,
                match_table = &u.match_table
            )),
        }
        sentences.push(t!(
            "why-unmatched-nobody",
            match_table = &u.match_table,
            table = &u.table,
            key = &u.key
        ));
    }
    Why {
        event: k,
        title: t!("why-title", label = label),
        sentences,
        matrix: None,
    }
}

/// "A consumed job_queue rid 0 at 0 ms (its SELECT AND CONSUME, line 2) and got 1,
/// order 1; its INSERT failed with error 3811 at 0.07 ms; A committed at 0.099 ms …".
fn lost(trace: &[TraceEntry], l: &Lost, label: &str, k: usize) -> Why {
    let at = |k: usize| ms_label(trace[k].at_us);
    let (key, delete) = (&l.rows[0].0, l.rows[0].1);
    let mut first = t!(
        "why-lost-consumed",
        session = &l.session,
        table = &l.table,
        key = key,
        time = at(delete)
    );
    if let Some(st) = statement_before(trace, delete + 1, &l.session) {
        first.push_str(&t!("why-statement-aside", statement = st));
    }
    if let Some(row) = &l.returned {
        first.push_str(&t!("why-lost-got", row = row.to_string()));
    }
    if l.rows.len() > 1 {
        first.push_str(&t!("why-lost-more", count = l.rows.len() - 1));
    }
    first.push_str(&t!("why-period"));
    let failed = failed_then(trace, &l.session, l.error, t!("why-lost-meaning"));
    Why {
        event: k,
        title: t!("why-title", label = label),
        sentences: vec![
            first,
            failed,
            t!(
                "why-lost-committed",
                session = &l.session,
                time = at(l.commit),
                table = &l.table
            ),
            t!("why-lost-rollback"),
        ],
        matrix: None,
    }
}

/// The code of the error event at `e` as its dialect shows it (`40001`, `2601`).
fn code_at(trace: &[TraceEntry], e: usize, number: u32) -> String {
    let sqlstate = match trace.get(e).map(|t| &t.event) {
        Some(Event::Error { sqlstate, .. }) => *sqlstate,
        _ => None,
    };
    crate::i18n::error_code(number, sqlstate)
}

/// "Then A got error 3811 at 0.07 ms, in its INSERT, line 3: <meaning>."
fn failed_then(
    trace: &[TraceEntry],
    session: &str,
    (e, number): (usize, u32),
    meaning: String,
) -> String {
    let mut failed = t!(
        "why-then-error",
        session = session,
        number = code_at(trace, e, number),
        time = ms_label(trace[e].at_us)
    );
    if let Some(st) = statement_before(trace, e, session) {
        failed.push_str(&t!("why-in-statement", statement = st));
    }
    failed.push_str(&t!("why-meaning", meaning = meaning));
    failed
}

/// "sender marked outbox 1, 2 at 0.005 ms (its UPDATE, line 3); that change committed
/// at 0.138 ms. Then sender got error 50002 at 5 000.251 ms …".
fn kept(trace: &[TraceEntry], rules: &[AnomalyRule], x: &Kept, label: &str, k: usize) -> Why {
    let at = |k: usize| ms_label(trace[k].at_us);
    let verb = rules
        .get(x.rule)
        .map_or_else(|| t!("why-verb-wrote"), |r| r.verb.clone());
    const SHOWN: usize = 5;
    let write = x.rows[0].1;
    let keys: Vec<&str> = x.rows.iter().take(SHOWN).map(|(k, _)| k.as_str()).collect();
    let mut first = t!(
        "why-kept-wrote",
        session = &x.session,
        verb = &verb,
        table = &x.table,
        keys = keys.join(", ")
    );
    if x.rows.len() > SHOWN {
        first.push_str(&t!("why-kept-more", count = x.rows.len() - SHOWN));
    }
    first.push_str(&t!("why-kept-at", time = at(write)));
    if let Some(st) = statement_before(trace, write + 1, &x.session) {
        first.push_str(&t!("why-statement-aside", statement = st));
    }
    first.push_str(&t!("why-kept-committed", time = at(x.commit)));
    let failed = failed_then(trace, &x.session, x.error, t!("why-kept-meaning"));
    Why {
        event: k,
        title: t!("why-title", label = label),
        sentences: vec![first, failed, t!("why-kept-stay", table = &x.table)],
        matrix: None,
    }
}

/// A session's name with a lock mode: one holding it, or one queued for it.
type Named = (String, LockMode);

/// "A holds X on task 1 since 0.04 ms (its UPDATE in next_task, line 28)."
/// The sentences of a request that met the locks `holders` hold on `resource`, or the
/// earlier requests `queued` ahead of it: `first`, then since when each holder holds its
/// lock, then `behind(ahead, wanted, aside)` for each request ahead, then
/// `incompatible(holder, held)` for the first holder; and the compatibility matrix's cell.
fn conflict(
    (trace, k, dialect): (&[TraceEntry], usize, Dialect),
    (mode, resource): (LockMode, &str),
    (holders, queued): (&[Named], &[Named]),
    mut first: Vec<String>,
    incompatible: impl Fn(&str, String) -> String,
    behind: impl Fn(&str, String, String) -> String,
) -> (Vec<String>, Matrix) {
    for (holder, held) in holders {
        first.push(holding(trace, k, holder, *held, resource, dialect));
    }
    for (ahead, wanted) in queued {
        // The statement that asked: the one before the ahead session's wait here.
        let asked_at = (k.saturating_sub(LOOK_BACK)..k).rev().find(|&g| {
            matches!(&trace[g].event, Event::LockWaiting { session: s, resource: r, .. }
                if **s == **ahead && r == resource)
        });
        let aside = asked_at
            .and_then(|g| statement_before(trace, g + 1, ahead))
            .map_or_else(String::new, |st| t!("why-statement-aside", statement = st));
        first.push(behind(
            ahead,
            mode_name_on(dialect, resource, *wanted),
            aside,
        ));
    }
    if let Some((holder, held)) = holders.first() {
        first.push(incompatible(holder, mode_name_on(dialect, resource, *held)));
    }
    // Only queued ahead: the cell is the mode asked against the one waited for.
    let against = if holders.is_empty() { queued } else { holders };
    let against: Vec<LockMode> = against.iter().map(|(_, m)| *m).collect();
    (first, matrix_on(dialect, resource, mode, &against))
}

fn holding(
    trace: &[TraceEntry],
    k: usize,
    holder: &str,
    held: LockMode,
    resource: &str,
    dialect: Dialect,
) -> String {
    let res = resource_text(resource);
    let held_name = mode_name_on(dialect, resource, held);
    let grant = (k.saturating_sub(LOOK_BACK)..k).rev().find(|&g| {
        matches!(&trace[g].event, Event::LockGranted { session, resource: r, .. }
            if **session == *holder && r == resource)
    });
    match grant {
        Some(g) => {
            let mut s = t!(
                "why-holds-since",
                holder = holder,
                mode = &held_name,
                resource = &res,
                time = ms_label(trace[g].at_us)
            );
            if let Some(st) = statement_before(trace, g + 1, holder) {
                s.push_str(&t!("why-statement-aside", statement = st));
            }
            s.push_str(&t!("why-period"));
            if let Some(constraint) = key_check_before(trace, g, holder) {
                s.push(' ');
                s.push_str(&t!(
                    "why-key-check",
                    holder = holder,
                    constraint = constraint.to_string()
                ));
            }
            s
        }
        None => t!(
            "why-holds",
            holder = holder,
            mode = &held_name,
            resource = &res
        ),
    }
}

/// The foreign key whose check (of a row `holder` wrote) took the lock granted at
/// `grant`: the check's line comes between the statement's start and the grant.
fn key_check_before(trace: &[TraceEntry], grant: usize, holder: &str) -> Option<Rc<str>> {
    for e in trace[..grant.min(trace.len())].iter().rev().take(LOOK_BACK) {
        match &e.event {
            Event::ForeignKeyChecked {
                session,
                constraint,
                action: None,
                ..
            } if **session == *holder => return Some(Rc::clone(constraint)),
            Event::ForeignKeyChecked { session, .. } | Event::StatementStarted { session, .. }
                if **session == *holder =>
            {
                return None
            }
            _ => {}
        }
    }
    None
}

/// "its UPDATE in next_task, line 28": the statement `session` ran last before `end`.
fn statement_before(trace: &[TraceEntry], end: usize, session: &str) -> Option<String> {
    trace[..end.min(trace.len())]
        .iter()
        .rev()
        .take(LOOK_BACK)
        .find_map(|e| match &e.event {
            Event::StatementStarted {
                session: s,
                label,
                line,
                in_proc,
                ..
            } if **s == *session => Some(match in_proc {
                Some(p) => t!(
                    "why-statement-in-proc",
                    label = label.to_string(),
                    proc = p.to_string(),
                    line = line.to_string()
                ),
                None => t!(
                    "why-statement",
                    label = label.to_string(),
                    line = line.to_string()
                ),
            }),
            _ => None,
        })
}

/// For an error raised by a bare `THROW` in a CATCH block: the statement that raised
/// the error it caught ("its INSERT in send_document, line 36"), whose line SQL Server
/// reports.
fn rethrown_from(trace: &[TraceEntry], k: usize, session: &str, number: u32) -> Option<String> {
    let started = |e: &TraceEntry| matches!(&e.event, Event::StatementStarted { session: s, .. } if **s == *session);
    let from = k.saturating_sub(LOOK_BACK);
    let throw = from + trace[from..k].iter().rposition(started)?;
    let Event::StatementStarted { label, text, .. } = &trace[throw].event else {
        return None;
    };
    if *label != "THROW"
        || !text
            .trim()
            .trim_end_matches(';')
            .eq_ignore_ascii_case("THROW")
    {
        return None;
    }
    let caught = from
        + trace[from..throw].iter().rposition(|e| {
            matches!(&e.event, Event::Error { session: s, number: n, caught: true, .. }
                if **s == *session && *n == number)
        })?;
    statement_before(trace, caught, session)
}

/// The deadlock that chose `session` as its victim just before `end`, if any.
fn deadlock_before(trace: &[TraceEntry], end: usize, session: &str) -> Option<(String, String)> {
    trace[..end]
        .iter()
        .rev()
        .take(16)
        .find_map(|e| match &e.event {
            Event::Deadlock { victim, cycle } if victim == session => {
                Some((victim.clone(), cycle.join(" → ")))
            }
            _ => None,
        })
}

/// A row's lock, `KEY task (1)` (PostgreSQL's `TUPLE task (1)`), reads as "task 1";
/// other resources keep the engine's text.
pub fn resource_text(resource: &str) -> String {
    let resource = crate::i18n::resource_words(resource);
    let resource = resource.as_str();
    resource
        .strip_prefix("KEY ")
        .or_else(|| resource.strip_prefix("TUPLE "))
        .and_then(|rest| {
            let (table, key) = rest.rsplit_once(" (")?;
            Some(format!("{table} {}", key.strip_suffix(')')?))
        })
        .unwrap_or_else(|| resource.to_string())
}

/// The engine's number for a transaction that may not change a row changed after its
/// snapshot (SQL Server's 3960, which PostgreSQL shows as 40001).
const SERIALIZATION_FAILURE: u32 = 3960;

/// A mode as the dialect's manuals name it.
pub fn mode_name(dialect: Dialect, mode: LockMode) -> String {
    dialect
        .mode_name(mode)
        .map_or_else(|| mode.to_string(), str::to_string)
}

/// A mode held or asked for on `resource` (its trace text) as the dialect's manuals
/// name it: on a SQL Server key range, RangeS-U rather than U.
pub fn mode_name_on(dialect: Dialect, resource: &str, mode: LockMode) -> String {
    dialect
        .mode_name_on(resource, mode)
        .map_or_else(|| mode.to_string(), str::to_string)
}

/// The matrix of a request on `resource`: on a key range whose modes the dialect names
/// apart, the key-range modes a range meets (SQL Server's RangeS-S, RangeS-U and
/// RangeI-N, where two inserts' tests pass each other); else [`matrix`].
fn matrix_on(dialect: Dialect, resource: &str, asked: LockMode, held: &[LockMode]) -> Matrix {
    let ranges = [LockMode::S, LockMode::U, LockMode::X];
    let named = engine::locks::is_key_range(resource)
        && [asked].iter().chain(held).all(|m| ranges.contains(m))
        && ranges
            .iter()
            .all(|&m| dialect.mode_name_on(resource, m).is_some());
    if !named {
        return matrix(dialect, asked, held);
    }
    let index = |m: LockMode| ranges.iter().position(|x| *x == m).unwrap_or(0);
    let insert = LockMode::X;
    Matrix {
        dialect: "SQL Server",
        names: ranges
            .iter()
            .map(|&m| mode_name_on(dialect, resource, m))
            .collect(),
        compatible: ranges
            .iter()
            .map(|&r| {
                ranges
                    .iter()
                    .map(|&c| (r == insert && c == insert) || compatible(r, c))
                    .collect()
            })
            .collect(),
        asked: index(asked),
        held: held.iter().map(|&m| index(m)).collect(),
    }
}

/// The dialect's matrix for the modes lessons meet, plus the ones in question.
pub fn matrix(dialect: Dialect, asked: LockMode, held: &[LockMode]) -> Matrix {
    let (name, usual): (&'static str, &[LockMode]) = match dialect {
        Dialect::TSql => (
            "SQL Server",
            &[
                LockMode::IS,
                LockMode::IU,
                LockMode::IX,
                LockMode::S,
                LockMode::U,
                LockMode::X,
            ],
        ),
        Dialect::Teradata => ("Teradata", &[LockMode::S, LockMode::X]),
        Dialect::Postgres => ("PostgreSQL", &LockMode::ROW_CLAUSES),
    };
    let modes: Vec<LockMode> = LockMode::ALL
        .into_iter()
        .chain(LockMode::ROW_CLAUSES)
        .filter(|m| usual.contains(m) || *m == asked || held.contains(m))
        .collect();
    let index = |m: LockMode| modes.iter().position(|x| *x == m).unwrap_or(0);
    Matrix {
        dialect: name,
        names: modes.iter().map(|m| mode_name(dialect, *m)).collect(),
        compatible: modes
            .iter()
            .map(|&r| modes.iter().map(|&c| compatible(r, c)).collect())
            .collect(),
        asked: index(asked),
        held: held.iter().map(|&m| index(m)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::catalog;

    /// The explanation right after the first event that `is` picks.
    fn why_after_first(run: &RunModel, is: impl Fn(&Event) -> bool) -> Why {
        let k = run.trace.iter().position(|e| is(&e.event)).unwrap();
        explain_at(run, k + 1, &[]).unwrap()
    }

    fn build(id: &str, pairs: &[(&str, &str)]) -> RunModel {
        let catalog = catalog();
        let lesson = catalog.lesson(id).unwrap();
        let settings = lesson.settings_with(pairs.iter().copied()).unwrap();
        RunModel::build(lesson, &settings, lesson.seed).unwrap()
    }

    #[test]
    fn a_wait_names_the_modes_the_holder_its_statement_and_the_cell() {
        let run = build("queue-wait-or-skip", &[("readpast", "off")]);
        // At 2 s B waits; the playhead's own event (A's sleep) explains nothing.
        let events = run.events_by(2_000_000);
        let why = explain_at(&run, events, &["B".to_string()]).unwrap();
        assert_eq!(why.title, "Why B waits");
        assert_eq!(
            why.sentences,
            [
                "B asks for U on task 1 (its UPDATE in next_task, line 28).",
                "A holds X on task 1 since 0.04 ms (its UPDATE in next_task, line 28).",
                "U is not compatible with X: B waits until A releases it.",
            ]
        );
        let m = why.matrix.unwrap();
        assert_eq!(m.dialect, "SQL Server");
        assert_eq!(m.names, ["IS", "IU", "IX", "S", "U", "X"]);
        assert_eq!(
            (m.names[m.asked].as_str(), m.names[m.held[0]].as_str()),
            ("U", "X")
        );
        assert!(!m.compatible[m.asked][m.held[0]]);
        assert!(m.compatible[m.asked][0], "U is compatible with IS");
        // Nothing waits and nothing happened: nothing to explain.
        assert_eq!(explain_at(&run, 1, &[]), None);
    }

    #[test]
    fn a_wait_on_a_key_range_names_sql_servers_range_modes() {
        let run = build("send-merge-upsert", &[("holdlock", "on")]);
        let k = run
            .trace
            .iter()
            .position(|e| matches!(&e.event, Event::LockWaiting { .. }))
            .unwrap();
        let why = explain_at(&run, k + 1, &[]).unwrap();
        assert_eq!(why.title, "Why user2 waits");
        let text = why.sentences.join(" ");
        assert!(
            text.contains("user2 asks for RangeS-U on send end of index")
                && text.contains("user1 holds RangeS-U on send end of index")
                && text.contains("RangeS-U is not compatible with RangeS-U"),
            "{text}"
        );
        let m = why.matrix.unwrap();
        assert_eq!(m.names, ["RangeS-S", "RangeS-U", "RangeI-N"]);
        let cell = |r: usize, c: usize| m.compatible[r][c];
        assert_eq!((m.asked, m.held.as_slice()), (1, &[1][..]));
        assert!(!cell(1, 1) && cell(1, 0) && cell(0, 1) && cell(0, 0));
        // An insert's test waits for a reader's range, not for another insert's test.
        assert!(!cell(2, 0) && !cell(2, 1) && cell(2, 2));
        // Elsewhere the modes keep their names.
        let run = build("queue-wait-or-skip", &[("readpast", "off")]);
        let why = explain_at(&run, run.events_by(2_000_000), &["B".to_string()]).unwrap();
        assert_eq!(why.matrix.unwrap().names, ["IS", "IU", "IX", "S", "U", "X"]);
    }

    #[test]
    fn a_wait_behind_a_conversion_names_it_and_not_a_compatible_lock() {
        let run = build(
            "queue-claim-race",
            &[("claim", "two-step"), ("workers", "4"), ("tasks", "500")],
        );
        let k = run
            .trace
            .iter()
            .position(|e| {
                matches!(
                    &e.event,
                    Event::LockWaiting {
                        queued: Some(_),
                        ..
                    }
                )
            })
            .unwrap();
        let why = explain_at(&run, k + 1, &[]).unwrap();
        assert_eq!(why.title, "Why worker4 waits");
        assert_eq!(
            why.sentences[1..],
            [
                "worker1 asked for X on task 207 earlier (its UPDATE in work, line 44) and \
                 still waits for it. Locks are granted in order, and S is not compatible with \
                 X: worker4 waits behind worker1."
            ]
        );
        let m = why.matrix.unwrap();
        assert_eq!(
            (m.names[m.asked].as_str(), m.names[m.held[0]].as_str()),
            ("S", "X")
        );
    }

    #[test]
    fn a_wait_on_a_foreign_keys_lock_names_the_key() {
        let run = build("pg-foreign-key-locks", &[("admin", "delete"), ("fk", "on")]);
        let events = run.events_by(500_000);
        let why = explain_at(&run, events, &["admin".to_string()]).unwrap();
        assert_eq!(
            why.sentences[1],
            "worker holds FOR KEY SHARE on job 1 since 0.024 ms (its INSERT, line 2). \
             The lock comes from worker's check of foreign key job_run_job_id_fkey: until \
             worker's transaction ends, the referenced row can be neither deleted nor given \
             another key."
        );
        // A lock the script asks for itself names no key.
        let run = build(
            "pg-foreign-key-locks",
            &[("admin", "delete"), ("fk", "off")],
        );
        let events = run.events_by(500_000);
        if let Some(why) = explain_at(&run, events, &["admin".to_string()]) {
            assert!(
                why.sentences.iter().all(|s| !s.contains("foreign key")),
                "{why:?}"
            );
        }
    }

    #[test]
    fn a_refused_try_lock_names_the_function_and_the_holder() {
        let run = build("pg-send-double-click", &[("guard", "advisory-lock")]);
        let why = why_after_first(&run, |e| matches!(e, Event::LockRefused { .. }));
        assert_eq!(why.title, "Why user2 was refused");
        assert_eq!(
            why.sentences[0],
            "user2 asks for ExclusiveLock on advisory 3 with pg_try_advisory_lock, which never waits."
        );
        assert!(why.sentences[1].starts_with("user1 holds"), "{why:?}");
        assert!(
            why.sentences[2].ends_with(
                "pg_try_advisory_lock answers false at once, and user2 goes on without the lock."
            ),
            "{why:?}"
        );
        assert!(why.matrix.is_some());
    }

    #[test]
    fn a_serialization_failure_says_what_the_snapshot_forbids() {
        let run = build("pg-isolation", &[("isolation", "repeatable-read")]);
        let why = why_after_first(&run, |e| matches!(e, Event::Error { .. }));
        assert_eq!(why.title, "Why B got error 40001");
        assert!(
            why.sentences
                .iter()
                .any(|s| s.contains("changed this row and committed after that snapshot")),
            "{why:?}"
        );
    }

    #[test]
    fn a_read_write_dependency_failure_says_what_serializable_tracked() {
        let run = build("pg-write-skew", &[("isolation", "serializable")]);
        let why = why_after_first(&run, |e| matches!(e, Event::Error { .. }));
        assert_eq!(why.title, "Why A got error 40001");
        assert!(
            why.sentences
                .iter()
                .any(|s| s
                    .contains("changed rows A had read, and A changed rows the other had read")),
            "{why:?}"
        );
        // Not the snapshot's rule: no row A changed was changed by anybody else.
        assert!(
            !why.sentences
                .iter()
                .any(|s| s.contains("committed after that snapshot")),
            "{why:?}"
        );
    }

    #[test]
    fn a_skip_names_readpast_and_the_conflict() {
        let run = build("queue-wait-or-skip", &[("readpast", "on")]);
        let why = why_after_first(&run, |e| matches!(e, Event::RowSkipped { .. }));
        assert_eq!(why.title, "Why B skipped task 1");
        assert_eq!(
            why.sentences[0],
            "B skipped task 1: READPAST skips rows locked in a mode its lock conflicts with."
        );
        assert!(
            why.sentences[1].starts_with("A holds X on it; B needs U"),
            "{why:?}"
        );
    }

    #[test]
    fn a_duplicate_claim_names_both_workers_and_their_reads() {
        let run = build("queue-claim-race", &[]);
        let first = &run.anomalies[0];
        let why = explain_at(&run, first.event + 1, &[]).unwrap();
        assert_eq!(why.title, "Why: task claimed again");
        assert_eq!(
            why.sentences[0],
            "worker1 claimed task_id 1 again (claim 2): worker2 read it at 0.024 ms and claimed it at 20.121 ms; worker1 read it at 0.026 ms, before worker2's write committed at 20.288 ms."
        );
        assert_eq!(
            why.sentences[1..3],
            [
                "worker2's read was its SELECT in work, line 37.",
                "worker1's read was its SELECT in work, line 37."
            ]
        );
        // In Polish the read agrees with the lesson's verb (przejął: masculine), and
        // each read is a sentence that starts with its capital.
        crate::i18n::set_lang(crate::i18n::Lang::Pl);
        let why = explain_at(&run, first.event + 1, &[]).unwrap();
        crate::i18n::set_lang(crate::i18n::Lang::En);
        assert!(
            why.sentences[0].contains("worker2 odczytał go w chwili"),
            "{}",
            why.sentences[0]
        );
        assert!(
            why.sentences[1].starts_with("Odczytem sesji worker2"),
            "{}",
            why.sentences[1]
        );
        assert!(
            why.sentences[2].starts_with("Odczytem sesji worker1"),
            "{}",
            why.sentences[2]
        );
    }

    #[test]
    fn a_call_no_entry_records_names_the_call_and_the_failed_entry() {
        let run = build("send-failure", &[("fail", "after-call")]);
        let a = &run.anomalies[0];
        assert_eq!((a.event, a.at_us), (19, 5_000_096));
        let why = explain_at(&run, a.event + 1, &[]).unwrap();
        assert_eq!(why.title, "Why: receiver called, no entry records the call");
        assert_eq!(
            why.sentences[0],
            "clerk called external_system 1000 (OrderId 1000) at 5,000.096 ms; no send row has OrderId 1000 at the end of the run."
        );
        assert!(
            why.sentences[1].starts_with("After it clerk got error 50001 at 5,000.188 ms, in its THROW in send_document, line 33, before a send row recorded it"),
            "{why:?}"
        );
    }

    #[test]
    fn a_repeat_that_is_also_unrecorded_explains_both() {
        let run = build("send-double-click", &[("guard", "index-only")]);
        let a = &run.anomalies[0];
        let why = explain_at(&run, a.event + 1, &[]).unwrap();
        assert_eq!(
            why.title,
            "Why: receiver called a second time for one document"
        );
        assert!(
            why.sentences
                .iter()
                .any(|s| s == "Why: receiver called, no entry records the call."),
            "{why:?}"
        );
    }

    #[test]
    fn a_lost_row_names_the_consume_the_failure_and_the_commit() {
        let run = build("exercise-teradata-rollback", &[]);
        let a = run
            .anomalies
            .iter()
            .find(|a| a.label == "consumed job lost")
            .unwrap();
        assert_eq!((a.event, a.at_us), (11, 99));
        let why = explain_at(&run, a.event + 1, &[]).unwrap();
        assert_eq!(
            why.sentences[..3],
            [
                "A consumed job_queue rid 0 at 0 ms (its SELECT AND CONSUME, line 2) and got 1, order 1.",
                "Then A got error 3811 at 0.07 ms, in its INSERT, line 3: the action taken for the row failed.",
                "A committed at 0.099 ms, so the consume is permanent: the row is gone from job_queue and nothing records what was done with it."
            ]
        );
    }

    /// The run was recorded while its job existed; the admin's DELETE orphaned it, and
    /// the panel says so rather than blaming the worker.
    #[test]
    fn a_run_orphaned_by_a_delete_names_the_delete() {
        let run = build(
            "pg-foreign-key-locks",
            &[("admin", "delete"), ("fk", "off")],
        );
        let a = &run.anomalies[0];
        assert_eq!((a.session.as_str(), a.at_us), ("admin", 500_000));
        let why = explain_at(&run, a.event + 1, &[]).unwrap();
        assert_eq!(
            why.sentences,
            [
                "worker recorded job_run 1 (job_id 1) at 0.024 ms; no job row has id 1 at the end of the run.",
                "admin deleted the job row with id 1 at 500 ms, after that insert, and nothing stopped it: job_run 1 now points at a row that is gone."
            ]
        );
    }

    /// sp_getapplock's -1 is the lesson's central moment: the panel explains it (it
    /// said "Nothing to explain here").
    #[test]
    fn an_application_lock_that_times_out_says_it_returns_minus_one() {
        let run = build("send-wait-for-lock", &[("timeout_ms", "0")]);
        let k = run
            .trace
            .iter()
            .position(|e| matches!(e.event, Event::AppLockRequested { code: -1, .. }))
            .unwrap();
        let why = explain_at(&run, k + 1, &[]).unwrap();
        assert_eq!(why.title, "Why B did not get the application lock");
        assert_eq!(
            why.sentences,
            ["B's sp_getapplock asked for Exclusive on Order_77, but A holds it in a mode that does not allow that. The call could wait only as long as its @LockTimeout allows, and the lock did not come free in that time, so it returns -1: no error is raised and nothing is rolled back; the code that reads the return value decides what happens next."]
        );
    }

    /// Errors whose message leaves the cause unsaid get it: Teradata's 3128 (the
    /// delayed sessions' limit, not a consume count), SQL Server's 650 (the isolation
    /// level, not the data).
    #[test]
    fn errors_whose_message_hides_the_cause_name_it() {
        let cause = |id: &str, settings: &[(&str, &str)], number: u32| {
            let run = build(id, settings);
            let k = run
                .trace
                .iter()
                .rposition(|e| matches!(&e.event, Event::Error { number: n, .. } if *n == number))
                .unwrap_or_else(|| panic!("{id}: no error {number}"));
            explain_at(&run, k + 1, &[]).unwrap().sentences
        };
        let td = cause("teradata-rules", &[("t13", "break")], 3128);
        assert!(
            td.iter().any(|s| s.contains("(24 of the default 120)")
                && s.ends_with("the limit reached is the number of delayed sessions.")),
            "{td:?}"
        );
        // A bare THROW's error came from the statement whose line SQL Server reports.
        let thrown = cause("send-set-options", &[("quoted_identifier", "off")], 1934);
        assert!(
            thrown.contains(&"A THROW without arguments re-raises the error its CATCH block caught, unchanged: it came from its INSERT in send_document, line 36, and SQL Server reports that statement's line, not the THROW's.".to_string()),
            "{thrown:?}"
        );
        assert!(
            thrown
                .iter()
                .any(|s| s.starts_with("A write to a table with a filtered index")),
            "{thrown:?}"
        );
        let tsql = cause(
            "queue-isolation",
            &[("isolation", "serializable"), ("readpast", "on")],
            650,
        );
        assert!(
            tsql.iter()
                .any(|s| s
                    .starts_with("READPAST may be used only at READ COMMITTED or REPEATABLE READ")),
            "{tsql:?}"
        );
    }

    #[test]
    fn marks_kept_after_a_failed_call_name_the_update_the_commit_and_the_error() {
        let run = build("send-at-most-once", &[("fail", "fails")]);
        let a = &run.anomalies[0];
        assert_eq!((a.event, a.at_us), (21, 5_000_251));
        let why = explain_at(&run, a.event + 1, &[]).unwrap();
        assert_eq!(why.title, "Why: marked as sent, but the call failed");
        assert_eq!(
            why.sentences,
            [
                "sender marked outbox 1, 2 at 0.005 ms (its UPDATE, line 3); that change committed at 0.138 ms.",
                "Then sender got error 50002 at 5,000.251 ms, in its THROW, line 8: the work those rows record failed.",
                "The rows in outbox stay as written, so they say the work was done: nothing marks them for another try."
            ]
        );
    }

    #[test]
    fn teradata_names_its_modes() {
        let m = matrix(Dialect::Teradata, LockMode::X, &[LockMode::S]);
        assert_eq!(m.dialect, "Teradata");
        assert_eq!(m.names, ["READ", "WRITE"]);
        assert_eq!((m.asked, m.held.as_slice()), (1, &[0][..]));
        assert_eq!(resource_text("KEY task (1)"), "task 1");
        assert_eq!(resource_text("OBJECT task"), "OBJECT task");
        assert_eq!(resource_text("TUPLE send (rid 1)"), "send rid 1");
    }

    #[test]
    fn postgres_shows_its_row_lock_table() {
        let m = matrix(
            Dialect::Postgres,
            LockMode::ForUpdate,
            &[LockMode::ForKeyShare],
        );
        assert_eq!(m.dialect, "PostgreSQL");
        assert_eq!(
            m.names,
            [
                "FOR KEY SHARE",
                "FOR SHARE",
                "FOR NO KEY UPDATE",
                "FOR UPDATE"
            ]
        );
        assert_eq!((m.asked, m.held.as_slice()), (3, &[0][..]));
        // Row by row, the documentation's table: only FOR UPDATE conflicts with KEY SHARE.
        let yes_no: Vec<Vec<bool>> = m.compatible.clone();
        assert_eq!(
            yes_no,
            [
                [true, true, true, false],
                [true, true, false, false],
                [true, false, false, false],
                [false, false, false, false],
            ]
        );
    }

    #[test]
    fn an_uncaught_error_says_where_and_that_nothing_caught_it() {
        let run = build("send-double-click", &[("guard", "index-only")]);
        let a = run
            .anomalies
            .iter()
            .find(|a| a.label == "error 2601")
            .unwrap();
        let why = explain_at(&run, a.event + 1, &[]).unwrap();
        assert_eq!(why.title, "Why user2 got error 2601");
        assert!(why
            .sentences
            .last()
            .unwrap()
            .starts_with("No TRY block caught it"));
        assert!(
            why.sentences[1].starts_with("user2 got it in its INSERT"),
            "{why:?}"
        );
    }
}
