//! The outcome as the compact embed shows it: one line of figures per session, the
//! checks counted, what the last toggle changed, and the whole `Outcome` panel one click
//! away (a `<details>`: opening it is the reader's action, so the widget may grow then).
//! A compare widget shows one per side, the right one against the left.

use std::rc::Rc;

use yew::prelude::*;

use super::outcome::Outcome;
use crate::present::{changes, ms_label, ms_number, session_class};
use crate::run::RunSummary;
use crate::t;

#[derive(Properties, PartialEq)]
pub struct CompactOutcomeProps {
    pub summary: Rc<RunSummary>,
    pub previous: Option<Rc<RunSummary>>,
    /// `previous` is the run beside this one (a compare widget's right side), not the
    /// one before a toggle.
    #[prop_or_default]
    pub beside: bool,
}

#[function_component]
pub fn CompactOutcome(props: &CompactOutcomeProps) -> Html {
    let summary = &props.summary;
    let sessions = summary.outcome.sessions.iter().enumerate().map(|(i, s)| {
        let errors = s.errors.iter().filter(|e| !e.caught).count();
        // Caught errors count too: the lanes mark them, and "0 errors" beside a ✕ reads
        // as a contradiction.
        let caught = s.errors.len() - errors;
        let rows: usize = s.results.iter().map(|r| r.rows.len()).sum();
        html! {
            <li class={classes!("outcome-compact__session", session_class(i))}
                data-testid={format!("outcome-line-{}", s.name)} data-wait-ms={ms_number(s.wait_us)}>
                <span class="swatch" aria-hidden="true"></span>
                <strong>{ &s.name }</strong>
                { " " }{ t!("compact-session", wait = ms_label(s.wait_us), rows = rows, errors = errors) }
                if caught > 0 {
                    { t!("compact-caught", count = caught) }
                }
                // A consume's wait for a row is no lock wait: said apart, or "waited 0 ms"
                // would hide the wait a queue table is about.
                if s.delayed_us > 0 {
                    { t!("compact-delayed", ms = ms_label(s.delayed_us)) }
                }
            </li>
        }
    });
    let passed = summary.checks.iter().filter(|c| c.passed).count();
    let changed = props.previous.as_ref().map(|before| {
        let lines = changes(before, summary);
        html! {
            <p class="outcome-compact__changed" data-testid="before-after-compact">
                <strong>{ if props.beside { t!("compact-beside") } else { t!("compact-last-toggle") } }{ " " }</strong>
                if lines.is_empty() {
                    { t!("compact-nothing-changed") }
                } else {
                    { for lines.iter().enumerate().map(|(i, c)| html! {
                        <>
                            if i > 0 { { " · " } }
                            { format!("{} ", c.what) }
                            <span class="before-after__before">{ &c.before }</span>
                            <span aria-hidden="true">{ " → " }</span><span class="visually-hidden">{ " " }{ t!("became") }{ " " }</span>
                            <strong>{ &c.after }</strong>
                        </>
                    }) }
                }
            </p>
        }
    });
    html! {
        <section class="panel outcome-compact" aria-label={t!("outcome-title")} data-testid="outcome-compact">
            <p class="outcome-compact__head">
                <strong>{ t!("outcome-title") }</strong>
                { " · " }{ t!("compact-ended", end = ms_label(summary.end_us), seed = summary.key.seed.to_string()) }
                if !summary.checks.is_empty() {
                    <span data-testid="checks-count">{ " · " }{ t!("compact-checks", passed = passed, total = summary.checks.len()) }</span>
                }
            </p>
            <ul class="outcome-compact__sessions">{ for sessions }</ul>
            <>{ for changed }</>
            <details class="outcome-compact__more" data-testid="outcome-more">
                <summary>{ t!("compact-more") }</summary>
                <Outcome summary={summary.clone()} previous={props.previous.clone()} beside={props.beside} />
            </details>
        </section>
    }
}
