//! Timeline lanes: one per session, what it did when (running, waiting on a lock with
//! the holder named, sleeping), marks for errors, skips, results and commits, a time
//! axis and the playhead. Clicking a lane moves the playhead to that time.
//!
//! The lanes show a window of the run ([`Window`]): the wheel, a pinch, the +/− buttons
//! and a brush on the overview strip zoom it from the whole run down to microseconds,
//! and it turns the page when the playhead leaves it. Only the window is arranged, at
//! the screen's resolution, so zoomed in every statement is its own segment.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, PointerEvent, TouchEvent, WheelEvent};
use yew::prelude::*;

use crate::player::{PlayerAction, Shared};
use crate::present::{
    display_marks, display_segments, ms_label, session_class, statement_starts, tick_label,
    ticks_in, window_segments, StatementStart,
};
use crate::run::RunModel;
use crate::t;
use crate::track::{strip_gradient, track_html};
use crate::zoom::{span_label, Window};

#[derive(Properties, PartialEq)]
pub struct LanesProps {
    pub run: Shared<RunModel>,
    pub t_us: u64,
    pub reduced: bool,
    pub dispatch: Callback<PlayerAction>,
    /// Controls for the header, beside the zoom (the page's anomaly buttons).
    #[prop_or_default]
    pub children: Html,
    /// The time axis's end when it is shared with another run's lanes (compare), so
    /// both are drawn to one scale; the run's own end otherwise.
    #[prop_or_default]
    pub axis_us: Option<u64>,
}

fn percent(w: &Window, us: u64) -> f64 {
    w.fraction(us) * 100.0
}

/// Where `client_x` falls across the lanes' tracks (they share one left edge and width).
fn track_fraction(body: &Element, client_x: f64) -> Option<f64> {
    let track = body.query_selector(".lane__track").ok().flatten()?;
    let rect = track.get_bounding_client_rect();
    (rect.width() > 0.0).then(|| ((client_x - rect.left()) / rect.width()).clamp(0.0, 1.0))
}

/// How far a wheel turn zooms: a notch (100 px) is about ×1.25.
fn wheel_factor(delta: f64) -> f64 {
    (delta * 0.0022).exp()
}

