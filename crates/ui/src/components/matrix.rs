//! The outcome matrix (`#/lesson/<id>/matrix`): every toggle combination of a lesson
//! run on several seeds, one row per combination and one column per figure its checks
//! and properties name (`lesson::MatrixRun`, as `lockstep matrix` prints it). It is
//! computed in the worker (`offload.rs`) as the page opens, with progress and Cancel;
//! each cell opens its run in the player.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use gloo::utils::window;
use lesson::{Cell, Lesson, Matrix, MatrixProgress, Reading, Row, MISSING};
use yew::prelude::*;

use crate::catalog::catalog;
use crate::hooks::Measure;
use crate::offload::{offload, Offloaded};
use crate::player::Shared;
use crate::route::{LessonRoute, Route};
use crate::t;
use crate::wire::{Reply, Request};

/// Performance API measure of a matrix: the page asks → the table arrives.
pub const MEASURE_MATRIX: &str = "lockstep:matrix";

/// Rows drawn per task once the matrix has arrived: the claim race's 24 rows drawn at
/// once made one main-thread task of about 76 ms; a few rows per task keep each short.
const ROWS_PER_TASK: usize = 4;

#[derive(Properties, PartialEq)]
pub struct MatrixProps {
    pub id: String,
}

#[derive(Clone, PartialEq)]
enum Table {
    Running(Option<MatrixProgress>),
    Cancelled(MatrixProgress),
    Done(Shared<Matrix>, f64),
    Failed(String),
}

fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

#[function_component]
pub fn MatrixPage(props: &MatrixProps) -> Html {
    let lesson = catalog().lesson(&props.id).cloned();
    let table = use_state(|| Table::Running(None));
    let job: Rc<RefCell<Option<Offloaded>>> = use_mut_ref(|| None);
    let started = use_mut_ref(|| 0.0_f64);
    let last = use_mut_ref(MatrixProgress::default);
    // Rows of the arrived matrix drawn so far (see ROWS_PER_TASK).
    let shown = use_state(|| 0_usize);
    {
        let shown = shown.clone();
        let (key, rows) = match &*table {
            Table::Done(m, _) => (Rc::as_ptr(&m.0) as usize, m.rows.len()),
            _ => (0, 0),
        };
        use_effect_with((key, *shown), move |&(_, n)| {
            let timer = (n < rows).then(|| Timeout::new(0, move || shown.set(n + ROWS_PER_TASK)));
            move || drop(timer)
        });
    }

    let start = {
        let (table, job, started, last, shown) = (
            table.clone(),
            job.clone(),
            started.clone(),
            last.clone(),
            shown.clone(),
        );
        let request = lesson.as_ref().map(|l| Request::Matrix {
            lesson: l.id.clone(),
            seeds: lesson::default_matrix_seeds(l),
        });
        Rc::new(move || {
            let Some(request) = &request else {
                return;
            };
            *started.borrow_mut() = now_ms();
            *last.borrow_mut() = MatrixProgress::default();
            table.set(Table::Running(None));
            let mut measure = Some(Measure::start(MEASURE_MATRIX));
            let on_reply = {
                let (table, last, started, shown) =
                    (table.clone(), last.clone(), started.clone(), shown.clone());
                move |reply: Reply| {
                    let done = match reply {
                        Reply::Tabulating(p) => {
                            *last.borrow_mut() = p;
                            table.set(Table::Running(Some(p)));
                            return;
                        }
                        Reply::Tabulated(Ok(matrix)) => {
                            shown.set(0);
                            Table::Done(Shared::new(matrix), now_ms() - *started.borrow())
                        }
                        Reply::Tabulated(Err(e)) | Reply::Failed(e) => Table::Failed(e),
                        _ => return,
                    };
                    if let Some(measure) = measure.take() {
                        measure.end();
                    }
                    table.set(done);
                }
            };
            *job.borrow_mut() = Some(offload(request, on_reply));
        })
    };
    // The matrix is what the page is for: it starts as the page opens, and leaving the
    // page cancels it (dropping the job terminates the worker).
    {
        let (start, job) = (start.clone(), job.clone());
        use_effect_with(props.id.clone(), move |_| {
            start();
            move || drop(job.borrow_mut().take())
        });
    }
    let cancel = {
        let (table, job, last) = (table.clone(), job.clone(), last.clone());
        Callback::from(move |_: MouseEvent| {
            drop(job.borrow_mut().take());
            table.set(Table::Cancelled(*last.borrow()));
        })
    };
    let again = Callback::from(move |_: MouseEvent| start());

    let Some(lesson) = lesson else {
        let known: Vec<String> = catalog().ids().iter().map(ToString::to_string).collect();
        return html! { <super::LessonProblem id={props.id.clone()} {known} /> };
    };
    let body = match &*table {
        Table::Running(progress) => html! {
            <div class="simulating" role="status" data-testid="matrix-progress">
                <p>
                    <span class="simulating__progress">{ progress_text(progress.as_ref(), now_ms() - *started.borrow()) }</span>
                    { " " }
                    <button type="button" class="button" data-testid="matrix-cancel" onclick={cancel}>{ t!("cancel") }</button>
                </p>
            </div>
        },
        Table::Cancelled(p) => html! {
            <p class="verdict verdict--error" role="status" data-testid="matrix-result" data-state="cancelled">
                { t!("matrix-cancelled", done = p.runs_done, runs = p.runs) }{ " " }
                <button type="button" class="button" data-testid="matrix-start" onclick={again}>{ t!("matrix-again") }</button>
            </p>
        },
        Table::Failed(e) => html! {
            <div class="notice notice--error" role="alert" data-testid="matrix-result" data-state="error">
                <p class="notice__title">{ t!("matrix-failed") }</p>
                <pre class="notice__detail">{ e }</pre>
            </div>
        },
        Table::Done(matrix, elapsed) => {
            matrix_table(&Shared(lesson.clone()), matrix, *elapsed, *shown)
        }
    };
    html! {
        <article class="matrix" data-testid="matrix" data-lesson={lesson.id.clone()}>
            <p class="lesson__crumbs">
                <a href={Route::Lesson(LessonRoute::new(&lesson.id)).href()} data-testid="matrix-back">{ t!("matrix-back") }</a>
            </p>
            <h2>{ t!("matrix-title", title = &crate::catalog::shown(&lesson).title) }</h2>
            <super::Untranslated lesson_id={lesson.id.clone()} />
            <p class="matrix__intro">{ t!("matrix-intro") }</p>
            { body }
        </article>
    }
}

