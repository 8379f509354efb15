//! Props-only view components, and [`App`], the one component that owns state.

mod anomalies;
mod code;
mod compact_outcome;
mod compare;
mod conflict;
mod embed;
mod exercise;
mod facilitator;
mod header;
mod lanes;
mod lesson_list;
mod lesson_page;
mod log;
mod matrix;
mod narrative;
mod outcome;
mod pages;
mod predict;
mod schedule;
mod tables;
mod transport;
mod waits;
mod why;

use yew::prelude::*;

pub use compare::ComparePage;
pub use embed::{CopyEmbed, EmbedPage};
pub use exercise::ExercisePage;
pub use facilitator::FacilitatorPage;
pub use header::{Header, LangSwitch, ThemeSwitch};
pub use lesson_list::LessonList;
pub use lesson_page::LessonPage;
pub use matrix::{MatrixPage, MEASURE_MATRIX};
pub use pages::{DebugAbort, DebugPanic, DebugPanicRun, DebugPanicWorker, LessonProblem, NotFound};
pub use schedule::SchedulePage;

use crate::catalog::catalog;
use crate::hooks::{
    navigate, use_app_state, use_playback, use_player_keys, use_ready_mark, use_reduced_motion,
    use_state_view, use_url_sync,
};
use crate::player::{PlayerAction, Shared};
use crate::route::{LessonRoute, Route};
use crate::state::Action;
use crate::{i18n, t};

