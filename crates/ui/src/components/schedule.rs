//! Be the scheduler (`#/lesson/<id>/schedule?...`): each session's next statement and a
//! button (and a key) to run it, blocked and finished sessions shown as such, undo, the
//! lesson's properties judged after every statement, the tables and the steps so far;
//! and Explore, which searches every interleaving for one that breaks a property.
//! The learner's picks live in the URL (history entry replaced), so a reload or a shared
//! link shows the same state. State and replay are `scheduling.rs`; the search is
//! `exploring.rs`, run in the worker (`offload.rs`).

use std::cell::RefCell;
use std::rc::Rc;

use engine::SessionStatus;
use gloo::utils::window;
use lesson::{Lesson, Settings};
use wasm_bindgen::JsValue;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::code::status_text;
use super::pages::LessonProblem;
use super::tables::Tables;
use super::transport::Toggles;
use crate::catalog::catalog;
use crate::exploring::{conflict_text, progress_text, step_text, verdict_text, Answer};
use crate::hooks::{navigate, page_keys, Measure};
use crate::offload::{offload, Offloaded};
use crate::player::{non_default, settings_from, Shared};
use crate::present::{session_class, StepMarks};
use crate::route::{LessonRoute, Route};
use crate::scheduling::{properties, session_key, session_of_key, ScheduleRoute, Scheduling};
use crate::t;
use crate::wire::{ExploreRequest, Reply, Request};

/// Performance API measure of one search, Explore click to answer.
pub const MEASURE_EXPLORE: &str = "lockstep:explore";

#[derive(Properties, PartialEq)]
pub struct SchedulePageProps {
    pub route: ScheduleRoute,
}

#[function_component]
pub fn SchedulePage(props: &SchedulePageProps) -> Html {
    let catalog = catalog();
    match catalog.lesson(&props.route.lesson.id) {
        Some(lesson) => html! {
            <Schedule lesson={Shared(Rc::clone(lesson))} route={props.route.clone()} />
        },
        None => {
            let known: Vec<String> = catalog.ids().iter().map(ToString::to_string).collect();
            html! { <LessonProblem id={props.route.lesson.id.clone()} {known} /> }
        }
    }
}

#[derive(Properties, PartialEq)]
struct ScheduleProps {
    lesson: Shared<Lesson>,
    route: ScheduleRoute,
}

/// What the page does to the learner's interleaving.
#[derive(Clone, Copy)]
enum Act {
    Pick(usize),
    Undo,
}

/// The lesson route the page's URLs keep: id, the settings as applied (defaults left
/// out) and the seed.
fn base_route(lesson: &Lesson, settings: &Settings, seed: Option<u64>) -> LessonRoute {
    let mut route = LessonRoute::new(&lesson.id);
    route.toggles = non_default(lesson, settings);
    route.seed = seed.filter(|&s| s != lesson.seed);
    route
}