fn progress_text(progress: Option<&MatrixProgress>, elapsed_ms: f64) -> String {
    match progress {
        Some(p) => t!(
            "matrix-running",
            done = p.runs_done,
            runs = p.runs,
            time = crate::i18n::seconds(elapsed_ms.max(0.0) as u64)
        ),
        None => t!("matrix-starting"),
    }
}

/// The player's route for one run: the row's toggles (only those off their default,
/// as the player writes them) and the seed.
fn run_route(lesson: &Lesson, row: &Row, seed: u64) -> Route {
    let mut route = LessonRoute::new(&lesson.id);
    route.toggles = row
        .settings
        .iter()
        .filter(|(name, value)| {
            lesson
                .toggles
                .iter()
                .any(|t| t.name == *name && t.default_value() != value)
        })
        .cloned()
        .collect();
    route.seed = Some(seed);
    Route::Lesson(route)
}

fn reading_text(r: &Reading) -> String {
    match r {
        Reading::Number(n) => lesson::number_text(*n),
        Reading::Text(t) => t.clone(),
        Reading::Missing => MISSING.to_string(),
    }
}

/// The columns' labels in the page's language: the translated lesson's columns (the
/// same measures in the same order, so the same keys), the errors' column from the
/// catalogue; the original's label where they do not line up.
fn legend_labels(lesson: &Lesson, columns: &[lesson::Column]) -> Vec<String> {
    let shown = lesson::matrix_columns(&crate::catalog::shown(lesson));
    columns
        .iter()
        .enumerate()
        .map(|(i, c)| match (&c.measure, shown.get(i)) {
            (lesson::ColumnMeasure::ErrorNumbers, _) => t!("matrix-errors-label"),
            (_, Some(s)) if s.key == c.key => s.label.clone(),
            _ => c.label.clone(),
        })
        .collect()
}

