//! Effects at the edge: everything that reads or writes browser state.
//!
//! Each listener is owned by its effect and dropped by the effect's cleanup, so nothing
//! leaks when a component unmounts.

use gloo::events::EventListener;
use gloo::utils::{document, window};
use web_sys::{MediaQueryList, Storage};
use yew::prelude::*;

use crate::route::Route;
use crate::state::{Action, State, Theme};

/// `localStorage` key for the explicit theme choice (index.html's inline script reads
/// it too, to apply the theme before the first paint).
pub const THEME_KEY: &str = "lockstep.theme";
const DARK_QUERY: &str = "(prefers-color-scheme: dark)";

/// The app's state, with the effects that keep it in step with the browser: the URL
/// hash, the system colour scheme, `<html data-theme>`, and the saved theme.
#[hook]
pub fn use_app_state() -> UseReducerHandle<State> {
    let state = use_reducer(initial_state);

    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let listener = EventListener::new(&window(), "hashchange", move |_| {
            dispatcher.dispatch(Action::Navigate(Route::parse(&current_hash())));
        });
        move || drop(listener)
    });

    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let listener = dark_query().map(|query| {
            let target = query.clone();
            EventListener::new(&target, "change", move |_| {
                dispatcher.dispatch(Action::SystemThemeChanged(theme_of(&query)));
            })
        });
        move || drop(listener)
    });

    use_effect_with(state.theme(), |theme| {
        if let Some(root) = document().document_element() {
            // Cannot fail for a valid attribute name; nothing useful to do if it did.
            let _ = root.set_attribute("data-theme", theme.as_str());
        }
    });

    use_effect_with(state.chosen_theme, |chosen| {
        if let (Some(theme), Some(storage)) = (chosen, local_storage()) {
            // Quota or privacy errors only lose persistence, never the theme itself.
            let _ = storage.set_item(THEME_KEY, theme.as_str());
        }
    });

    state
}

fn initial_state() -> State {
    State {
        route: Route::parse(&current_hash()),
        system_theme: dark_query().map_or(Theme::Light, |query| theme_of(&query)),
        chosen_theme: load_theme(),
        lessons: Vec::new(),
    }
}

fn current_hash() -> String {
    window().location().hash().unwrap_or_default()
}

fn dark_query() -> Option<MediaQueryList> {
    window().match_media(DARK_QUERY).ok().flatten()
}

fn theme_of(dark_query: &MediaQueryList) -> Theme {
    if dark_query.matches() {
        Theme::Dark
    } else {
        Theme::Light
    }
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
