//! Effects at the edge: everything that reads or writes browser state (the URL, the
//! colour-scheme and reduced-motion queries, `<html data-theme>`, `localStorage`,
//! timers, animation frames, the keyboard, the Performance API).
//!
//! Each listener, timer and animation frame is owned by its effect and dropped (or
//! cancelled) by the effect's cleanup, so nothing leaks when a component unmounts or
//! its inputs change.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::{Interval, Timeout};
use gloo::utils::{document, window};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, KeyboardEvent, MediaQueryList, Storage};
use yew::prelude::*;

use lesson::Lesson;

use crate::catalog::catalog;
use crate::i18n::Lang;
use crate::player::{PlayerAction, Shared, SPEEDS};
use crate::route::Route;
use crate::run::{RunBuilder, RunKey, RunModel, ViewCursor};
use crate::sliced::{run_sliced, Sliced};
use crate::state::{Action, State, Theme};

/// `localStorage` key for the explicit theme choice (index.html's inline script reads
/// it too, to apply the theme before the first paint).
pub const THEME_KEY: &str = "lockstep.theme";
/// `localStorage` key for the language switch's choice.
pub const LANG_KEY: &str = "lockstep.lang";
const DARK_QUERY: &str = "(prefers-color-scheme: dark)";
const REDUCED_MOTION_QUERY: &str = "(prefers-reduced-motion: reduce)";

/// The element of index.html that shows a prerendered lesson while the wasm loads.
const FIRST_PAINT_ID: &str = "first-paint";

/// Performance API names the browser tests and `e2e/bench.mjs` read.
pub const MEASURE_SIMULATE: &str = "lockstep:simulate";
/// A state view the cursor had to compute after the playhead jumped (see
/// [`use_state_view`]).
pub const MEASURE_SEEK: &str = "lockstep:seek";
pub const MARK_LESSON_READY: &str = "lockstep:lesson-ready";

/// The app's state, with the effects that keep it in step with the browser: the URL
/// hash, the system colour scheme, `<html data-theme>`, the saved theme, and the
/// simulation runs the player asks for.
#[hook]
pub fn use_app_state() -> UseReducerHandle<State> {
    let state = use_reducer(initial_state);

    // index.html's first paint (a prerendered lesson) gives way to the app.
    use_effect_with((), |_| {
        if let Some(first_paint) = document().get_element_by_id(FIRST_PAINT_ID) {
            first_paint.remove();
        }
    });

    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let listener = EventListener::new(&window(), "hashchange", move |_| {
            let hash = current_hash();
            dispatcher.dispatch(Action::Located(
                Route::parse(&hash),
                crate::route::lang_of(&hash),
                crate::route::unknown_lang(&hash),
            ));
        });
        move || drop(listener)
    });

    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let listener = media_listener(DARK_QUERY, move |dark| {
            dispatcher.dispatch(Action::SystemThemeChanged(if dark {
                Theme::Dark
            } else {
                Theme::Light
            }));
        });
        move || drop(listener)
    });

    use_effect_with(state.theme(), |theme| {
        if let Some(root) = document().document_element() {
            // Cannot fail for a valid attribute name; nothing useful to do if it did.
            let _ = root.set_attribute("data-theme", theme.as_str());
        }
    });

    // Screen readers pronounce the page by `<html lang>`; the panic panel, written
    // when nothing else can run, gets its words ready.
    use_effect_with(state.lang(), |lang| {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("lang", lang.as_str());
        }
        crate::panic::set_texts([
            crate::t!("panic-title"),
            crate::t!("panic-explain"),
            crate::t!("panic-reload"),
        ]);
    });

    use_effect_with(state.chosen_lang, |chosen| {
        if let (Some(lang), Some(storage)) = (chosen, local_storage()) {
            let _ = storage.set_item(LANG_KEY, lang.as_str());
        }
    });

    use_effect_with(state.chosen_theme, |chosen| {
        if let (Some(theme), Some(storage)) = (chosen, local_storage()) {
            // Quota or privacy errors only lose persistence, never the theme itself.
            let _ = storage.set_item(THEME_KEY, theme.as_str());
        }
    });

    use_runner(&state);
    state
}