#[function_component]
fn Schedule(props: &ScheduleProps) -> Html {
    let lesson = &props.lesson;
    let (settings, mut warnings) = settings_from(lesson, &props.route.lesson.toggles);
    warnings.extend(props.route.lesson.problems.iter().cloned());
    let seed = props.route.lesson.seed.unwrap_or(lesson.seed);
    let base = base_route(lesson, &settings, props.route.lesson.seed);

    // Built once per route (the page is keyed by it): the learner's picks change the URL
    // without a `hashchange`, so they never rebuild it.
    let scheduling: Rc<RefCell<Result<Scheduling, String>>> = {
        let (lesson, settings, route) = (lesson.clone(), settings.clone(), props.route.clone());
        use_mut_ref(move || {
            let applied = lesson.apply(&settings).map_err(|e| e.to_string())?;
            let mut s = Scheduling::new(applied, seed)?;
            s.replay(route.schedule.as_ref(), route.steps);
            Ok(s)
        })
    };
    let update = use_force_update();
    // Why the last key or click ran nothing (a session that cannot run, or no such key).
    let refused = use_state(|| None::<String>);
    let act = {
        let (scheduling, base, refused) = (scheduling.clone(), base.clone(), refused.clone());
        Callback::from(move |act: Act| {
            let mut guard = scheduling.borrow_mut();
            let Ok(s) = guard.as_mut() else { return };
            let changed = match act {
                Act::Pick(i) => match s.pick(i) {
                    Ok(()) => true,
                    Err(_) => {
                        refused.set(Some(refusal(s, i)));
                        false
                    }
                },
                Act::Undo => s.undo(),
            };
            if changed {
                refused.set(None);
                let href = Route::Schedule(s.route(&base)).href();
                if let Ok(history) = window().history() {
                    let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&href));
                }
                update.force_update();
            }
        })
    };
    use_schedule_keys(act.clone());

    let on_toggle = {
        let (lesson, settings, seed) = (lesson.clone(), settings.clone(), props.route.lesson.seed);
        Callback::from(move |(name, value): (String, String)| {
            let mut pairs = non_default(&lesson, &settings);
            pairs.retain(|(n, _)| *n != name);
            pairs.push((name, value));
            let (settings, _) = settings_from(&lesson, &pairs);
            let route = ScheduleRoute::from(base_route(&lesson, &settings, seed));
            navigate(&Route::Schedule(route));
        })
    };
    let player_href = Route::Lesson(base.clone()).href();
    let toggles = catalog()
        .get_in(&lesson.id, crate::i18n::lang().as_str())
        .map_or_else(
            || lesson.toggles.clone(),
            |(entry, _)| super::lesson_page::toggles_in(lesson, &entry.lesson),
        );
    let warnings = (!warnings.is_empty()).then(|| {
        html! {
            <div class="notice notice--warning" role="status" data-testid="url-warnings">
                <p class="notice__title">{ t!("url-warnings-title") }</p>
                <ul>{ for warnings.iter().map(|w| html! { <li>{ super::with_code(&w.text()) }</li> }) }</ul>
            </div>
        }
    });

    let guard = scheduling.borrow();
    let body = match &*guard {
        Err(error) => html! {
            <div class="notice notice--error" role="alert" data-testid="run-error">
                <p class="notice__title">{ t!("run-error-title") }</p>
                <pre class="notice__detail">{ error }</pre>
            </div>
        },
        Ok(s) => scheduler_body(s, &act, refused.as_deref()),
    };
    let (steps, schedule) = match &*guard {
        Ok(s) => (s.steps.len(), s.schedule().to_string()),
        Err(_) => (0, String::new()),
    };
    // What the last pick did, brought into sight when it lands below the window's edge
    // (a phone, the lower card).
    use_effect_with(steps, |_| {
        let newest = gloo::utils::document()
            .query_selector("[data-testid=schedule-did][data-newest]")
            .ok()
            .flatten();
        if let Some(el) = newest {
            let below = el.get_bounding_client_rect().bottom();
            let height = window().inner_height().ok().and_then(|h| h.as_f64());
            if height.is_some_and(|h| below > h) {
                el.scroll_into_view_with_bool(false);
            }
        }
    });

    html! {
        <article class="schedule" data-testid="schedule-view" data-lesson={lesson.id.clone()}
            data-steps={steps.to_string()} data-schedule={schedule}>
            <header class="lesson__head">
                <p class="lesson__crumbs">
                    <a href={Route::Home.href()}>{ t!("all-lessons") }</a>
                    { " · " }
                    <a href={player_href} data-testid="back-to-player">{ t!("schedule-back") }</a>
                </p>
                <h2 class="lesson__title">{ t!("schedule-title", title = &crate::catalog::shown(lesson).title) }</h2>
                <super::Untranslated lesson_id={lesson.id.clone()} />
                <p class="lesson__summary">
                    { t!("schedule-intro") }
                </p>
            </header>
            <>{ for warnings }</>
            <Toggles toggles={toggles} settings={settings.clone()} fresh={Vec::<String>::new()}
                pending={false} {on_toggle} words_lang={crate::catalog::words_lang(&lesson.id)} />
            { body }
            <ExplorePanel lesson={lesson.clone()} {settings} {seed} base={base} />
        </article>
    }
}

/// A step's events, one line each in the page's language.
fn event_items(events: &[engine::TraceEntry]) -> Html {
    events
        .iter()
        .map(|e| html! { <li>{ crate::i18n::event_line(&e.event) }</li> })
        .collect()
}

