//! The player's controls: toggles, play/pause/step/speed/scrub, and the line that
//! narrates the current event.

use lesson::{Settings, Toggle};
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::player::{PlayerAction, Playhead, Shared, SPEEDS};
use crate::present::{ms_label, ms_number};
use crate::run::{BuildProgress, RunModel};
use crate::t;

#[derive(Properties, PartialEq)]
pub struct TogglesProps {
    pub toggles: Vec<Toggle>,
    pub settings: Settings,
    pub fresh: Vec<String>,
    pub pending: bool,
    pub on_toggle: Callback<(String, String)>,
    /// "Compare with this" links beside each value not chosen: `(toggle, value, href)`.
    #[prop_or_default]
    pub compare: Vec<(String, String, String)>,
    /// The language of the toggles' labels and help, where it is not the page's (see
    /// `catalog::words_lang`).
    #[prop_or_default]
    pub words_lang: Option<&'static str>,
}

/// One group of buttons per toggle; the pressed one is the current value.
#[function_component]
pub fn Toggles(props: &TogglesProps) -> Html {
    if props.toggles.is_empty() {
        return html! {};
    }
    let on_values_key = Callback::from(values_key);
    html! {
        <div class="toggles" data-testid="toggles">
            { for props.toggles.iter().map(|toggle| {
                let current = props.settings.get(&toggle.name).unwrap_or_default();
                let help_id = format!("toggle-help-{}", toggle.name);
                let fresh = props.fresh.contains(&toggle.name);
                html! {
                    <div
                        class={classes!("toggle", fresh.then_some("toggle--fresh"))}
                        role="group"
                        aria-label={toggle.label.clone()}
                        aria-describedby={toggle.help.as_ref().map(|_| help_id.clone())}
                        data-testid={format!("toggle-{}", toggle.name)}
                        data-value={current.to_string()}
                    >
                        <span class="toggle__label" title={toggle.label.clone()} lang={props.words_lang}>{ &toggle.label }</span>
                        <span class="toggle__values" onkeydown={on_values_key.clone()}>
                            { for toggle.values.iter().map(|value| {
                                let pressed = value == current;
                                let onclick = {
                                    let (name, value, on_toggle) = (toggle.name.clone(), value.clone(), props.on_toggle.clone());
                                    Callback::from(move |_: MouseEvent| {
                                        if !pressed {
                                            on_toggle.emit((name.clone(), value.clone()));
                                        }
                                    })
                                };
                                let compare = props
                                    .compare
                                    .iter()
                                    .find(|(t, v, _)| *t == toggle.name && v == value)
                                    .map(|(_, _, href)| href.clone());
                                html! {
                                    <span class="toggle__item">
                                        <button
                                            type="button"
                                            class="toggle__value"
                                            aria-pressed={if pressed { "true" } else { "false" }}
                                            data-testid={format!("toggle-{}-{}", toggle.name, value)}
                                            {onclick}
                                        >{ value }</button>
                                        if let Some(href) = compare {
                                            <a class="toggle__compare" {href}
                                                data-testid={format!("compare-{}-{}", toggle.name, value)}
                                                title={t!("compare-title", toggle = &toggle.label, value = value)}
                                                aria-label={t!("compare-label", toggle = &toggle.label, value = value)}>{ "⇄" }</a>
                                        }
                                    </span>
                                }
                            }) }
                        </span>
                        // The chosen value's part of the help (its title has all of it).
                        if let Some(help) = &toggle.help {
                            <span class="toggle__help" id={help_id} title={help.clone()} lang={props.words_lang}
                                data-testid={format!("toggle-help-{}", toggle.name)}>
                                { crate::present::value_help(help, &toggle.values, current) }
                            </span>
                        }
                    </div>
                }
            }) }
        </div>
    }
}

