use engine::Dialect;
use yew::prelude::*;

use crate::progress::Progress;
use crate::route::{LessonRoute, Route};
use crate::state::LessonSummary;
use crate::{i18n, t};

#[derive(Properties, PartialEq)]
pub struct LessonListProps {
    pub lessons: Vec<LessonSummary>,
    /// Saved progress per exercise id (solved, goals met at the last Check).
    #[prop_or_default]
    pub progress: Vec<(String, Progress)>,
}

#[function_component]
pub fn LessonList(props: &LessonListProps) -> Html {
    let items = if props.lessons.is_empty() {
        html! { <li class="lesson-list__empty">{ t!("lessons-none") }</li> }
    } else {
        DATABASES
            .iter()
            .map(|&(dialect, name)| {
                let lessons: Html = props
                    .lessons
                    .iter()
                    .filter(|l| l.dialect == dialect)
                    .map(|lesson| {
                        let saved = props.progress.iter().find(|(id, _)| *id == lesson.id);
                        item(lesson, saved.map(|(_, p)| p))
                    })
                    .collect();
                if props.lessons.iter().all(|l| l.dialect != dialect) {
                    return Html::default();
                }
                let heading = format!("lessons-{}", dialect_key(dialect));
                html! {
                    <li key={heading.clone()} class="lesson-group" data-testid="lesson-group" data-database={dialect_key(dialect)}>
                        <h3 class="lesson-group__heading" id={heading.clone()}>{ name }</h3>
                        <ul class="lesson-list" aria-labelledby={heading}>{ lessons }</ul>
                    </li>
                }
            })
            .collect()
    };
    html! {
        <section class="lessons" aria-labelledby="lessons-heading">
            <h2 id="lessons-heading">{ t!("lessons-heading") }</h2>
            // What the "Covers" chips name: the articles the lessons come from.
            <p class="lessons__legend muted" id="covers-legend" data-testid="covers-legend">{ t!("lesson-covers-legend") }</p>
            <ul class="lesson-list" id="lesson-list">{ items }</ul>
        </section>
    }
}

/// The databases in the order the list shows their groups, with the names it shows.
const DATABASES: [(Dialect, &str); 3] = [
    (Dialect::TSql, "SQL Server"),
    (Dialect::Teradata, "Teradata"),
    (Dialect::Postgres, "PostgreSQL"),
];

/// `data-database` of a group: stable names for tests and styles.
fn dialect_key(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::TSql => "sqlserver",
        Dialect::Teradata => "teradata",
        Dialect::Postgres => "postgresql",
    }
}

fn item(lesson: &LessonSummary, progress: Option<&Progress>) -> Html {
    let href = if lesson.exercise {
        Route::Exercise(lesson.id.clone()).href()
    } else {
        Route::Lesson(LessonRoute::new(&lesson.id)).href()
    };
    let english = !lesson.translated && i18n::lang() != i18n::Lang::En;
    let covers = sorted_ids(&lesson.covers);
    html! {
        <li key={lesson.id.clone()} class="lesson-list__item" data-testid="lesson-item" data-lesson={lesson.id.clone()}
            data-kind={if lesson.exercise { "exercise" } else { "lesson" }}>
            <a {href}>
                // An untranslated lesson's own words are English: say so to screen readers.
                <span class="lesson-list__title" lang={english.then_some("en")}>
                    if lesson.id == crate::catalog::LESSON_ORDER[0] {
                        <span class="chip chip--start" data-testid="start-here">{ t!("lesson-start-here") }</span>{ " " }
                    }
                    if lesson.exercise && !crate::present::title_says(&lesson.title, &t!("lesson-exercise-chip")) {
                        <span class="chip chip--exercise">{ t!("lesson-exercise-chip") }</span>{ " " }
                    }
                    { &lesson.title }
                </span>
                <span class="lesson-list__summary" lang={english.then_some("en")}>{ &lesson.summary }</span>
                if !lesson.translated && i18n::lang() != i18n::Lang::En {
                    <span class="lesson-list__untranslated" data-testid="untranslated">{ t!("lesson-untranslated") }</span>
                }
                <span class="lesson-list__meta">
                    if !covers.is_empty() {
                        <span class="lesson-list__covers" aria-label={t!("lesson-covers-label", list = covers.join(", "))}
                            title={t!("lesson-covers-legend")}>
                            { t!("lesson-covers") }{ " " }
                            { for covers.iter().map(|c| html! { <span class="chip">{ c }</span> }) }
                        </span>
                    }
                    if !lesson.toggles.is_empty() {
                        <span class="lesson-list__toggles">{ t!("lesson-toggles", list = lesson.toggles.join(" · ")) }</span>
                    }
                    { for progress.map(progress_note) }
                </span>
            </a>
        </li>
    }
}

/// An exercise's saved progress on its card: the solved badge, the goals the last Check
/// met, or that the learner has started.
fn progress_note(progress: &Progress) -> Html {
    let (met, judged) = progress.goals_met();
    html! {
        <span class="lesson-list__progress" data-testid="card-progress">
            if progress.solved {
                <span class="chip chip--solved" data-testid="card-solved">{ t!("card-solved") }</span>
            }
            if judged > 0 {
                <span data-testid="card-goals" data-met={met.to_string()} data-judged={judged.to_string()}>
                    { t!("card-goals", met = met, judged = judged) }
                </span>
            } else if !progress.solved {
                <span>{ t!("card-started") }</span>
            }
        </span>
    }
}

/// Scenario ids (`Q10`, `Q3`, `I2`) in SCENARIOS.md's order: by letter (Q, T, I), then
/// by number, so `Q3` comes before `Q10`.
fn sorted_ids(ids: &[String]) -> Vec<String> {
    let key = |id: &String| {
        let letter = id.chars().next().unwrap_or(' ');
        let rank = "QTI".find(letter).unwrap_or(3);
        let number: u32 = id[letter.len_utf8().min(id.len())..]
            .parse()
            .unwrap_or(u32::MAX);
        (rank, number, id.clone())
    };
    let mut ids = ids.to_vec();
    ids.sort_by_key(key);
    ids
}

#[cfg(test)]
mod tests {
    #[test]
    fn scenario_ids_sort_by_letter_then_number() {
        let ids: Vec<String> = ["Q10", "I6", "Q3", "T2", "I2"].map(String::from).to_vec();
        assert_eq!(super::sorted_ids(&ids), ["Q3", "Q10", "T2", "I2", "I6"]);
    }
}