/// Why picking session `i` ran nothing: it cannot run now (and why), it has finished,
/// or no session has that key.
fn refusal(s: &Scheduling, i: usize) -> String {
    let view = s.view();
    match view.sessions.get(i) {
        None => t!(
            "schedule-refused-none",
            key = session_key(i).unwrap_or('?').to_string()
        ),
        Some(session) if matches!(session.status, SessionStatus::Finished) => {
            t!("schedule-refused-finished", session = &session.name)
        }
        Some(session) => t!(
            "schedule-refused-cannot",
            session = &session.name,
            status = status_text(&session.status, 0, s.applied.scenario.dialect).0
        ),
    }
}

/// Sessions with their buttons, undo, properties, the tables and the steps so far.
fn scheduler_body(s: &Scheduling, act: &Callback<Act>, refused: Option<&str>) -> Html {
    let view = s.view();
    let now = s.sessions_now(&view);
    let n = s.steps.len();
    let broken = s.broken();
    let enabled_names: Vec<&str> = now
        .iter()
        .filter(|x| x.enabled)
        .map(|x| x.name.as_str())
        .collect();

    let cards = now.iter().enumerate().map(|(i, session)| {
        let key = session_key(i);
        let (state, text) = match &session.status {
            SessionStatus::Finished => ("finished", t!("code-finished")),
            _ if session.enabled => ("enabled", t!("schedule-can-run")),
            status => (
                "blocked",
                status_text(status, 0, s.applied.scenario.dialect).0,
            ),
        };
        let onclick = {
            let act = act.clone();
            let enabled = session.enabled;
            Callback::from(move |_: MouseEvent| {
                if enabled {
                    act.emit(Act::Pick(i))
                }
            })
        };
        let label = match key {
            Some(k) => t!("schedule-run-key", session = &session.name, key = k.to_string()),
            None => t!("schedule-run", session = &session.name),
        };
        html! {
            <li class={classes!("schedule__session", format!("schedule__session--{state}"), session_class(i))}
                data-testid="schedule-session" data-session={session.name.clone()} data-state={state}>
                <div class="schedule__who">
                    <span class={classes!("schedule__swatch", session_class(i))} aria-hidden="true"></span>
                    <strong>{ &session.name }</strong>
                    <span class="schedule__status" data-testid="schedule-status">{ text }</span>
                </div>
                if let Some((statement, line)) = &session.next {
                    <p class="schedule__next-label muted">{ match (session.continues, session.in_setup) {
                        (false, true) => t!("schedule-next-setup", line = line.to_string()),
                        (false, false) => t!("schedule-next", line = line.to_string(), session = &session.name),
                        (true, true) => t!("schedule-goes-on-setup", line = line.to_string()),
                        (true, false) => t!("schedule-goes-on", line = line.to_string(), session = &session.name),
                    } }</p>
                    <pre class="schedule__next" data-testid="schedule-next" data-line={line.to_string()}
                        data-continues={session.continues.then_some("true")}>{ statement }</pre>
                }
                <button type="button" class="button button--primary schedule__run"
                    data-testid={format!("schedule-step-{}", i + 1)}
                    // `aria-disabled`, not `disabled`: a button that blocks its session
                    // as it is pressed keeps the focus (a disabled one drops it to the page).
                    aria-disabled={(!session.enabled).then_some("true")}
                    aria-keyshortcuts={key.map(|k| k.to_string())}
                    {onclick}>{ label }</button>
                // What the session's last pick did, beside its button: on a phone the
                // log of steps is a screen further down. Each card keeps its own, so a
                // pick of another session moves no button.
                if let Some((k, step)) = s.steps.iter().enumerate().rev().find(|(_, step)| step.session == i) {
                    <div class={classes!("schedule__did", (k + 1 == n).then_some("schedule__did--newest"))}
                        data-testid="schedule-did" data-step={(k + 1).to_string()}
                        data-newest={(k + 1 == n).then_some("true")}>
                        <p class="schedule__did-label">{ t!("schedule-did", step = k + 1) }</p>
                        <ul class="schedule__events">{ event_items(&step.events) }</ul>
                    </div>
                }
            </li>
        }
    });

    let undo = {
        let act = act.clone();
        Callback::from(move |_: MouseEvent| {
            if n > 0 {
                act.emit(Act::Undo)
            }
        })
    };
    let status_line = if s.is_finished() {
        t!("schedule-finished", count = n)
    } else if enabled_names.is_empty() {
        t!("schedule-none-can-run")
    } else {
        t!(
            "schedule-who-next",
            count = n,
            names = enabled_names.join(&t!("schedule-names-join"))
        )
    };
    // The aria-live line: what the last statement did.
    let narration = s
        .steps
        .last()
        .map(|step| {
            let who = &s.sessions[step.session];
            let lines: Vec<String> = step
                .events
                .iter()
                .filter(|e| e.event.session().is_some_and(|x| x == who.as_str()))
                .map(|e| crate::i18n::event_line(&e.event))
                .collect();
            t!(
                "schedule-step",
                step = n,
                lines = lines.join(&t!("schedule-step-join"))
            )
        })
        .unwrap_or_default();

    let props = properties(&s.applied);
    let finished = s.is_finished();
    let property_rows = props.iter().map(|p| {
        let b = broken.iter().find(|b| b.name == p.name);
        // An end-of-run property has no verdict until every session has finished.
        let pending = b.is_none() && !finished && matches!(p.kind, lesson::PropertyKind::AtEnd { .. });
        html! {
            <li class={classes!("property", b.is_some().then_some("property--broken"))}
                data-testid="property" data-name={p.name.clone()}
                data-broken={if b.is_some() { "true" } else { "false" }}>
                <span class="property__mark" aria-hidden="true">{ if b.is_some() { "✗" } else if pending { "…" } else { "✓" } }</span>
                <span class="property__label">{ crate::catalog::property_label(&s.applied.lesson_id, &p.name, &p.label) }</span>
                <span class="property__state">{ match b {
                    Some(b) => t!("property-broken-at", step = b.step, detail = i18n::detail(&b.detail)),
                    None if pending => t!("property-at-end"),
                    None if finished => t!("property-held"),
                    None => t!("property-holds"),
                } }</span>
            </li>
        }
    });
    let alert = broken.first().map(|b| {
        html! {
            <p class="schedule__broken" data-testid="property-broken" data-name={b.name.clone()}
                data-step={b.step.to_string()}>
                { t!("property-alert", step = b.step, label = crate::catalog::property_label(&s.applied.lesson_id, &b.name, &b.label), detail = i18n::detail(&b.detail)) }
            </p>
        }
    });

    let marks = Rc::new(StepMarks::of(s.last_events()));
    let log = s.steps.iter().enumerate().rev().map(|(k, step)| {
        let who = &s.sessions[step.session];
        html! {
            <li class="schedule__logstep" data-testid="schedule-log-step">
                <span class={classes!("log__who", session_class(step.session))} aria-hidden="true"></span>
                <strong>{ format!("{}. {who}", k + 1) }</strong>
                <ul class="schedule__events">
                    { event_items(&step.events) }
                    { for step.broken.iter().map(|(name, detail)| {
                        // The property's label and the detail in the page's language, as
                        // in the list of properties and the alert.
                        let label = props.iter().find(|p| &p.name == name).map_or_else(
                            || name.clone(),
                            |p| crate::catalog::property_label(&s.applied.lesson_id, &p.name, &p.label),
                        );
                        html! {
                            <li class="schedule__event--broken">{ t!("schedule-log-broken", name = label, detail = i18n::detail(detail)) }</li>
                        }
                    }) }
                </ul>
            </li>
        }
    });

    html! {
        <div class="schedule__grid">
            <section class="panel schedule__main" aria-label={t!("code-sessions")}>
                if let Some(problem) = &s.problem {
                    <div class="notice notice--warning" role="status" data-testid="schedule-problem">
                        <p class="notice__title">{ t!("schedule-problem-title") }</p>
                        <p>{ problem.text() }</p>
                    </div>
                }
                <div class="schedule__bar">
                    <button type="button" class="button" data-testid="schedule-undo" aria-disabled={(n == 0).then_some("true")}
                        aria-keyshortcuts="Backspace u" onclick={undo}>{ t!("schedule-undo") }</button>
                    <span class="schedule__count" data-testid="schedule-count">{ status_line }</span>
                </div>
                <div>
                    <p class="muted schedule__keys">{ t!("schedule-keys", last = s.sessions.len().checked_sub(1).and_then(session_key).unwrap_or('1').to_string()) }</p>
                    <p class="schedule__refused" role="status" data-testid="schedule-refused">{ refused.unwrap_or_default() }</p>
                </div>
                <ol class="schedule__sessions">{ for cards }</ol>
                <p class="visually-hidden" aria-live="polite" data-testid="schedule-narration">{ narration }</p>
                <div aria-live="assertive" class="schedule__alert">{ for alert }</div>
                <h3 class="panel__title">{ t!("properties") }<span class="panel__note">{ t!("properties-note") }</span></h3>
                <ul class="properties" data-testid="properties">{ for property_rows }</ul>
                <p class="muted">{ t!("schedule-string") }{ " " }<code data-testid="schedule-string">{ s.schedule().to_string() }</code>
                    { " " }<span class="schedule__string-help" data-testid="schedule-string-help">{ command_kept_whole(&t!("schedule-string-help")) }</span></p>
            </section>
            <div class="schedule__side">
                <Tables view={Shared(Rc::new(view))} {marks} sessions={s.sessions.clone()} />
                <section class="panel log" aria-labelledby="schedule-log-heading" data-testid="schedule-log">
                    <h3 id="schedule-log-heading" class="panel__title">{ t!("schedule-log") }
                        <span class="panel__note">{ t!("schedule-log-note") }</span></h3>
                    if n == 0 {
                        <p class="muted">{ t!("schedule-log-empty") }</p>
                    }
                    <ol class="schedule__log" reversed=true>{ for log }</ol>
                </section>
            </div>
        </div>
    }
}

