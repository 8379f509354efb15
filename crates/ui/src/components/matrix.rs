//! The outcome matrix (`#/lesson/<id>/matrix`): every toggle combination of a lesson
//! run on several seeds, one row per combination and one column per figure its checks
//! and properties name (`lesson::MatrixRun`, as `lockstep matrix` prints it). It is
//! computed in the worker (`offload.rs`) as the page opens, with progress and Cancel;
//! each row opens its run in the player. Headers carry the columns' labels, cells their
//! plain values and a mark where the lesson expects something of them (`crate::matrix`).

use std::cell::RefCell;
use std::rc::Rc;

use gloo::storage::{SessionStorage, Storage};
use gloo::timers::callback::Timeout;
use gloo::utils::window;
use lesson::{Cell, Lesson, Matrix, MatrixProgress, Reading, Row, MISSING};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::catalog::catalog;
use crate::hooks::Measure;
use crate::matrix::{Judged, Mark, Source};
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

/// Where the row last opened from this matrix is kept for the way back
/// (`sessionStorage`, this tab only).
fn row_key(id: &str) -> String {
    format!("lockstep.matrix-row.{id}")
}

/// A click in the table remembers the row it opens.
fn remember_row(id: &str) -> Callback<MouseEvent> {
    let key = row_key(id);
    Callback::from(move |e: MouseEvent| {
        let row = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("[data-testid=matrix-row]").ok().flatten())
            .and_then(|tr| tr.get_attribute("data-settings"));
        if let Some(settings) = row {
            let _ = SessionStorage::set(&key, settings);
        }
    })
}

