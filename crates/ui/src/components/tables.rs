//! Tables at the playhead: rows with lock badges (holder and mode, in the holder's
//! colour), rows the current step changed, inserted or skipped with READPAST, and
//! uncommitted changes. Big tables show a window that follows the playhead: the rows
//! that matter now (locked, just changed), their neighbours and the first rows, with
//! the rest counted. A filter bar narrows every table to rows matching a search, a
//! session, rows locked now or rows with anomalies.

use std::collections::BTreeSet;
use std::rc::Rc;

use engine::{Dialect, LockBadge, StateView, TableView, Value};
use lesson::value_text;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::player::Shared;
use crate::present::{
    filter_rows, ms_label, row_window, session_class, RecentChange, RowSlot, StepMarks, TableFilter,
};
use crate::t;

/// Rows shown per table before windowing.
const ROWS_SHOWN: usize = 10;
/// Rows a filter shows per table at most (the rest are counted).
const MATCHES_SHOWN: usize = 50;

#[derive(Properties, PartialEq)]
pub struct TablesProps {
    pub view: Shared<StateView>,
    pub marks: Rc<StepMarks>,
    /// The latest row changes, for rows outside a big table's window.
    #[prop_or_default]
    pub recent: Rc<Vec<RecentChange>>,
    pub sessions: Vec<String>,
    /// Rows with anomalies, as `(table, key)`: highlighted, and a filter of their own.
    #[prop_or_default]
    pub highlighted: Rc<BTreeSet<(String, String)>>,
    #[prop_or_default]
    pub filter: TableFilter,
    #[prop_or_default]
    pub on_filter: Callback<TableFilter>,
    /// The same moment with every row, while a filter is on.
    #[prop_or_default]
    pub full: Option<Shared<StateView>>,
    /// Show the filter bar (the page that owns the filter and the full view).
    #[prop_or_default]
    pub filterable: bool,
    /// The playhead is inside an instant whose state the view shows at its end.
    #[prop_or_default]
    pub instant: Option<crate::run::Instant>,
    /// The run's dialect, which names lock modes in the badges' tooltips.
    #[prop_or_default]
    pub dialect: Option<Dialect>,
}

/// A session's lock: its mode as the dialect names it (PostgreSQL's FOR NO KEY UPDATE,
/// SQL Server's RangeS-U on a key range) in the tooltip, and also in the badge where it
/// is spelled, in a list of locks with room for it, whose `resource` names the lock; in
/// a table's narrow lock column the badge keeps the short form (FNKU).
pub fn badge(
    b: &LockBadge,
    sessions: &[String],
    dialect: Option<Dialect>,
    spelled: Option<&str>,
) -> Html {
    let i = sessions.iter().position(|s| *s == b.session).unwrap_or(0);
    let name = dialect.map_or_else(
        || b.mode.to_string(),
        |d| crate::why::mode_name_on(d, spelled.unwrap_or(""), b.mode),
    );
    let shown = if spelled.is_some() {
        name.clone()
    } else {
        b.mode.to_string()
    };
    html! {
        <span class={classes!("lock", session_class(i))} title={t!("table-holds", session = &b.session, mode = name)} data-lock={format!("{}:{}", b.session, b.mode)}>
            { format!("{} {}", b.session, shown) }
        </span>
    }
}