/// Digits (and letters past nine sessions) run a session; Backspace and `u` undo.
#[hook]
fn use_schedule_keys(act: Callback<Act>) {
    use_effect_with((), move |_| {
        let listener = page_keys(move |key, _| {
            let action = match key {
                "Backspace" | "u" | "U" => Act::Undo,
                other => match session_of_key(other) {
                    Some(i) => Act::Pick(i),
                    None => return false,
                },
            };
            act.emit(action);
            true
        });
        move || drop(listener)
    });
}

#[derive(Properties, PartialEq)]
struct ExploreProps {
    lesson: Shared<Lesson>,
    settings: Settings,
    seed: u64,
    /// The lesson route (toggles, seed) of the links to a counterexample.
    base: LessonRoute,
}

#[derive(Clone, PartialEq)]
enum Search {
    Idle,
    Running { progress: Option<explore::Progress> },
    Cancelled(explore::Progress, f64),
    Done(Rc<Answer>, f64),
    Failed(String),
}

thread_local! {
    /// The last search's answer, with the property chosen: a learner who opens the
    /// counterexample in the player and comes back (browser Back) finds it again
    /// instead of searching anew.
    static LAST_ANSWER: RefCell<Option<KeptAnswer>> = const { RefCell::new(None) };
}

struct KeptAnswer {
    request: ExploreRequest,
    chosen: usize,
    answer: Rc<Answer>,
    elapsed_ms: f64,
}

