//! The facilitator page (`#/facilitator`): every exercise with its goal, the goals
//! Check judges (on which seeds), its hints in order and the blocks learners edit. It
//! prints as a handout (the print rules in `www/style.css` drop the buttons and print
//! black on white, each exercise with its whole address where the screen has a link);
//! the solutions are not here (`lockstep exercises --solutions`).

use gloo::utils::window;
use lesson::Kind;
use yew::prelude::*;

use super::exercise::inline_html;
use crate::catalog::catalog;
use crate::progress;
use crate::route::Route;
use crate::t;

/// The reset button's two steps: a click asks first, as the progress of a whole room's
/// machines may be in this browser.
#[derive(Clone, Copy, PartialEq)]
enum Reset {
    Idle,
    /// Asked, with the number of exercises that have something saved.
    Asking(usize),
    /// Done, with the number cleared.
    Cleared(usize),
}

#[function_component]
pub fn FacilitatorPage() -> Html {
    let reset = use_state(|| Reset::Idle);
    let catalog = catalog();
    let exercises: Vec<_> = catalog
        .entries
        .iter()
        .filter(|e| e.lesson.kind == Kind::Exercise)
        // Each in the page's language where it is translated.
        .map(|e| {
            catalog
                .get_in(&e.lesson.id, crate::i18n::lang().as_str())
                .map_or(e, |(shown, _)| shown)
        })
        .collect();
    let on_print = Callback::from(|_: MouseEvent| {
        let _ = window().print();
    });
    let saved = exercises
        .iter()
        .filter(|e| progress::peek(&e.lesson.id).is_some())
        .count();
    let on_ask = {
        let reset = reset.clone();
        Callback::from(move |_: MouseEvent| {
            reset.set(if saved == 0 {
                Reset::Cleared(0)
            } else {
                Reset::Asking(saved)
            })
        })
    };
    let on_clear = {
        let reset = reset.clone();
        Callback::from(move |_: MouseEvent| reset.set(Reset::Cleared(progress::clear_all())))
    };
    let on_keep = {
        let reset = reset.clone();
        Callback::from(move |_: MouseEvent| reset.set(Reset::Idle))
    };
    // The page's address without its route: a handout names each exercise in full.
    let base = window().location().href().unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default().to_string();
    let items = exercises.iter().map(|entry| {
        let lesson = &entry.lesson;
        let Some(exercise) = &lesson.exercise else {
            return html! {};
        };
        let seeds = exercise
            .seeds
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let editable: Vec<String> = lesson.editable_blocks().filter_map(|b| b.editable.clone()).collect();
        html! {
            <article class="facilitator__exercise" data-testid="facilitator-exercise" data-lesson={lesson.id.clone()}>
                <h3>{ &lesson.title }</h3>
                <super::Untranslated lesson_id={lesson.id.clone()} />
                <p class="facilitator__meta">
                    <code>{ &lesson.id }</code>
                    if !lesson.covers.is_empty() { { " · " }{ t!("facilitator-covers", list = lesson.covers.join(", ")) } }
                    { " · " }{ t!("facilitator-seeds", seeds = seeds.to_string()) }
                </p>
                <p class="facilitator__summary">{ &lesson.summary }</p>
                <h4>{ t!("facilitator-goal") }</h4>
                <p data-testid="facilitator-goal">{ inline_html(&entry.goal_html) }</p>
                <h4>{ t!("facilitator-checks", count = lesson.checks.len()) }</h4>
                <ol class="facilitator__checks">
                    { for lesson.checks.iter().map(|c| html! { <li data-testid="facilitator-check">{ &c.name }</li> }) }
                </ol>
                <h4>{ t!("facilitator-hints", count = exercise.hints.len()) }</h4>
                <ol class="facilitator__hints">
                    { for entry.hints_html.iter().map(|h| html! { <li data-testid="facilitator-hint">{ inline_html(h) }</li> }) }
                </ol>
                <p class="facilitator__edits">
                    { t!("facilitator-edits") }{ " " }
                    { for editable.iter().enumerate().map(|(i, id)| html! {
                        <>{ if i > 0 { ", " } else { "" } }<code>{ id }</code></>
                    }) }
                </p>
                <p class="facilitator__link"><a href={Route::Exercise(lesson.id.clone()).href()}>{ t!("facilitator-open") }</a></p>
                <p class="facilitator__address" data-testid="facilitator-address">
                    <code>{ format!("{base}{}", Route::Exercise(lesson.id.clone()).href()) }</code>
                </p>
            </article>
        }
    });
    html! {
        <section class="facilitator" data-testid="facilitator">
            <p class="lesson__crumbs facilitator__crumbs"><a href={Route::Home.href()}>{ t!("all-lessons") }</a></p>
            <h2>{ t!("facilitator-title") }</h2>
            <p>
                { t!("facilitator-intro", count = exercises.len()) }{ " " }
                { t!("facilitator-progress") }
            </p>
            <p class="muted" data-testid="covers-legend">{ t!("lesson-covers-legend") }</p>
            <div class="facilitator__actions">
                <button type="button" class="button" data-testid="print" onclick={on_print}>{ t!("facilitator-print") }</button>
                <button type="button" class="button" data-testid="clear-all-progress" onclick={on_ask}
                    title={t!("facilitator-reset-title")} disabled={matches!(*reset, Reset::Asking(_))}>
                    { t!("facilitator-reset") }
                </button>
                { match *reset {
                    Reset::Idle => html! {},
                    Reset::Asking(n) => html! {
                        <span class="facilitator__confirm" role="alert" data-testid="confirm-clear">
                            { t!("facilitator-reset-confirm", count = n) }{ " " }
                            <button type="button" class="button" data-testid="confirm-clear-yes" onclick={on_clear}>
                                { t!("facilitator-reset-yes") }
                            </button>{ " " }
                            <button type="button" class="button" data-testid="confirm-clear-no" onclick={on_keep}>
                                { t!("facilitator-reset-no") }
                            </button>
                        </span>
                    },
                    Reset::Cleared(n) => html! {
                        <span role="status" data-testid="cleared">{ t!("facilitator-cleared", count = n) }</span>
                    },
                } }
            </div>
            <>{ for items }</>
        </section>
    }
}
