//! The embedded player (`#/embed/<id>`): one lesson's player without site chrome, for
//! an `<iframe>` in a blog post, reporting its height to the host page; and the "copy
//! embed code" control of the full player, which writes that `<iframe>` line.

use std::cell::Cell;
use std::rc::Rc;

use engine::StateView;
use gloo::utils::window;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{HtmlElement, HtmlInputElement, HtmlTextAreaElement, ResizeObserver};
use yew::prelude::*;

use super::anomalies::AnomalyNav;
use super::code::{statements, SessionCode};
use super::compact_outcome::CompactOutcome;
use super::lanes::Lanes;
use super::log::EventLog;
use super::outcome::Outcome;
use super::tables::Tables;
use super::transport::{Cancelled, Narration, Simulating, Toggles, Transport};
use super::waits::Waits;
use super::why::WhyPanel;
use crate::catalog::catalog;
use crate::embed::{app_address, embed_code, EmbedRoute, EmbedView, HEIGHT_MESSAGE};
use crate::player::{Player, PlayerAction, Shared};
use crate::present::StepMarks;
use crate::route::{LessonRoute, Route};
use crate::{i18n, t};

#[derive(Properties, PartialEq)]
pub struct EmbedPageProps {
    pub player: Player,
    pub view: Option<Shared<StateView>>,
    pub view_current: bool,
    pub reduced: bool,
    pub dispatch: Callback<PlayerAction>,
    pub on_toggle: Callback<(String, String)>,
    /// Compact (toggles, transport, lanes, outcome) or every panel.
    pub mode: EmbedView,
}