fn initial_state() -> State {
    let hash = current_hash();
    let mut state = State {
        url_lang: crate::route::lang_of(&hash),
        lang_problem: crate::route::unknown_lang(&hash),
        browser_lang: browser_lang(),
        chosen_lang: local_storage()
            .and_then(|s| s.get_item(LANG_KEY).ok().flatten())
            .and_then(|text| Lang::parse(&text)),
        route: Route::parse(&hash),
        ..State::default()
    };
    // The player writes its notices as it is made: in the page's language.
    crate::i18n::set_lang(state.lang());
    let (url_lang, browser_lang, chosen_lang) =
        (state.url_lang, state.browser_lang, state.chosen_lang);
    let lang_problem = state.lang_problem.take();
    state = State::new(state.route, &catalog());
    (state.url_lang, state.browser_lang, state.chosen_lang) = (url_lang, browser_lang, chosen_lang);
    state.lang_problem = lang_problem;
    state.system_theme = if media_matches(DARK_QUERY) {
        Theme::Dark
    } else {
        Theme::Light
    };
    state.chosen_theme = load_theme();
    state
}

/// `navigator.languages` (else `navigator.language`) as the interface reads it.
fn browser_lang() -> Lang {
    let navigator = window().navigator();
    let mut tags: Vec<String> = navigator
        .languages()
        .iter()
        .filter_map(|tag| tag.as_string())
        .collect();
    if tags.is_empty() {
        tags.extend(navigator.language());
    }
    Lang::from_browser(&tags)
}

/// Replaces the address bar's URL with `href` (no history entry, no `hashchange`).
pub fn replace_url(href: &str) {
    if current_hash() != href {
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(href));
        }
    }
}

pub(crate) fn current_hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// Goes to `route` as a new history entry; the `hashchange` listener takes it from there,
/// so the URL stays the one source of lesson and toggles.
pub fn navigate(route: &Route) {
    let _ = window().location().set_hash(&route.href());
}

fn media_query(query: &str) -> Option<MediaQueryList> {
    window().match_media(query).ok().flatten()
}

pub(crate) fn media_matches(query: &str) -> bool {
    media_query(query).is_some_and(|q| q.matches())
}

/// Calls `on_change(matches)` when the media query flips; dropped with the listener.
fn media_listener(query: &str, on_change: impl Fn(bool) + 'static) -> Option<EventListener> {
    let list = media_query(query)?;
    let target = list.clone();
    Some(EventListener::new(&target, "change", move |_| {
        on_change(list.matches())
    }))
}

/// `None` when storage is unavailable, e.g. in a sandboxed or third-party iframe,
/// where the page must still work (it just forgets the theme).
fn local_storage() -> Option<Storage> {
    window().local_storage().ok().flatten()
}

fn load_theme() -> Option<Theme> {
    let saved = local_storage()?.get_item(THEME_KEY).ok().flatten()?;
    Theme::parse(&saved)
}

/// Whether the user asked the system for less motion; follows changes.
#[hook]
pub fn use_reduced_motion() -> bool {
    let reduced = use_state(|| media_matches(REDUCED_MOTION_QUERY));
    let setter = reduced.setter();
    use_effect_with((), move |_| {
        let listener = media_listener(REDUCED_MOTION_QUERY, move |on| setter.set(on));
        move || drop(listener)
    });
    *reduced
}

/// Builds the run the player asks for in slices between frames (`sliced.rs`: the page
/// stays responsive, a long run reports progress, and a newer request, Cancel or
/// leaving drops the build), and hands it to the reducer. Runs are kept for a while,
/// so flipping a toggle back shows the earlier run at once. Each build is timed with
/// the Performance API (`lockstep:simulate`, from its first slice to its last).
#[hook]
fn use_runner(state: &UseReducerHandle<State>) {
    let cache: Rc<RefCell<Vec<Shared<RunModel>>>> = use_mut_ref(Vec::new);
    let wanted: Option<RunKey> = state
        .player
        .as_ref()
        .filter(|p| p.pending())
        .map(|p| p.key.clone());
    let lesson = state.player.as_ref().map(|p| p.lesson.clone());
    let dispatcher = state.dispatcher();
    use_effect_with(wanted, move |wanted| {
        let job = match (wanted.clone(), lesson) {
            (Some(key), Some(lesson)) => {
                let cached = cache.borrow().iter().find(|r| r.key == key).cloned();
                match cached {
                    Some(run) => {
                        dispatcher.dispatch(Action::Player(PlayerAction::RunReady(run)));
                        None
                    }
                    None => start_build(&lesson, key, cache, dispatcher),
                }
            }
            _ => None,
        };
        move || drop(job)
    });
}

