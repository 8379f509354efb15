use yew::prelude::*;

use crate::route::{LessonRoute, Route};
use crate::state::LessonSummary;

#[derive(Properties, PartialEq)]
pub struct LessonListProps {
    pub lessons: Vec<LessonSummary>,
}

#[function_component]
pub fn LessonList(props: &LessonListProps) -> Html {
    let items = if props.lessons.is_empty() {
        html! { <li class="lesson-list__empty">{ "No lessons yet" }</li> }
    } else {
        props.lessons.iter().map(item).collect()
    };
    html! {
        <section class="lessons" aria-labelledby="lessons-heading">
            <h2 id="lessons-heading">{ "Lessons" }</h2>
            <ul class="lesson-list" id="lesson-list">{ items }</ul>
        </section>
    }
}

fn item(lesson: &LessonSummary) -> Html {
    let href = if lesson.exercise {
        Route::Exercise(lesson.id.clone()).href()
    } else {
        Route::Lesson(LessonRoute::new(&lesson.id)).href()
    };
    html! {
        <li key={lesson.id.clone()} class="lesson-list__item" data-testid="lesson-item" data-lesson={lesson.id.clone()}
            data-kind={if lesson.exercise { "exercise" } else { "lesson" }}>
            <a {href}>
                <span class="lesson-list__title">
                    if lesson.exercise { <span class="chip chip--exercise">{ "Exercise" }</span>{ " " } }
                    { &lesson.title }
                </span>
                <span class="lesson-list__summary">{ &lesson.summary }</span>
                <span class="lesson-list__meta">
                    if !lesson.covers.is_empty() {
                        <span class="lesson-list__covers" aria-label={format!("Scenarios covered: {}", lesson.covers.join(", "))}>
                            { "Covers " }
                            { for lesson.covers.iter().map(|c| html! { <span class="chip">{ c }</span> }) }
                        </span>
                    }
                    if !lesson.toggles.is_empty() {
                        <span class="lesson-list__toggles">{ format!("Toggles: {}", lesson.toggles.join(" · ")) }</span>
                    }
                </span>
            </a>
        </li>
    }
}
