//! Props-only view components, and [`App`], the one component that owns state.

mod header;
mod lesson_list;
mod pages;

use yew::prelude::*;

pub use header::{Header, ThemeSwitch};
pub use lesson_list::LessonList;
pub use pages::{DebugPanic, NotFound};

use crate::hooks::use_app_state;
use crate::route::Route;
use crate::state::Action;

#[function_component]
pub fn App() -> Html {
    let state = use_app_state();
    let on_toggle_theme = {
        let dispatcher = state.dispatcher();
        Callback::from(move |()| dispatcher.dispatch(Action::ToggleTheme))
    };

    let page = match &state.route {
        Route::Home => html! { <LessonList lessons={state.lessons.clone()} /> },
        Route::DebugPanic => html! { <DebugPanic /> },
        Route::NotFound(path) => html! { <NotFound path={path.clone()} /> },
    };

    html! {
        <>
            <Header theme={state.theme()} on_toggle_theme={on_toggle_theme} />
            <main id="main" class="page">{ page }</main>
        </>
    }
}