/// The player alone, sized for a 680 px column (and a phone): title, toggles, the
/// transport, lanes and outcome; with `view=full` also the code, tables, wait-for
/// graph and event log. A link opens the full lesson in a new tab.
#[function_component]
pub fn EmbedPage(props: &EmbedPageProps) -> Html {
    let root = use_node_ref();
    // While it plays, the widget keeps the height it had: only the reader's own actions
    // (a toggle, a panel opened) may move the host page's text.
    let acted = use_report_height(root.clone(), props.player.playing);
    let on_click = {
        let acted = Rc::clone(&acted);
        Callback::from(move |_: MouseEvent| acted.set(true))
    };
    let on_key = Callback::from(move |_: KeyboardEvent| acted.set(true));

    let player = &props.player;
    let lesson = &player.lesson;
    let pending = player.pending();
    let full = props.mode == EmbedView::Full;
    let shown_lesson = catalog()
        .get_in(&lesson.id, i18n::lang().as_str())
        .map_or_else(
            || Rc::clone(&lesson.0),
            |(entry, _)| Rc::clone(&entry.lesson),
        );
    let shown = player
        .run
        .as_ref()
        .map(|r| {
            r.key
                .settings
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();

    let body = match (&player.run, &player.error) {
        _ if player.cancelled.is_some() => html! {
            <Cancelled progress={player.cancelled.unwrap_or_default()} dispatch={props.dispatch.clone()} />
        },
        (_, Some(error)) => html! {
            <div class="notice notice--error" role="alert" data-testid="run-error">
                <p class="notice__title">{ t!("run-error-title") }</p>
                <pre class="notice__detail">{ error }</pre>
            </div>
        },
        (None, None) => html! {
            <Simulating progress={player.progress} over={false} dispatch={props.dispatch.clone()} />
        },
        (Some(run), None) => {
            let head = player.head;
            let panels = match (&props.view, full) {
                (Some(view), true) => {
                    let marks = Rc::new(StepMarks::of(&run.trace[run.marked_events(head.events)]));
                    let statements = Rc::new(statements(run, view, head.events));
                    let instant = run.instant_ahead(head.events);
                    html! {
                        <>
                            <SessionCode
                                run={run.clone()}
                                view={view.clone()}
                                {statements}
                                fresh={player.fresh.clone()}
                                flash={player.flash}
                            />
                            <div class={classes!("player__pair", (!props.view_current).then_some("player__pair--catching-up"))}>
                                <Tables view={view.clone()} marks={marks.clone()} sessions={run.sessions.clone()} dialect={run.applied.scenario.dialect} {instant} />
                                <Waits view={view.clone()} {marks} sessions={run.sessions.clone()} dialect={run.applied.scenario.dialect} {instant} />
                            </div>
                        </>
                    }
                }
                _ => html! {},
            };
            html! {
                <>
                    <Transport
                        head={head}
                        events={run.events()}
                        end_us={run.end_us()}
                        playing={player.playing}
                        speed={player.speed}
                        dispatch={props.dispatch.clone()}
                    />
                    <Narration run={run.clone()} head={head} playing={player.playing} cut=true />
                    <Lanes run={run.clone()} t_us={head.t_us} reduced={props.reduced} dispatch={props.dispatch.clone()}>
                        <AnomalyNav run={run.clone()} events={head.events} why_open={player.why} dispatch={props.dispatch.clone()} />
                    </Lanes>
                    // Opened by the reader only; a fixed height (see the style sheet), so
                    // playing on with it open never resizes the widget.
                    <WhyPanel run={run.clone()} events={head.events} view={props.view.clone()} open={player.why} />
                    { panels }
                    if full {
                        <Outcome summary={run.summary.clone()} previous={player.previous.clone()} />
                    } else {
                        <CompactOutcome summary={run.summary.clone()} previous={player.previous.clone()} />
                    }
                    if full {
                        <EventLog run={run.clone()} events={head.events} dispatch={props.dispatch.clone()} />
                    }
                </>
            }
        }
    };

    let warnings = (!player.warnings.is_empty()).then(|| {
        html! {
            <div class="notice notice--warning" role="status" data-testid="url-warnings">
                <p class="notice__title">{ t!("embed-url-warnings-title") }</p>
                <ul>{ for player.warnings.iter().map(|w| html! { <li>{ super::with_code(&w.text()) }</li> }) }</ul>
            </div>
        }
    });
    // A fragment link resolves against the app's own address, so the full lesson
    // opens from wherever the widget is served.
    let full_lesson = Route::Lesson(player.route()).href();
    // A replayed schedule is said so here too, with the way back to the seeded run in
    // the same widget (the theme follows the host page's again).
    let schedule_note = {
        let mut seeded = player.route();
        seeded.schedule = None;
        let back = EmbedRoute {
            view: props.mode,
            ..EmbedRoute::new(seeded)
        };
        super::lesson_page::schedule_note(player, &Route::Embed(back).href())
    };

    html! {
        <article ref={root} class={classes!("embed", format!("embed--{}", props.mode.as_str()))}
            onclick={on_click} onkeydown={on_key}
            data-testid="embed" data-lesson={lesson.id.clone()} data-view={props.mode.as_str()}>
            <header class="embed__head">
                <h2 class="embed__title">{ &shown_lesson.title }</h2>
                <a class="embed__open" href={full_lesson} target="_blank" rel="noopener" data-testid="embed-open">
                    { t!("embed-open") }<span aria-hidden="true">{ " ↗" }</span>
                    <span class="visually-hidden">{ " " }{ t!("embed-open-new-tab") }</span>
                </a>
            </header>
            // The compact widget is a glance: its note would cost the line it saves.
            if full {
                <super::Untranslated lesson_id={lesson.id.clone()} />
            }
            <>{ for warnings }</>
            <>{ for schedule_note }</>
            <section
                class={classes!("player", pending.then_some("player--stale"))}
                aria-label={t!("player-label")}
                aria-busy={if pending { "true" } else { "false" }}
                data-testid="player"
                data-settings={shown}
                data-pending={if pending { "true" } else { "false" }}
            >
                <Toggles
                    toggles={super::lesson_page::toggles_in(lesson, &shown_lesson)}
                    settings={player.key.settings.clone()}
                    fresh={player.fresh.clone()}
                    pending={pending}
                    on_toggle={props.on_toggle.clone()}
                    words_lang={crate::catalog::words_lang(&lesson.id)}
                />
                { body }
            </section>
        </article>
    }
}

/// An embed of a lesson that cannot be played: the same explanation as the full page.
pub fn problem(route: &EmbedRoute) -> Html {
    html! { <EmbedProblem route={route.clone()} /> }
}

#[derive(Properties, PartialEq)]
struct EmbedProblemProps {
    route: EmbedRoute,
}

/// An embed of a lesson that does not exist: the few ids nearest to the one given (the
/// likely typo, each an embed in the same frame), and the lesson list in a new tab, not
/// all 26 ids and the whole site inside the host's iframe. It reports its height as a
/// widget does, so the frame fits it.
#[function_component]
fn EmbedProblem(props: &EmbedProblemProps) -> Html {
    let root = use_node_ref();
    use_report_height(root.clone(), false);
    let id = &props.route.lesson.id;
    let near = nearest_ids(id, &catalog().ids());
    // The same embed (view, theme, toggles) of the lesson suggested.
    let embed_of = |near: &str| {
        let mut route = props.route.clone();
        route.lesson.id = near.to_string();
        Route::Embed(route).href()
    };
    html! {
        <section ref={root} class="problem problem--embed" role="alert" data-testid="lesson-problem">
            <h2>{ t!("no-lesson-title") }</h2>
            if id.is_empty() {
                <p>{ t!("embed-no-id") }</p>
            } else {
                <p>{ t!("no-lesson-before") }<code>{ id }</code>{ t!("embed-no-lesson-after") }</p>
            }
            if !near.is_empty() {
                <p>{ t!("embed-did-you-mean") }{ " " }
                    { for near.iter().enumerate().map(|(k, id)| html! {
                        <>
                            if k > 0 { { ", " } }
                            <a href={embed_of(id)} data-testid="embed-suggestion"><code>{ id }</code></a>
                        </>
                    }) }
                </p>
            }
            <p><a href={Route::Home.href()} target="_blank" rel="noopener">{ t!("embed-all-lessons") }</a></p>
        </section>
    }
}

/// Up to three of `ids` nearest to `id` by edit distance, those within a third of its
/// length: the ids a typo most likely meant.
fn nearest_ids(id: &str, ids: &[&str]) -> Vec<String> {
    let mut scored: Vec<(usize, &str)> = ids.iter().map(|k| (edit_distance(id, k), *k)).collect();
    scored.sort();
    let most = id.chars().count() / 3 + 1;
    scored
        .into_iter()
        .filter(|(d, _)| *d <= most)
        .take(3)
        .map(|(_, k)| k.to_string())
        .collect()
}

/// Levenshtein's distance between two short ids, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Posts `{ type: "lockstep:height", height }` to the parent page when the widget is
/// shown and whenever `root` changes size (a ResizeObserver), so `embed.js` can fit the
/// iframe to it. While `hold` (playback), changes are not reported: the layout keeps
/// its size as it plays, and should a panel still change, the host page does not move
/// under its reader; the height is reported once playback stops, or at the first change
/// after the reader acts (the returned flag: set it on a click or a key). The observer
/// is disconnected by the effect's cleanup.
#[hook]
pub(crate) fn use_report_height(root: NodeRef, hold: bool) -> Rc<Cell<bool>> {
    let held = use_memo((), |_| Cell::new(false));
    let acted = use_memo((), |_| Cell::new(false));
    held.set(hold);
    let reporter = use_mut_ref(|| None::<HeightReporter>);
    {
        let (held, acted, reporter) = (Rc::clone(&held), Rc::clone(&acted), reporter.clone());
        use_effect_with((), move |_| {
            *reporter.borrow_mut() = root
                .cast::<HtmlElement>()
                .and_then(|element| HeightReporter::start(&element, held, acted));
            move || drop(reporter.borrow_mut().take())
        });
    }
    use_effect_with(hold, move |hold| {
        if !*hold {
            if let Some(reporter) = reporter.borrow().as_ref() {
                (reporter.report)();
            }
        }
    });
    acted
}

/// How often a widget measures itself besides its ResizeObserver (see `HeightReporter`).
const REPORT_EVERY_MS: u32 = 500;

struct HeightReporter {
    observer: ResizeObserver,
    report: Rc<dyn Fn()>,
    // Kept alive as long as the observer may call it.
    _callback: Closure<dyn FnMut(JsValue)>,
    /// Reports on a timer too: a browser draws no frame, and so runs no ResizeObserver,
    /// for a cross-site iframe out of view, and the host kept the widget's first
    /// height until the reader scrolled to it (a page's anchors below it landed
    /// thousands of pixels off). Measuring forces layout even there.
    _timer: gloo::timers::callback::Interval,
}

impl HeightReporter {
    fn start(
        element: &HtmlElement,
        held: Rc<Cell<bool>>,
        acted: Rc<Cell<bool>>,
    ) -> Option<HeightReporter> {
        let parent = window().parent().ok().flatten()?;
        if JsValue::from(parent.clone()) == JsValue::from(window()) {
            return None; // not in a frame: nobody to tell
        }
        let last = Rc::new(Cell::new(0u32));
        let report: Rc<dyn Fn()> = {
            let element = element.clone();
            Rc::new(move || {
                if held.get() && !acted.replace(false) {
                    return;
                }
                let rect = element.get_bounding_client_rect();
                let scroll = window().scroll_y().unwrap_or(0.0);
                let height = (rect.bottom() + scroll).ceil().max(0.0) as u32;
                if height == last.replace(height) {
                    return;
                }
                let message = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&message, &"type".into(), &HEIGHT_MESSAGE.into());
                let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
                // Only a height goes out, so any host may read it.
                let _ = parent.post_message(&message, "*");
            })
        };
        report();
        let callback = {
            let report = Rc::clone(&report);
            Closure::<dyn FnMut(JsValue)>::new(move |_entries: JsValue| report())
        };
        let observer = ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
        observer.observe(element);
        let timer = {
            let report = Rc::clone(&report);
            gloo::timers::callback::Interval::new(REPORT_EVERY_MS, move || report())
        };
        Some(HeightReporter {
            observer,
            report,
            _callback: callback,
            _timer: timer,
        })
    }
}

impl Drop for HeightReporter {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

#[derive(Properties, PartialEq)]
pub struct CopyEmbedProps {
    /// The player's state now (lesson, toggles, playhead).
    pub route: LessonRoute,
    pub title: AttrValue,
}

/// What happened to the last copy.
#[derive(Clone, Debug, PartialEq)]
enum Copy {
    /// On the clipboard: this code.
    Copied(String),
    /// No clipboard access: the text is selected for Ctrl+C.
    Selected,
}

/// "Copy embed code": opens a read-only field with the `<iframe>` for this lesson, its
/// toggles and playhead, and the `<script>` line that sizes it; copies it with the
/// Clipboard API when the browser allows (else selects it for the reader to copy).
#[function_component]
pub fn CopyEmbed(props: &CopyEmbedProps) -> Html {
    let open = use_state(|| false);
    let full = use_state(|| false);
    let copy = use_state(|| None::<Copy>);
    let field = use_node_ref();

    let mut route = EmbedRoute::new(props.route.clone());
    if *full {
        route.view = EmbedView::Full;
    }
    let code = embed_code(
        app_address(&window().location().href().unwrap_or_default()),
        &route,
        &props.title,
    );

    let onclick = {
        let (open, copy, field, code) = (open.clone(), copy.clone(), field.clone(), code.clone());
        Callback::from(move |_: MouseEvent| {
            open.set(true);
            copy_to_clipboard(code.clone(), field.clone(), copy.clone());
        })
    };
    let on_full = {
        let full = full.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                full.set(input.checked());
            }
        })
    };
    let on_focus = Callback::from(|e: FocusEvent| {
        if let Some(field) = e.target_dyn_into::<HtmlTextAreaElement>() {
            field.select();
        }
    });
    let feedback = match &*copy {
        Some(Copy::Copied(copied)) if *copied == code => t!("embed-copied"),
        Some(Copy::Copied(_)) => t!("embed-moved"),
        Some(Copy::Selected) => t!("embed-selected"),
        None => String::new(),
    };
    html! {
        <div class="copy-embed" data-testid="copy-embed">
            <button type="button" class="copy-embed__button" data-testid="copy-embed-button" {onclick}
                aria-expanded={if *open { "true" } else { "false" }}>
                { t!("embed-copy") }
            </button>
            if *open {
                <div class="copy-embed__panel">
                    <label class="copy-embed__label" for="embed-code">
                        { t!("embed-paste-before") }<code>{ "<script>" }</code>
                        { t!("embed-paste-after") }
                    </label>
                    <textarea ref={field} id="embed-code" class="copy-embed__code" data-testid="embed-code"
                        readonly=true rows="3" value={code.clone()} onfocus={on_focus} spellcheck="false" />
                    <label class="copy-embed__full">
                        <input type="checkbox" checked={*full} onchange={on_full} data-testid="embed-full" />
                        { " " }{ t!("embed-full") }
                    </label>
                    <span class="copy-embed__feedback" role="status" aria-live="polite" data-testid="embed-copied"
                        data-copied={if matches!(&*copy, Some(Copy::Copied(c)) if *c == code) { "true" } else { "false" }}>
                        { feedback }
                    </span>
                </div>
            }
        </div>
    }
}

