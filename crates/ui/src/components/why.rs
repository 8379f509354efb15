//! The "why" panel: the rule behind the wait, skip, error or anomaly at the playhead
//! (the text comes from [`crate::why`]), with the lock compatibility matrix and the
//! cell that decided it lit. One click on "Why?" or the `?` key opens and closes it.

use engine::{SessionStatus, StateView};
use yew::prelude::*;

use crate::player::{PlayerAction, Shared};
use crate::run::RunModel;
use crate::t;
use crate::why::{explain_at, Matrix};

#[derive(Properties, PartialEq)]
pub struct WhyPanelProps {
    pub run: Shared<RunModel>,
    /// Events shown (the playhead).
    pub events: usize,
    /// The state at the playhead, for the sessions waiting now.
    pub view: Option<Shared<StateView>>,
    pub open: bool,
}

/// The button that opens and closes the panel (it sits with the anomaly buttons).
pub fn why_toggle(open: bool, dispatch: &Callback<PlayerAction>) -> Html {
    let onclick = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(PlayerAction::ToggleWhy))
    };
    html! {
        <button type="button" class="button button--small why__toggle" data-testid="why-toggle"
            aria-expanded={if open { "true" } else { "false" }} aria-controls="why-panel"
            aria-keyshortcuts="?" title={t!("why-button-title")} {onclick}>
            { if open { t!("why-hide") } else { t!("why-button") } }
        </button>
    }
}

/// Brings the opened panel into sight. On a tall wide window it sits low in the
/// stage's column, which scrolls on its own; elsewhere the page scrolls, and once it
/// has, the sticky stage (the transport, narration and lanes) covers the top of the
/// window, so the panel's first lines go below it.
fn reveal(panel: &web_sys::Element) {
    let column = panel
        .closest(".lesson--stage .stage")
        .ok()
        .flatten()
        .filter(crate::hooks::scrolls_on_its_own);
    if let Some(column) = column {
        let bottom = column.get_bounding_client_rect().bottom();
        let column_top = column.get_bounding_client_rect().top();
        let top = panel.get_bounding_client_rect().top();
        if top < column_top || top + 64.0 > bottom {
            column.scroll_by_with_x_and_y(0.0, top - column_top - 8.0);
        }
        return;
    }
    let cover = crate::hooks::pinned_cover();
    let height = crate::hooks::window_height();
    let rect = panel.get_bounding_client_rect();
    // Up far enough to show all of it, or, if it is taller than the room below the
    // stage's top, its start just below that top; never down past its start.
    let to_start = rect.top() - cover - 8.0;
    let to_end = rect.bottom() - height + 8.0;
    let by = if to_start < 0.0 {
        to_start
    } else {
        to_end.min(to_start).max(0.0)
    };
    if by != 0.0 {
        gloo::utils::window().scroll_by_with_x_and_y(0.0, by);
    }
}

#[function_component]
pub fn WhyPanel(props: &WhyPanelProps) -> Html {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with(props.open, move |open| {
            if let Some(panel) = open.then(|| node.cast::<web_sys::Element>()).flatten() {
                reveal(&panel);
            }
        });
    }
    if !props.open {
        return html! {};
    }
    let waiting: Vec<String> = props
        .view
        .iter()
        .flat_map(|v| &v.sessions)
        .filter(|s| matches!(s.status, SessionStatus::Waiting { .. }))
        .map(|s| s.name.clone())
        .collect();
    let why = explain_at(&props.run, props.events, &waiting);
    let body = match &why {
        Some(why) => html! {
            <>
                <h3 class="why__title" id="why-title">{ &why.title }</h3>
                { for why.sentences.iter().map(|s| html! { <p class="why__sentence">{ s }</p> }) }
                if let Some(m) = &why.matrix { { matrix(m) } }
            </>
        },
        None => html! {
            <>
                <h3 class="why__title" id="why-title">{ t!("why-nothing-title") }</h3>
                <p class="why__sentence muted">{
                    // `]` only where it has an anomaly to jump to.
                    if props.run.anomalies.is_empty() { t!("why-nothing-no-anomalies") } else { t!("why-nothing") }
                }</p>
            </>
        },
    };
    html! {
        // Scrolls on its own (and takes focus for it), so a long explanation leaves the
        // stage in place.
        <section ref={node} id="why-panel" class="panel why" data-testid="why" aria-labelledby="why-title" tabindex="0"
            data-event={why.as_ref().map(|w| w.event.to_string())}>
            { body }
        </section>
    }
}

fn matrix(m: &Matrix) -> Html {
    let asked = &m.names[m.asked];
    let held: Vec<&str> = m.held.iter().map(|&c| m.names[c].as_str()).collect();
    // The caption is a paragraph above the scroller rather than a `<caption>`, which
    // is as wide as its table: PostgreSQL's four row locks make the table wider than
    // the stage's side column, and the sentence would scroll away with it.
    html! {
        <div class="why__matrix">
            <p class="why__caption" id="why-matrix-caption" data-testid="why-matrix-caption">
                { t!("why-matrix-caption", dialect = m.dialect) }{ " " }
                { t!("why-matrix-lit", asked = asked, held = held.join(", ")) }
            </p>
            <div class="why__scroll table__scroll">
                <table data-testid="why-matrix" aria-labelledby="why-matrix-caption">
                    <thead>
                        <tr>
                            <th scope="col"><span class="visually-hidden">{ t!("why-matrix-corner") }</span></th>
                            { for m.names.iter().enumerate().map(|(c, n)| html! {
                                <th scope="col" class={classes!(m.held.contains(&c).then_some("why__head--lit"))}>{ n }</th>
                            }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for m.compatible.iter().enumerate().map(|(r, row)| html! {
                            <tr>
                                <th scope="row" class={classes!((r == m.asked).then_some("why__head--lit"))}>{ &m.names[r] }</th>
                                { for row.iter().enumerate().map(|(c, ok)| {
                                    let lit = r == m.asked && m.held.contains(&c);
                                    html! {
                                        <td class={classes!(if *ok { "why__cell--yes" } else { "why__cell--no" }, lit.then_some("why__cell--lit"))}
                                            data-lit={lit.then_some("true")}>
                                            <span aria-hidden="true">{ if *ok { "✓" } else { "✗" } }</span>
                                            <span class="visually-hidden">{ if *ok { t!("why-matrix-yes") } else { t!("why-matrix-no") } }</span>
                                        </td>
                                    }
                                }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
        </div>
    }
}
