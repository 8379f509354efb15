//! Code panels: each session's SQL with its current statement highlighted (and, when
//! it is inside a procedure from the setup, the lines it is at there), and the text
//! that toggles switched marked, freshly flipped text flashing briefly.

use std::ops::Range;
use std::rc::Rc;

use engine::{Block, SessionStatus, Source, StateView};
use lesson::ToggledRange;
use yew::prelude::*;

use crate::player::Shared;
use crate::present::{
    code_items, common_indent, dedent, ms_label, session_class, snippet, CodeItem, StatementMark,
};
use crate::run::{RunModel, Statement};
use crate::t;

#[derive(Properties, PartialEq)]
pub struct CodeListingProps {
    pub text: AttrValue,
    /// Part of `text` to show (a snippet); all of it when `None`.
    #[prop_or_default]
    pub window: Option<(usize, usize)>,
    pub toggled: Vec<ToggledRange>,
    pub statements: Vec<StatementMark>,
    pub sessions: Vec<String>,
    pub fresh: Vec<String>,
    pub flash: u32,
    /// Leading spaces to take off every line (a snippet's shared indentation).
    #[prop_or_default]
    pub dedent: usize,
}

/// A `<pre>` of SQL with marks. Text switched by a toggle is a `<mark>` naming the
/// toggle; a session's current statement is highlighted in its colour and starts with
/// a tag naming the session, so colour is never the only cue.
#[function_component]
pub fn CodeListing(props: &CodeListingProps) -> Html {
    let text = props.text.as_str();
    let window = props.window.map_or(0..text.len(), |(a, b)| a..b);
    let items = dedent(
        code_items(text, window, &props.toggled, &props.statements),
        props.dedent,
    );
    let name = |i: usize| props.sessions.get(i).cloned().unwrap_or_default();
    let rendered = items.into_iter().enumerate().map(|(i, item)| match item {
        CodeItem::Text { text, toggle, sessions } => {
            let inner = match sessions.first() {
                Some(&s) => html! {
                    <span class={classes!("stmt", session_class(s), (sessions.len() > 1).then_some("stmt--shared"))} data-session={name(s)}>{ text }</span>
                },
                None => html! { { text } },
            };
            match toggle {
                Some(toggle) => {
                    let fresh = props.fresh.contains(&toggle);
                    let key = if fresh { format!("f{}-{i}", props.flash) } else { format!("t{i}") };
                    html! {
                        <mark key={key} class={classes!("toggled", fresh.then_some("toggled--fresh"))}
                            data-toggle={toggle.clone()} title={t!("code-toggled", toggle = &toggle)}>{ inner }</mark>
                    }
                }
                None => inner,
            }
        }
        CodeItem::Caret { toggle } => {
            let fresh = props.fresh.contains(&toggle);
            let key = if fresh { format!("f{}-{i}", props.flash) } else { format!("c{i}") };
            html! {
                <mark key={key} class={classes!("toggled", "toggled--empty", fresh.then_some("toggled--fresh"))}
                    data-toggle={toggle.clone()} title={t!("code-toggled-empty", toggle = &toggle)}>
                    <span aria-hidden="true">{ "‸" }</span>
                    <span class="visually-hidden">{ t!("code-nothing-for", toggle = &toggle) }</span>
                </mark>
            }
        }
        CodeItem::Tag { session } => html! {
            <span class={classes!("stmt-tag", session_class(session))}>{ format!("{} ▸", name(session)) }</span>
        },
    });
    html! { <pre class="code"><code>{ for rendered }</code></pre> }
}

#[derive(Properties, PartialEq)]
pub struct SessionCodeProps {
    pub run: Shared<RunModel>,
    pub view: Shared<StateView>,
    /// Per session, the statement it is at (see [`statements`]).
    pub statements: Rc<Vec<Option<Statement>>>,
    pub fresh: Vec<String>,
    pub flash: u32,
    /// Only each session's current statement (the stage), not its whole script.
    #[prop_or_default]
    pub compact: bool,
}

/// The statement each session is at after `events` events: none before it starts and
/// after it finishes.
pub fn statements(run: &RunModel, view: &StateView, events: usize) -> Vec<Option<Statement>> {
    view.sessions
        .iter()
        .map(|s| match s.status {
            SessionStatus::NotStarted | SessionStatus::Finished => None,
            _ => run.statement_at(&s.name, events),
        })
        .collect()
}

/// What a session is doing, in words.
/// Lock modes by the dialect's names (`FOR UPDATE`, not the short `FU` of the engine).
pub fn status_text(
    status: &SessionStatus,
    start_us: u64,
    dialect: engine::Dialect,
) -> (String, &'static str) {
    match status {
        SessionStatus::NotStarted => (t!("code-not-started", time = ms_label(start_us)), "idle"),
        SessionStatus::Running => (t!("code-running"), "running"),
        SessionStatus::Waiting {
            resource,
            mode,
            holders,
        } => {
            let whom = if holders.is_empty() {
                t!("code-earlier-waiters")
            } else {
                holders.join(", ")
            };
            (
                t!(
                    "code-waiting",
                    whom = whom,
                    mode = crate::why::mode_name_on(dialect, resource, *mode),
                    resource = crate::i18n::resource_words(resource)
                ),
                "waiting",
            )
        }
        SessionStatus::Sleeping { until_us } => {
            (t!("code-sleeping", time = ms_label(*until_us)), "sleeping")
        }
        SessionStatus::Delayed { table } => {
            (t!("code-delayed", table = table.to_string()), "delayed")
        }
        SessionStatus::Finished => (t!("code-finished"), "finished"),
    }
}

