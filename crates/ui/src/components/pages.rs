use yew::prelude::*;

use crate::route::Route;

#[derive(Properties, PartialEq)]
pub struct NotFoundProps {
    pub path: AttrValue,
}

#[function_component]
pub fn NotFound(props: &NotFoundProps) -> Html {
    html! {
        <section class="not-found">
            <h2>{ "Page not found" }</h2>
            <p>{ "Nothing lives at " }<code>{ &props.path }</code>{ "." }</p>
            <p><a href={Route::Home.href()}>{ "Back to the lessons" }</a></p>
        </section>
    }
}

/// The message the browser test looks for in the error panel.
pub const DEBUG_PANIC_MESSAGE: &str = "deliberate panic from #/debug/panic";

/// Panics while rendering, to exercise the panic hook end to end (see `e2e/`).
#[function_component]
pub fn DebugPanic() -> Html {
    panic!("{DEBUG_PANIC_MESSAGE}");
}