/// ← → ↑ ↓ on a toggle's value move the focus to the previous or next value of that
/// toggle, round the ends (a toolbar's keys), instead of stepping the player: a learner
/// on a toggle is choosing a setting. Enter or Space then presses the value, and Escape
/// leaves the toggles, so Space plays and the arrows step again.
fn values_key(e: KeyboardEvent) {
    if e.ctrl_key() || e.alt_key() || e.meta_key() {
        return;
    }
    let forward = match e.key().as_str() {
        "ArrowRight" | "ArrowDown" => true,
        "ArrowLeft" | "ArrowUp" => false,
        "Escape" => {
            if let Some(button) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = button.blur();
            }
            return;
        }
        _ => return,
    };
    let Some(item) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .filter(|el| el.matches(".toggle__value").unwrap_or(false))
        .and_then(|el| el.parent_element())
    else {
        return;
    };
    let Some(values) = item.parent_element() else {
        return;
    };
    let next = if forward {
        item.next_element_sibling()
            .or_else(|| values.first_element_child())
    } else {
        item.previous_element_sibling()
            .or_else(|| values.last_element_child())
    };
    e.prevent_default();
    if let Some(button) = next
        .and_then(|n| n.first_element_child())
        .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = button.focus();
    }
}

/// A 16×16 icon drawn in the text colour (system fonts lack some media symbols).
pub(crate) fn icon(path: &'static str) -> Html {
    html! {
        <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            <path d={path} />
        </svg>
    }
}

pub(crate) const ICON_HOME: &str = "M2 3h2v10H2zM9 3v10L4 8zM15 3v10L10 8z";
pub(crate) const ICON_BACK: &str = "M3 3h2v10H3zM13 3v10L6 8z";
pub(crate) const ICON_PLAY: &str = "M4 2.5v11L13 8z";
pub(crate) const ICON_PAUSE: &str = "M3.5 3h3v10h-3zM9.5 3h3v10h-3z";
pub(crate) const ICON_FORWARD: &str = "M3 3v10l7-5zM11 3h2v10h-2z";
pub(crate) const ICON_END: &str = "M1 3v10l5-5zM7 3v10l5-5zM12 3h2v10h-2z";

#[derive(Properties, PartialEq)]
pub struct TransportProps {
    pub head: Playhead,
    pub events: usize,
    pub end_us: u64,
    pub playing: bool,
    pub speed: usize,
    /// The quiet stretch the playhead is in, when playback compresses it.
    #[prop_or_default]
    pub idle: Option<(u64, u64)>,
    pub dispatch: Callback<PlayerAction>,
}