/// Writes `code` to the clipboard when the browser offers it; otherwise (or when it
/// refuses) selects the code in `field` so the reader can copy it by hand.
fn copy_to_clipboard(code: String, field: NodeRef, copy: UseStateHandle<Option<Copy>>) {
    let select = move |copy: &UseStateHandle<Option<Copy>>| {
        if let Some(field) = field.cast::<HtmlTextAreaElement>() {
            let _ = field.focus();
            field.select();
        }
        copy.set(Some(Copy::Selected));
    };
    let navigator = window().navigator();
    // `navigator.clipboard` is missing outside secure contexts: check before calling.
    let available = js_sys::Reflect::get(&navigator, &"clipboard".into())
        .map(|c| !c.is_undefined() && !c.is_null())
        .unwrap_or(false);
    if !available {
        // The field appears on this render; select it once it is there.
        yew::platform::spawn_local(async move { select(&copy) });
        return;
    }
    let promise = navigator.clipboard().write_text(&code);
    yew::platform::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => copy.set(Some(Copy::Copied(code))),
            Err(_) => select(&copy),
        }
    });
}

#[cfg(test)]
mod problem_tests {
    use super::*;

    #[test]
    fn a_mistyped_id_finds_the_lessons_it_likely_meant() {
        let catalog = catalog();
        let ids = catalog.ids();
        assert_eq!(
            nearest_ids("queue-wait-or-skipp", &ids),
            ["queue-wait-or-skip"]
        );
        assert_eq!(nearest_ids("queue-claim-rac", &ids)[0], "queue-claim-race");
        assert!(nearest_ids("zzz", &ids).is_empty());
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
