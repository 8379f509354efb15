//! The outcome of the whole run: per session its wait, results (the claims), errors
//! and logical reads (PostgreSQL's shared buffers hit); the lesson's checks with pass or fail; and after a toggle, what
//! changed (before → after).

use std::rc::Rc;

use lesson::value_text;
use yew::prelude::*;

use crate::present::{changes, ms_label, ms_number, reads_label, session_class};
use crate::run::RunSummary;
use crate::t;

#[derive(Properties, PartialEq)]
pub struct OutcomeProps {
    pub summary: Rc<RunSummary>,
    pub previous: Option<Rc<RunSummary>>,
    /// An exercise's checks are its goals, unmet until the learner changes the SQL.
    #[prop_or_default]
    pub exercise: bool,
    /// `previous` is the run beside this one (compare), not the one before a toggle.
    #[prop_or_default]
    pub beside: bool,
}

/// Result rows shown per result set until the reader asks for the rest.
const RESULT_ROWS: usize = 3;
/// Rows an expanded result set shows at most.
const EXPANDED_ROWS: usize = 200;
/// Result sets shown per session (a Teradata batch returns one per consume, thousands).
const RESULTS_SHOWN: usize = 10;

#[derive(Properties)]
struct ResultTableProps {
    summary: Rc<RunSummary>,
    /// The session's and the result's indexes, 0-based.
    session: usize,
    index: usize,
}

/// One run's summary is one `Rc`: comparing the pointer spares a walk of every result.
impl PartialEq for ResultTableProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.summary, &other.summary)
            && (self.session, self.index) == (other.session, other.index)
    }
}

/// One result set: its first rows, and a button that shows the rest.
#[function_component]
fn ResultTable(props: &ResultTableProps) -> Html {
    let expanded = use_state(|| false);
    let s = &props.summary.outcome.sessions[props.session];
    let rs = &s.results[props.index];
    let shown = if *expanded {
        EXPANDED_ROWS
    } else {
        RESULT_ROWS
    };
    let more = rs.rows.len().saturating_sub(shown);
    let toggle = {
        let expanded = expanded.clone();
        Callback::from(move |_: MouseEvent| expanded.set(!*expanded))
    };
    let columns = rs.columns.len().max(1).to_string();
    html! {
        <div class="result" data-testid={format!("result-{}-{}", s.name, props.index + 1)}>
            <table>
                <caption>{ t!("result-caption", number = props.index + 1, rows = rs.rows.len()) }</caption>
                <thead><tr>{ for rs.columns.iter().map(|c| html! { <th scope="col">{ c }</th> }) }</tr></thead>
                <tbody>
                    { for rs.rows.iter().take(shown).map(|row| html! {
                        <tr>{ for row.iter().map(|v| html! { <td>{ value_text(v) }</td> }) }</tr>
                    }) }
                    if more > 0 && !*expanded {
                        <tr><td colspan={columns} class="muted">
                            <button type="button" class="link-button" aria-expanded="false" data-testid="result-more" onclick={toggle}>
                                { t!("result-more", count = more) }
                            </button>
                        </td></tr>
                    } else if *expanded {
                        <tr><td colspan={columns} class="muted">
                            if more > 0 { { t!("result-more", count = more) }{ " · " } }
                            <button type="button" class="link-button" aria-expanded="true" data-testid="result-less" onclick={toggle}>
                                { t!("result-less") }
                            </button>
                        </td></tr>
                    }
                </tbody>
            </table>
        </div>
    }
}

