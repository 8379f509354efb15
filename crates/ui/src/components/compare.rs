//! The compare page: two runs of one lesson, lanes of one above the other's on one time
//! axis and one playhead that plays or steps, the first point where they diverge marked and explained, and
//! both outcomes side by side (the right one's differences from the left marked).

use std::rc::Rc;

use yew::prelude::*;

use super::compact_outcome::CompactOutcome;
use super::lanes::Lanes;
use super::outcome::Outcome;
use super::transport::{
    icon, off, ICON_BACK, ICON_END, ICON_FORWARD, ICON_HOME, ICON_PAUSE, ICON_PLAY,
};
use crate::catalog::catalog;
use crate::compare::{differences, divergence, CompareRoute, PairJob};
use crate::hooks::{navigate, Measure};
use crate::player::{PlayerAction, Shared};
use crate::present::{ms_label, ms_number};
use crate::route::{LessonRoute, Route};
use crate::run::{RunBuilder, RunModel};
use crate::sliced::run_sliced;
use crate::t;

#[derive(Properties, PartialEq)]
pub struct ComparePageProps {
    pub route: CompareRoute,
}

type Pair = (Shared<RunModel>, Shared<RunModel>);

/// Playing, the time between two instants: the player's pace at 1× (four events a
/// second).
const PLAY_STEP_MS: u32 = 250;

