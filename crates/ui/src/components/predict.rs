//! Predict, then run: the question asked before a run (in place of the stage, so the
//! run cannot give the answer away), and the verdict beside the run once answered,
//! with a link to the moment that decides it.

use std::cell::Cell;

use lesson::{Judged, Question};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::predict::Answer;
use crate::route::{LessonRoute, Route, Seek};
use crate::t;

#[derive(Properties, PartialEq)]
pub struct AskProps {
    pub question: Question,
    /// The learner picked a choice or skipped.
    pub on_answer: Callback<Answer>,
    /// Stop asking (every lesson; the Lesson tab turns it back on).
    pub on_off: Callback<()>,
    /// The language of the question and its choices, where it is not the page's.
    #[prop_or_default]
    pub words_lang: Option<&'static str>,
}

thread_local! {
    /// Set when the learner answers: the verdict that replaces the question takes the
    /// focus, so a keyboard user goes on from there instead of from the page's top. A
    /// verdict restored from a saved answer as the page opens leaves the focus alone.
    static ANSWERED: Cell<bool> = const { Cell::new(false) };
    /// Cleared by the first question shown: one asked as the page opens leaves the
    /// focus on the page (a first choice focused unasked looks chosen); later ones, after
    /// a toggle, Skip or "Ask me again", take it so the keyboard answers.
    static PAGE_OPENING: Cell<bool> = const { Cell::new(true) };
    /// Set by Skip and "Stop asking": if no question follows, Play takes the focus.
    static PLAY_FOCUS: Cell<bool> = const { Cell::new(false) };
}

/// Whether the focus is on one of the site header's controls.
fn focus_in_header() -> bool {
    gloo::utils::document()
        .active_element()
        .and_then(|el| el.closest(".site-header").ok().flatten())
        .is_some()
}

/// Whether Play should take the focus now (once: it clears the request).
pub fn take_play_focus() -> bool {
    PLAY_FOCUS.with(|f| f.replace(false))
}

