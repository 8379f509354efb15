use yew::prelude::*;

use crate::route::{LessonRoute, Route};
use crate::sliced::{run_sliced, Job};
use crate::t;

#[derive(Properties, PartialEq)]
pub struct NotFoundProps {
    pub path: AttrValue,
}

#[function_component]
pub fn NotFound(props: &NotFoundProps) -> Html {
    html! {
        <section class="not-found">
            <h2>{ t!("not-found-title") }</h2>
            <p>{ t!("not-found-before") }<code>{ &props.path }</code>{ t!("not-found-after") }</p>
            <p><a href={Route::Home.href()}>{ t!("back-to-lessons") }</a></p>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct LessonProblemProps {
    pub id: AttrValue,
    pub known: Vec<String>,
    /// An exercise's link (`#/exercise/...`): `known` are exercises, opened in the editor.
    #[prop_or_default]
    pub exercise: bool,
}

/// A link to a lesson that does not exist (every lesson file parses: the build checks).
/// Lists the lessons, so the reader can go on instead of facing a dead page.
#[function_component]
pub fn LessonProblem(props: &LessonProblemProps) -> Html {
    let (title, before, after) = if props.exercise {
        (
            t!("no-exercise-title"),
            t!("no-exercise-before"),
            t!("no-exercise-after"),
        )
    } else {
        (
            t!("no-lesson-title"),
            t!("no-lesson-before"),
            t!("no-lesson-after"),
        )
    };
    let href = |id: &str| {
        if props.exercise {
            Route::Exercise(id.to_string()).href()
        } else {
            Route::Lesson(LessonRoute::new(id)).href()
        }
    };
    html! {
        <section class="problem" role="alert" data-testid="lesson-problem">
            <h2>{ title }</h2>
            <p>{ before }<code>{ &props.id }</code>{ after }</p>
            <ul>
                { for props.known.iter().map(|id| html! {
                    <li><a href={href(id)}>{ id }</a></li>
                }) }
            </ul>
            <p><a href={Route::Home.href()}>{ t!("back-to-lessons") }</a></p>
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

/// Stops the instance without a panic, as running out of memory does: no hook runs, and
/// the page's own fallback (`index.html`) writes the error panel.
#[function_component]
pub fn DebugAbort() -> Html {
    use_effect_with((), |_| -> () { std::process::abort() });
    html! {}
}

/// The message of the panic inside a run (`#/debug/panic-run`).
pub const DEBUG_PANIC_RUN_MESSAGE: &str = "deliberate panic inside a run from #/debug/panic-run";

/// A job whose first slice panics, as a bug in the engine would.
struct PanickingJob;

impl Job for PanickingJob {
    type Output = ();
    type Progress = ();
    fn advance(&mut self, _steps: usize) -> Option<()> {
        panic!("{DEBUG_PANIC_RUN_MESSAGE}");
    }
    fn progress(&self) {}
}

/// Shows "Simulating…" and starts a run that panics in its first slice.
#[function_component]
pub fn DebugPanicRun() -> Html {
    use_effect_with((), |_| {
        let job = run_sliced(PanickingJob, |()| {}, |()| {});
        move || drop(job)
    });
    html! { <p class="simulating" role="status" data-testid="simulating">{ t!("simulating") }</p> }
}

/// Asks the worker to panic (`wire::Request::Panic`), as a bug in a search or a Check
/// would; the page shows "Working…" until the error panel covers it.
#[function_component]
pub fn DebugPanicWorker() -> Html {
    use_effect_with((), |_| {
        let job = crate::offload::offload(&crate::wire::Request::Panic, |_| {});
        move || drop(job)
    });
    html! { <p class="simulating" role="status" data-testid="simulating">{ t!("working") }</p> }
}