/// The request of a search of `lesson` with these settings, seed and property.
fn explore_request(props: &ExploreProps, property: Option<&str>) -> ExploreRequest {
    ExploreRequest {
        lesson: props.lesson.id.clone(),
        settings: props
            .settings
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        seed: props.seed,
        property: property.unwrap_or_default().to_string(),
        max_steps: explore::Options::default().max_steps,
        max_states: explore::Options::default().max_states,
        lang: crate::i18n::lang().as_str().to_string(),
    }
}

/// The kept answer, when it is for this lesson, settings and seed; after a language
/// switch, worded again in the new language (and kept so).
fn kept_answer(props: &ExploreProps) -> Option<(usize, Search)> {
    LAST_ANSWER.with_borrow_mut(|kept| {
        let k = kept.as_mut()?;
        let mut request = explore_request(props, None);
        request.property.clone_from(&k.request.property);
        if request.lang != k.request.lang {
            let asked = ExploreRequest {
                lang: k.request.lang.clone(),
                ..request.clone()
            };
            if asked != k.request {
                return None;
            }
            let applied = props.lesson.apply(&props.settings).ok()?;
            k.answer = Rc::new(k.answer.reworded(&applied, props.seed, &request.property)?);
            k.request = request.clone();
        }
        (request == k.request).then(|| (k.chosen, Search::Done(k.answer.clone(), k.elapsed_ms)))
    })
}