/// Focuses the first link of the row remembered by [`remember_row`], once.
fn refocus_row(id: &str) {
    let key = row_key(id);
    let Ok(settings) = SessionStorage::get::<String>(&key) else {
        return;
    };
    SessionStorage::delete(&key);
    let link = gloo::utils::document()
        .query_selector_all("[data-testid=matrix-row]")
        .ok()
        .and_then(|rows| {
            (0..rows.length())
                .filter_map(|i| rows.get(i)?.dyn_into::<web_sys::Element>().ok())
                .find(|tr| tr.get_attribute("data-settings").as_deref() == Some(settings.as_str()))
        })
        .and_then(|tr| {
            tr.query_selector("[data-testid=matrix-open]")
                .ok()
                .flatten()
        })
        .and_then(|a| a.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(link) = link {
        let _ = link.focus();
    }
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
    // Back from a row's run, the keyboard is on that row again once the table is whole.
    {
        let id = props.id.clone();
        let whole = matches!(&*table, Table::Done(m, _) if *shown >= m.rows.len());
        use_effect_with(whole, move |&whole| {
            if whole {
                refocus_row(&id);
            }
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

/// A wall-clock duration: milliseconds under a second ("12 runs in 40 ms", never
/// "in 0 s"), else seconds to a tenth.
fn elapsed_text(ms: f64) -> String {
    let ms = ms.max(0.0).round() as u64;
    if ms < 1000 {
        crate::i18n::ms(ms * 1000)
    } else {
        crate::i18n::seconds(ms)
    }
}

fn progress_text(progress: Option<&MatrixProgress>, elapsed_ms: f64) -> String {
    match progress {
        Some(p) => t!(
            "matrix-running",
            done = p.runs_done,
            runs = p.runs,
            time = elapsed_text(elapsed_ms)
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
            // Only T-SQL catches with TRY; each dialect names what lets an error through.
            (lesson::ColumnMeasure::ErrorNumbers, _) => match lesson.dialect {
                engine::Dialect::Postgres => t!("matrix-errors-label-exception"),
                engine::Dialect::Teradata => t!("matrix-errors-label-client"),
                _ => t!("matrix-errors-label"),
            },
            (_, Some(s)) if s.key == c.key => s.label.clone(),
            _ => c.label.clone(),
        })
        .collect()
}

/// A column's label. A column that measures the same thing for checks under different
/// settings (`Commit: ... / Rollback: ...`) shows each check's part on lines of its own,
/// each cut short alone, so the heading never reads as one setting's check over the
/// other setting's rows.
/// Checks that differ only at their end ("Every task is claimed (500)", "… (600)") are
/// one label that says the common words once, so what tells them apart is not what a
/// narrow column cuts off.
fn column_label(label: &str) -> Html {
    let parts: Vec<&str> = label.split(" / ").collect();
    if parts.len() == 1 {
        return html! { <span class="matrix__label">{ label }</span> };
    }
    if let Some(label) = common_start(&parts) {
        return html! { <span class="matrix__label">{ label }</span> };
    }
    html! {
        <span class="matrix__label matrix__label--parts">
            { for parts.iter().enumerate().map(|(k, part)| html! {
                <>
                    if k > 0 { <span class="matrix__sep">{ " / " }</span> }
                    <span class="matrix__part">{ *part }</span>
                </>
            }) }
        </span>
    }
}

/// `parts` as their common leading words (two or more) once, then what each adds:
/// "Every task is claimed (500) / (600)"; `None` when they do not start alike or one
/// adds nothing.
fn common_start(parts: &[&str]) -> Option<String> {
    let words: Vec<Vec<&str>> = parts.iter().map(|p| p.split(' ').collect()).collect();
    let first = words.first()?;
    let common = (0..first.len())
        .take_while(|&i| words.iter().all(|w| w.len() > i + 1 && w[i] == first[i]))
        .count();
    if common < 2 {
        return None;
    }
    let ends: Vec<String> = words.iter().map(|w| w[common..].join(" ")).collect();
    Some(format!(
        "{} {}",
        first[..common].join(" "),
        ends.join(" / ")
    ))
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
    let labels = legend_labels(lesson, &matrix.columns);
    let shown_lesson = crate::catalog::shown(lesson);
    let shown = shown.min(matrix.rows.len());
    let mark_key = |m: Mark, legend: String| {
        html! {
            <li class={classes!("matrix__mark-key", format!("matrix__cell--{}", m.name()))}>
                <span class="matrix__mark" aria-hidden="true">{ m.symbol() }</span>
                { legend }
            </li>
        }
    };
    html! {
        <>
            <p class="matrix__summary" data-testid="matrix-summary" data-runs={runs.to_string()}>
                { t!("matrix-summary", rows = matrix.rows.len(), seeds = seeds.len(), list = seeds.join(", "),
                    runs = runs, time = elapsed_text(elapsed)) }
            </p>
            <div class="matrix__marks" data-testid="matrix-marks">
                <ul>
                    { mark_key(Mark::Pass, t!("matrix-marks-pass")) }
                    { mark_key(Mark::Fail, t!("matrix-marks-fail")) }
                    { mark_key(Mark::Bug, t!("matrix-marks-bug")) }
                </ul>
                <p>{ t!("matrix-marks-note") }</p>
            </div>
            <div class="matrix__scroll" onclick={remember_row(&lesson.id)}>
                <table class="matrix__table" data-testid={if complete { "matrix-table" } else { "matrix-table-drawing" }}>
                    <thead>
                        <tr>
                            // A toggle as a column heading: its label in the reader's
                            // language, its name (what the URL and the CLI say) below.
                            { for matrix.toggles.iter().map(|name| {
                                let label = toggle_label(&shown_lesson, name).unwrap_or_else(|| name.clone());
                                html! {
                                    <th scope="col" class="matrix__toggle" title={label.clone()} data-testid="matrix-toggle" data-key={name.clone()}>
                                        <span class="matrix__label">{ label }</span>
                                        <code class="matrix__key">{ name }</code>
                                    </th>
                                }
                            }) }
                            // The reader's words first; the key (what `lockstep matrix`, the
                            // legend and the tests name the column by) below them.
                            { for matrix.columns.iter().zip(&labels).map(|(c, label)| html! {
                                <th scope="col" class="matrix__column" title={label.clone()} data-testid="matrix-column" data-key={c.key.clone()}>
                                    { column_label(label) }
                                    <code class="matrix__key">{ &c.key }</code>
                                </th>
                            }) }
                            <th scope="col" class="matrix__column" title={t!("matrix-checks-title")}>
                                <span class="matrix__label">{ t!("matrix-checks") }</span>
                            </th>
                        </tr>
                    </thead>
                    <tbody>
                        { for (0..shown).map(|index| html! {
                            <MatrixRow key={index} lesson={lesson.clone()} matrix={matrix.clone()} {index} />
                        }) }
                    </tbody>
                </table>
            </div>
            <dl class="matrix__legend">
                { for matrix.columns.iter().zip(labels).map(|(c, label)| html! {
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
///
/// The keyboard reaches a row once: its first settings cell is the row's link (to the
/// first seed's run), and the other links in the row (each settings value, each cell,
/// each seed) are for the pointer only (`tabindex="-1"`): with a tab stop per cell and
/// seed, reaching queue-isolation's last row took about 180 Tabs.
#[function_component]
fn MatrixRow(props: &RowProps) -> Html {
    let (lesson, matrix) = (&*props.lesson, &*props.matrix);
    let row = &matrix.rows[props.index];
    let settings: Vec<String> = row
        .settings
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    let first = matrix.seeds.first().copied().unwrap_or(lesson.seed);
    let href = run_route(lesson, row, first).href();
    // A bug reproduced counts as passed here, as in the row's tally.
    let checks_mark = (row.checks_total > 0).then_some(if row.checks_passed < row.checks_total {
        Mark::Fail
    } else {
        Mark::Pass
    });
    let judged = crate::matrix::judge_row(lesson, &matrix.columns, row);
    let bug_row = crate::matrix::reproduces_bug(lesson, row);
    let cell_html = |cell: &Cell, column: &lesson::Column, judged: &[Judged]| {
        let text = cell.text();
        let plain = crate::matrix::plain_text(cell, &column.measure);
        let mark = crate::matrix::mark(lesson, judged, bug_row);
        // The full readings, then what the lesson expected of them.
        let title: Vec<String> = matrix
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
            .chain(judged.iter().filter_map(|j| verdict_line(lesson, j)))
            .collect();
        let varies = cell.readings.windows(2).any(|w| w[0] != w[1]);
        html! {
            <td data-testid="matrix-cell" data-key={column.key.clone()} data-text={text}
                data-mark={mark.map(Mark::name)}
                class={classes!(mark.map(|m| format!("matrix__cell--{}", m.name())))}>
                <a href={href.clone()} tabindex="-1" title={title.join("\n")}>
                    if let Some(m) = mark {
                        <span class="matrix__mark" aria-hidden="true">{ m.symbol() }</span>
                        <span class="visually-hidden">{ mark_word(m) }{ ": " }</span>
                    }
                    <span class="matrix__value">{ plain }</span>
                </a>
                if varies {
                    <span class="matrix__seeds">
                        { for matrix.seeds.iter().zip(&cell.readings).map(|(s, r)| {
                            // The reading is its name too: a title reaches no screen reader
                            // and no touch screen.
                            let reading = t!("matrix-seed-reading", seed = s.to_string(), reading = reading_text(r));
                            html! {
                                <a href={run_route(lesson, row, *s).href()} tabindex="-1"
                                    title={reading.clone()} aria-label={reading}
                                    data-testid="matrix-seed">{ s.to_string() }</a>
                            }
                        }) }
                    </span>
                }
            </td>
        }
    };
    let open_label = t!(
        "matrix-open-row",
        settings = settings.join(", "),
        seed = first.to_string()
    );
    html! {
        <tr data-testid="matrix-row" data-settings={settings.join(" ")}>
            { for row.settings.iter().enumerate().map(|(i, (_, v))| html! {
                <th scope="row" class="matrix__toggle">
                    if i == 0 {
                        <a href={href.clone()} data-testid="matrix-open" aria-label={open_label.clone()}>{ v }</a>
                    } else {
                        <a href={href.clone()} tabindex="-1">{ v }</a>
                    }
                </th>
            }) }
            if let Some(error) = &row.error {
                <td colspan={(matrix.columns.len() + 1).to_string()} class="matrix__error">{ error }</td>
            } else {
                { for row.cells.iter().zip(&matrix.columns).zip(&judged).map(|((cell, c), j)| cell_html(cell, c, j)) }
                <td class={classes!(checks_mark.map(|m| format!("matrix__cell--{}", m.name())))}
                    data-testid="matrix-checks" data-mark={checks_mark.map(Mark::name)}>
                    if let Some(m) = checks_mark {
                        <span class="matrix__mark" aria-hidden="true">{ m.symbol() }</span>
                        <span class="visually-hidden">{ mark_word(m) }{ ": " }</span>
                    }
                    { format!("{}/{}", row.checks_passed, row.checks_total) }
                </td>
            }
        </tr>
    }
}

/// The words a mark stands for, for screen readers and the legend.
fn mark_word(mark: Mark) -> String {
    match mark {
        Mark::Pass => t!("matrix-mark-pass"),
        Mark::Fail => t!("matrix-mark-fail"),
        Mark::Bug => t!("matrix-mark-bug"),
    }
}

/// One expectation's verdict as a line of the cell's title, in the page's language.
fn verdict_line(lesson: &Lesson, judged: &Judged) -> Option<String> {
    let held = judged.held;
    let (verdict, name) = match judged.source {
        Source::Check(i) => {
            let check = &lesson.checks[i];
            let verdict = match (held, check.bug) {
                (true, true) => t!("check-bug"),
                (true, false) => t!("check-pass"),
                (false, _) => t!("check-fail"),
            };
            let lang = crate::i18n::lang();
            let name = catalog().check_name_in(&lesson.id, &check.name, lang.as_str());
            (verdict, name)
        }
        Source::Property(i) => {
            let p = &lesson.properties[i];
            let verdict = if held {
                t!("matrix-property-holds")
            } else {
                t!("matrix-property-broken")
            };
            (
                verdict,
                crate::catalog::property_label(&lesson.id, &p.name, &p.label),
            )
        }
    };
    Some(t!("matrix-verdict", verdict = verdict, name = name))
}

/// A toggle's label in the page's language, for its column's title.
fn toggle_label(lesson: &Lesson, name: &str) -> Option<String> {
    lesson
        .toggles
        .iter()
        .find(|t| t.name == name)
        .map(|t| t.label.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matrix_computed_in_under_a_second_says_its_milliseconds() {
        crate::i18n::set_lang(crate::i18n::Lang::En);
        assert_eq!(elapsed_text(3.4), "3 ms");
        assert_eq!(elapsed_text(999.4), "999 ms");
        assert_eq!(elapsed_text(2240.0), "2.2 s");
    }

    #[test]
    fn checks_that_differ_at_their_end_say_their_common_words_once() {
        let claimed = ["Every task is claimed (500)", "Every task is claimed (600)"];
        assert_eq!(
            common_start(&claimed).as_deref(),
            Some("Every task is claimed (500) / (600)")
        );
        // Parts that differ from the start keep a part each; so do parts one of which
        // is all common words.
        assert_eq!(
            common_start(&["Commit: A waits", "Rollback: A waits"]),
            None
        );
        assert_eq!(common_start(&["No errors", "No errors at all"]), None);
        assert_eq!(common_start(&["No double claim", "No lost task"]), None);
    }

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
            check_verdicts: Vec::new(),
            property_verdicts: Vec::new(),
            error: None,
        };
        assert_eq!(
            run_route(lesson, &row, 2).href(),
            "#/lesson/queue-isolation?isolation=snapshot&rcsi=on&seed=2"
        );
    }
}