#[function_component]
pub fn Transport(props: &TransportProps) -> Html {
    // A button that cannot act now is `aria-disabled`, not `disabled`: End at the end
    // keeps the focus it was clicked with, where a disabled button would drop it to the
    // page (and a keyboard user would start again from the top).
    let send = |action: PlayerAction, off: bool| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            if !off {
                dispatch.emit(action.clone());
            }
        })
    };
    let play_ref = use_node_ref();
    {
        // After Skip or "Stop asking" the question that had the focus is gone: Play,
        // the next thing to do, takes it.
        let play_ref = play_ref.clone();
        use_effect(move || {
            if super::predict::take_play_focus() {
                if let Some(el) = play_ref.cast::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        });
    }
    let on_speed = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            {
                if let Ok(i) = select.value().parse::<usize>() {
                    dispatch.emit(PlayerAction::SetSpeed(i));
                }
            }
        })
    };
    let on_scrub = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            {
                if let Ok(us) = input.value().parse::<f64>() {
                    dispatch.emit(PlayerAction::SeekTime(us.max(0.0) as u64));
                }
            }
        })
    };
    // On the slider the arrow keys step one event (a microsecond is too small a step),
    // and Home and End go where the buttons do: Home before the first event (the
    // slider's own Home would land after the events at 0 ms).
    let on_scrub_key = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: KeyboardEvent| {
            let action = match e.key().as_str() {
                "ArrowRight" | "ArrowUp" => PlayerAction::StepForward,
                "ArrowLeft" | "ArrowDown" => PlayerAction::StepBack,
                "Home" => PlayerAction::Home,
                "End" => PlayerAction::End,
                _ => return,
            };
            e.prevent_default();
            dispatch.emit(action);
        })
    };
    let head = props.head;
    let at_start = head.events == 0 && head.t_us == 0;
    let at_end = head.events >= props.events && head.t_us >= props.end_us;
    let at_last = head.events >= props.events;
    // The name holds the word shown, so a voice naming what it sees reaches the button.
    let play_label = if props.playing {
        t!("pause-label")
    } else if at_end {
        t!("replay-label")
    } else {
        t!("play-label")
    };
    html! {
        <div class="transport" data-testid="transport">
            <div class="transport__buttons">
                <button type="button" class="icon-button" aria-label={t!("home-label")} title={t!("home-title")}
                    data-testid="home" aria-disabled={off(at_start)} onclick={send(PlayerAction::Home, at_start)}>{ icon(ICON_HOME) }</button>
                <button type="button" class="icon-button" aria-label={t!("step-back-label")} title={t!("step-back-title")}
                    data-testid="step-back" aria-disabled={off(at_start)} onclick={send(PlayerAction::StepBack, at_start)}>{ icon(ICON_BACK) }</button>
                <button type="button" class="icon-button icon-button--play" aria-label={play_label.clone()} title={play_label}
                    data-testid="play" data-playing={if props.playing { "true" } else { "false" }} ref={play_ref}
                    onclick={send(PlayerAction::TogglePlay, false)}>
                    { icon(if props.playing { ICON_PAUSE } else { ICON_PLAY }) }
                    { if props.playing { t!("pause") } else if at_end { t!("replay") } else { t!("play") } }
                </button>
                <button type="button" class="icon-button" aria-label={t!("step-forward-label")} title={t!("step-forward-title")}
                    data-testid="step-forward" aria-disabled={off(at_last)} onclick={send(PlayerAction::StepForward, at_last)}>{ icon(ICON_FORWARD) }</button>
                <button type="button" class="icon-button" aria-label={t!("end-label")} title={t!("end-title")}
                    data-testid="end" aria-disabled={off(at_end)} onclick={send(PlayerAction::End, at_end)}>{ icon(ICON_END) }</button>
                <label class="transport__speed" title={t!("speed-title")}>
                    <span>{ t!("speed") }</span>
                    // Named on its own: narrow windows and phones hide the word beside it.
                    <select data-testid="speed" aria-label={t!("speed")} onchange={on_speed}>
                        { for SPEEDS.iter().enumerate().map(|(i, s)| html! {
                            <option value={i.to_string()} selected={i == props.speed}>{ speed_label(*s) }</option>
                        }) }
                    </select>
                </label>
            </div>
            <div class="transport__position">
                <span class="transport__time" data-testid="position"
                    data-events={head.events.to_string()} data-t-ms={ms_number(head.t_us)}>
                    <strong>{ ms_label(head.t_us) }</strong>
                    // Two pieces that each stay on one line: a narrow bar wraps between
                    // them, never inside "event 34 of 34".
                    { " " }<span class="nowrap">{ t!("position-end", end = ms_label(props.end_us)) }</span>
                    // The lesson page's stage leaves this out of sight (its narration
                    // says it), so the line does not wrap, and move the lanes, as it grows.
                    <span class="nowrap transport__count">{ " · " }{ t!("position-event", event = head.events, events = props.events) }</span>
                </span>
                <input
                    type="range"
                    class="transport__scrub"
                    aria-label={t!("virtual-time")}
                    aria-valuetext={ms_label(head.t_us)}
                    data-testid="scrub"
                    min="0"
                    max={props.end_us.to_string()}
                    step="1"
                    value={head.t_us.to_string()}
                    oninput={on_scrub}
                    onkeydown={on_scrub_key}
                />
                if let Some((from, to)) = props.idle {
                    <span class="transport__idle" data-testid="idle" title={t!("idle-title")}>
                        { t!("idle", span = crate::zoom::span_label(to - from)) }
                    </span>
                }
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct SeedControlProps {
    /// The seed of the run asked for.
    pub seed: u64,
    /// The lesson's own seed (a reset goes back to it).
    pub lesson_seed: u64,
    pub on_seed: Callback<u64>,
}

/// The run's seed, and ways to try others: type one, take the next, or let the page
/// pick a different random interleaving. Each is a new URL (`seed=`), so it can be shared.
#[function_component]
pub fn SeedControl(props: &SeedControlProps) -> Html {
    let input = use_node_ref();
    let onsubmit = {
        let (input, on_seed, seed) = (input.clone(), props.on_seed.clone(), props.seed);
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(el) = input.cast::<HtmlInputElement>() else {
                return;
            };
            match el.value().trim().parse::<u64>() {
                Ok(n) if n != seed => on_seed.emit(n),
                Ok(_) => {}
                Err(_) => {
                    el.set_custom_validity(&t!("seed-invalid"));
                    el.report_validity();
                }
            }
        })
    };
    let oninput = Callback::from(|e: InputEvent| {
        if let Some(el) = e
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        {
            el.set_custom_validity("");
        }
    });
    let next = {
        let (on_seed, seed) = (props.on_seed.clone(), props.seed);
        Callback::from(move |_: MouseEvent| on_seed.emit(seed.wrapping_add(1)))
    };
    let random = {
        let (on_seed, seed) = (props.on_seed.clone(), props.seed);
        Callback::from(move |_: MouseEvent| {
            // Any other seed gives another interleaving; the page's randomness is fine here
            // (the engine only ever sees the seed, which goes in the URL).
            let mut n = (js_sys::Math::random() * 1e9) as u64;
            if n == seed {
                n += 1;
            }
            on_seed.emit(n);
        })
    };
    let reset = {
        let (on_seed, lesson_seed) = (props.on_seed.clone(), props.lesson_seed);
        Callback::from(move |_: MouseEvent| on_seed.emit(lesson_seed))
    };
    html! {
        <form class="seed" data-testid="seed" data-seed={props.seed.to_string()} {onsubmit}>
            <label class="seed__label">
                <span>{ t!("seed") }</span>
                <input ref={input} type="number" min="0" step="1" inputmode="numeric" class="seed__input"
                    data-testid="seed-input" value={props.seed.to_string()} {oninput}
                    aria-describedby="seed-help" />
            </label>
            <button type="submit" class="button button--small" data-testid="seed-run">{ t!("seed-run") }</button>
            <button type="button" class="button button--small" data-testid="seed-next" onclick={next}
                title={t!("seed-next-title")}>{ t!("seed-next") }</button>
            <button type="button" class="button button--small" data-testid="seed-random" onclick={random}
                title={t!("seed-random-title")}>{ t!("seed-random") }</button>
            if props.seed != props.lesson_seed {
                <button type="button" class="button button--small" data-testid="seed-reset" onclick={reset}>
                    { t!("seed-reset", seed = props.lesson_seed.to_string()) }</button>
            }
            <span id="seed-help" class="visually-hidden">{ t!("seed-help") }</span>
        </form>
    }
}