fn matrix_table(
    lesson: &Shared<Lesson>,
    matrix: &Shared<Matrix>,
    elapsed: f64,
    shown: usize,
) -> Html {
    let seeds: Vec<String> = matrix.seeds.iter().map(u64::to_string).collect();
    let runs = matrix.rows.len() * matrix.seeds.len();
    let complete = shown >= matrix.rows.len();
    html! {
        <>
            <p class="matrix__summary" data-testid="matrix-summary" data-runs={runs.to_string()}>
                { t!("matrix-summary", rows = matrix.rows.len(), seeds = seeds.len(), list = seeds.join(", "),
                    runs = runs, time = crate::i18n::seconds(elapsed.max(0.0) as u64)) }
            </p>
            <div class="matrix__scroll">
                <table class="matrix__table" data-testid={if complete { "matrix-table" } else { "matrix-table-drawing" }}>
                    <thead>
                        <tr>
                            { for matrix.toggles.iter().map(|t| html! { <th scope="col" class="matrix__toggle">{ t }</th> }) }
                            { for matrix.columns.iter().zip(legend_labels(lesson, &matrix.columns)).map(|(c, label)| html! { <th scope="col" title={label}>{ &c.key }</th> }) }
                            <th scope="col" title={t!("matrix-checks-title")}>{ t!("matrix-checks") }</th>
                        </tr>
                    </thead>
                    <tbody>
                        { for (0..shown.min(matrix.rows.len())).map(|index| html! {
                            <MatrixRow key={index} lesson={lesson.clone()} matrix={matrix.clone()} {index} />
                        }) }
                    </tbody>
                </table>
            </div>
            <dl class="matrix__legend">
                { for matrix.columns.iter().zip(legend_labels(lesson, &matrix.columns)).map(|(c, label)| html! {
                    <>
                        <dt><code>{ &c.key }</code></dt>
                        <dd>{ label }
                            if let lesson::ColumnMeasure::Query { sql } = &c.measure {
                                { " " }<code>{ sql }</code>
                            }
                        </dd>
                    </>
                }) }
            </dl>
        </>
    }
}

#[derive(Properties, PartialEq)]
struct RowProps {
    lesson: Shared<Lesson>,
    matrix: Shared<Matrix>,
    index: usize,
}

/// One combination; a component, so rows already drawn are not drawn again as more come.
#[function_component]
fn MatrixRow(props: &RowProps) -> Html {
    let (lesson, matrix) = (&*props.lesson, &*props.matrix);
    let row = &matrix.rows[props.index];
    let settings: Vec<String> = row
        .settings
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    let failed = row.checks_passed < row.checks_total;
    let cell_html = |cell: &Cell, key: &str| {
        let first = matrix.seeds.first().copied().unwrap_or(lesson.seed);
        let text = cell.text();
        let per_seed: Vec<String> = matrix
            .seeds
            .iter()
            .zip(&cell.readings)
            .map(|(s, r)| {
                t!(
                    "matrix-seed-reading",
                    seed = s.to_string(),
                    reading = reading_text(r)
                )
            })
            .collect();
        let varies = cell.readings.windows(2).any(|w| w[0] != w[1]);
        html! {
            <td data-testid="matrix-cell" data-key={key.to_string()} data-text={text.clone()}>
                <a href={run_route(lesson, row, first).href()} title={per_seed.join("\n")}>{ text }</a>
                if varies {
                    <span class="matrix__seeds">
                        { for matrix.seeds.iter().zip(&cell.readings).map(|(s, r)| html! {
                            <a href={run_route(lesson, row, *s).href()} title={t!("matrix-seed-reading", seed = s.to_string(), reading = reading_text(r))}
                                data-testid="matrix-seed">{ s.to_string() }</a>
                        }) }
                    </span>
                }
            </td>
        }
    };
    html! {
        <tr data-testid="matrix-row" data-settings={settings.join(" ")}>
            { for row.settings.iter().map(|(_, v)| html! { <th scope="row" class="matrix__toggle">{ v }</th> }) }
            if let Some(error) = &row.error {
                <td colspan={(matrix.columns.len() + 1).to_string()} class="matrix__error">{ error }</td>
            } else {
                { for row.cells.iter().zip(&matrix.columns).map(|(cell, c)| cell_html(cell, &c.key)) }
                <td class={classes!(failed.then_some("matrix__failed"))} data-testid="matrix-checks">
                    { format!("{}/{}", row.checks_passed, row.checks_total) }
                </td>
            }
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_opens_its_run_with_the_rows_changed_toggles_and_the_seed() {
        let catalog = catalog();
        let lesson = catalog.lesson("queue-isolation").unwrap();
        let row = Row {
            settings: vec![
                ("isolation".into(), "snapshot".into()),
                ("rcsi".into(), "on".into()),
                ("readpast".into(), "on".into()),
            ],
            cells: Vec::new(),
            checks_passed: 0,
            checks_total: 0,
            error: None,
        };
        assert_eq!(
            run_route(lesson, &row, 2).href(),
            "#/lesson/queue-isolation?isolation=snapshot&rcsi=on&seed=2"
        );
    }
}
