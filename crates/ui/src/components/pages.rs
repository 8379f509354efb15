use yew::prelude::*;

use crate::route::{LessonRoute, Route};

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

#[derive(Properties, PartialEq)]
pub struct LessonProblemProps {
    pub id: AttrValue,
    /// The file's parse errors; `None` when no lesson has this id.
    pub errors: Option<Vec<String>>,
    pub known: Vec<String>,
}

/// A lesson link that cannot be played: an unknown id, or a file that does not parse.
/// Says which, and how to go on, instead of leaving a dead page.
#[function_component]
pub fn LessonProblem(props: &LessonProblemProps) -> Html {
    let body = match &props.errors {
        Some(errors) => html! {
            <>
                <h2>{ "This lesson file has errors" }</h2>
                <p>{ "The lesson " }<code>{ &props.id }</code>{ " cannot be played until its file is fixed:" }</p>
                <ul class="problem__errors" data-testid="lesson-errors">
                    { for errors.iter().map(|e| html! { <li><code>{ e }</code></li> }) }
                </ul>
            </>
        },
        None => html! {
            <>
                <h2>{ "No such lesson" }</h2>
                <p>{ "There is no lesson " }<code>{ &props.id }</code>{ ". The lessons are:" }</p>
                <ul>
                    { for props.known.iter().map(|id| html! {
                        <li><a href={Route::Lesson(LessonRoute::new(id)).href()}>{ id }</a></li>
                    }) }
                </ul>
            </>
        },
    };
    html! {
        <section class="problem" role="alert" data-testid="lesson-problem">
            { body }
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