/// Starts building the run for `key`; `None` when it is already over (failed at once:
/// the error is dispatched).
fn start_build(
    lesson: &Lesson,
    key: RunKey,
    cache: Rc<RefCell<Vec<Shared<RunModel>>>>,
    dispatcher: UseReducerDispatcher<State>,
) -> Option<Sliced> {
    let builder = lesson
        .apply(&key.settings)
        .map_err(|e| e.to_string())
        .and_then(|applied| RunBuilder::new(&lesson.id, applied, key.seed))
        .map(|builder| builder.with_schedule(key.schedule.as_ref()));
    let builder = match builder {
        Ok(builder) => builder,
        Err(error) => {
            dispatcher.dispatch(Action::Player(PlayerAction::RunFailed { key, error }));
            return None;
        }
    };
    let measure = Measure::start(MEASURE_SIMULATE);
    let progress = {
        let (dispatcher, key) = (dispatcher.clone(), key.clone());
        move |progress| {
            let key = key.clone();
            dispatcher.dispatch(Action::Player(PlayerAction::Progress { key, progress }));
        }
    };
    let done = move |run: RunModel| {
        measure.end();
        let run = Shared::new(run);
        remember(&mut cache.borrow_mut(), run.clone());
        dispatcher.dispatch(Action::Player(PlayerAction::RunReady(run)));
    };
    run_sliced(Some(builder), progress, done)
}

/// A Performance API measure being taken: the mark `<name>:start` now, and on
/// [`Measure::end`] the mark `<name>:end` and the measure `name` between them (nothing
/// when the API is missing). The two may be tasks apart.
pub struct Measure {
    name: &'static str,
    start: String,
}

impl Measure {
    pub fn start(name: &'static str) -> Measure {
        let start = format!("{name}:start");
        if let Some(p) = window().performance() {
            let _ = p.mark(&start);
        }
        Measure { name, start }
    }

    pub fn end(self) {
        if let Some(p) = window().performance() {
            let end = format!("{}:end", self.name);
            let _ = p.mark(&end);
            let _ = p.measure_with_start_mark_and_end_mark(self.name, &self.start, &end);
        }
    }
}

/// Runs `work` as the measure `name` (see [`Measure`]).
fn measured<T>(name: &'static str, work: impl FnOnce() -> T) -> T {
    let measure = Measure::start(name);
    let result = work();
    measure.end();
    result
}

/// Keeps recent runs up to a total number of events (a run of the claim race holds
/// tens of thousands, and memory on a phone is not free).
fn remember(cache: &mut Vec<Shared<RunModel>>, run: Shared<RunModel>) {
    const MAX_EVENTS: usize = 120_000;
    cache.retain(|r| r.key != run.key);
    cache.push(run);
    while cache.len() > 1 && cache.iter().map(|r| r.events()).sum::<usize>() > MAX_EVENTS {
        cache.remove(0);
    }
}

/// Marks the first moment a lesson's run is on screen (`lockstep:lesson-ready`).
#[hook]
pub fn use_ready_mark(ready: bool) {
    use_effect_with(ready, |ready| {
        if *ready {
            if let Some(p) = window().performance() {
                if p.get_entries_by_name(MARK_LESSON_READY).length() == 0 {
                    let _ = p.mark(MARK_LESSON_READY);
                }
            }
        }
    });
}

/// After a navigation to another page that removed the focused element (a link, a
/// compare's ⇄), the focus goes to the page's `<main>`, not the document's body, so a
/// keyboard or screen-reader user continues from the top of the new page. The first
/// page load leaves the focus alone (the first Tab finds the skip link).
#[hook]
pub fn use_focus_after_navigation(page: crate::components::Page) {
    let first = use_mut_ref(|| true);
    use_effect_with(page, move |_| {
        if first.replace(false) {
            return;
        }
        let Some(document) = window().document() else {
            return;
        };
        let lost = document
            .active_element()
            .is_none_or(|el| el.tag_name() == "BODY");
        if let Some(main) = document
            .get_element_by_id("main")
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
            .filter(|_| lost)
        {
            let _ = main.focus();
        }
    });
}

