//! Anomalies in the player: Previous/Next buttons (keys `[` and `]`) that move the
//! playhead to them. Their marks on the lanes are drawn with the lane (`track.rs`):
//! clicking one moves the playhead onto it; the keyboard reaches them with `[` and `]`
//! (hundreds of marks would be hundreds of tab stops).

use yew::prelude::*;

use crate::player::{PlayerAction, Shared};
use crate::run::RunModel;
use crate::t;

#[derive(Properties, PartialEq)]
pub struct AnomalyNavProps {
    pub run: Shared<RunModel>,
    /// Events shown (the playhead).
    pub events: usize,
    /// The why panel is open (the button beside these says so).
    pub why_open: bool,
    pub dispatch: Callback<PlayerAction>,
}

/// "Previous anomaly", "Next anomaly", where the playhead is among them, and the button
/// that opens the explanation of what is at the playhead.
#[function_component]
pub fn AnomalyNav(props: &AnomalyNavProps) -> Html {
    let anomalies = &props.run.anomalies;
    let why = super::why::why_toggle(props.why_open, &props.dispatch);
    if anomalies.is_empty() {
        return html! {
            <div class="anomaly-nav" data-testid="anomaly-nav">
                { why }
                <span class="anomaly-nav__status muted" data-testid="anomaly-status">{ t!("anomaly-none") }</span>
            </div>
        };
    }
    let events = props.events;
    let shown = anomalies.partition_point(|a| a.event < events);
    let has_prev = anomalies.iter().any(|a| a.event + 1 < events);
    let has_next = shown < anomalies.len();
    // `aria-disabled`, not `disabled`, so the focus stays on the button that reached
    // the last anomaly (see the transport's buttons).
    let send = |action: PlayerAction, off: bool| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            if !off {
                dispatch.emit(action.clone())
            }
        })
    };
    let off = super::transport::off;
    // Those at the playhead's event: several rules can find one event (a second call
    // that is both a duplicate and unmatched), and each is counted.
    let here = &anomalies[anomalies.partition_point(|a| a.event + 1 < events)..shown];
    let at = here.last();
    let status = match here.len() {
        0 if shown == 0 => t!("anomaly-ahead", total = anomalies.len()),
        0 => t!("anomaly-passed", shown = shown, total = anomalies.len()),
        1 => t!("anomaly-of", shown = shown, total = anomalies.len()),
        n => t!(
            "anomaly-of-several",
            first = shown + 1 - n,
            last = shown,
            total = anomalies.len()
        ),
    };
    let label = if here.is_empty() {
        t!("anomaly-about")
    } else {
        let rules = crate::anomaly_text::rules_shown(&props.run.applied);
        here.iter()
            .map(|a| crate::anomaly_text::text(a, &rules))
            .collect::<Vec<_>>()
            .join("; ")
    };
    html! {
        <div class="anomaly-nav" data-testid="anomaly-nav" data-at={at.map(|a| a.event.to_string())}>
            <span class="anomaly-nav__buttons" role="group" aria-label={t!("anomaly-group")}>
                <button type="button" class="button button--small" data-testid="prev-anomaly" aria-keyshortcuts="["
                    aria-label={t!("anomaly-prev")} title={t!("anomaly-prev-title")} aria-disabled={off(!has_prev)}
                    onclick={send(PlayerAction::PrevAnomaly, !has_prev)}>
                    { t!("anomaly-prev-button") }
                </button>
                <button type="button" class="button button--small" data-testid="next-anomaly" aria-keyshortcuts="]"
                    aria-label={t!("anomaly-next")} title={t!("anomaly-next-title")} aria-disabled={off(!has_next)}
                    onclick={send(PlayerAction::NextAnomaly, !has_next)}>
                    { t!("anomaly-next-button") }
                </button>
            </span>
            { why }
            <span class={classes!("anomaly-nav__status", at.is_some().then_some("anomaly-nav__status--at"))}
                data-testid="anomaly-status" title={label.clone()} aria-live="polite">
                { status }
                if at.is_some() { <span class="visually-hidden">{ format!(": {label}") }</span> }
            </span>
        </div>
    }
}