/// The question, its choices (keys 1 to 9 pick one) and Skip.
#[function_component]
pub fn Ask(props: &AskProps) -> Html {
    let q = &props.question;
    let first = use_node_ref();
    {
        // Focus the first choice, so the keyboard answers without a hunt.
        let first = first.clone();
        use_effect_with(q.name.clone(), move |_| {
            // A question that follows Skip takes the focus Play would have had.
            PLAY_FOCUS.with(|f| f.set(false));
            // Nor from the header's controls: a language switch redraws the page, and
            // the switch keeps the focus.
            if !PAGE_OPENING.with(|f| f.replace(false)) && !focus_in_header() {
                if let Some(el) = first.cast::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        });
    }
    let on_answer = props.on_answer.reform(|a: Answer| {
        match a {
            Answer::Choice(_) => ANSWERED.with(|f| f.set(true)),
            Answer::Skipped => PLAY_FOCUS.with(|f| f.set(true)),
        }
        a
    });
    let onkeydown = {
        let on_answer = on_answer.clone();
        let n = q.choices.len();
        Callback::from(move |e: KeyboardEvent| {
            // Arrow keys move between the choices, as in a group of options.
            let step = match e.key().as_str() {
                "ArrowDown" | "ArrowRight" => Some(1),
                "ArrowUp" | "ArrowLeft" => Some(n - 1),
                _ => None,
            };
            if let Some(step) = step.filter(|_| n > 0) {
                let at = e
                    .target_dyn_into::<web_sys::Element>()
                    .and_then(|el| el.get_attribute("data-index"))
                    .and_then(|i| i.parse::<usize>().ok());
                let group = e
                    .current_target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
                if let (Some(at), Some(group)) = (at, group) {
                    let next = format!(".predict__choice[data-index=\"{}\"]", (at + step) % n);
                    if let Some(el) = group
                        .query_selector(&next)
                        .ok()
                        .flatten()
                        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
                    {
                        e.prevent_default();
                        let _ = el.focus();
                    }
                }
                return;
            }
            if let Some(i) = e
                .key()
                .parse::<usize>()
                .ok()
                .filter(|i| (1..=n).contains(i))
            {
                e.prevent_default();
                e.stop_propagation();
                on_answer.emit(Answer::Choice(i - 1));
            }
        })
    };
    let skip = {
        let on_answer = on_answer.clone();
        Callback::from(move |_: MouseEvent| on_answer.emit(Answer::Skipped))
    };
    html! {
        <section class="predict" role="group" aria-labelledby="predict-ask" data-testid="predict"
            data-question={q.name.clone()} {onkeydown}>
            <p class="predict__title">{ t!("predict-title") }</p>
            <p class="predict__ask" id="predict-ask" lang={props.words_lang}>{ &q.ask }</p>
            <ol class="predict__choices">
                { for q.choices.iter().enumerate().map(|(i, c)| {
                    let onclick = {
                        let on_answer = on_answer.clone();
                        Callback::from(move |_: MouseEvent| on_answer.emit(Answer::Choice(i)))
                    };
                    let node = if i == 0 { first.clone() } else { NodeRef::default() };
                    html! {
                        <li>
                            <button type="button" class="button predict__choice" ref={node}
                                data-testid="predict-choice" data-index={i.to_string()}
                                aria-keyshortcuts={(i < 9).then(|| (i + 1).to_string())} lang={props.words_lang} {onclick}>
                                { &c.label }
                            </button>
                        </li>
                    }
                }) }
            </ol>
            <p class="predict__skip">
                <button type="button" class="button button--small" data-testid="predict-skip" onclick={skip}>
                    { t!("predict-skip") }
                </button>
                <button type="button" class="button button--small" data-testid="predict-off"
                    onclick={props.on_off.reform(|_: MouseEvent| PLAY_FOCUS.with(|f| f.set(true)))}>
                    { t!("predict-stop") }
                </button>
                <span class="predict__hint">{ t!("predict-hint") }</span>
            </p>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct VerdictProps {
    pub question: Question,
    pub choice: usize,
    /// The run's verdict; `None` while the run is still being built.
    pub judged: Option<Result<Judged, String>>,
    /// The lesson's route now (settings, seed): the moment link seeks within it.
    pub route: LessonRoute,
    /// Ask the question again.
    pub on_again: Callback<()>,
}

/// "Right" or "Not quite", the run's figure, why, and the moment that decides it.
#[function_component]
pub fn Verdict(props: &VerdictProps) -> Html {
    let q = &props.question;
    let picked = q
        .choices
        .get(props.choice)
        .map_or("?", |c| c.label.as_str());
    let again = {
        let on_again = props.on_again.clone();
        Callback::from(move |_: MouseEvent| on_again.emit(()))
    };
    let section = use_node_ref();
    {
        let section = section.clone();
        use_effect_with(q.name.clone(), move |_| {
            if ANSWERED.with(|f| f.replace(false)) {
                if let Some(el) = section.cast::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        });
    }
    let body = match &props.judged {
        None => html! { <p class="predict__detail">{ t!("predict-running") }</p> },
        Some(Err(e)) => html! {
            <p class="predict__detail">{ t!("predict-cannot-judge", error = e.to_string()) }</p>
        },
        Some(Ok(j)) => {
            let right = j.right.contains(&props.choice);
            let answer = j
                .right
                .first()
                .and_then(|&i| q.choices.get(i))
                .map_or_else(|| t!("predict-none"), |c| c.label.clone());
            let mut moment = props.route.clone();
            moment.seek = Seek::Events(j.moment);
            moment.time_us = None;
            html! {
                <>
                    <p class="predict__result" data-testid="predict-result"
                        data-right={if right { "true" } else { "false" }}>
                        <strong>{ if right { t!("predict-right") } else { t!("predict-wrong") } }</strong>
                        { t!("sentence-gap") }{ t!("predict-you-said", answer = picked.to_string()) }
                        if !right {
                            { t!("sentence-gap") }{ t!("predict-run-says", answer = answer.to_string()) }
                        }
                    </p>
                    <p class="predict__detail">
                        <code data-testid="predict-figure">{ q.measure.describe_as(&crate::present::figure_label(j.value)) }</code>{ " · " }{ &q.explain }{ " " }
                        <a href={Route::Lesson(moment).href()} data-testid="predict-moment" onclick={to_player()}>{ t!("predict-moment") }</a>
                    </p>
                </>
            }
        }
    };
    html! {
        <section class="predict predict--verdict" role="status" aria-label={t!("predict-yours")}
            data-testid="predict-verdict" data-question={q.name.clone()} ref={section} tabindex="-1">
            <p class="predict__ask" lang={crate::catalog::words_lang(&props.route.id)}>{ &q.ask }</p>
            { body }
            <button type="button" class="button button--small" data-testid="predict-again" onclick={again}>
                { t!("predict-again") }
            </button>
        </section>
    }
}

/// The link to the moment seeks the player; on a phone (or a short window scrolled to
/// the question) the player is out of sight below this verdict, so it comes up, with
/// the focus on Play to step from there.
fn to_player() -> Callback<MouseEvent> {
    use crate::hooks::{find, focus_on, out_of_sight};
    Callback::from(|_: MouseEvent| {
        gloo::timers::callback::Timeout::new(0, || {
            if let (Some(stage), Some(transport)) =
                (find("[data-testid=stage]"), find("[data-testid=transport]"))
            {
                if out_of_sight(&transport) {
                    stage.scroll_into_view_with_bool(true);
                }
            }
            focus_on("[data-testid=play]");
        })
        .forget();
    })
}