#[function_component]
pub fn Lanes(props: &LanesProps) -> Html {
    let end = props.axis_us.unwrap_or(0).max(props.run.end_us());
    let window = use_state(|| Window::full(end));
    // The run's end the window was last shown against.
    let window_end = use_mut_ref(|| end);
    let was_full = window.is_full(*window_end.borrow());
    // A new run keeps the zoom where it still fits (a toggle keeps the time too); a
    // view of the whole run stays the whole run, longer or shorter.
    let shown = if was_full {
        Window::full(end)
    } else {
        Window::clamped(window.from_us, window.to_us, end)
    };
    if *window_end.borrow() != end {
        *window_end.borrow_mut() = end;
        if was_full && *window != shown {
            window.set(shown);
        }
    }
    // The listeners outlive renders: they read the window through this cell.
    let current = use_mut_ref(|| shown);
    *current.borrow_mut() = shown;
    let ends = use_mut_ref(|| end);
    *ends.borrow_mut() = end;
    let set = window.setter();

    // The playhead left the window (playing, stepping, a seek): turn the page.
    {
        let set = set.clone();
        let current = Rc::clone(&current);
        use_effect_with((props.t_us, end), move |&(t, end)| {
            let w = *current.borrow();
            let next = w.follow(t, end);
            if next != w {
                set.set(next);
            }
        });
    }

    let body = use_node_ref();
    // Wheel and pinch need listeners that may prevent scrolling (Yew's are passive).
    {
        let body = body.clone();
        let (set, current, ends) = (set.clone(), Rc::clone(&current), Rc::clone(&ends));
        use_effect_with((), move |()| {
            let listeners = body.cast::<HtmlElement>().map(|el| {
                let active = EventListenerOptions::enable_prevent_default();
                let wheel = {
                    let (set, current, ends, el) = (
                        set.clone(),
                        Rc::clone(&current),
                        Rc::clone(&ends),
                        el.clone(),
                    );
                    EventListener::new_with_options(&el.clone(), "wheel", active, move |e| {
                        let Some(e) = e.dyn_ref::<WheelEvent>() else {
                            return;
                        };
                        let Some(f) = track_fraction(&el, f64::from(e.client_x())) else {
                            return;
                        };
                        let (w, end) = (*current.borrow(), *ends.borrow());
                        let (dx, dy) = (e.delta_x(), e.delta_y());
                        let next = if e.shift_key() || dx.abs() > dy.abs() {
                            let d = if dx.abs() > dy.abs() { dx } else { dy };
                            let width = el.client_width().max(1) as f64;
                            w.pan(d / width, end)
                        } else {
                            // A trackpad pinch arrives as a wheel with ctrlKey and small deltas.
                            let k = if e.ctrl_key() { 4.0 } else { 1.0 };
                            w.zoom(wheel_factor(dy * k), f, end)
                        };
                        // A wheel that changes nothing (out past the whole run, a pan at
                        // an end) scrolls the page as anywhere else, or the lanes, a
                        // third of a short window, would be a dead zone for scrolling.
                        if next == w && !e.ctrl_key() {
                            return;
                        }
                        e.prevent_default();
                        set.set(next);
                    })
                };
                // Two fingers: the window at the start of the pinch, their distance and
                // where between them the pinch is anchored.
                let pinch: Rc<RefCell<Option<(Window, f64, f64)>>> = Rc::new(RefCell::new(None));
                let fingers = |e: &TouchEvent| {
                    let t = e.touches();
                    let (a, b) = (t.get(0)?, t.get(1)?);
                    let (ax, bx) = (f64::from(a.client_x()), f64::from(b.client_x()));
                    Some(((ax - bx).abs().max(1.0), (ax + bx) / 2.0))
                };
                let start = {
                    let (pinch, current, el) = (Rc::clone(&pinch), Rc::clone(&current), el.clone());
                    EventListener::new_with_options(&el.clone(), "touchstart", active, move |e| {
                        let Some(e) = e.dyn_ref::<TouchEvent>() else {
                            return;
                        };
                        *pinch.borrow_mut() = fingers(e).and_then(|(d, mid)| {
                            Some((*current.borrow(), d, track_fraction(&el, mid)?))
                        });
                    })
                };
                let moved = {
                    let (pinch, ends) = (Rc::clone(&pinch), Rc::clone(&ends));
                    EventListener::new_with_options(&el, "touchmove", active, move |e| {
                        let Some(e) = e.dyn_ref::<TouchEvent>() else {
                            return;
                        };
                        let (Some((w0, d0, f)), Some((d, _))) = (*pinch.borrow(), fingers(e))
                        else {
                            return;
                        };
                        e.prevent_default();
                        set.set(w0.zoom(d0 / d, f, *ends.borrow()));
                    })
                };
                (wheel, start, moved)
            });
            move || drop(listeners)
        });
    }

    let zoom_by = |factor: f64| {
        let (set, t) = (set.clone(), props.t_us);
        Callback::from(move |_: MouseEvent| {
            // Around the playhead when it is in view, else around the middle.
            let f = shown.fraction(t);
            let anchor = if (0.0..=1.0).contains(&f) { f } else { 0.5 };
            set.set(shown.zoom(factor, anchor, end));
        })
    };
    let reset = {
        let set = set.clone();
        Callback::from(move |_: MouseEvent| set.set(Window::full(end)))
    };
    let on_brush = {
        let set = set.clone();
        Callback::from(move |w: Window| set.set(w))
    };

    let at = percent(&shown, props.t_us);
    let in_view = (0.0..=100.0).contains(&at);
    // The name column fits the longest session name and the whole-run strip's label
    // ("all", "cały", "全体"; the CSS caps it). Wide characters count twice.
    let width = |s: &str| {
        s.chars()
            .map(|c| if (c as u32) < 0x1100 { 1 } else { 2 })
            .sum::<usize>()
    };
    let chars = props
        .run
        .sessions
        .iter()
        .map(|s| width(s))
        .chain(std::iter::once(width(&t!("overview-all"))))
        .max()
        .unwrap_or(1);
    let full = shown.is_full(end);
    html! {
        <section class="panel lanes" aria-labelledby="lanes-heading" data-testid="lanes"
            style={format!("--name-chars: {chars}")}
            data-from-ms={crate::present::ms_number(shown.from_us)} data-to-ms={crate::present::ms_number(shown.to_us)}>
            <div class="lanes__head">
                <h3 id="lanes-heading" class="panel__title">{ t!("timeline") }</h3>
                <p class="lanes__window" data-testid="zoom-window" aria-live="polite">
                    { if full && end > props.run.end_us() {
                        // Compare: the axis is the longer run's, this run ends sooner.
                        t!("timeline-whole-shared", span = span_label(props.run.end_us()), axis = span_label(shown.span_us()))
                    } else if full {
                        t!("timeline-whole", span = span_label(shown.span_us()))
                    } else {
                        format!("{} – {} ({})", ms_label(shown.from_us), ms_label(shown.to_us), span_label(shown.span_us()))
                    } }
                </p>
                // Shown by the compact widget only, whose lanes box holds two or three.
                if props.run.lanes.len() > 2 {
                    <p class="lanes__more" data-testid="lanes-more" data-sessions={props.run.lanes.len().to_string()}
                        title={t!("lanes-more-title")}>
                        { t!("lanes-more", count = props.run.lanes.len()) }
                    </p>
                }
                { props.children.clone() }
                <div class="lanes__zoom" role="group" aria-label={t!("zoom-group")}>
                    <button type="button" class="icon-button" data-testid="zoom-out" aria-label={t!("zoom-out")} title={t!("zoom-out-title")}
                        disabled={full} onclick={zoom_by(2.0)}>{ "−" }</button>
                    <button type="button" class="icon-button" data-testid="zoom-in" aria-label={t!("zoom-in")} title={t!("zoom-in-title")}
                        disabled={shown.span_us() <= crate::zoom::MIN_SPAN_US} onclick={zoom_by(0.5)}>{ "+" }</button>
                    <button type="button" class="button button--small" data-testid="zoom-reset" disabled={full} onclick={reset}>{ t!("zoom-reset") }</button>
                </div>
            </div>
            <div class="lanes__body" ref={body} data-player-keys="">
                <LaneRows run={props.run.clone()} window={shown} dispatch={props.dispatch.clone()} />
                <div class="lanes__overlay" aria-hidden="true">
                    if in_view {
                        <div class={classes!("playhead", props.reduced.then_some("playhead--still"))} style={format!("left: {at:.3}%")} data-testid="playhead"></div>
                    }
                </div>
            </div>
            <Overview run={props.run.clone()} {end} window={shown} t_us={props.t_us} on_window={on_brush} />
            <LaneLegend delayed={props.run.lanes.iter().flat_map(|l| &l.segments).any(|s| matches!(s.state, engine::LaneState::Delayed { .. }))} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct LaneRowsProps {
    run: Shared<RunModel>,
    window: Window,
    dispatch: Callback<PlayerAction>,
}

/// The lanes themselves: drawn once per run and window (the playhead moves over them).
#[function_component]
fn LaneRows(props: &LaneRowsProps) -> Html {
    let run = &props.run;
    let w = props.window;
    let starts: Rc<Vec<Vec<StatementStart>>> = use_memo(run.clone(), |run| {
        statement_starts(&run.trace, &run.sessions)
    });
    // About two pixels of a wide lane; shorter stretches are merged.
    let min_us = (w.span_us() / 400).max(1);
    let onclick = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            // Yew delegates events, so `currentTarget` is not the track: find it from the target.
            let target = e.target().and_then(|t| t.dyn_into::<Element>().ok());
            // An anomaly's mark goes to its event (by time it would land after the instant).
            if let Some(event) = target
                .as_ref()
                .and_then(|el| el.closest(".anomaly-mark").ok().flatten())
                .and_then(|mark| mark.get_attribute("data-event"))
                .and_then(|event| event.parse::<usize>().ok())
            {
                dispatch.emit(PlayerAction::SeekEvents(event + 1));
                return;
            }
            let Some(track) = target.and_then(|el| el.closest(".lane__track").ok().flatten())
            else {
                return;
            };
            let rect = track.get_bounding_client_rect();
            if rect.width() > 0.0 {
                let f = (f64::from(e.client_x()) - rect.left()) / rect.width();
                dispatch.emit(PlayerAction::SeekTime(w.at(f)));
            }
        })
    };
    let rules = crate::anomaly_text::rules_shown(&run.applied);
    let lanes = run.lanes.iter().enumerate().map(|(i, lane)| {
        let none = Vec::new();
        let lane_starts = starts.get(i).unwrap_or(&none);
        let segments = window_segments(&lane.segments, lane_starts, w.from_us, w.to_us, min_us);
        let visible: Vec<engine::Mark> = lane.marks.iter().filter(|m| w.contains(m.at_us)).cloned().collect();
        let crowded = visible.len() > 40;
        let marks = display_marks(&visible, min_us * 4, !crowded);
        let start = run.session_start_us(i);
        let name = &lane.session;
        // Hundreds of elements: one string for the browser to parse (see `track.rs`).
        let drawn = track_html(name, &w, start, &segments, lane_starts, &marks, (&run.anomalies, &rules));
        html! {
            <div class="lane" data-testid={format!("lane-{name}")} data-session={name.clone()}>
                // The title: a long name is cut to the lane's width (a phone's embed).
                <div class={classes!("lane__name", session_class(i))} title={name.clone()}>
                    <span class="swatch" aria-hidden="true"></span>{ name }
                </div>
                <div class="lane__track" onclick={onclick.clone()} title={t!("lane-title", name = name)}>
                    <span class="lane__drawn">{ Html::from_html_unchecked(AttrValue::from(drawn)) }</span>
                    <super::conflict::ConflictMarks run={run.clone()} session={name.clone()} lang={crate::i18n::lang()} window={w} dispatch={props.dispatch.clone()} />
                </div>
            </div>
        }
    });
    let (axis, step) = ticks_in(w.from_us, w.to_us, 5);
    html! {
        <>
            <>{ for lanes }</>
            <div class="lane lane--axis" aria-hidden="true">
                <div class="lane__name"></div>
                <div class="lane__track lane__track--axis">
                    { for axis.iter().map(|&t| html! {
                        <span class="tick" style={format!("left: {:.3}%", percent(&w, t))}>{ tick_label(t, step) }</span>
                    }) }
                </div>
            </div>
        </>
    }
}