#[function_component]
pub fn ComparePage(props: &ComparePageProps) -> Html {
    let route = &props.route;
    let lesson = catalog().lesson(&route.id).cloned();
    let runs = use_state(|| None::<Result<Pair, String>>);
    let t_us = use_state(|| route.time_us.unwrap_or(0));
    // The playhead goes into the address as the player's does (`t=`, no history entry),
    // so a reload or a shared link shows the same moment.
    {
        let route = route.clone();
        use_effect_with(*t_us, move |&t| {
            let here = CompareRoute {
                time_us: (t > 0).then_some(t),
                problems: Vec::new(),
                ..route
            };
            crate::hooks::replace_url(&Route::Compare(here).href());
        });
    }
    // Embedded, the widget tells embed.js its height, as the lesson's embed does (its
    // height does not change as it plays, so nothing holds it back).
    let root = use_node_ref();
    super::embed::use_report_height(root.clone(), false);
    {
        let runs = runs.clone();
        let lesson = lesson.clone();
        let route = route.clone();
        use_effect_with(
            (
                route.id.clone(),
                route.left.clone(),
                route.right.clone(),
                route.seed,
            ),
            move |_| {
                runs.set(None);
                let job = lesson.and_then(|lesson| {
                    let (left, right, _) = route.settings(&lesson);
                    let seed = route.seed.unwrap_or(lesson.seed);
                    let builder = |settings: &lesson::Settings| {
                        lesson
                            .apply(settings)
                            .map_err(|e| e.to_string())
                            .and_then(|applied| RunBuilder::new(&lesson.id, applied, seed))
                    };
                    match (builder(&left), builder(&right)) {
                        (Ok(l), Ok(r)) => {
                            let measure = Measure::start("lockstep:compare");
                            let done = {
                                let runs = runs.clone();
                                move |(l, r): (RunModel, RunModel)| {
                                    measure.end();
                                    runs.set(Some(Ok((Shared::new(l), Shared::new(r)))));
                                }
                            };
                            run_sliced(PairJob::new(l, r), |_| {}, done)
                        }
                        (Err(e), _) | (_, Err(e)) => {
                            runs.set(Some(Err(e)));
                            None
                        }
                    }
                });
                move || drop(job)
            },
        );
    }
    // Play: the playhead goes from one instant of either run to the next, a step every
    // PLAY_STEP_MS (the player's pace at 1×), and stops at the end.
    let playing = use_state(|| false);
    {
        let (t_us, runs, playing) = (t_us.clone(), runs.clone(), playing.clone());
        let ready = runs.as_ref().map(|r| r.is_ok());
        use_effect_with((*playing, *t_us, ready), move |&(on, now, _)| {
            let timer = match (&*runs, on) {
                (Some(Ok((left, right))), true) => {
                    let next = crate::compare::next_instant(&left.trace, &right.trace, now, true);
                    Some(gloo::timers::callback::Timeout::new(
                        PLAY_STEP_MS,
                        move || match next {
                            Some(at) => t_us.set(at),
                            None => playing.set(false),
                        },
                    ))
                }
                _ => None,
            };
            move || drop(timer)
        });
    }
    let toggle_play = {
        let (t_us, runs, playing) = (t_us.clone(), runs.clone(), playing.clone());
        move || {
            if !*playing {
                // At the end, Play starts again from the start.
                if let Some(Ok((left, right))) = &*runs {
                    if *t_us >= left.end_us().max(right.end_us()) {
                        t_us.set(0);
                    }
                }
            }
            playing.set(!*playing);
        }
    };
    // Keys outside a field move the playhead as the player's do: Space plays or pauses,
    // Home and End go to the ends, the arrows from one instant of either run to the next.
    {
        let (t_us, runs, toggle_play) = (t_us.clone(), runs.clone(), toggle_play.clone());
        // Listened anew as the runs arrive and as the playhead moves, so the keys step
        // from where it is now.
        use_effect_with(
            (runs.as_ref().map(|r| r.is_ok()), *t_us, *playing),
            move |_| {
                let listener = crate::hooks::page_keys(move |key, control| {
                    let Some(Ok((left, right))) = &*runs else {
                        return false;
                    };
                    let axis = left.end_us().max(right.end_us());
                    let now = (*t_us).min(axis);
                    if matches!(key, " " | "Spacebar") && !control {
                        toggle_play();
                        return true;
                    }
                    let to = match key {
                        "Home" => Some(0),
                        "End" => Some(axis),
                        "ArrowRight" if !control => {
                            crate::compare::next_instant(&left.trace, &right.trace, now, true)
                        }
                        "ArrowLeft" if !control => {
                            crate::compare::next_instant(&left.trace, &right.trace, now, false)
                        }
                        _ => return false,
                    };
                    if let Some(at) = to {
                        t_us.set(at);
                    }
                    true
                });
                move || drop(listener)
            },
        );
    }
    let Some(lesson) = lesson else {
        let known: Vec<String> = catalog().ids().iter().map(ToString::to_string).collect();
        return html! { <super::LessonProblem id={route.id.clone()} {known} /> };
    };
    let (left_settings, right_settings, problems) = route.settings(&lesson);
    let differs = differences(&lesson, &left_settings, &right_settings);
    let lesson_link = |settings: &lesson::Settings| {
        let mut r = LessonRoute::new(&lesson.id);
        r.toggles = crate::player::non_default(&lesson, settings);
        r.seed = route.seed;
        Route::Lesson(r).href()
    };
    let notice = (!problems.is_empty()).then(|| {
        html! {
            <div class="notice notice--warning" role="status" data-testid="url-warnings">
                <p class="notice__title">{ t!("url-warnings-title") }</p>
                <ul>{ for problems.iter().map(|w| html! { <li>{ super::with_code(&w.text()) }</li> }) }</ul>
            </div>
        }
    });
    let same = differs.is_empty().then(|| {
        // One link per other value of each toggle: the right side with it.
        let mut choices = Vec::new();
        for toggle in &lesson.toggles {
            let now = right_settings.get(&toggle.name).unwrap_or_default();
            let label = crate::catalog::toggle_label(&lesson.id, &toggle.name);
            for value in toggle.values.iter().filter(|v| v.as_str() != now) {
                let mut to = route.clone();
                to.right = right_settings
                    .iter()
                    .map(|(n, v)| {
                        let v = if n == toggle.name { value.as_str() } else { v };
                        (n.to_string(), v.to_string())
                    })
                    .collect();
                to.time_us = None;
                to.problems = Vec::new();
                let href = Route::Compare(to).href();
                choices.push(html! {
                    <li><a {href} data-testid="compare-choice">{ format!("{label} = {value}") }</a></li>
                });
            }
        }
        html! {
            <div class="notice" role="status" data-testid="compare-same">
                <p>{ t!("compare-same") }</p>
                <p class="compare__choices-title">{ t!("compare-same-choose") }</p>
                <ul class="compare__choices">{ for choices }</ul>
            </div>
        }
    });
    let body = match &*runs {
        None => html! {
            <div class="simulating" role="status" data-testid="simulating">{ t!("compare-simulating") }</div>
        },
        Some(Err(e)) => html! {
            <div class="notice notice--error" role="alert" data-testid="run-error">
                <p class="notice__title">{ t!("run-error-title") }</p>
                <pre class="notice__detail">{ e }</pre>
            </div>
        },
        Some(Ok((left, right))) => {
            let axis = left.end_us().max(right.end_us());
            let t = (*t_us).min(axis);
            let diverged = divergence(&left.trace, &right.trace);
            let seek = {
                let t_us = t_us.clone();
                let left = left.clone();
                Callback::from(move |action: PlayerAction| match action {
                    PlayerAction::SeekTime(us) => t_us.set(us),
                    PlayerAction::SeekEvents(n) => t_us.set(
                        n.checked_sub(1)
                            .and_then(|i| left.trace.get(i))
                            .map_or(0, |e| e.at_us),
                    ),
                    PlayerAction::Home => t_us.set(0),
                    PlayerAction::End => t_us.set(axis),
                    _ => {}
                })
            };
            let on_scrub = {
                let t_us = t_us.clone();
                Callback::from(move |e: InputEvent| {
                    let v = e
                        .target_unchecked_into::<web_sys::HtmlInputElement>()
                        .value_as_number();
                    if v.is_finite() {
                        t_us.set(v.max(0.0) as u64);
                    }
                })
            };
            // Arrows go from one instant of either run to the next.
            let on_scrub_key = {
                let (t_us, left, right) = (t_us.clone(), left.clone(), right.clone());
                Callback::from(move |e: KeyboardEvent| {
                    let forward = match e.key().as_str() {
                        "ArrowRight" | "ArrowUp" => true,
                        "ArrowLeft" | "ArrowDown" => false,
                        _ => return,
                    };
                    e.prevent_default();
                    let now = (*t_us).min(axis);
                    if let Some(at) =
                        crate::compare::next_instant(&left.trace, &right.trace, now, forward)
                    {
                        t_us.set(at);
                    }
                })
            };
            // The buttons: to an instant, or nothing where there is none to go to.
            let back = crate::compare::next_instant(&left.trace, &right.trace, t, false);
            let forward = crate::compare::next_instant(&left.trace, &right.trace, t, true);
            let jump = |to: Option<u64>| {
                let t_us = t_us.clone();
                Callback::from(move |_: MouseEvent| {
                    if let Some(at) = to {
                        t_us.set(at);
                    }
                })
            };
            let divergence_html = match &diverged {
                None => html! {
                    <p class="compare__divergence compare__divergence--none" data-testid="compare-divergence" data-index="none">
                        { t!("compare-never") }
                    </p>
                },
                Some(d) => {
                    let go = {
                        let t_us = t_us.clone();
                        let at = d.at_us;
                        Callback::from(move |_: MouseEvent| t_us.set(at))
                    };
                    html! {
                        <div class="compare__divergence" role="note" data-testid="compare-divergence"
                            data-index={d.index.to_string()} data-at-ms={ms_number(d.at_us)}>
                            <p>
                                <strong>{ t!("compare-part", time = ms_label(d.at_us), event = d.index + 1) }{ " " }</strong>
                                { t!("compare-same-before") }
                            </p>
                            <ul>
                                <li data-testid="compare-divergence-left">
                                    { t!("compare-left") }{ " " }{ d.left.clone().unwrap_or_else(|| t!("compare-ended")) }
                                </li>
                                <li data-testid="compare-divergence-right">
                                    { t!("compare-right") }{ " " }{ d.right.clone().unwrap_or_else(|| t!("compare-ended")) }
                                </li>
                            </ul>
                            <p class="compare__why">
                                { t!("compare-why", differs = differs.join(", ")) }
                                { " " }
                                <button type="button" class="button button--small" data-testid="compare-go" onclick={go}>
                                    { t!("compare-go") }
                                </button>
                            </p>
                        </div>
                    }
                }
            };
            let side = |which: &'static str,
                        run: &Shared<RunModel>,
                        settings: &lesson::Settings,
                        other: &lesson::Settings| {
                html! {
                    <section class="compare__side" data-testid={format!("compare-{which}")} aria-label={if which == "left" { t!("compare-left-run") } else { t!("compare-right-run") }}>
                        <h3 class="compare__side-title">
                            { if which == "left" { t!("compare-left") } else { t!("compare-right") } }{ " " }
                            <a href={lesson_link(settings)}>{ crate::compare::side_label(&lesson, settings, other) }</a>
                        </h3>
                        <Lanes run={run.clone()} t_us={t} reduced={true} dispatch={seek.clone()} axis_us={Some(axis)} />
                    </section>
                }
            };
            let marker = diverged.as_ref().map(|d| {
                let left_pct = if axis == 0 { 0.0 } else { d.at_us as f64 / axis as f64 * 100.0 };
                html! {
                    <span class="compare__marker" data-testid="compare-marker" style={format!("left: {left_pct:.3}%")}
                        title={t!("compare-marker", time = ms_label(d.at_us))}></span>
                }
            });
            let play_label = if *playing {
                t!("pause-label")
            } else {
                t!("play-label")
            };
            let on_play = {
                let toggle_play = toggle_play.clone();
                Callback::from(move |_: MouseEvent| toggle_play())
            };
            html! {
                <>
                    <div class="compare__transport" data-testid="compare-transport">
                        <span class="transport__buttons">
                            <button type="button" class="icon-button" aria-label={t!("home-label")} title={t!("home-title")}
                                data-testid="compare-home" aria-disabled={off(t == 0)} onclick={jump(Some(0))}>{ icon(ICON_HOME) }</button>
                            <button type="button" class="icon-button" aria-label={t!("compare-back-label")} title={t!("compare-back-label")}
                                data-testid="compare-back" aria-disabled={off(back.is_none())} onclick={jump(back)}>{ icon(ICON_BACK) }</button>
                            <button type="button" class="icon-button icon-button--play" aria-label={play_label.clone()} title={play_label}
                                data-testid="compare-play" data-playing={if *playing { "true" } else { "false" }} onclick={on_play}>
                                { icon(if *playing { ICON_PAUSE } else { ICON_PLAY }) }
                                { if *playing { t!("pause") } else if t >= axis { t!("replay") } else { t!("play") } }
                            </button>
                            <button type="button" class="icon-button" aria-label={t!("compare-forward-label")} title={t!("compare-forward-label")}
                                data-testid="compare-forward" aria-disabled={off(forward.is_none())} onclick={jump(forward)}>{ icon(ICON_FORWARD) }</button>
                            <button type="button" class="icon-button" aria-label={t!("end-label")} title={t!("end-title")}
                                data-testid="compare-end" aria-disabled={off(t >= axis)} onclick={jump(Some(axis))}>{ icon(ICON_END) }</button>
                        </span>
                        <span class="transport__time" data-testid="compare-position" data-t-ms={ms_number(t)}>
                            <strong>{ ms_label(t) }</strong>{ " " }{ t!("compare-of", end = ms_label(axis)) }
                        </span>
                        <span class="compare__scrub">
                            <input type="range" class="transport__scrub" aria-label={t!("compare-scrub")}
                                aria-valuetext={ms_label(t)} data-testid="compare-scrub"
                                min="0" max={axis.to_string()} step="1" value={t.to_string()} oninput={on_scrub} onkeydown={on_scrub_key} />
                            <>{ for marker }</>
                        </span>
                    </div>
                    { divergence_html }
                    if let Some(shared) = crate::compare::shared_label(&lesson, &left_settings, &right_settings) {
                        <p class="compare__both" data-testid="compare-both">
                            <strong>{ t!("compare-both") }</strong>{ " " }{ shared }
                        </p>
                    }
                    { side("left", left, &left_settings, &right_settings) }
                    { side("right", right, &right_settings, &left_settings) }
                    <section class="compare__outcomes" data-testid="compare-outcomes" aria-label={t!("compare-outcomes")}>
                        <div data-testid="compare-outcome-left">
                            <h3>{ t!("compare-left-title") }</h3>
                            // A widget in a post shows each side's figures in a few lines,
                            // the full outcome one click away, as a lesson's widget does.
                            if route.embed {
                                <CompactOutcome summary={Rc::clone(&left.summary)} previous={None::<Rc<crate::run::RunSummary>>} />
                            } else {
                                <Outcome summary={Rc::clone(&left.summary)} previous={None::<Rc<crate::run::RunSummary>>} />
                            }
                        </div>
                        <div data-testid="compare-outcome-right">
                            <h3>{ t!("compare-right-title") }</h3>
                            if route.embed {
                                <CompactOutcome summary={Rc::clone(&right.summary)} previous={Some(Rc::clone(&left.summary))} beside={true} />
                            } else {
                                <Outcome summary={Rc::clone(&right.summary)} previous={Some(Rc::clone(&left.summary))} beside={true} />
                            }
                        </div>
                    </section>
                </>
            }
        }
    };
    let swap = {
        let mut swapped = route.clone();
        std::mem::swap(&mut swapped.left, &mut swapped.right);
        swapped.time_us = None;
        Callback::from(move |_: MouseEvent| navigate(&Route::Compare(swapped.clone())))
    };
    html! {
        <article ref={root} class={classes!("compare", route.embed.then_some("compare--embed"))} data-testid="compare"
            data-lesson={lesson.id.clone()}>
            <header class="lesson__head">
                if route.embed {
                    // A fragment link resolves against the app's own address, so the
                    // full page opens from wherever the widget is served.
                    // At the moment the widget shows, as its own address has it.
                    <a class="embed__open" href={Route::Compare(CompareRoute {
                            embed: false,
                            time_us: (*t_us > 0).then_some(*t_us),
                            problems: Vec::new(),
                            ..route.clone()
                        }).href()}
                        target="_blank" rel="noopener" data-testid="embed-open">
                        { t!("embed-open") }<span aria-hidden="true">{ " ↗" }</span>
                        <span class="visually-hidden">{ " " }{ t!("embed-open-new-tab") }</span>
                    </a>
                } else {
                    <p class="lesson__crumbs">
                        <a href={Route::Home.href()}>{ t!("all-lessons") }</a>
                        { " · " }
                        <a href={lesson_link(&left_settings)}>{ t!("compare-back") }</a>
                    </p>
                }
                <h2 class="lesson__title">{ t!("compare-page-title", title = &crate::catalog::shown(&lesson).title) }</h2>
                <super::Untranslated lesson_id={lesson.id.clone()} />
                <p class="lesson__summary" data-testid="compare-differences">
                    { if differs.is_empty() { t!("compare-no-difference") } else { t!("compare-differ", differs = differs.join(", ")) } }
                    // Two runs of the same settings have no sides to swap.
                    if !differs.is_empty() {
                        { " " }
                        <button type="button" class="button button--small" data-testid="compare-swap" onclick={swap}>{ t!("compare-swap") }</button>
                    }
                </p>
            </header>
            <>{ for notice }</>
            <>{ for same }</>
            { body }
        </article>
    }
}