#[function_component]
pub fn Outcome(props: &OutcomeProps) -> Html {
    let summary = &props.summary;
    let cards = summary.outcome.sessions.iter().enumerate().map(|(i, s)| {
        let results = (0..s.results.len().min(RESULTS_SHOWN)).map(|r| {
            html! { <ResultTable summary={summary.clone()} session={i} index={r} /> }
        });
        let more_results = s.results.len().saturating_sub(RESULTS_SHOWN);
        let errors = s.errors.iter().map(|e| {
            html! {
                <li class="error" data-testid={format!("error-{}", s.name)} data-number={e.number.to_string()}>
                    <strong>{ t!("error-number", number = crate::i18n::error_code(e.number, e.sqlstate)) }</strong>
                    // PostgreSQL and Teradata show no severity or state number.
                    if e.has_severity() {
                        { " " }{ t!("error-detail", severity = e.severity.to_string(), state = e.state.to_string(), message = e.message.clone()) }
                    } else {
                        { t!("error-detail-sqlstate", message = e.message.clone()) }
                    }
                    if e.caught {
                        <span class="muted">{ " " }{ if e.sqlstate.is_some() { t!("error-caught-exception") } else { t!("error-caught") } }</span>
                    }
                </li>
            }
        });
        html! {
            <div class={classes!("outcome__session", session_class(i))} data-testid={format!("outcome-{}", s.name)}
                data-wait-ms={ms_number(s.wait_us)} data-errors={s.errors.len().to_string()}>
                <p class="session__head">
                    <span class="session__name"><span class="swatch" aria-hidden="true"></span>{ &s.name }</span>
                </p>
                <dl class="figures">
                    <div><dt>{ t!("figure-ran") }</dt><dd data-testid={format!("elapsed-{}", s.name)}>{ ms_label(s.elapsed_us) }</dd></div>
                    <div><dt>{ t!("figure-waited") }</dt><dd data-testid={format!("wait-{}", s.name)}>{ ms_label(s.wait_us) }</dd></div>
                    if s.delayed_us > 0 {
                        <div><dt>{ t!("figure-delayed") }</dt><dd data-testid={format!("delayed-{}", s.name)}>{ ms_label(s.delayed_us) }</dd></div>
                    }
                    <div><dt>{ t!("figure-statements") }</dt><dd>{ s.statements }</dd></div>
                    <div><dt>{ reads_label(summary.reads_name) }</dt><dd>{ s.logical_reads }</dd></div>
                    <div><dt>{ t!("figure-errors") }</dt><dd>{ errors_label(s) }</dd></div>
                </dl>
                if !s.errors.is_empty() {
                    <ul class="errors">{ for errors }</ul>
                }
                if s.results.is_empty() {
                    <p class="muted">{ t!("no-results") }</p>
                }
                <>{ for results }</>
                if more_results > 0 {
                    <p class="muted" data-testid={format!("results-more-{}", s.name)}>{ t!("results-more", count = more_results) }</p>
                }
            </div>
        }
    });
    let passed = summary.checks.iter().filter(|c| c.passed).count();
    let catalog = crate::catalog::catalog();
    let lang = crate::i18n::lang();
    let checks = summary.checks.iter().map(|c| {
        let name = catalog.check_name_in(&summary.key.lesson_id, &c.name, lang.as_str());
        html! {
            // A check that describes a bug holds when the bug happened: a warning, not a pass.
            <li class={classes!("check", match (c.passed, c.bug) { (true, true) => "check--bug", (true, false) => "check--pass", _ => "check--fail" })}
                data-testid="check" data-passed={if c.passed { "true" } else { "false" }} data-name={c.name.clone()}
                data-bug={c.bug.then_some("true")}>
                <span class="check__verdict">{ match (c.passed, c.bug) { (true, true) => t!("check-bug"), (true, false) => t!("check-pass"), _ => t!("check-fail") } }</span>
                <span class="check__name" lang={crate::catalog::words_lang(&summary.key.lesson_id)}>{ name }</span>
                <span class="check__detail" data-testid="check-detail">{ i18n::detail(&c.detail) }</span>
            </li>
        }
    });
    let diff = props.previous.as_ref().map(|before| {
        let lines = changes(before, summary);
        html! {
            <div class="before-after" data-testid="before-after">
                <h4 class="panel__subtitle">{ if props.beside { t!("changes-title-beside") } else { t!("changes-title") } }</h4>
                if lines.is_empty() {
                    <p class="muted">{ t!("changes-none") }</p>
                } else {
                    <ul>
                        { for lines.iter().map(|c| html! {
                            <li data-what={c.what.clone()}>
                                <span class="before-after__what">{ &c.what }</span>{ " " }
                                <span class="before-after__before">{ &c.before }</span>
                                <span aria-hidden="true">{ " → " }</span><span class="visually-hidden">{ " " }{ t!("became") }{ " " }</span>
                                <strong class="before-after__after">{ &c.after }</strong>
                            </li>
                        }) }
                    </ul>
                }
            </div>
        }
    });
    html! {
        <section class="panel outcome" aria-labelledby="outcome-heading" data-testid="outcome" data-end-ms={ms_number(summary.end_us)}>
            <h3 id="outcome-heading" class="panel__title">
                { t!("outcome-title") }
                <span class="panel__note">{ t!("outcome-note", end = ms_label(summary.end_us), seed = summary.key.seed.to_string()) }</span>
            </h3>
            <>{ for diff }</>
            <div class="outcome__sessions">{ for cards }</div>
            if !summary.checks.is_empty() {
                <h4 class="panel__subtitle">
                    { if props.exercise {
                        t!("goals-met", passed = passed, total = summary.checks.len())
                    } else {
                        t!("checks-pass", passed = passed, total = summary.checks.len())
                    } }
                </h4>
                if props.exercise && passed < summary.checks.len() {
                    <p class="muted exercise-note">{ t!("exercise-note") }</p>
                }
                <ul class="checks" data-testid="checks">{ for checks }</ul>
            }
        </section>
    }
}

/// Errors nobody handled, and how many a CATCH block handled.
fn errors_label(s: &engine::SessionOutcome) -> String {
    let caught = s.errors.iter().filter(|e| e.caught).count();
    match caught {
        0 => s.errors.len().to_string(),
        n => t!("errors-caught", uncaught = s.errors.len() - n, caught = n),
    }
}