#[derive(Properties, PartialEq)]
struct OverviewProps {
    run: Shared<RunModel>,
    /// The axis's end (see [`LanesProps::axis_us`]).
    end: u64,
    window: Window,
    t_us: u64,
    on_window: Callback<Window>,
}

/// The whole run in a thin strip, the window shown above it as a frame. Drag across it
/// to choose a window (a brush); a click centres the window there. Arrow keys pan it.
#[function_component]
fn Overview(props: &OverviewProps) -> Html {
    let end = props.end;
    let full = Window::full(end);
    let w = props.window;
    // The window as last asked for: keys repeat faster than the page re-renders, so each
    // press moves on from the previous press's window, not from the one rendered.
    let current = use_mut_ref(|| w);
    *current.borrow_mut() = w;
    // The drag in progress: where it started (a fraction) and where it is now.
    let drag = use_state(|| None::<(f64, f64)>);
    let started = use_mut_ref(|| None::<f64>);
    let start_x = use_mut_ref(|| 0i32);
    let moved = use_mut_ref(|| Cell::new(false));
    // Yew delegates events, so `currentTarget` is not the strip: measure it by its ref.
    let strip = use_node_ref();
    let fraction = {
        let strip = strip.clone();
        move |e: &PointerEvent| {
            let el = strip.cast::<Element>()?;
            let rect = el.get_bounding_client_rect();
            (rect.width() > 0.0)
                .then(|| ((f64::from(e.client_x()) - rect.left()) / rect.width()).clamp(0.0, 1.0))
        }
    };
    let onpointerdown = {
        let (drag, started, moved) = (drag.clone(), Rc::clone(&started), Rc::clone(&moved));
        let (fraction, strip, start_x) = (fraction.clone(), strip.clone(), Rc::clone(&start_x));
        Callback::from(move |e: PointerEvent| {
            let Some(f) = fraction(&e) else { return };
            if let Some(el) = strip.cast::<Element>() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
            *started.borrow_mut() = Some(f);
            *start_x.borrow_mut() = e.client_x();
            moved.borrow().set(false);
            drag.set(Some((f, f)));
        })
    };
    let onpointermove = {
        let (drag, started, moved) = (drag.clone(), Rc::clone(&started), Rc::clone(&moved));
        let fraction = fraction.clone();
        Callback::from(move |e: PointerEvent| {
            let (Some(a), Some(f)) = (*started.borrow(), fraction(&e)) else {
                return;
            };
            // Two pixels make a drag: a brush over a long run may be only a few wide.
            if (e.client_x() - *start_x.borrow()).abs() >= 2 {
                moved.borrow().set(true);
            }
            drag.set(Some((a, f)));
        })
    };
    let onpointerup = {
        let (drag, started, moved, on_window) = (
            drag.clone(),
            Rc::clone(&started),
            Rc::clone(&moved),
            props.on_window.clone(),
        );
        Callback::from(move |e: PointerEvent| {
            let Some(a) = started.borrow_mut().take() else {
                return;
            };
            let f = fraction(&e).unwrap_or(a);
            drag.set(None);
            let next = if moved.borrow().get() {
                Window::clamped(full.at(a), full.at(f), end)
            } else {
                // A click: the same zoom, centred where the click was.
                let half = w.span_us() / 2;
                let c = full.at(f);
                Window::clamped(
                    c.saturating_sub(half),
                    c.saturating_sub(half) + w.span_us(),
                    end,
                )
            };
            on_window.emit(next);
        })
    };
    let onkeydown = {
        let (on_window, current) = (props.on_window.clone(), Rc::clone(&current));
        Callback::from(move |e: KeyboardEvent| {
            let w = *current.borrow();
            let next = match e.key().as_str() {
                "ArrowLeft" => w.pan(-0.25, end),
                "ArrowRight" => w.pan(0.25, end),
                "+" | "=" => w.zoom(0.5, 0.5, end),
                "-" => w.zoom(2.0, 0.5, end),
                _ => return,
            };
            e.prevent_default();
            *current.borrow_mut() = next;
            on_window.emit(next);
        })
    };
    let (left, width) = (
        percent(&full, w.from_us),
        percent(&full, w.to_us) - percent(&full, w.from_us),
    );
    let brush = (*drag).map(|(a, b)| (a.min(b) * 100.0, (a - b).abs() * 100.0));
    html! {
        <div class="overview" data-testid="overview">
            <div class="lane">
                <div class="lane__name overview__label" title={t!("overview-title")}>{ t!("overview-all") }</div>
                <div class="overview__strip" data-testid="overview-strip" ref={strip}
                    role="slider" tabindex="0"
                    aria-label={t!("overview-label")}
                    aria-valuemin="0" aria-valuemax={crate::present::ms_number(end)}
                    aria-valuenow={crate::present::ms_number(w.from_us)}
                    aria-valuetext={t!("overview-value", from = ms_label(w.from_us), to = ms_label(w.to_us))}
                    {onpointerdown} {onpointermove} {onpointerup} {onkeydown}>
                    <OverviewLanes run={props.run.clone()} {end} />
                    <span class="overview__window" data-testid="overview-window" style={format!("left: {left:.3}%; width: {:.3}%", width.max(0.4))}></span>
                    if let Some((l, wd)) = brush {
                        <span class="overview__brush" style={format!("left: {l:.3}%; width: {wd:.3}%")}></span>
                    }
                    <span class="overview__playhead" style={format!("left: {:.3}%", percent(&full, props.t_us))}></span>
                </div>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct OverviewLanesProps {
    run: Shared<RunModel>,
    end: u64,
}

/// Every lane as a thin line at the whole run's scale, one gradient each (see
/// `track.rs`); drawn once per run.
#[function_component]
fn OverviewLanes(props: &OverviewLanesProps) -> Html {
    let run = &props.run;
    let full = Window::full(props.end);
    let min_us = (full.span_us() / 300).max(1);
    let n = run.lanes.len().max(1) as f64;
    html! {
        <span class="overview__lanes" aria-hidden="true">
            { for run.lanes.iter().enumerate().map(|(i, lane)| {
                let top = i as f64 / n * 100.0;
                let gradient = strip_gradient(&display_segments(&lane.segments, min_us), &full, 0.2);
                html! {
                    <span class="overview__lane"
                        style={format!("top: {top:.2}%; height: {:.2}%; background-image: {gradient}", 100.0 / n)}></span>
                }
            }) }
        </span>
    }
}

#[derive(Properties, PartialEq)]
struct LaneLegendProps {
    /// Show the Teradata "delayed" state (only lessons that have it).
    delayed: bool,
}

/// Keeps a box's summary where it was clicked (or pressed) when the box opens or
/// closes: on a short wide window an open box lets the stage's sticky top scroll with
/// the page (style.css), which would move the summary 250 px or more up, away from the
/// pointer; and an open box takes a line of its own, which moves the Keys summary down.
#[hook]
fn use_summary_anchor() -> (Callback<MouseEvent>, Callback<Event>) {
    let before = use_mut_ref(|| None::<f64>);
    let onclick = {
        let before = before.clone();
        Callback::from(move |e: MouseEvent| {
            // (The target, not `current_target`: Yew listens at the root.)
            *before.borrow_mut() = e
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|el| el.closest("summary").ok().flatten())
                .map(|summary| summary.get_bounding_client_rect().top());
        })
    };
    let ontoggle = Callback::from(move |e: Event| {
        let Some(top) = before.borrow_mut().take() else {
            return;
        };
        let Some(details) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        let summary = details.query_selector("summary").ok().flatten();
        if let (Some(summary), Some(window)) = (summary, web_sys::window()) {
            let moved = summary.get_bounding_client_rect().top() - top;
            if moved.abs() > 1.0 {
                window.scroll_by_with_x_and_y(0.0, moved);
            }
        }
    });
    (onclick, ontoggle)
}

#[function_component]
fn LaneLegend(props: &LaneLegendProps) -> Html {
    let (onclick, ontoggle) = use_summary_anchor();
    html! {
        <div class="legend-boxes">
        <details class="legend-box" {ontoggle}>
        <summary class="legend-box__summary" {onclick}>{ t!("legend") }</summary>
        <p class="legend" aria-label={t!("legend")}>
            <span class="legend__item"><span class="seg-sample seg--running"></span>{ t!("legend-running") }</span>
            <span class="legend__item"><span class="seg-sample seg--waiting"></span>{ t!("legend-waiting") }</span>
            <span class="legend__item"><span class="seg-sample seg--sleeping"></span>{ t!("legend-sleeping") }</span>
            if props.delayed {
                <span class="legend__item"><span class="seg-sample seg--delayed"></span>{ t!("legend-delayed") }</span>
            }
            <span class="legend__item"><span class="seg-sample seg--mixed seg--running"></span>{ t!("legend-mixed") }</span>
            <span class="legend__item">{ t!("legend-marks") }</span>
            <span class="legend__item"><span class="anomaly-sample" aria-hidden="true"></span>{ t!("legend-anomaly") }</span>
            <span class="legend__item">{ t!("legend-zoom") }</span>
        </p>
        </details>
        <KeyList />
        </div>
    }
}

/// The player's keys (`hooks::use_player_keys`), for a keyboard user and for a room
/// watching a projector.
#[function_component]
fn KeyList() -> Html {
    let keys = [
        (t!("keys-space"), t!("keys-play")),
        ("← →".to_string(), t!("keys-step")),
        ("Home End".to_string(), t!("keys-ends")),
        ("[ ]".to_string(), t!("keys-anomaly")),
        ("?".to_string(), t!("keys-why")),
        ("Esc".to_string(), t!("keys-escape")),
        ("PgUp PgDn".to_string(), t!("keys-page")),
    ];
    let (onclick, ontoggle) = use_summary_anchor();
    html! {
        <details class="legend-box legend-box--keys" data-testid="keys" {ontoggle}>
        <summary class="legend-box__summary" {onclick}>{ t!("keys") }</summary>
        <ul class="legend keys">
            { for keys.into_iter().map(|(key, what)| html! {
                <li class="legend__item"><kbd>{ key }</kbd>{ " " }{ what }</li>
            }) }
        </ul>
        </details>
    }
}