#[function_component]
pub fn Tables(props: &TablesProps) -> Html {
    let ctx = RowCtx {
        marks: &props.marks,
        sessions: &props.sessions,
        dialect: props.dialect,
        highlighted: &props.highlighted,
    };
    let filtering = props.filter.active();
    let tables: Vec<Html> = match (&props.full, filtering) {
        (Some(full), true) => full
            .tables
            .iter()
            .map(|t| filtered(t, &props.filter, &ctx))
            .collect(),
        _ => props
            .view
            .tables
            .iter()
            .map(|t| table(t, &props.recent, &ctx))
            .collect(),
    };
    html! {
        <section class="panel tables" aria-labelledby="tables-heading" data-testid="tables">
            <h3 id="tables-heading" class="panel__title">{ t!("tab-tables") }</h3>
            { super::waits::instant_note(props.instant) }
            if props.filterable {
                <FilterBar filter={props.filter.clone()} on_filter={props.on_filter.clone()}
                    sessions={props.sessions.clone()} anomalies={props.highlighted.len()} />
            }
            <>{ for tables }</>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct FilterBarProps {
    filter: TableFilter,
    on_filter: Callback<TableFilter>,
    sessions: Vec<String>,
    /// How many rows have anomalies.
    anomalies: usize,
}

#[function_component]
fn FilterBar(props: &FilterBarProps) -> Html {
    let f = &props.filter;
    let with = |change: fn(&mut TableFilter, String)| {
        let (f, on_filter) = (f.clone(), props.on_filter.clone());
        move |value: String| {
            let mut next = f.clone();
            change(&mut next, value);
            on_filter.emit(next);
        }
    };
    let on_search = {
        let set = with(|f, v| f.search = v);
        Callback::from(move |e: InputEvent| {
            if let Some(el) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            {
                set(el.value());
            }
        })
    };
    let on_session = {
        let set = with(|f, v| f.session = (!v.is_empty()).then_some(v));
        Callback::from(move |e: Event| {
            if let Some(el) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            {
                set(el.value());
            }
        })
    };
    let flag = |change: fn(&mut TableFilter, bool)| {
        let (f, on_filter) = (f.clone(), props.on_filter.clone());
        Callback::from(move |e: Event| {
            if let Some(el) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            {
                let mut next = f.clone();
                change(&mut next, el.checked());
                on_filter.emit(next);
            }
        })
    };
    let clear = {
        let on_filter = props.on_filter.clone();
        Callback::from(move |_: MouseEvent| on_filter.emit(TableFilter::default()))
    };
    html! {
        <div class="filter" role="search" aria-label={t!("filter-label")} data-testid="table-filter">
            <label class="filter__search">
                <span class="visually-hidden">{ t!("filter-text") }</span>
                <input type="search" placeholder={t!("table-search-placeholder")} data-testid="table-search"
                    value={f.search.clone()} oninput={on_search} />
            </label>
            <label>
                <span class="visually-hidden">{ t!("filter-session") }</span>
                <select data-testid="table-session" onchange={on_session}>
                    <option value="" selected={f.session.is_none()}>{ t!("filter-any-session") }</option>
                    { for props.sessions.iter().map(|s| html! {
                        <option value={s.clone()} selected={f.session.as_deref() == Some(s.as_str())}>{ s }</option>
                    }) }
                </select>
            </label>
            <label class="filter__flag">
                <input type="checkbox" data-testid="table-locked" checked={f.locked} onchange={flag(|f, on| f.locked = on)} />
                { t!("filter-locked") }
            </label>
            <label class="filter__flag">
                <input type="checkbox" data-testid="table-anomalies" checked={f.anomalies} onchange={flag(|f, on| f.anomalies = on)} />
                { t!("filter-anomalies", count = props.anomalies) }
            </label>
            if f.active() {
                <button type="button" class="button button--small" data-testid="table-filter-clear" onclick={clear}>{ t!("filter-clear") }</button>
            }
        </div>
    }
}

/// What every row needs to draw itself.
struct RowCtx<'a> {
    marks: &'a StepMarks,
    sessions: &'a [String],
    dialect: Option<Dialect>,
    highlighted: &'a BTreeSet<(String, String)>,
}

/// A table narrowed by a filter: the matching rows (up to [`MATCHES_SHOWN`]), counted.
fn filtered(t: &TableView, filter: &TableFilter, ctx: &RowCtx) -> Html {
    let rows = filter_rows(t, filter, ctx.highlighted);
    let shown = rows.len().min(MATCHES_SHOWN);
    html! {
        <div class="table" data-testid={format!("table-{}", t.name)} data-matches={rows.len().to_string()}>
            <p class="table__head">
                <span class="table__name">{ &t.name }</span>
                <span class="table__count">
                    { t!("table-match", matched = rows.len(), total = t.total_rows) }
                    if shown < rows.len() { { " · " }{ t!("table-first-shown", shown = shown) } }
                </span>
            </p>
            if rows.is_empty() {
                <p class="table__empty">{ t!("table-no-match") }</p>
            } else {
                <div class="table__scroll">
                    <table>
                        { head(t) }
                        <tbody>{ for rows.iter().take(shown).map(|&i| row_html(t, i, ctx)) }</tbody>
                    </table>
                </div>
            }
        </div>
    }
}

fn head(t: &TableView) -> Html {
    html! {
        <thead>
            <tr>
                <th scope="col"><span class="visually-hidden">{ t!("table-locks-column") }</span><span aria-hidden="true">{ t!("table-locks-short") }</span></th>
                { for t.columns.iter().map(|c| html! { <th scope="col">{ c }</th> }) }
            </tr>
        </thead>
    }
}

fn cell_text(value: &Value) -> (String, Option<String>) {
    let full = value_text(value);
    match value {
        // The date is the same all run; the time is what moves.
        Value::DateTime(..) => match full.split_once(' ') {
            Some((_, time)) => (time.to_string(), Some(full.clone())),
            None => (full, None),
        },
        _ => (full, None),
    }
}

fn row_html(t: &TableView, i: usize, ctx: &RowCtx) -> Html {
    let row = &t.rows[i];
    let k = (t.name.clone(), row.key.clone());
    let changed = ctx.marks.changed.get(&k);
    let inserted = ctx.marks.inserted.contains(&k);
    let skipped = ctx.marks.skipped.get(&k);
    let anomaly = ctx.highlighted.contains(&k);
    let cells = t.columns.iter().zip(&row.values).map(|(col, value)| {
        let (text, title) = cell_text(value);
        let is_changed = inserted || changed.is_some_and(|c| c.contains(col));
        html! {
            <td class={classes!(is_changed.then_some("cell--changed"))} title={title}>
                { text }
                if is_changed { <span class="visually-hidden">{ " " }{ t!("table-changed-now") }</span> }
            </td>
        }
    });
    html! {
        <tr
            key={row.key.clone()}
            class={classes!(inserted.then_some("row--inserted"), skipped.map(|_| "row--skipped"), (!row.locks.is_empty()).then_some("row--locked"), anomaly.then_some("row--anomaly"))}
            data-key={row.key.clone()}
            data-skipped={skipped.map(|_| "true")}
            data-anomaly={anomaly.then_some("true")}
        >
            <td class="row__locks">
                { for row.locks.iter().map(|b| badge(b, ctx.sessions, ctx.dialect, None)) }
                if let Some(by) = &row.uncommitted_by {
                    <span class="row-note" title={t!("row-uncommitted-title", session = by)}>{ t!("row-uncommitted", session = by) }</span>
                }
                if let Some(notes) = skipped {
                    <span class="row-note row-note--skipped" title={notes.join("; ")} data-testid="skipped">{ t!("table-skipped") }</span>
                    <span class="visually-hidden">{ notes.join("; ") }</span>
                }
            </td>
            <>{ for cells }</>
        </tr>
    }
}

fn table(t: &TableView, recent: &[RecentChange], ctx: &RowCtx) -> Html {
    let marks = ctx.marks;
    let focus: Vec<usize> = (0..t.rows.len())
        .filter(|&i| {
            !t.rows[i].locks.is_empty()
                || t.rows[i].uncommitted_by.is_some()
                || marks.touches(&t.name, &t.rows[i].key)
                || recent
                    .iter()
                    .any(|c| c.table == t.name && c.key == t.rows[i].key)
                || ctx
                    .highlighted
                    .contains(&(t.name.clone(), t.rows[i].key.clone()))
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
                Some(n) => t!("table-gap", count = n),
                None => "…".to_string(),
            } }</td></tr>
        },
        RowSlot::Row(i) => row_html(t, i, ctx),
    });
    html! {
        <div class="table" data-testid={format!("table-{}", t.name)}>
            <p class="table__head">
                <span class="table__name">{ &t.name }</span>
                <span class="table__count">
                    { t!("rows", count = t.total_rows) }
                    if shown < t.total_rows { { " · " }{ t!("table-shown", shown = shown) } }
                </span>
                { for t.table_locks.iter().map(|b| badge(b, ctx.sessions, ctx.dialect, None)) }
            </p>
            if t.columns.is_empty() || t.total_rows == 0 {
                <p class="table__empty">{ t!("table-no-rows") }</p>
            } else {
                <div class="table__scroll">
                    <table>
                        { head(t) }
                        <tbody>
                            <>{ for rows }</>
                        </tbody>
                    </table>
                </div>
            }
            if !outside.is_empty() {
                <div class="table__recent" data-testid={format!("recent-{}", t.name)}>
                    <p class="table__recent-title">{ t!("table-recent") }</p>
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