/// Explore: the search over every interleaving, run in the worker, with progress,
/// Cancel and its answer.
#[function_component]
fn ExplorePanel(props: &ExploreProps) -> Html {
    let kept = use_memo((), |_| kept_answer(props));
    let search = use_state(|| kept.as_ref().as_ref().map_or(Search::Idle, |k| k.1.clone()));
    let job: Rc<RefCell<Option<Offloaded>>> = use_mut_ref(|| None);
    let started = use_mut_ref(|| 0.0_f64);
    let last = use_mut_ref(explore::Progress::default);
    let chosen = use_state(|| kept.as_ref().as_ref().map_or(0, |k| k.0));
    let applied = props.lesson.apply(&props.settings).ok();
    let props_list = applied.as_ref().map(properties).unwrap_or_default();

    // Explore is one click away: the worker loads now, not after the click.
    use_effect_with((), |_| crate::offload::warm());
    // Leaving the page (or new settings) cancels a search.
    {
        let (job, search) = (job.clone(), search.clone());
        use_effect_with((props.settings.clone(), props.seed), move |_| {
            move || {
                if job.borrow_mut().take().is_some() {
                    search.set(Search::Idle);
                }
            }
        });
    }

    let start = {
        let (search, job, started, last) =
            (search.clone(), job.clone(), started.clone(), last.clone());
        let property = props_list.get(*chosen).map(|p| p.name.clone());
        let request = explore_request(props, property.as_deref());
        let chosen_now = *chosen;
        Callback::from(move |_: MouseEvent| {
            if property.is_none() {
                return;
            }
            *started.borrow_mut() = now_ms();
            *last.borrow_mut() = explore::Progress::default();
            search.set(Search::Running { progress: None });
            let measure = Measure::start(MEASURE_EXPLORE);
            let mut measure = Some(measure);
            let on_reply = {
                let (search, last, started) = (search.clone(), last.clone(), started.clone());
                let request = request.clone();
                move |reply: Reply| {
                    let done = match reply {
                        Reply::Searching(p) => {
                            *last.borrow_mut() = p;
                            search.set(Search::Running { progress: Some(p) });
                            return;
                        }
                        Reply::Explored(Ok(answer)) => {
                            let (answer, elapsed_ms) =
                                (Rc::new(answer), now_ms() - *started.borrow());
                            LAST_ANSWER.set(Some(KeptAnswer {
                                request: request.clone(),
                                chosen: chosen_now,
                                answer: answer.clone(),
                                elapsed_ms,
                            }));
                            Search::Done(answer, elapsed_ms)
                        }
                        Reply::Explored(Err(e)) | Reply::Failed(e) => Search::Failed(e),
                        _ => return,
                    };
                    if let Some(measure) = measure.take() {
                        measure.end();
                    }
                    search.set(done);
                }
            };
            // A search still running (there is none: the button is disabled) would end.
            *job.borrow_mut() = Some(offload(&Request::Explore(request.clone()), on_reply));
        })
    };
    let stop: Rc<dyn Fn()> = {
        let (search, job, started, last) =
            (search.clone(), job.clone(), started.clone(), last.clone());
        Rc::new(move || {
            // Dropping the job terminates the worker, wherever the search is.
            drop(job.borrow_mut().take());
            search.set(Search::Cancelled(
                *last.borrow(),
                now_ms() - *started.borrow(),
            ));
        })
    };
    let cancel = {
        let stop = stop.clone();
        Callback::from(move |_: MouseEvent| stop())
    };
    crate::hooks::use_escape_cancels(matches!(*search, Search::Running { .. }), stop);
    let on_choose = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<HtmlSelectElement>() {
                chosen.set(select.selected_index().max(0) as usize);
            }
        })
    };

    let running = matches!(*search, Search::Running { .. });
    let explore_ref = use_node_ref();
    crate::hooks::use_focus_rescue(running, explore_ref.clone());
    let answer = match &*search {
        Search::Idle => html! {},
        Search::Running { progress } => html! {
            <div class="simulating" role="status" data-testid="explore-progress">
                <p>
                    { match progress {
                        Some(p) => progress_text(p, now_ms() - *started.borrow()),
                        None => t!("explore-running"),
                    } }
                    { " " }
                    <button type="button" class="button" data-testid="explore-cancel" aria-keyshortcuts="Escape" onclick={cancel}>{ t!("cancel") }</button>
                </p>
            </div>
        },
        Search::Cancelled(p, elapsed) => html! {
            <p class="verdict verdict--error" role="status" data-testid="explore-result" data-verdict="cancelled">
                { t!("explore-cancelled", progress = progress_text(p, *elapsed)) }
            </p>
        },
        Search::Failed(e) => html! {
            <div class="notice notice--error" role="alert" data-testid="explore-result" data-verdict="error">
                <p class="notice__title">{ t!("explore-failed") }</p>
                <pre class="notice__detail">{ e }</pre>
            </div>
        },
        Search::Done(report, elapsed) => {
            let p = &report.progress;
            // The property's label in the page's language (the search ran the original).
            let mut shown = (**report).clone();
            if let Some(p) = props_list.iter().find(|p| p.label == report.label) {
                shown.label = crate::catalog::property_label(&props.lesson.id, &p.name, &p.label);
            }
            let text = verdict_text(&shown, *elapsed);
            match &report.found {
                None => html! {
                    <p class="verdict verdict--solved" role="status" data-testid="explore-result" data-verdict="holds"
                        data-exhaustive={p.exhaustive.to_string()} data-states={p.states.to_string()}
                        data-schedules={p.schedules.to_string()}>{ text }</p>
                },
                Some(c) => {
                    let route = ScheduleRoute {
                        lesson: props.base.clone(),
                        schedule: Some(c.schedule.clone()),
                        steps: Some(c.statements),
                    };
                    html! {
                        <div class="verdict verdict--fail explore__found" role="status" data-testid="explore-result"
                            data-verdict="violated" data-states={p.states.to_string()}
                            data-steps={c.statements.to_string()} data-schedule={c.schedule.to_string()}>
                            <p>{ text }</p>
                            if let Some(conflict) = &c.conflict {
                                <p class="explore__why" data-testid="explore-conflict"
                                    data-read={conflict.read.to_string()} data-write={conflict.write.to_string()}>
                                    <strong>{ t!("explore-why") }{ " " }</strong>{ conflict_text(conflict) }{ t!("explore-why-end") }</p>
                            }
                            <ol class="explore__steps" data-testid="explore-steps">
                                { for c.steps.iter().enumerate().map(|(k, step)| {
                                    let hot = c.conflict.as_ref().is_some_and(|x| k == x.read || k == x.write);
                                    html! {
                                        <li class={classes!(hot.then_some("explore__step--conflict"))}
                                            data-conflict={hot.to_string()}>{ step_text(step) }</li>
                                    }
                                }) }
                            </ol>
                            <p class="explore__links">
                                <a class="button" href={Route::Schedule(route.clone()).href()} data-testid="explore-open-scheduler">
                                    { t!("explore-open-scheduler") }</a>
                                <a class="button" href={Route::Lesson(route.player()).href()} data-testid="explore-open-player">
                                    { t!("explore-open-player") }</a>
                            </p>
                        </div>
                    }
                }
            }
        }
    };

    html! {
        <section class="panel explore" aria-labelledby="explore-heading" data-testid="explore">
            <h3 id="explore-heading" class="panel__title">{ t!("explore-title") }</h3>
            <p class="muted">{ t!("explore-intro") }</p>
            <div class="explore__bar">
                <label for="explore-property">{ t!("explore-property") }</label>
                <select id="explore-property" data-testid="explore-property" onchange={on_choose} disabled={running}>
                    { for props_list.iter().enumerate().map(|(i, p)| html! {
                        <option value={p.name.clone()} selected={i == *chosen}>{ crate::catalog::property_label(&props.lesson.id, &p.name, &p.label) }</option>
                    }) }
                </select>
                // aria-disabled while it searches: a disabled button would drop the
                // focus it was pressed with (and Cancel, when the search ends, hands
                // the focus back to it).
                <button type="button" class="button button--primary" data-testid="explore-button" ref={explore_ref}
                    disabled={applied.is_none()} aria-disabled={if running { "true" } else { "false" }}
                    onclick={if running { Callback::noop() } else { start }}>{ t!("explore-button") }</button>
            </div>
            <div aria-live="polite">{ answer }</div>
        </section>
    }
}

fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// The CLI command a help text names, kept on one line: a browser breaks it after
/// `--` or at its spaces, and a reader copies it from the page.
fn command_kept_whole(text: &str) -> Html {
    const COMMAND: &str = "lockstep run --schedule";
    match text.split_once(COMMAND) {
        Some((before, after)) => html! {
            <>{ before }<code class="nowrap" data-testid="schedule-string-command">{ COMMAND }</code>{ after }</>
        },
        None => html! { text },
    }
}