#[function_component]
pub fn App() -> Html {
    let state = use_app_state();
    // Every view below writes its text in this language (see `i18n`), and links keep it.
    let lang = state.lang();
    i18n::set_lang(lang);
    i18n::set_link_lang(state.link_lang());
    let on_toggle_theme = {
        let dispatcher = state.dispatcher();
        Callback::from(move |()| dispatcher.dispatch(Action::ToggleTheme))
    };

    // The player's effects live here, at the top, so the page below is props-only.
    let player = state.player.as_ref();
    // In an embed the player's URL stays an embed URL (same view and theme).
    let embed = match &state.route {
        Route::Embed(embed) => Some(embed.clone()),
        _ => None,
    };
    let player_route = {
        let embed = embed.clone();
        move |lesson: LessonRoute| match &embed {
            Some(embed) => Route::Embed(embed.with_lesson(lesson)),
            None => Route::Lesson(lesson),
        }
    };
    let dispatch = {
        let dispatcher = state.dispatcher();
        Callback::from(move |action: PlayerAction| dispatcher.dispatch(Action::Player(action)))
    };
    let reduced = use_reduced_motion();
    // The newest run received: while a new one is built the old one stays on screen.
    let run = player.and_then(|p| p.run.clone());
    let step = match (player, &run) {
        (Some(p), Some(run)) => run.step_of(p.head.events),
        _ => 0,
    };
    let (view, view_current) = match use_state_view(run.clone(), step) {
        Some((view, current)) => (Some(Shared(view)), current),
        None => (None, true),
    };
    let playing = player.is_some_and(|p| p.playing);
    use_playback(
        playing,
        player.map_or(0, |p| p.speed),
        reduced,
        dispatch.clone(),
    );
    use_player_keys(player.is_some(), dispatch.clone());
    use_url_sync(player.map(|p| player_route(p.route())), playing);
    use_ready_mark(view.is_some());
    // Per page, not per render: playback renders the app every frame.
    let page = page_of(&state.route);
    let title = use_memo((page.clone(), lang), |(page, _)| page_title(page));
    crate::hooks::use_document_title((*title).clone());
    crate::hooks::use_focus_after_navigation(page);

    let on_toggle = {
        let player = state.player.clone();
        let player_route = player_route.clone();
        Callback::from(move |(name, value): (String, String)| {
            if let Some(player) = &player {
                navigate(&player_route(player.route_with(&name, &value)));
            }
        })
    };

    let on_seed = {
        let player = state.player.clone();
        let player_route = player_route.clone();
        Callback::from(move |seed: u64| {
            if let Some(player) = &player {
                navigate(&player_route(player.route_with_seed(seed)));
            }
        })
    };

    // The switch keeps the page: the URL's `lang=` follows the choice (toggles and
    // playhead stay in it), written without a `hashchange`. Other pages write their
    // state to the address bar as it changes (the scheduler's picks), so the page
    // there is the one the address bar holds, and the app's route follows it.
    let on_lang = {
        let dispatcher = state.dispatcher();
        let player_here = match &state.player {
            Some(p) if matches!(state.route, Route::Lesson(_) | Route::Embed(_)) => {
                Some(player_route(p.route()))
            }
            _ => None,
        };
        let route = state.route.clone();
        let url_lang = state.url_lang;
        Callback::from(move |chosen: i18n::Lang| {
            let link = (url_lang.is_some() || chosen != i18n::Lang::En).then_some(chosen);
            let here = player_here
                .clone()
                .unwrap_or_else(|| Route::parse(&crate::hooks::current_hash()));
            crate::hooks::replace_url(&here.href_in(link));
            if player_here.is_none() && here != route {
                dispatcher.dispatch(Action::Navigate(here));
            }
            dispatcher.dispatch(Action::ChooseLang(chosen));
        })
    };

    let page = match &state.route {
        Route::Home => {
            let lessons = crate::state::LessonSummary::list_in(&catalog(), lang);
            html! {
                <>
                    <LessonList progress={saved_progress(&lessons)} {lessons} />
                    <p class="facilitator-link"><a href={Route::Facilitator.href()}>{ t!("facilitator-link") }</a></p>
                </>
            }
        }
        Route::Embed(route) => match player {
            Some(player) => html! {
                <EmbedPage player={player.clone()} {view} {view_current} {reduced} {dispatch} {on_toggle} mode={route.view} />
            },
            None => embed::problem(route),
        },
        Route::Exercise(id) => html! { <ExercisePage key={id.clone()} id={id.clone()} /> },
        Route::Facilitator => html! { <FacilitatorPage /> },
        Route::Lesson(route) => match player {
            Some(player) => html! {
                <LessonPage player={player.clone()} {view} {view_current} {reduced} {dispatch} {on_toggle} {on_seed} />
            },
            None => {
                let known: Vec<String> = catalog().ids().iter().map(ToString::to_string).collect();
                html! { <LessonProblem id={route.id.clone()} {known} /> }
            }
        },
        // Keyed by the URL: a new link (Explore's counterexample) starts a new page,
        // while the learner's own picks replace the URL without a `hashchange`.
        Route::Schedule(route) => {
            html! { <SchedulePage key={route.to_string()} route={route.clone()} /> }
        }
        Route::Compare(route) => html! { <ComparePage route={route.clone()} /> },
        Route::Matrix(id) => html! { <MatrixPage key={id.clone()} id={id.clone()} /> },
        Route::DebugPanic => html! { <DebugPanic /> },
        Route::DebugPanicRun => html! { <DebugPanicRun /> },
        Route::DebugPanicWorker => html! { <DebugPanicWorker /> },
        Route::DebugAbort => html! { <DebugAbort /> },
        Route::NotFound(path) => html! { <NotFound path={path.clone()} /> },
    };
    let wide = matches!(
        state.route,
        Route::Lesson(_)
            | Route::Exercise(_)
            | Route::Schedule(_)
            | Route::Compare(_)
            | Route::Matrix(_)
    );
    let embed_page = embed.is_some() || matches!(&state.route, Route::Compare(c) if c.embed);

    html! {
        <>
            if !embed_page {
                <Header key={lang.as_str()} theme={state.theme()} on_toggle_theme={on_toggle_theme} {lang} {on_lang} compact={wide} />
            }
            // Keyed by the language: a switch redraws every view in it (the player's
            // state, the toggles and the playhead, lives above, in `State`).
            <main key={lang.as_str()} id="main" tabindex="-1" class={classes!("page", wide.then_some("page--wide"), embed_page.then_some("page--embed"))}>
                if let Some(problem) = &state.lang_problem {
                    <div class="notice notice--warning" role="status" data-testid="lang-warning">
                        <p class="notice__title">{ t!("url-warnings-title") }</p>
                        <ul><li>{ with_code(&problem.text()) }</li></ul>
                    </div>
                }
                { page }
            </main>
        </>
    }
}

