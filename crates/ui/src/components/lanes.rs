//! Timeline lanes: one per session, what it did when (running, waiting on a lock with
//! the holder named, sleeping), marks for errors, skips, results and commits, a time
//! axis and the playhead. Clicking a lane moves the playhead to that time.

use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use crate::player::{PlayerAction, Shared};
use crate::present::{
    display_marks, display_segments, ms_label, session_class, tick_label, ticks, SegKind,
};
use crate::run::RunModel;

#[derive(Properties, PartialEq)]
pub struct LanesProps {
    pub run: Shared<RunModel>,
    pub t_us: u64,
    pub reduced: bool,
    pub dispatch: Callback<PlayerAction>,
}

fn percent(us: u64, end_us: u64) -> f64 {
    if end_us == 0 {
        0.0
    } else {
        (us as f64 / end_us as f64 * 100.0).clamp(0.0, 100.0)
    }
}

#[function_component]
pub fn Lanes(props: &LanesProps) -> Html {
    let end = props.run.end_us();
    let at = percent(props.t_us, end);
    // The name column fits the longest session name (the CSS caps it).
    let chars = props
        .run
        .sessions
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(1);
    html! {
        <section class="panel lanes" aria-labelledby="lanes-heading" data-testid="lanes"
            style={format!("--name-chars: {chars}")}>
            <h3 id="lanes-heading" class="panel__title">{ "Timeline" }</h3>
            <div class="lanes__body">
                <LaneRows run={props.run.clone()} dispatch={props.dispatch.clone()} />
                <div class="lanes__overlay" aria-hidden="true">
                    <div class={classes!("playhead", props.reduced.then_some("playhead--still"))} style={format!("left: {at:.3}%")} data-testid="playhead"></div>
                </div>
            </div>
            <LaneLegend delayed={props.run.lanes.iter().flat_map(|l| &l.segments).any(|s| matches!(s.state, engine::LaneState::Delayed { .. }))} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct LaneRowsProps {
    run: Shared<RunModel>,
    dispatch: Callback<PlayerAction>,
}

/// The lanes themselves: drawn once per run (the playhead moves over them).
#[function_component]
fn LaneRows(props: &LaneRowsProps) -> Html {
    let run = &props.run;
    let end = run.end_us().max(1);
    // About one pixel of a wide lane; shorter stretches are merged.
    let min_us = (end / 500).max(1);
    let onclick = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            // Yew delegates events, so `currentTarget` is not the track: find it from the target.
            let Some(track) = e
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|el| el.closest(".lane__track").ok().flatten())
            else {
                return;
            };
            let rect = track.get_bounding_client_rect();
            if rect.width() > 0.0 {
                let f = ((f64::from(e.client_x()) - rect.left()) / rect.width()).clamp(0.0, 1.0);
                dispatch.emit(PlayerAction::SeekTime((f * end as f64).round() as u64));
            }
        })
    };
    let lanes = run.lanes.iter().enumerate().map(|(i, lane)| {
        let segments = display_segments(&lane.segments, min_us);
        let crowded = lane.marks.len() > 40;
        let marks = display_marks(&lane.marks, min_us * 4, !crowded);
        let start = run.applied.scenario.sessions.get(i).map_or(0, |s| s.start_us);
        let name = &lane.session;
        html! {
            <div class="lane" data-testid={format!("lane-{name}")} data-session={name.clone()}>
                <div class={classes!("lane__name", session_class(i))}>
                    <span class="swatch" aria-hidden="true"></span>{ name }
                </div>
                <div class="lane__track" onclick={onclick.clone()} title={format!("{name}: click to move the playhead")}>
                    if start > 0 {
                        <span class="seg seg--idle" style={format!("left: 0%; width: {:.3}%", percent(start, end))}
                            data-state="not-started">
                            <span class="seg__label">{ format!("starts at {}", ms_label(start)) }</span>
                        </span>
                    }
                    { for segments.iter().map(|seg| {
                        let left = percent(seg.from_us, end);
                        let width = (percent(seg.to_us, end) - left).max(0.25);
                        let description = seg.describe(name);
                        let (label, holders) = match &seg.kind {
                            SegKind::Waiting { holders, .. } => {
                                let whom = if holders.is_empty() { "queue".to_string() } else { holders.join(", ") };
                                (Some(format!("waits for {whom}")), holders.join(","))
                            }
                            SegKind::Sleeping => (Some("sleeps".to_string()), String::new()),
                            SegKind::Delayed { table } => (Some(format!("delayed: {table} empty")), String::new()),
                            _ => (None, String::new()),
                        };
                        html! {
                            <span
                                class={classes!("seg", format!("seg--{}", seg.dominant()), matches!(seg.kind, SegKind::Mixed { .. }).then_some("seg--mixed"))}
                                style={format!("left: {left:.3}%; width: {width:.3}%")}
                                data-state={seg.state_name()}
                                data-holders={holders}
                                data-from-ms={crate::present::ms_number(seg.from_us)}
                                data-to-ms={crate::present::ms_number(seg.to_us)}
                                title={description.clone()}
                            >
                                <span class="visually-hidden">{ description }</span>
                                if let Some(label) = label.filter(|_| width >= 12.0) {
                                    <span class="seg__label" aria-hidden="true">{ label }</span>
                                }
                            </span>
                        }
                    }) }
                    { for marks.iter().map(|m| {
                        let description = m.describe(name);
                        let left = percent(m.at_us, end);
                        // Near an edge the label hangs inwards, so the track does not cut it.
                        let edge = if left < 4.0 { Some("mark--start") } else if left > 96.0 { Some("mark--end") } else { None };
                        html! {
                            <span class={classes!("mark", format!("mark--{}", m.kind_name()), edge)}
                                style={format!("left: {left:.3}%")}
                                data-kind={m.kind_name()} title={description.clone()}>
                                <span aria-hidden="true">{ m.symbol() }{ if m.count > 1 { format!("×{}", m.count) } else { String::new() } }</span>
                                <span class="visually-hidden">{ description }</span>
                            </span>
                        }
                    }) }
                    <super::anomalies::AnomalyMarks run={run.clone()} session={name.clone()} dispatch={props.dispatch.clone()} />
                </div>
            </div>
        }
    });
    let axis = ticks(end, 5);
    let step = axis.get(1).copied().unwrap_or(end);
    html! {
        <>
            { for lanes }
            <div class="lane lane--axis" aria-hidden="true">
                <div class="lane__name"></div>
                <div class="lane__track lane__track--axis">
                    { for axis.iter().map(|&t| html! {
                        <span class="tick" style={format!("left: {:.3}%", percent(t, end))}>{ tick_label(t, step) }</span>
                    }) }
                </div>
            </div>
        </>
    }
}

#[derive(Properties, PartialEq)]
struct LaneLegendProps {
    /// Show the Teradata "delayed" state (only lessons that have it).
    delayed: bool,
}

#[function_component]
fn LaneLegend(props: &LaneLegendProps) -> Html {
    html! {
        <p class="legend" aria-label="Legend">
            <span class="legend__item"><span class="seg-sample seg--running"></span>{ "running" }</span>
            <span class="legend__item"><span class="seg-sample seg--waiting"></span>{ "waiting for a lock (holder named)" }</span>
            <span class="legend__item"><span class="seg-sample seg--sleeping"></span>{ "sleeping (WAITFOR)" }</span>
            if props.delayed {
                <span class="legend__item"><span class="seg-sample seg--delayed"></span>{ "delayed (consume on an empty queue)" }</span>
            }
            <span class="legend__item"><span class="seg-sample seg--mixed seg--running"></span>{ "many short steps" }</span>
            <span class="legend__item">{ "✕ error · ⤼ skipped (READPAST) · ◆ result · ✓ commit · ↺ rollback · ☠ deadlock" }</span>
        </p>
    }
}