/// Writes `title` as the document's title whenever it changes.
#[hook]
pub fn use_document_title(title: String) {
    use_effect_with(title, |title| {
        if let Some(document) = window().document() {
            document.set_title(title);
        }
    });
}

/// Engine steps a view may take to compute during a render; further (a replay from
/// the start of a long run) it is computed just after, so dragging the scrubber over
/// thirty thousand events stays fluid.
const SYNC_STEPS: usize = 400;

/// A view on screen: the run and step it belongs to.
type ShownView = (Shared<RunModel>, usize, Rc<engine::StateView>);

/// The state view after `step` of `run`, from a cursor kept across renders, and
/// whether it is that step's (`false`: an earlier view is shown while it computes).
///
/// A view the cursor has to compute after a jump is timed as `lockstep:seek`: a move
/// back, a move more than [`SYNC_STEPS`] forward (computed just after the render), or
/// the first view of a new run. Cached views and playback's short moves forward are not.
#[hook]
pub fn use_state_view(
    run: Option<Shared<RunModel>>,
    step: usize,
) -> Option<(Rc<engine::StateView>, bool)> {
    let cursor = use_mut_ref(ViewCursor::default);
    let shown: Rc<RefCell<Option<ShownView>>> = use_mut_ref(|| None);
    let refresh = use_force_update();
    let ready = run.as_ref().and_then(|run| {
        let mut cursor = cursor.borrow_mut();
        if cursor.cost(&run.0, step) > SYNC_STEPS {
            return None;
        }
        let seek = cursor.cached(&run.0, step).is_none()
            && !shown.borrow().as_ref().is_some_and(|(r, at, _)| {
                r == run && (*at..=at.saturating_add(SYNC_STEPS)).contains(&step)
            });
        Some(if seek {
            measured(MEASURE_SEEK, || cursor.view(&run.0, step))
        } else {
            cursor.view(&run.0, step)
        })
    });
    if let (Some(run), Some(view)) = (&run, &ready) {
        *shown.borrow_mut() = Some((run.clone(), step, Rc::clone(view)));
    }
    {
        let (cursor, shown) = (Rc::clone(&cursor), Rc::clone(&shown));
        use_effect_with(
            (run.clone(), step, ready.is_some()),
            move |(run, step, ready)| {
                let timer = match (run.clone(), ready) {
                    (Some(run), false) => {
                        let step = *step;
                        Some(Timeout::new(30, move || {
                            let view =
                                measured(MEASURE_SEEK, || cursor.borrow_mut().view(&run.0, step));
                            *shown.borrow_mut() = Some((run, step, view));
                            refresh.force_update();
                        }))
                    }
                    _ => None,
                };
                move || drop(timer)
            },
        );
    }
    let shown = shown.borrow();
    let (for_run, at, view) = shown.as_ref()?;
    (Some(for_run) == run.as_ref()).then(|| (Rc::clone(view), *at == step))
}

/// The state after `step` of `run` with every row of every table, while `wanted` (a
/// table is being searched or filtered); `None` otherwise. Its own cursor moves forward
/// with the playhead, so playing costs a few engine steps a frame.
#[hook]
pub fn use_full_view(
    run: Option<Shared<RunModel>>,
    step: usize,
    wanted: bool,
) -> Option<Shared<engine::StateView>> {
    let cursor = use_mut_ref(|| ViewCursor::with_rows(usize::MAX));
    let run = run.filter(|_| wanted)?;
    let view = cursor.borrow_mut().view(&run.0, step);
    Some(Shared(view))
}