/// What a route shows apart from its settings and playhead: the kind of page and its
/// lesson. The tab's title and the focus after a navigation follow it.
pub type Page = (&'static str, Option<String>);

fn page_of(route: &Route) -> Page {
    match route {
        Route::Home => ("home", None),
        Route::Lesson(l) => ("lesson", Some(l.id.clone())),
        Route::Embed(e) => ("embed", Some(e.lesson.id.clone())),
        Route::Exercise(id) => ("exercise", Some(id.clone())),
        Route::Schedule(s) => ("schedule", Some(s.lesson.id.clone())),
        Route::Compare(c) => ("compare", Some(c.id.clone())),
        Route::Matrix(id) => ("matrix", Some(id.clone())),
        Route::Facilitator => ("facilitator", None),
        Route::NotFound(_) => ("not-found", None),
        Route::DebugPanic | Route::DebugPanicRun | Route::DebugPanicWorker | Route::DebugAbort => {
            ("debug", None)
        }
    }
}

/// The tab's title: what the page shows, then the product, so a room of open tabs can
/// be told apart ("Compare: Skip or wait · Lockstep"), in the page's language.
fn page_title((kind, id): &Page) -> String {
    let lesson = id.as_deref().and_then(|id| {
        catalog()
            .get_in(id, i18n::lang().as_str())
            .map(|(entry, _)| entry.lesson.title.clone())
    });
    let page = match (*kind, lesson) {
        ("facilitator", _) => Some(t!("facilitator-title")),
        ("not-found", _) => Some(t!("not-found-title")),
        ("schedule", Some(title)) => Some(t!("schedule-title", title = &title)),
        ("compare", Some(title)) => Some(t!("compare-page-title", title = &title)),
        ("matrix", Some(title)) => Some(t!("matrix-title", title = &title)),
        (_, lesson) => lesson,
    };
    match page {
        Some(page) => format!("{page} · Lockstep"),
        None => "Lockstep".to_string(),
    }
}

/// A notice's sentence with its `backticked` parts (names and values from the link) as
/// code, not as backticks.
pub fn with_code(text: &str) -> Html {
    let parts = text.split('`').enumerate().map(|(k, part)| {
        if k % 2 == 1 {
            html! { <code>{ part }</code> }
        } else {
            html! { { part } }
        }
    });
    html! { <>{ for parts }</> }
}

/// What `localStorage` holds for each exercise in `lessons`, for their cards.
fn saved_progress(
    lessons: &[crate::state::LessonSummary],
) -> Vec<(String, crate::progress::Progress)> {
    lessons
        .iter()
        .filter(|l| l.exercise)
        .filter_map(|l| Some((l.id.clone(), crate::progress::peek(&l.id)?)))
        .collect()
}

#[derive(Properties, PartialEq)]
pub struct UntranslatedProps {
    pub lesson_id: AttrValue,
}

/// "Not translated yet, shown in English": on every page of a lesson that has no
/// translation into the page's language (nothing in English, or for unknown ids).
#[function_component]
pub fn Untranslated(props: &UntranslatedProps) -> Html {
    let lang = i18n::lang();
    let untranslated = lang != i18n::Lang::En
        && catalog()
            .get_in(&props.lesson_id, lang.as_str())
            .is_some_and(|(_, translated)| !translated);
    html! {
        if untranslated {
            <p class="lesson__untranslated" data-testid="untranslated">{ t!("lesson-untranslated") }</p>
        }
    }
}
