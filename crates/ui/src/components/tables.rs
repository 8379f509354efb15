//! Tables at the playhead: rows with lock badges (holder and mode, in the holder's
//! colour), rows the current step changed, inserted or skipped with READPAST, and
//! uncommitted changes. Big tables show a window: the rows that matter now, their
//! neighbours and the first rows, with the rest counted.

use std::rc::Rc;

use engine::{LockBadge, StateView, TableView, Value};
use lesson::value_text;
use yew::prelude::*;

use crate::player::Shared;
use crate::present::{ms_label, row_window, session_class, RecentChange, RowSlot, StepMarks};

/// Rows shown per table before windowing.
const ROWS_SHOWN: usize = 10;

#[derive(Properties, PartialEq)]
pub struct TablesProps {
    pub view: Shared<StateView>,
    pub marks: Rc<StepMarks>,
    /// The latest row changes, for rows outside a big table's window.
    #[prop_or_default]
    pub recent: Rc<Vec<RecentChange>>,
    pub sessions: Vec<String>,
    /// Rows of the anomaly at or before the playhead, `(table, key)`.
    #[prop_or_default]
    pub highlight: Rc<Vec<(String, String)>>,
}

pub fn badge(b: &LockBadge, sessions: &[String]) -> Html {
    let i = sessions.iter().position(|s| *s == b.session).unwrap_or(0);
    html! {
        <span class={classes!("lock", session_class(i))} title={format!("{} holds {}", b.session, b.mode)} data-lock={format!("{}:{}", b.session, b.mode)}>
            { format!("{} {}", b.session, b.mode) }
        </span>
    }
}

#[function_component]
pub fn Tables(props: &TablesProps) -> Html {
    let tables = props.view.tables.iter().map(|t| {
        table(
            t,
            &props.marks,
            &props.recent,
            &props.sessions,
            &props.highlight,
        )
    });
    html! {
        <section class="panel tables" aria-labelledby="tables-heading" data-testid="tables">
            <h3 id="tables-heading" class="panel__title">{ "Tables" }</h3>
            { for tables }
        </section>
    }
}

fn cell_text(value: &Value) -> (String, Option<String>) {
    let full = value_text(value);
    match value {
        // The date is the same all run; the time is what moves.
        Value::DateTime(_) => match full.split_once(' ') {
            Some((_, time)) => (time.to_string(), Some(full.clone())),
            None => (full, None),
        },
        _ => (full, None),
    }
}

fn table(
    t: &TableView,
    marks: &StepMarks,
    recent: &[RecentChange],
    sessions: &[String],
    highlight: &[(String, String)],
) -> Html {
    let key = |i: usize| (t.name.clone(), t.rows[i].key.clone());
    let anomalous = |i: usize| {
        highlight
            .iter()
            .any(|(n, k)| *n == t.name && *k == t.rows[i].key)
    };
    let focus: Vec<usize> = (0..t.rows.len())
        .filter(|&i| {
            anomalous(i)
                || !t.rows[i].locks.is_empty()
                || t.rows[i].uncommitted_by.is_some()
                || marks.touches(&t.name, &t.rows[i].key)
        })
        .collect();
    let keys: Vec<String> = t.rows.iter().map(|r| r.key.clone()).collect();
    let slots = row_window(&keys, t.total_rows, &focus, ROWS_SHOWN);
    let outside: Vec<&RecentChange> = recent
        .iter()
        .filter(|c| c.table == t.name)
        .filter(|c| {
            !slots
                .iter()
                .any(|s| matches!(s, RowSlot::Row(i) if t.rows[*i].key == c.key))
        })
        .collect();
    let shown = slots
        .iter()
        .filter(|s| matches!(s, RowSlot::Row(_)))
        .count();
    let columns = t.columns.len() + 1;
    let rows = slots.iter().map(|slot| match *slot {
        RowSlot::Gap(n) => html! {
            <tr class="row--gap"><td colspan={columns.to_string()}>{ match n {
                Some(n) => format!("… {n} more row{} …", if n == 1 { "" } else { "s" }),
                None => "…".to_string(),
            } }</td></tr>
        },
        RowSlot::Row(i) => {
            let row = &t.rows[i];
            let k = key(i);
            let changed = marks.changed.get(&k);
            let inserted = marks.inserted.contains(&k);
            let skipped = marks.skipped.get(&k);
            let cells = t.columns.iter().zip(&row.values).map(|(col, value)| {
                let (text, title) = cell_text(value);
                let is_changed = inserted || changed.is_some_and(|c| c.contains(col));
                html! {
                    <td class={classes!(is_changed.then_some("cell--changed"))} title={title}>
                        { text }
                        if is_changed { <span class="visually-hidden">{ " (changed now)" }</span> }
                    </td>
                }
            });
            html! {
                <tr
                    key={row.key.clone()}
                    class={classes!(inserted.then_some("row--inserted"), skipped.map(|_| "row--skipped"), (!row.locks.is_empty()).then_some("row--locked"), anomalous(i).then_some("row--anomaly"))}
                    data-key={row.key.clone()}
                    data-anomaly={anomalous(i).then_some("true")}
                    data-skipped={skipped.map(|_| "true")}
                >
                    <td class="row__locks">
                        if anomalous(i) {
                            <span class="row-note row-note--anomaly" title="a row of the anomaly at the playhead">{ "⚠ anomaly" }</span>
                        }
                        { for row.locks.iter().map(|b| badge(b, sessions)) }
                        if let Some(by) = &row.uncommitted_by {
                            <span class="row-note" title={format!("changed by {by}, not yet committed")}>{ format!("✎ {by} uncommitted") }</span>
                        }
                        if let Some(notes) = skipped {
                            <span class="row-note row-note--skipped" title={notes.join("; ")} data-testid="skipped">{ "⤼ skipped" }</span>
                            <span class="visually-hidden">{ notes.join("; ") }</span>
                        }
                    </td>
                    { for cells }
                </tr>
            }
        }
    });
    html! {
        <div class="table" data-testid={format!("table-{}", t.name)}>
            <p class="table__head">
                <span class="table__name">{ &t.name }</span>
                <span class="table__count">
                    { format!("{} row{}", t.total_rows, if t.total_rows == 1 { "" } else { "s" }) }
                    if shown < t.total_rows { { format!(" · {shown} shown: locked, just changed, and the first") } }
                </span>
                { for t.table_locks.iter().map(|b| badge(b, sessions)) }
            </p>
            if t.columns.is_empty() || t.total_rows == 0 {
                <p class="table__empty">{ "no rows" }</p>
            } else {
                <div class="table__scroll">
                    <table>
                        <thead>
                            <tr>
                                <th scope="col"><span class="visually-hidden">{ "Locks" }</span><span aria-hidden="true">{ "locks" }</span></th>
                                { for t.columns.iter().map(|c| html! { <th scope="col">{ c }</th> }) }
                            </tr>
                        </thead>
                        <tbody>
                            { for rows }
                        </tbody>
                    </table>
                </div>
            }
            if !outside.is_empty() {
                <div class="table__recent" data-testid={format!("recent-{}", t.name)}>
                    <p class="table__recent-title">{ "Latest changes to rows not shown:" }</p>
                    <ul>
                        { for outside.iter().map(|c| html! {
                            <li><span class="muted">{ ms_label(c.at_us) }</span>{ " " }{ &c.text }</li>
                        }) }
                    </ul>
                </div>
            }
        </div>
    }
}
