//! The wait-for graph at the playhead: an arrow from each waiting session to each
//! session it waits for, with the lock; a deadlock's cycle in red with its victim
//! named. Under the drawing, the same facts as text, and the locks held now.

use std::rc::Rc;

use engine::{Dialect, StateView};
use yew::prelude::*;

use super::tables::badge;
use crate::graph::{layout, NODE_H};
use crate::player::Shared;
use crate::present::{ms_label, session_class, StepMarks};
use crate::run::Instant;
use crate::t;

#[derive(Properties, PartialEq)]
pub struct WaitsProps {
    pub view: Shared<StateView>,
    pub marks: Rc<StepMarks>,
    pub sessions: Vec<String>,
    /// Only SQL Server's list leaves intent locks out, and says so.
    pub dialect: Dialect,
    /// The playhead is inside an instant whose state the view shows at its end.
    #[prop_or_default]
    pub instant: Option<Instant>,
}

/// Says that a state panel shows the end of the instant the playhead is in: its events
/// happen together, and the playhead has not reached the last of them yet.
pub fn instant_note(instant: Option<Instant>) -> Html {
    match instant {
        Some(at) => html! {
            <p class="instant-note muted" data-testid="instant-note" data-through={at.through.to_string()}>
                { t!("state-through", first = at.first, last = at.through, time = ms_label(at.t_us)) }
            </p>
        },
        None => html! {},
    }
}