/// The animation loop: while `playing`, one `Tick(dt)` per animation frame, or with
/// reduced motion one discrete `Advance` per interval (no smooth movement). The frame
/// request or interval is cancelled by the effect's cleanup.
#[hook]
pub fn use_playback(playing: bool, speed: usize, reduced: bool, dispatch: Callback<PlayerAction>) {
    use_effect_with(
        (playing, speed, reduced),
        move |&(playing, speed, reduced)| {
            let mut interval = None;
            let mut frames = None;
            if playing && reduced {
                let ms = (250.0 / SPEEDS[speed]).clamp(16.0, 2000.0) as u32;
                interval = Some(Interval::new(ms, move || {
                    dispatch.emit(PlayerAction::Advance)
                }));
            } else if playing {
                frames = Some(AnimationLoop::start(move |dt| {
                    dispatch.emit(PlayerAction::Tick(dt))
                }));
            }
            move || {
                drop(interval);
                drop(frames);
            }
        },
    );
}

/// `requestAnimationFrame` in a loop, calling back with the milliseconds since the
/// previous frame. Dropping it cancels the pending frame and frees the closure.
struct AnimationLoop {
    id: Rc<Cell<Option<i32>>>,
    closure: FrameCallback,
}

/// The frame callback, shared with itself so that it can ask for the next frame.
type FrameCallback = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

impl AnimationLoop {
    fn start(mut on_frame: impl FnMut(f64) + 'static) -> AnimationLoop {
        let closure: FrameCallback = Rc::new(RefCell::new(None));
        let id = Rc::new(Cell::new(None));
        let (inner_closure, inner_id) = (Rc::clone(&closure), Rc::clone(&id));
        let mut last: Option<f64> = None;
        *closure.borrow_mut() = Some(Closure::new(move |now: f64| {
            if let Some(prev) = last {
                on_frame(now - prev);
            }
            last = Some(now);
            if let Some(f) = inner_closure.borrow().as_ref() {
                inner_id.set(
                    window()
                        .request_animation_frame(f.as_ref().unchecked_ref())
                        .ok(),
                );
            }
        }));
        if let Some(f) = closure.borrow().as_ref() {
            id.set(
                window()
                    .request_animation_frame(f.as_ref().unchecked_ref())
                    .ok(),
            );
        }
        AnimationLoop { id, closure }
    }
}

impl Drop for AnimationLoop {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            let _ = window().cancel_animation_frame(id);
        }
        // Breaks the closure's reference to itself.
        self.closure.borrow_mut().take();
    }
}

/// The player's keys, on the whole page while a lesson is open: Space plays or pauses,
/// ← → step one event, Home and End jump, `[` `]` jump between anomalies, `?` opens or
/// closes the explanation and Escape closes it; Page Up and Page Down scroll the stage's
/// column where it scrolls on its own (a wide screen), as they would scroll a page.
/// Keys typed into a field, a select or a range keep their own meaning, and Space/Enter
/// on a button or link press that control.
#[hook]
pub fn use_player_keys(active: bool, dispatch: Callback<PlayerAction>) {
    use_effect_with(active, move |&active| {
        let listener = active.then(|| {
            page_keys(move |key, control| {
                let action = match key {
                    " " | "Spacebar" if !control => PlayerAction::TogglePlay,
                    "ArrowRight" => PlayerAction::StepForward,
                    "ArrowLeft" => PlayerAction::StepBack,
                    "Home" => PlayerAction::Home,
                    "End" => PlayerAction::End,
                    "]" => PlayerAction::NextAnomaly,
                    "[" => PlayerAction::PrevAnomaly,
                    "?" => PlayerAction::ToggleWhy,
                    "Escape" => PlayerAction::CloseWhy,
                    "PageDown" | "PageUp" => return scroll_stage(key == "PageDown"),
                    _ => return false,
                };
                dispatch.emit(action);
                true
            })
        });
        move || drop(listener)
    });
}

/// Scrolls the stage's column by most of its height, when it is a box that scrolls (a
/// tall wide window). Where the page scrolls under a sticky stage top (a short wide
/// window, a phone), scrolls the page by most of what that top leaves in sight: the
/// browser's own Page Down went a window's height and skipped what lay under it.
fn scroll_stage(down: bool) -> bool {
    let Some(stage) = document()
        .query_selector(".lesson--stage .stage")
        .ok()
        .flatten()
    else {
        return false;
    };
    if !scrolls_on_its_own(&stage) {
        let cover = pinned_cover();
        if cover <= 0.0 {
            return false;
        }
        let page = ((window_height() - cover) * 0.9).max(40.0);
        window().scroll_by_with_x_and_y(0.0, if down { page } else { -page });
        return true;
    }
    if stage.scroll_height() <= stage.client_height() + 1 {
        return false;
    }
    let page = f64::from(stage.client_height()) * 0.9;
    stage.scroll_by_with_x_and_y(0.0, if down { page } else { -page });
    true
}