#[function_component]
pub fn SessionCode(props: &SessionCodeProps) -> Html {
    let run = &props.run;
    let sessions = &run.sessions;
    let cards = props.view.sessions.iter().enumerate().map(|(i, session)| {
        let block = run.applied.blocks.iter().find(|b| b.engine_block == Some(Block::Session(i)));
        let start_us = run.session_start_us(i);
        let dialect = run.applied.scenario.dialect;
        let (status, state) = status_text(&session.status, start_us, dialect);
        let in_tran = session.tran_count > 0 && !matches!(session.status, SessionStatus::Finished);
        let statement = props.statements.get(i).cloned().flatten();
        let own = match &statement {
            Some(Statement { source: Source::Session(j), range, .. }) if *j == i => vec![StatementMark { session: i, range: range.clone() }],
            _ => Vec::new(),
        };
        let compact = props.compact;
        // Compact: the current statement's own lines, nothing around them.
        let context = if compact { 0 } else { 1 };
        let current = match (&statement, block) {
            (Some(Statement { source: Source::Session(j), range, .. }), Some(block)) if compact && *j == i => {
                let (window, line) = snippet(&block.text, range.clone(), 0);
                Some(html! {
                    <div class="session__current" data-testid={format!("current-{}", session.name)}>
                        <span class="session__line" aria-label={t!("code-line", line = line.to_string())}>{ format!("{line}") }</span>
                        <CodeListing
                            text={AttrValue::from(block.text.clone())}
                            window={Some((window.start, window.end))}
                            dedent={common_indent(&block.text, window.clone())}
                            toggled={block.toggled.clone()}
                            statements={own.clone()}
                            sessions={sessions.clone()}
                            fresh={props.fresh.clone()}
                            flash={props.flash}
                        />
                    </div>
                })
            }
            _ => None,
        };
        // A statement of the setup script is shown in the setup block that holds it
        // (a lesson joins its setup blocks into one script).
        let in_setup = match statement {
            Some(Statement { source: Source::Setup, range, procedure }) => run.applied.setup_span(range).map(|(k, Range { start: a, end: b })| {
                let setup = &run.applied.blocks[k];
                let (window, line) = snippet(&setup.text, a..b, context);
                html! {
                    <div class="session__inner" data-testid={compact.then(|| format!("current-{}", session.name))}>
                        <p class="session__where">
                            { match procedure {
                                Some(p) => t!("code-in-setup-proc", proc = p.to_string(), line = line.to_string()),
                                None => t!("code-in-setup", line = line.to_string()),
                            } }
                        </p>
                        <CodeListing
                            text={AttrValue::from(setup.text.clone())}
                            window={Some((window.start, window.end))}
                            dedent={if compact { common_indent(&setup.text, window.clone()) } else { 0 }}
                            toggled={setup.toggled.clone()}
                            statements={vec![StatementMark { session: i, range: a..b }]}
                            sessions={sessions.clone()}
                            fresh={props.fresh.clone()}
                            flash={props.flash}
                        />
                    </div>
                }
            }),
            _ => None,
        };
        html! {
            <div class={classes!("session", session_class(i))} data-testid={format!("session-{}", session.name)} data-state={state}>
                <p class="session__head">
                    <span class="session__name"><span class="swatch" aria-hidden="true"></span>{ &session.name }</span>
                    <span class="session__status" data-testid={format!("status-{}", session.name)}>{ status }</span>
                    if in_tran {
                        <span class="chip" title={t!("code-trancount-title")}>{ t!("code-trancount", count = session.tran_count.to_string()) }</span>
                    }
                </p>
                <>{ for current }</>
                if compact && props.statements.get(i).cloned().flatten().is_none() {
                    <p class="session__idle muted" data-testid={format!("current-{}", session.name)}>{ t!("code-idle") }</p>
                }
                if let Some(block) = block.filter(|_| !compact) {
                    <CodeListing
                        text={AttrValue::from(block.text.clone())}
                        toggled={block.toggled.clone()}
                        statements={own}
                        sessions={sessions.clone()}
                        fresh={props.fresh.clone()}
                        flash={props.flash}
                    />
                }
                <>{ for in_setup }</>
            </div>
        }
    });
    html! {
        <section class={classes!("panel", "code-panel", props.compact.then_some("code-panel--now"))} aria-labelledby="code-heading" data-testid="code">
            <h3 id="code-heading" class="panel__title">{ if props.compact { t!("code-sessions-now") } else { t!("code-sessions") } }</h3>
            <div class="sessions">{ for cards }</div>
        </section>
    }
}
