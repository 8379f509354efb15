use yew::prelude::*;

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
        props
            .lessons
            .iter()
            .map(|lesson| {
                html! {
                    <li key={lesson.id.clone()} class="lesson-list__item">
                        <a href={format!("#/lesson/{}", lesson.id)}>{ &lesson.title }</a>
                    </li>
                }
            })
            .collect()
    };
    html! {
        <section class="lessons" aria-labelledby="lessons-heading">
            <h2 id="lessons-heading">{ "Lessons" }</h2>
            <ul class="lesson-list" id="lesson-list">{ items }</ul>
        </section>
    }
}