/// The height the stage's top (transport, narration, lanes) covers at the top of the
/// window while it sticks there, else 0.
pub(crate) fn pinned_cover() -> f64 {
    document()
        .query_selector(".stage__pinned")
        .ok()
        .flatten()
        .filter(|p| computed(p, "position").is_some_and(|v| v == "sticky"))
        .map_or(0.0, |p| p.get_bounding_client_rect().height())
}

/// The window's height in CSS pixels (0 if the browser does not say).
pub(crate) fn window_height() -> f64 {
    window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0)
}

/// Whether part of `el` lies above or below the window.
pub(crate) fn out_of_sight(el: &Element) -> bool {
    let r = el.get_bounding_client_rect();
    r.top() < 0.0 || r.bottom() > window_height()
}

/// The first element `selector` finds in the document.
pub(crate) fn find(selector: &str) -> Option<Element> {
    document().query_selector(selector).ok().flatten()
}

/// Gives the focus to the first element `selector` finds, if any.
pub(crate) fn focus_on(selector: &str) {
    if let Some(el) = find(selector).and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// One property of `el`'s computed style.
fn computed(el: &Element, property: &str) -> Option<String> {
    window()
        .get_computed_style(el)
        .ok()
        .flatten()
        .and_then(|s| s.get_property_value(property).ok())
}

/// Keeps `--pinned-h` on the root element at [`pinned_cover`] while the lesson page
/// shows a run (`present`): the page's `scroll-padding-top` uses it, so an element that
/// takes the focus scrolls into sight below the sticky stage top, not under it. A
/// ResizeObserver measures again whenever that top changes size (a legend opened, a
/// narration opened, the window resized).
#[hook]
pub fn use_pinned_height(present: bool) {
    use_effect_with(present, |present| {
        let watch = present.then(PinnedHeight::start).flatten();
        move || drop(watch)
    });
}

struct PinnedHeight {
    observer: web_sys::ResizeObserver,
    _callback: Closure<dyn FnMut(JsValue)>,
}

impl PinnedHeight {
    fn start() -> Option<PinnedHeight> {
        let pinned = document().query_selector(".stage__pinned").ok().flatten()?;
        let measure = || set_pinned_height(Some(pinned_cover()));
        measure();
        let callback = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| measure());
        let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
        observer.observe(&pinned);
        Some(PinnedHeight {
            observer,
            _callback: callback,
        })
    }
}

impl Drop for PinnedHeight {
    fn drop(&mut self) {
        self.observer.disconnect();
        set_pinned_height(None);
    }
}

fn set_pinned_height(height: Option<f64>) {
    let Some(root) = document()
        .document_element()
        .and_then(|r| r.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    // Only a change: a property on the root restyles the whole page.
    let style = root.style();
    let value = height
        .map(|h| format!("{}px", h.ceil()))
        .unwrap_or_default();
    if style.get_property_value("--pinned-h").ok().as_deref() == Some(value.as_str()) {
        return;
    }
    let _ = match height {
        Some(_) => style.set_property("--pinned-h", &value),
        None => style.remove_property("--pinned-h").map(drop),
    };
}

/// Whether `el` is a box that scrolls its content (`overflow-y` auto or scroll): the
/// stage's column on a tall wide window, not where the page scrolls instead.
pub(crate) fn scrolls_on_its_own(el: &Element) -> bool {
    computed(el, "overflow-y").is_some_and(|v| v == "auto" || v == "scroll")
}

/// A page-wide key listener: `on_key(key, on_a_control)` gets each key pressed outside
/// a field, a select or a text area and without Ctrl, Alt or Meta (`on_a_control` when
/// a button, link or summary has the focus, whose Space and Enter press it); when it
/// returns true, the browser's default action is prevented. Dropping it unlistens.
pub fn page_keys(on_key: impl Fn(&str, bool) -> bool + 'static) -> EventListener {
    EventListener::new_with_options(
        &document(),
        "keydown",
        EventListenerOptions::enable_prevent_default(),
        move |event| {
            let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
                return;
            };
            if event.ctrl_key() || event.alt_key() || event.meta_key() || event.default_prevented()
            {
                return;
            }
            let target = event.target().and_then(|t| t.dyn_into::<Element>().ok());
            let tag = (target.as_ref())
                .map(|e| e.tag_name().to_ascii_uppercase())
                .unwrap_or_default();
            if matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA") {
                return;
            }
            // A focused box that scrolls (a wide code listing, the lesson's text) keeps
            // the keys that scroll it, so a keyboard user can read what it cuts off.
            if target.is_some_and(|e| scrolls_with(&e, &event.key())) {
                return;
            }
            let control = matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY");
            if on_key(&event.key(), control) {
                event.prevent_default();
            }
        },
    )
}