#[function_component]
pub fn Waits(props: &WaitsProps) -> Html {
    let view = &props.view;
    let sessions = &props.sessions;
    let graph = layout(sessions);
    let pos = |i: usize| (graph.nodes[i].x, graph.nodes[i].y);
    let index = |name: &str| sessions.iter().position(|s| s == name);
    let deadlock = props.marks.deadlock.as_ref();
    let in_cycle = |a: &str, b: &str| {
        deadlock.is_some_and(|(_, cycle)| {
            cycle.windows(2).any(|w| w[0] == a && w[1] == b)
                || (cycle.last().map(String::as_str) == Some(a)
                    && cycle.first().map(String::as_str) == Some(b))
        })
    };
    // Edges: waits now, plus a deadlock cycle found in this step (its waits may be gone).
    let mut edges: Vec<(String, String, String)> = Vec::new();
    for w in &view.waits {
        if !edges
            .iter()
            .any(|(a, b, _)| *a == w.waiter && *b == w.blocker)
        {
            edges.push((
                w.waiter.clone(),
                w.blocker.clone(),
                t!(
                    "waits-edge",
                    mode = crate::why::mode_name_on(props.dialect, &w.resource, w.mode),
                    resource = crate::i18n::resource_words(&w.resource)
                ),
            ));
        }
    }
    if let Some((_, cycle)) = deadlock {
        for (i, a) in cycle.iter().enumerate() {
            let b = &cycle[(i + 1) % cycle.len()];
            if a != b && !edges.iter().any(|(x, y, _)| x == a && y == b) {
                edges.push((a.clone(), b.clone(), "deadlock".into()));
            }
        }
    }
    let arrows = edges.iter().filter_map(|(a, b, label)| {
        let ((x1, y1), (x2, y2)) = (pos(index(a)?), pos(index(b)?));
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / len, dy / len);
        // Leave the pill where the line does: its half height, or half its width when
        // the line leaves sideways.
        let clip = |w: f64| {
            let (hx, hy) = (w / 2.0, NODE_H / 2.0);
            (hx / ux.abs().max(1e-9)).min(hy / uy.abs().max(1e-9))
        };
        let (r1, r2) = (clip(graph.nodes[index(a)?].w), clip(graph.nodes[index(b)?].w));
        let red = in_cycle(a, b);
        Some(html! {
            <g class={classes!("edge", red.then_some("edge--deadlock"))}>
                <line x1={format!("{:.1}", x1 + ux * r1)} y1={format!("{:.1}", y1 + uy * r1)}
                      x2={format!("{:.1}", x2 - ux * (r2 + 4.0))} y2={format!("{:.1}", y2 - uy * (r2 + 4.0))}
                      marker-end={if red { "url(#arrow-red)" } else { "url(#arrow)" }} />
                <title>{ t!("waits-sentence", waiter = a.to_string(), holder = b.to_string(), label = label.to_string()) }</title>
            </g>
        })
    });
    let nodes = sessions.iter().enumerate().map(|(i, name)| {
        let (x, y) = pos(i);
        let victim = deadlock.is_some_and(|(v, _)| v == name);
        let w = graph.nodes[i].w;
        html! {
            <g class={classes!("node", session_class(i), victim.then_some("node--victim"))}>
                <rect x={format!("{:.1}", x - w / 2.0)} y={format!("{:.1}", y - 15.0)} width={format!("{w:.1}")} height="30" rx="15" />
                <text x={format!("{x:.1}")} y={format!("{:.1}", y + 4.5)} text-anchor="middle">{ name }</text>
            </g>
        }
    });
    let sentences: Vec<String> = edges
        .iter()
        .map(|(a, b, label)| {
            t!(
                "waits-sentence",
                waiter = a.to_string(),
                holder = b.to_string(),
                label = label.to_string()
            )
        })
        .collect();
    let locks = view.locks.iter().take(8).map(|l| {
        html! {
            <li>
                <code>{ crate::i18n::resource_words(&l.resource) }</code>{ " " }
                { for l.holders.iter().map(|b| badge(b, sessions, Some(props.dialect), Some(&l.resource))) }
                if !l.waiters.is_empty() {
                    <span class="locks__waiting">
                        { " " }{ t!("locks-waiting") }{ " " }
                        { for l.waiters.iter().map(|w| html! { <span class="lock lock--waiting">{ t!("locks-wants", session = w.session.to_string(), mode = crate::why::mode_name_on(props.dialect, &l.resource, w.mode)) }</span> }) }
                    </span>
                }
            </li>
        }
    });
    html! {
        <section class="panel waits" aria-labelledby="waits-heading" data-testid="waits">
            <h3 id="waits-heading" class="panel__title">{ t!("waits-title") }</h3>
            if sessions.len() > 1 {
            // --graph-h: the height at which the names are 10 px tall, which a short
            // stacked stage keeps room for however many sessions there are.
            <svg class="waits__graph" viewBox={graph.view_box_attr()} role="img" data-testid="wait-graph"
                 style={format!("--graph-h: {:.0}px", graph.view_box.3 * 10.0 / 13.0)}
                 aria-label={if sentences.is_empty() { t!("waits-nobody") } else { sentences.join("; ") }}>
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead" />
                    </marker>
                    <marker id="arrow-red" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead arrowhead--deadlock" />
                    </marker>
                </defs>
                <>{ for arrows }</>
                <>{ for nodes }</>
            </svg>
            }
            // Under the graph: on a phone the graph stays where the stage keeps it.
            { instant_note(props.instant) }
            <ul class="waits__list" data-testid="wait-edges">
                if sentences.is_empty() {
                    <li class="muted">{ t!("waits-nobody-now") }</li>
                }
                { for sentences.iter().map(|s| html! { <li>{ s }</li> }) }
            </ul>
            if let Some((victim, cycle)) = deadlock {
                <p class="deadlock" role="status" data-testid="deadlock">
                    { t!("waits-deadlock", cycle = cycle.join(" → "), victim = victim.to_string()) }
                </p>
            }
            <h4 class="panel__subtitle">{ t!("locks-title") }</h4>
            <ul class="locks">
                if view.locks.is_empty() {
                    <li class="muted">{ if props.dialect == Dialect::TSql { t!("locks-none") } else { t!("locks-none-plain") } }</li>
                }
                <>{ for locks }</>
                if view.locks.len() > 8 {
                    <li class="muted">{ t!("locks-more", count = view.locks.len() - 8) }</li>
                }
            </ul>
        </section>
    }
}