/// A device whose only pointer is a finger (a phone, a tablet without a keyboard).
const TOUCH_ONLY: &str = "(hover: none) and (pointer: coarse)";

#[derive(Properties, PartialEq)]
pub struct NarrationProps {
    pub run: Shared<RunModel>,
    pub head: Playhead,
    pub playing: bool,
    /// Cut to its lines (an embed, which keeps its height): a tap or the keyboard's
    /// focus shows the rest over what lies below, in a slot that keeps the height.
    #[prop_or_default]
    pub cut: bool,
}

/// The current event in words. A polite live region while paused, so each step is
/// read out; silent while playing, so a screen reader is not flooded.
#[function_component]
pub fn Narration(props: &NarrationProps) -> Html {
    let k = props.head.events;
    let text = if k == 0 {
        // A touch screen without a keyboard's arrow keys: the step button instead.
        if crate::hooks::media_matches(TOUCH_ONLY) {
            t!("narration-start-touch")
        } else {
            t!("narration-start")
        }
    } else {
        let entry = &props.run.trace[k - 1];
        // The event's line in the page's language (the trace's own line in English).
        let line = crate::i18n::event_line(&entry.event);
        t!(
            "narration-event",
            time = ms_label(entry.at_us),
            event = k,
            events = props.run.events(),
            line = line.as_str()
        )
    };
    let shown = html! { { text.clone() } };
    let live = if props.playing { "off" } else { "polite" };
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with(text.clone(), move |_| mark_more(&node));
    }
    if !props.cut {
        return html! {
            <p class="narration" data-testid="narration" aria-live={live} aria-atomic="true">{ shown }</p>
        };
    }
    // Escape folds it back (the focus leaves it, as a click elsewhere does).
    let onkeydown = Callback::from(|e: KeyboardEvent| {
        if e.key() == "Escape" {
            if let Some(el) = e.target_dyn_into::<web_sys::HtmlElement>() {
                let _ = el.blur();
            }
        }
    });
    html! {
        // The title too has all of it, for a pointer that rests on it.
        <div class="narration-slot">
            <p class="narration" data-testid="narration" aria-live={live} aria-atomic="true"
                title={text} tabindex="0" {onkeydown} ref={node}>
                { shown }
            </p>
            <span class="narration-more" aria-hidden="true">{ "▾" }</span>
        </div>
    }
}