/// Whether `key` scrolls `el`, a focused element whose content overflows it in that
/// key's direction (the arrows across, the others down). The page's own element does
/// not count: its scroll is the page's, which the player's keys have always taken.
fn scrolls_with(el: &Element, key: &str) -> bool {
    if el.tag_name().eq_ignore_ascii_case("BODY") || el.tag_name().eq_ignore_ascii_case("HTML") {
        return false;
    }
    // A box scrolls when its style lets it (content that merely spills out of a box
    // with `overflow: visible` does not make it a scroller) and its content is larger.
    let Some(style) = window().get_computed_style(el).ok().flatten() else {
        return false;
    };
    let scrolls = |axis: &str| {
        matches!(
            style.get_property_value(axis).unwrap_or_default().as_str(),
            "auto" | "scroll"
        )
    };
    let across = scrolls("overflow-x") && el.scroll_width() > el.client_width() + 1;
    let down = scrolls("overflow-y") && el.scroll_height() > el.client_height() + 1;
    // A box that scrolls only to show more of the player (the widget's lanes) leaves
    // Space, Home and End to the player, as its key list says; ↑ ↓ still scroll it.
    let player_keys = el.has_attribute("data-player-keys");
    match key {
        "ArrowLeft" | "ArrowRight" => across,
        "ArrowUp" | "ArrowDown" | "PageUp" | "PageDown" => down,
        "Home" | "End" | " " | "Spacebar" => down && !player_keys,
        _ => false,
    }
}

/// Keeps the address bar on the player's state (toggles, playhead) without adding
/// history entries or firing `hashchange`; skipped while playing, written on pause.
#[hook]
pub fn use_url_sync(route: Option<Route>, playing: bool) {
    use_effect_with((route, playing), |(route, playing)| {
        if let (Some(route), false) = (route, playing) {
            replace_url(&route.href());
        }
    });
}

/// While `active` (a Check or a search running in the worker), Esc anywhere on the page
/// calls `on_escape`, as its Cancel button does.
#[hook]
pub fn use_escape_cancels(active: bool, on_escape: Rc<dyn Fn()>) {
    use_effect_with(active, move |&active| {
        let listener = active.then(|| {
            EventListener::new(&document(), "keydown", move |e| {
                let key = e.dyn_ref::<KeyboardEvent>().map(KeyboardEvent::key);
                if key.as_deref() == Some("Escape") {
                    on_escape();
                }
            })
        });
        move || drop(listener)
    });
}

/// Keeps the keyboard's place when a render removes the focused control (Cancel once a
/// check ends, the hint button after the last hint): when `value` changes and the focus
/// has fallen to the page, `target` takes it. The first render moves nothing.
#[hook]
pub fn use_focus_rescue<T: PartialEq + Clone + 'static>(value: T, target: NodeRef) {
    let first = use_mut_ref(|| true);
    use_effect_with(value, move |_| {
        if std::mem::replace(&mut *first.borrow_mut(), false) {
            return;
        }
        // Fallen to the page, or still on the removed control: a browser may move the
        // focus off a removed element only at its next rendering step.
        let lost = document()
            .active_element()
            .is_none_or(|e| e.tag_name().eq_ignore_ascii_case("BODY") || !e.is_connected());
        if lost {
            if let Some(el) = target.cast::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
    });
}