/// Marks the slot `data-more` while its narration has more lines than it shows, so a
/// cue says a tap opens it. Measured against the slot, not the narration's own box,
/// so a narration open (focused) when the step changes is still counted as cut.
fn mark_more(node: &NodeRef) {
    let Some(el) = node.cast::<web_sys::HtmlElement>() else {
        return;
    };
    let Some(slot) = el.parent_element() else {
        return;
    };
    let borders = el.offset_height() - el.client_height();
    let more = if el.scroll_height() > slot.client_height() - borders + 1 {
        "true"
    } else {
        "false"
    };
    if slot.get_attribute("data-more").as_deref() != Some(more) {
        let _ = slot.set_attribute("data-more", more);
    }
}

#[derive(Properties, PartialEq)]
pub struct SimulatingProps {
    pub progress: Option<BuildProgress>,
    /// Over the previous run, which stays on screen meanwhile.
    pub over: bool,
    pub dispatch: Callback<PlayerAction>,
}

/// "Simulating…", and once a run has taken a while (`sliced::PROGRESS_AFTER_MS`), how
/// far it got and a Cancel button.
#[function_component]
pub fn Simulating(props: &SimulatingProps) -> Html {
    let cancel = props.dispatch.reform(|_: MouseEvent| PlayerAction::Cancel);
    html! {
        <div class={classes!("simulating", props.over.then_some("simulating--over"))} role="status"
            data-testid={(!props.over).then_some("simulating")}>
            { t!("simulating") }
            if let Some(p) = props.progress {
                <span class="simulating__progress" data-testid="run-progress">
                    { " " }{ t!("run-progress", steps = p.steps, time = ms_label(p.now_us)) }{ " " }
                </span>
                <button type="button" class="button" data-testid="cancel-run" onclick={cancel}>{ t!("cancel") }</button>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct CancelledProps {
    pub progress: BuildProgress,
    pub dispatch: Callback<PlayerAction>,
}

/// A run the reader cancelled: how far it had got, and a button to run it again.
#[function_component]
pub fn Cancelled(props: &CancelledProps) -> Html {
    let p = props.progress;
    let retry = props.dispatch.reform(|_: MouseEvent| PlayerAction::Retry);
    html! {
        <div class="notice notice--warning" role="status" data-testid="run-cancelled" data-stopped="cancel">
            <p class="notice__title">{ t!("cancelled-title") }</p>
            <p>{ t!("cancelled-detail", steps = p.steps, time = ms_label(p.now_us)) }{ " " }
                <button type="button" class="button" data-testid="run-again" onclick={retry}>{ t!("run-again") }</button></p>
        </div>
    }
}

/// A speed as the page's language writes a number: `0.25×`, Polish `0,25×`.
fn speed_label(speed: f64) -> String {
    let thousandths = (speed * 1000.0).round() as u64;
    format!(
        "{}×",
        crate::i18n::decimal(thousandths / 1000, thousandths % 1000)
    )
}

/// `aria-disabled="true"` for a button that cannot act now, no attribute otherwise.
pub(crate) fn off(disabled: bool) -> Option<AttrValue> {
    disabled.then_some(AttrValue::Static("true"))
}
