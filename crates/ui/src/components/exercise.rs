//! The exercise page (`#/exercise/<id>`): the goal, hints revealed one at a time, the
//! narrative with a labelled SQL editor in place of each editable block, Check (every
//! goal on every seed), and the run where a goal failed, in the player's own panels.
//! Progress (solved, the learner's SQL) is saved in `localStorage` as it changes.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use lesson::{BlockRole, Kind, Lesson};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use super::anomalies::AnomalyNav;
use super::code::{statements, CodeListing, SessionCode};
use super::lanes::Lanes;
use super::log::EventLog;
use super::narrative::{parts, Part};
use super::outcome::Outcome;
use super::pages::LessonProblem;
use super::tables::Tables;
use super::transport::{Narration, Transport};
use super::waits::Waits;
use super::why::WhyPanel;
use crate::catalog::catalog;
use crate::editing;
use crate::exercise::{
    error_line, stopped_by_limit, CheckProgress, Checker, ExerciseAction, ExerciseState, ShownRun,
    Verdict,
};
use crate::hooks::{use_playback, use_player_keys, use_reduced_motion, use_state_view, Measure};
use crate::offload::{self, offload, Offloaded};
use crate::player::{Player, PlayerAction, Shared};
use crate::present::{ms_label, StepMarks};
use crate::progress;
use crate::route::{LessonRoute, Route};
use crate::run::RunModel;
use crate::sliced::{run_sliced, Sliced};
use crate::t;
use crate::wire::{Reply, Request};

/// Performance API measure of one Check (all seeds and the run shown).
pub const MEASURE_CHECK: &str = "lockstep:check";

#[derive(Properties, PartialEq)]
pub struct ExercisePageProps {
    pub id: AttrValue,
}

#[function_component]
pub fn ExercisePage(props: &ExercisePageProps) -> Html {
    let catalog = catalog();
    let entry = catalog.get(&props.id);
    match entry.map(|e| &e.lesson) {
        Some(lesson) if lesson.kind == Kind::Exercise => {
            html! { <Exercise lesson={Shared(Rc::clone(lesson))} /> }
        }
        Some(lesson) => html! {
            <section class="problem" role="alert" data-testid="lesson-problem">
                <h2>{ t!("exercise-not-title") }</h2>
                <p>{ t!("exercise-not-before") }<code>{ &lesson.id }</code>{ t!("exercise-not-after") }{ " " }
                    <a href={Route::Lesson(LessonRoute::new(&lesson.id)).href()}>{ t!("exercise-not-open") }</a></p>
            </section>
        },
        None => {
            let known: Vec<String> = catalog
                .ids()
                .iter()
                .filter(|id| catalog.lesson(id).is_some_and(|l| l.kind == Kind::Exercise))
                .map(ToString::to_string)
                .collect();
            html! { <LessonProblem id={props.id.clone()} {known} exercise={true} /> }
        }
    }
}

#[derive(Properties, PartialEq)]
struct ExerciseProps {
    lesson: Shared<Lesson>,
}

#[function_component]
fn Exercise(props: &ExerciseProps) -> Html {
    let state = {
        let lesson = Rc::clone(&props.lesson.0);
        use_reducer(move || {
            let saved = progress::load(&lesson.id);
            ExerciseState::new(lesson, saved)
        })
    };
    use_checker(&state);
    use_saved_progress(&state);
    let slow = use_slow_check(state.checking.then_some(state.request));
    use_cancel_keys(
        &state,
        state.checking && (slow || state.check_progress.is_some()),
    );
    // The controls a render can remove (Cancel when a check ends, the hint button after
    // the last hint) hand the keyboard's focus on instead of dropping it to the page.
    let check_ref = use_node_ref();
    let hints_ref = use_node_ref();
    crate::hooks::use_focus_rescue(state.checking, check_ref.clone());
    crate::hooks::use_focus_rescue(state.hints_shown, hints_ref.clone());
    use_carried_over(&state);
    use_effect_with((state.request, state.checking), |&(_, checking)| {
        if !checking && CHECKED_HERE.with(|f| f.replace(false)) {
            show_answer();
        }
    });

    let lesson = &state.lesson;
    let Some(exercise) = lesson.exercise.as_ref() else {
        return html! {};
    };
    let send = |action: ExerciseAction| {
        let dispatcher = state.dispatcher();
        Callback::from(move |_: MouseEvent| dispatcher.dispatch(action.clone()))
    };

    let notice = state.notice.as_ref().map(|notice| {
        html! {
            <div class="notice notice--warning" role="status" data-testid="progress-notice">
                <p class="notice__title">{ notice }</p>
                <button type="button" class="link-button" onclick={send(ExerciseAction::DismissNotice)}>{ t!("dismiss") }</button>
            </div>
        }
    });

    let catalog = catalog();
    // The goal, hints and title in the page's language when translated.
    let entry = catalog
        .get_in(&lesson.id, crate::i18n::lang().as_str())
        .map(|(e, _)| e);
    let title = entry.map_or(lesson.title.as_str(), |e| e.lesson.title.as_str());
    let goal_html = entry.map_or("", |e| e.goal_html.as_str());
    let hints_html = entry.map_or(&[][..], |e| e.hints_html.as_slice());
    let hints = state.hints();
    let hint_list = (state.hints_shown > 0).then(|| {
        html! {
            <ol class="exercise__hints" data-testid="hints" ref={hints_ref.clone()} tabindex="-1">
                { for hints_html.iter().take(state.hints_shown).map(|h| html! { <li data-testid="hint">{ inline_html(h) }</li> }) }
            </ol>
        }
    });
    let hint_button = (state.hints_shown < hints.len()).then(|| {
        let label = if state.hints_shown == 0 {
            t!("hint-first", total = hints.len())
        } else {
            t!("hint-next", number = state.hints_shown + 1, total = hints.len())
        };
        html! {
            <button type="button" class="button" data-testid="hint-button" onclick={send(ExerciseAction::ShowHint)}>{ label }</button>
        }
    });

    // Goals with their verdict, once checked (or as the last Check left them).
    let catalog = crate::catalog::catalog();
    let goal_name =
        |name: &str| catalog.check_name_in(&state.lesson.id, name, crate::i18n::lang().as_str());
    let goals = state.goal_rows().into_iter().map(|row| {
        let (class, mark) = match row.met {
            _ if row.uncounted => ("goal--uncounted", "–"),
            None => ("goal--unknown", "○"),
            Some(true) => ("goal--pass", "✓"),
            Some(false) => ("goal--fail", "✗"),
        };
        html! {
            <li class={classes!("goal", class)} data-testid="goal" data-name={row.name.clone()}
                data-passed={row.met.map(|m| if m { "true" } else { "false" })}>
                <span class="goal__mark" aria-hidden="true">{ mark }</span>
                <span class="goal__name" lang={crate::catalog::words_lang(&state.lesson.id)}>{ goal_name(&row.name) }</span>
                <span class="goal__detail" data-testid="goal-detail">{ row.detail }</span>
            </li>
        }
    });

    let verdict = match &state.verdict {
        _ if state.checking => html! {
            <div class="simulating" role="status" data-testid="checking">
                <p>{ t!("checking", seeds = exercise.seeds.len()) }</p>
                // Cancel as soon as Check is slow, progress or not: one long statement
                // sends none until it ends.
                if state.check_progress.is_some() || slow {
                    <p class="progress" data-testid="check-progress">
                        if let Some(p) = state.check_progress {
                            { check_progress_text(&p, &exercise.seeds) }
                            { " " }
                        }
                        <button type="button" class="button" data-testid="cancel-check" aria-keyshortcuts="Escape"
                            onclick={send(ExerciseAction::Cancel)}>{ t!("cancel") }</button>
                    </p>
                }
            </div>
        },
        Some(Verdict::Cancelled(p)) => html! {
            <p class="verdict verdict--error" role="status" data-testid="verdict" data-solved="false" data-stopped="cancel">
                { t!("check-cancelled", progress = check_progress_text(p, &exercise.seeds)) }
            </p>
        },
        None => html! {},
        Some(Verdict::Report { report, .. }) if report.solved => html! {
            <p class="verdict verdict--solved" role="status" data-testid="verdict" data-solved="true">
                { t!("check-solved", seeds = report.seeds.len()) }
            </p>
        },
        Some(Verdict::Report { report, .. }) if report.failed_run.is_some() => {
            // The page's words around the engine's message (which stays as written).
            let failed = report
                .failed_run
                .as_ref()
                .map(|f| match f.number {
                    0 => t!(
                        "check-failed-run-stopped",
                        seed = f.seed.to_string(),
                        session = &f.session,
                        message = &f.message
                    ),
                    n => t!(
                        "check-failed-run",
                        seed = f.seed.to_string(),
                        session = &f.session,
                        number = n.to_string(),
                        message = &f.message
                    ),
                })
                .unwrap_or_default();
            // Where in the learner's text, with a button that puts the caret there.
            let at = report.failed_run.as_ref().and_then(|f| f.at.clone());
            let place = at.map(|at| {
                let text = state
                    .blocks
                    .iter()
                    .find(|b| b.id == at.block)
                    .map(|b| b.text.clone())
                    .unwrap_or_default();
                let label = format!("{}:{}:{}", at.block, at.line, at.col);
                let (line, col) = (at.line, at.col);
                let goto = Callback::from(move |_: MouseEvent| place_caret(&at.block, &text, line, col));
                html! {
                    <p class="verdict__detail" data-testid="run-error-at" data-line={line.to_string()}>
                        <strong>{ label }</strong>{ " " }
                        <button type="button" class="link-button" data-testid="goto-run-error" onclick={goto}>
                            { t!("check-goto", line = line.to_string(), col = col.to_string()) }
                        </button>
                    </p>
                }
            });
            html! {
                <div class="verdict verdict--error" role="alert" data-testid="verdict" data-solved="false">
                    <p>{ t!("check-run-error") }</p>
                    <p class="verdict__detail" data-testid="check-error">{ failed }</p>
                    <>{ for place }</>
                </div>
            }
        }
        Some(Verdict::Report { report, .. }) => {
            let failed = report.goals.iter().filter(|g| !g.passed_all_seeds).count();
            html! {
                <p class="verdict verdict--fail" role="status" data-testid="verdict" data-solved="false">
                    { t!("check-failed", failed = failed, total = report.goals.len()) }
                </p>
            }
        }
        Some(Verdict::EditError {
            block,
            line,
            col,
            message,
        }) => {
            // Beside Check, where the learner is looking: the message, the line with a
            // caret, and a button that puts the editor's caret there.
            let text = state
                .blocks
                .iter()
                .find(|b| b.id == *block)
                .map(|b| b.text.clone())
                .unwrap_or_default();
            let excerpt = error_line(&text, *line, *col);
            let goto = {
                let (block, line, col) = (block.clone(), *line, *col);
                Callback::from(move |_: MouseEvent| place_caret(&block, &text, line, col))
            };
            html! {
                <div class="verdict verdict--error" role="alert" data-testid="verdict" data-solved="false">
                    <p data-testid="check-error" data-line={line.to_string()} data-col={col.to_string()}>
                        <strong>{ format!("{block}:{line}:{col}") }</strong>{ ": " }{ edit_message(message) }
                    </p>
                    if let Some((line_text, caret)) = excerpt {
                        // The line without its indentation, so it fits the narrow column.
                        <pre class="editor__excerpt" aria-hidden="true">{ crate::exercise::excerpt(&line_text, caret, true) }</pre>
                    }
                    <p class="verdict__detail">
                        { t!("check-no-seed") }{ " " }
                        <button type="button" class="link-button" data-testid="goto-error" onclick={goto}>
                            { t!("check-goto", line = line.to_string(), col = col.to_string()) }
                        </button>
                    </p>
                </div>
            }
        }
        Some(Verdict::LessonError(message)) => html! {
            <div class="notice notice--error" role="alert" data-testid="verdict" data-solved="false">
                <p class="notice__title">{ t!("exercise-cannot-run") }</p>
                <pre class="notice__detail">{ message }</pre>
            </div>
        },
    };
    let limit = state
        .verdict
        .as_ref()
        .filter(|_| !state.checking)
        .and_then(stopped_by_limit)
        // Said once: the verdict already names the run the simulator stopped.
        .filter(|m| {
            !matches!(&state.verdict, Some(Verdict::Report { report, .. })
                if report.failed_run.as_ref().is_some_and(|f| f.message == *m))
        })
        .map(|message| {
            html! {
                <p class="verdict verdict--error" role="status" data-testid="stopped-by-limit" data-stopped="limit">
                    { t!("check-limit", message = message.to_string()) }
                </p>
            }
        });
    let stale = (state.stale() && !state.checking).then(|| {
        html! { <p class="muted" data-testid="stale">{ t!("check-stale") }</p> }
    });

    let shown = match &state.verdict {
        Some(Verdict::Report {
            shown: Some(shown), ..
        }) if !state.checking => Some(shown.clone()),
        _ => None,
    };

    html! {
        <article class="exercise" data-testid="exercise" data-lesson={lesson.id.clone()}
            data-solved={if state.solved { "true" } else { "false" }}>
            <header class="lesson__head">
                <p class="lesson__crumbs">
                    <a href={Route::Home.href()}>{ t!("all-lessons") }</a>
                    { " · " }
                    <a href={Route::Lesson(LessonRoute::new(&lesson.id)).href()}>{ t!("exercise-watch") }</a>
                </p>
                <h2 class="lesson__title">
                    if !crate::present::title_says(title, &t!("lesson-exercise-chip")) {
                        <span class="chip chip--exercise">{ t!("lesson-exercise-chip") }</span>{ " " }
                    }
                    { title }
                    if state.solved {
                        { " " }<span class="chip chip--solved" data-testid="solved-badge"
                            data-before={state.solved_before().to_string()}>
                            { if state.solved_before() { t!("exercise-solved-before") } else { t!("card-solved") } }
                        </span>
                    }
                </h2>
                <super::Untranslated lesson_id={lesson.id.clone()} />
                <p class="exercise__goal" data-testid="goal-text"><strong>{ t!("exercise-goal") }{ " " }</strong>{ inline_html(goal_html) }</p>
            </header>
            <>{ for notice }</>
            <div class="exercise__grid">
                <div class="exercise__main">
                    <ExerciseNarrative state={Shared(Rc::new((*state).clone()))} dispatcher={state.dispatcher()} />
                </div>
                <aside class="exercise__side" aria-label={t!("exercise-side")}>
                    <section class="panel">
                        <h3 class="panel__title">{ t!("exercise-goals") }
                            <span class="panel__note">{ t!("facilitator-seeds", seeds = exercise.seeds.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")) }</span>
                        </h3>
                        <ul class="goals" data-testid="goals">{ for goals }</ul>
                        <div class="exercise__actions">
                            // aria-disabled, not disabled, while it checks: a disabled
                            // button would drop the focus it was pressed with.
                            <button type="button" class="button button--primary" data-testid="check-button" aria-keyshortcuts="Control+Enter Meta+Enter"
                                ref={check_ref} aria-disabled={if state.checking { "true" } else { "false" }}
                                onclick={if state.checking { Callback::noop() } else { send(ExerciseAction::Check) }}>{ t!("check-button") }</button>
                            <>{ for hint_button }</>
                            <button type="button" class="button" data-testid="reset-progress" onclick={send(ExerciseAction::Reset)}
                                title={t!("reset-progress-title")}>{ t!("reset-progress") }</button>
                        </div>
                        if state.before_reset.is_some() {
                            <div class="notice" role="status" data-testid="reset-notice">
                                <p class="notice__title">{ t!("reset-done") }</p>
                                <button type="button" class="link-button" data-testid="undo-reset"
                                    onclick={send(ExerciseAction::UndoReset)}>{ t!("reset-undo") }</button>
                            </div>
                        }
                        { verdict }
                        <>{ for limit }</>
                        <>{ for stale }</>
                        <>{ for hint_list }</>
                    </section>
                </aside>
            </div>
            if let Some(shown) = shown {
                <ShownRunPanel lesson={lesson.clone()} {shown} />
            }
        </article>
    }
}

/// While Check runs, Esc cancels it, wherever the focus is. Once Cancel shows, a Check
/// button that still has the focus (it can do nothing meanwhile) hands it to Cancel,
/// which was three Tabs away.
#[hook]
fn use_cancel_keys(state: &UseReducerHandle<ExerciseState>, cancel_shown: bool) {
    let dispatcher = state.dispatcher();
    crate::hooks::use_escape_cancels(
        state.checking,
        Rc::new(move || dispatcher.dispatch(ExerciseAction::Cancel)),
    );
    use_effect_with(cancel_shown, |&shown| {
        let on_check = (gloo::utils::document().active_element())
            .and_then(|el| el.get_attribute("data-testid"))
            .is_some_and(|id| id == "check-button" || id.starts_with("editor-check-"));
        if shown && on_check {
            crate::hooks::focus_on("[data-testid=cancel-check]");
        }
    });
}

/// What a switch of language carries to the page it builds anew (`<main>` is keyed by
/// the language): whether Check had answered for the SQL as it is, so it runs again
/// and answers in the new language (the same SQL and seeds give the same verdict). The
/// SQL and the hints shown are in the saved progress.
struct Carried {
    id: String,
    lang: i18n::Lang,
    recheck: bool,
}

#[hook]
fn use_carried_over(state: &UseReducerHandle<ExerciseState>) {
    let last = use_mut_ref(|| None::<Carried>);
    // A Check cancelled, running or about SQL edited since is not run again.
    let answered = matches!(
        state.verdict,
        Some(Verdict::Report { .. } | Verdict::EditError { .. } | Verdict::LessonError(_))
    );
    *last.borrow_mut() = Some(Carried {
        id: state.lesson.id.clone(),
        lang: i18n::lang(),
        recheck: answered && !state.checking && !state.stale(),
    });
    let state = state.clone();
    use_effect_with((), move |_| {
        let carried = CARRIED.with(|c| c.borrow_mut().take());
        if let Some(c) = carried.filter(|c| c.id == state.lesson.id && c.lang != i18n::lang()) {
            if c.recheck {
                state.dispatch(ExerciseAction::Check);
            }
        }
        move || CARRIED.with(|c| *c.borrow_mut() = last.borrow_mut().take())
    });
}

thread_local! {
    static CARRIED: RefCell<Option<Carried>> = const { RefCell::new(None) };
    /// Set by the Check under an editor (one column, the goals below the whole text):
    /// its answer is brought into sight when it comes (`show_answer`).
    static CHECKED_HERE: Cell<bool> = const { Cell::new(false) };
}

/// After a Check from under an editor: an error in the SQL shows under its editor,
/// next to that button, and stays where it is when in sight; any other answer is the
/// verdict under the goals, further down, brought up with the goals above it and the
/// focus on the goals' Check (the one pressed would be out of sight).
fn show_answer() {
    use crate::hooks::{find, focus_on, out_of_sight, window_height};
    let answer = match find(".editor__error-slot > *") {
        Some(error) => Some(error),
        None => {
            focus_on("[data-testid=check-button]");
            find(".exercise__side [data-testid=verdict]")
        }
    };
    if let Some(answer) = answer.filter(out_of_sight) {
        // Its end at the window's foot (what leads to it above), or its start at the
        // top when it is taller than the window.
        answer.scroll_into_view_with_bool(
            answer.get_bounding_client_rect().height() > window_height(),
        );
    }
}

/// "seed 8 (2 of 5), 120 000 engine steps, 3.2 s of virtual time".
fn check_progress_text(p: &CheckProgress, seeds: &[u64]) -> String {
    // Every seed has run (or one the simulator stopped ended Check): what runs now is
    // the run the page shows after Check.
    if p.seeds > 0 && p.seeds_done >= p.seeds {
        return t!(
            "check-progress-showing",
            seeds = p.seeds,
            steps = p.steps,
            time = ms_label(p.now_us)
        );
    }
    // The seed as the goals name it, and its place in the list.
    let number = (p.seeds_done + 1).min(p.seeds);
    let seed = number
        .checked_sub(1)
        .and_then(|k| seeds.get(k))
        .map_or(number as u64, |&s| s);
    t!(
        "check-progress",
        seed = seed,
        number = number,
        seeds = p.seeds,
        steps = p.steps,
        time = ms_label(p.now_us)
    )
}

/// Runs Check's seeds in the worker (`offload.rs`), so the page answers input, a long
/// Check shows its progress and a Cancel button, and a loop that never ends is stopped
/// by terminating the worker; then builds the run to show on the page, in slices
/// (`sliced.rs`: the run model holds engine snapshots, costly to send), from the same
/// SQL and the seed the report names. Hands the verdict to the reducer. The effect's
/// cleanup (Cancel, a newer request, leaving) drops whichever part is running.
#[hook]
fn use_checker(state: &UseReducerHandle<ExerciseState>) {
    let wanted = state.checking.then_some(state.request);
    let lesson = state.lesson.clone();
    let edits = state.edits();
    let dispatcher = state.dispatcher();
    // Check is one click away: the worker loads now, not after the click.
    use_effect_with((), |_| offload::warm());
    use_effect_with(wanted, move |wanted| {
        let running: Rc<RefCell<Checking>> = Rc::new(RefCell::new(Checking::Idle));
        if let Some(request) = *wanted {
            let measure = Rc::new(RefCell::new(Some(Measure::start(MEASURE_CHECK))));
            let done = {
                let (dispatcher, measure) = (dispatcher.clone(), measure.clone());
                move |verdict: Verdict| {
                    if let Some(measure) = measure.borrow_mut().take() {
                        measure.end();
                    }
                    dispatcher.dispatch(ExerciseAction::Checked { request, verdict });
                }
            };
            let progress = {
                let dispatcher = dispatcher.clone();
                move |progress: CheckProgress| {
                    dispatcher.dispatch(ExerciseAction::CheckProgress { request, progress });
                }
            };
            let request = Request::Check {
                lesson: lesson.id.clone(),
                edits: edits.clone(),
            };
            let on_reply = {
                let running = Rc::downgrade(&running);
                let lesson = lesson.clone();
                move |reply: Reply| match reply {
                    Reply::Checking(p) => progress(p),
                    Reply::Checked(Ok((report, steps))) => {
                        match Checker::showing(&lesson, &edits, report, steps) {
                            Err(verdict) => done(verdict),
                            Ok(checker) => {
                                let sliced = run_sliced(checker, progress.clone(), done.clone());
                                if let (Some(running), Some(sliced)) = (running.upgrade(), sliced) {
                                    *running.borrow_mut() = Checking::Run(sliced);
                                }
                            }
                        }
                    }
                    Reply::Checked(Err(verdict)) => done(verdict),
                    Reply::Failed(message) => done(Verdict::LessonError(message)),
                    _ => {}
                }
            };
            *running.borrow_mut() = Checking::Seeds(offload(&request, on_reply));
        }
        move || drop(running.take())
    });
}

/// Whether the check `running` (its request number) has run for
/// [`crate::sliced::PROGRESS_AFTER_MS`]: from then on the page offers Cancel.
#[hook]
fn use_slow_check(running: Option<u32>) -> bool {
    let slow = use_state(|| false);
    {
        let slow = slow.clone();
        use_effect_with(running, move |running| {
            slow.set(false);
            let timer = running.map(|_| {
                let slow = slow.clone();
                let after = crate::sliced::PROGRESS_AFTER_MS as u32;
                gloo::timers::callback::Timeout::new(after, move || slow.set(true))
            });
            move || drop(timer)
        });
    }
    *slow
}

/// The part of Check that is running: the seeds in the worker, then the run to show.
/// Each is held only to be dropped, which cancels it.
#[derive(Default)]
#[allow(dead_code)]
enum Checking {
    #[default]
    Idle,
    Seeds(Offloaded),
    Run(Sliced),
}

/// Saves progress whenever it changes (and removes it when there is nothing to keep).
#[hook]
fn use_saved_progress(state: &UseReducerHandle<ExerciseState>) {
    let id = state.lesson.id.clone();
    use_effect_with(state.progress(), move |progress| {
        progress::save(&id, progress);
    });
}

#[derive(Properties, PartialEq)]
struct ExerciseNarrativeProps {
    state: Shared<ExerciseState>,
    dispatcher: UseReducerDispatcher<ExerciseState>,
}

/// The lesson's narrative, editable blocks as labelled text areas, the others as code.
#[function_component]
fn ExerciseNarrative(props: &ExerciseNarrativeProps) -> Html {
    let state = &props.state;
    let lesson = state.lesson.clone();
    // The narrative in the page's language: a translation's `sql` blocks are the
    // original's, in the same order, so the editable ones fall in the same places.
    let lang = crate::i18n::lang();
    let rendered = use_memo((lesson, lang), |(lesson, lang)| {
        let applied = lesson.apply(&lesson.settings_default()).ok();
        let narrative = catalog()
            .get_in(&lesson.id, lang.as_str())
            .map(|(e, translated)| (parts(&e.narrative_html), translated));
        (narrative.unwrap_or_else(|| (Vec::new(), true)), applied)
    });
    let ((parts, translated), applied) = &*rendered;
    let edit_error = match &state.verdict {
        Some(Verdict::EditError {
            block,
            line,
            col,
            message,
        }) if !state.stale() => Some((block.clone(), *line, *col, message.clone())),
        _ => None,
    };
    let items = parts.iter().map(|part| match part {
        Part::Html(html) => Html::from_html_unchecked(AttrValue::from(
            crate::i18n::localize_links(html).into_owned(),
        )),
        Part::Block(index) => {
            if let Some(block) = state.blocks.iter().find(|b| b.index == *index) {
                let error = edit_error.clone().filter(|e| e.0 == block.id);
                let role = state
                    .lesson
                    .blocks
                    .get(block.index)
                    .map(|b| role_label(&b.role))
                    .unwrap_or_default();
                return html! {
                    <Editor key={block.id.clone()} block={block.clone()} role={role} {error}
                        checking={state.checking} dispatcher={props.dispatcher.clone()} />
                };
            }
            let Some(block) = applied
                .as_ref()
                .and_then(|a| a.blocks.iter().find(|b| b.block == *index))
            else {
                return html! {};
            };
            html! {
                <figure class="block" data-block={index.to_string()}>
                    <figcaption class="block__label">{ role_label(&block.role) }</figcaption>
                    <CodeListing
                        text={AttrValue::from(block.text.clone())}
                        toggled={block.toggled.clone()}
                        statements={Vec::new()}
                        sessions={Vec::new()}
                        fresh={Vec::new()}
                        flash={0}
                    />
                </figure>
            }
        }
    });
    // An untranslated exercise's text is English: a screen reader reads it so.
    html! { <div class="narrative__body prose" data-testid="narrative" lang={(!*translated).then_some("en")}>{ for items }</div> }
}

/// A sentence or two of an author's Markdown (`code`, *emphasis*, links), rendered at
/// build time, as inline HTML. The lesson crate escapes raw HTML, so it is safe to insert.
pub(super) fn inline_html(html: &str) -> Html {
    let trimmed = html.trim();
    let inner = match trimmed
        .strip_prefix("<p>")
        .and_then(|t| t.strip_suffix("</p>"))
    {
        Some(inner) if !inner.contains("<p>") => inner,
        _ => trimmed,
    };
    Html::from_html_unchecked(AttrValue::from(
        crate::i18n::localize_links(inner).into_owned(),
    ))
}

/// The caption of a code block: what it is and when it runs.
pub(crate) fn role_label(role: &BlockRole) -> String {
    match role {
        BlockRole::Setup => t!("block-setup"),
        BlockRole::Session { name, start_us } => t!(
            "narrative-session",
            name = name.to_string(),
            time = ms_label(*start_us)
        ),
        BlockRole::Show => t!("block-show"),
    }
}

#[derive(Properties, PartialEq)]
struct EditorProps {
    block: crate::exercise::EditableBlock,
    role: AttrValue,
    /// The error Check found in this block: (block, line, col, message).
    error: Option<(String, u32, u32, String)>,
    /// Check is running (the button under the editor waits, as the panel's does).
    checking: bool,
    dispatcher: UseReducerDispatcher<ExerciseState>,
}

/// A labelled, monospace text area for one editable block, with line numbers beside it
/// (the error's line marked), Tab and Shift+Tab indenting the selected lines, and the
/// error (if Check found one) as `line:col: message` with the line and a caret.
///
/// Tab indents, so it cannot also leave the field: Escape, then Tab, moves on (the hint
/// under the field says so), and so does Shift+Tab after Escape.
#[function_component]
fn Editor(props: &EditorProps) -> Html {
    let block = &props.block;
    let gutter = use_node_ref();
    // Escape was the last key: the next Tab leaves the editor.
    let escaped = use_mut_ref(|| false);
    let id = editor_id(&block.id);
    let oninput = {
        let (dispatcher, name) = (props.dispatcher.clone(), block.id.clone());
        Callback::from(move |e: InputEvent| {
            if let Some(area) = e.target_dyn_into::<HtmlTextAreaElement>() {
                dispatcher.dispatch(ExerciseAction::Edit {
                    block: name.clone(),
                    text: area.value(),
                });
            }
        })
    };
    let onkeydown = {
        let (dispatcher, name, escaped) =
            (props.dispatcher.clone(), block.id.clone(), escaped.clone());
        Callback::from(move |e: KeyboardEvent| {
            // Ctrl+Enter (⌘+Enter) checks without leaving the text.
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                dispatcher.dispatch(ExerciseAction::Check);
                return;
            }
            let was_escaped = std::mem::replace(&mut *escaped.borrow_mut(), e.key() == "Escape");
            if e.key() != "Tab" || was_escaped || e.ctrl_key() || e.alt_key() || e.meta_key() {
                return;
            }
            let Some(area) = e.target_dyn_into::<HtmlTextAreaElement>() else {
                return;
            };
            e.prevent_default();
            let text = area.value();
            let start = area.selection_start().ok().flatten().unwrap_or(0);
            let end = area.selection_end().ok().flatten().unwrap_or(start);
            let edited = if e.shift_key() {
                editing::outdent(&text, start, end)
            } else {
                editing::indent(&text, start, end)
            };
            if edited.text != text && !insert_text(&area, &text, &edited.text) {
                area.set_value(&edited.text);
                dispatcher.dispatch(ExerciseAction::Edit {
                    block: name.clone(),
                    text: edited.text,
                });
            }
            let _ = area.set_selection_range(edited.start, edited.end);
        })
    };
    let onfocus = {
        let escaped = escaped.clone();
        Callback::from(move |_: FocusEvent| *escaped.borrow_mut() = false)
    };
    // The numbers scroll with the text when it is longer than the field.
    let onscroll = {
        let gutter = gutter.clone();
        Callback::from(move |e: Event| {
            if let (Some(area), Some(gutter)) = (
                e.target_dyn_into::<HtmlTextAreaElement>(),
                gutter.cast::<web_sys::HtmlElement>(),
            ) {
                gutter.set_scroll_top(area.scroll_top());
            }
        })
    };
    let check_here = {
        let (dispatcher, checking) = (props.dispatcher.clone(), props.checking);
        Callback::from(move |_: MouseEvent| {
            if !checking {
                CHECKED_HERE.with(|f| f.set(true));
                dispatcher.dispatch(ExerciseAction::Check);
            }
        })
    };
    let lines = block.text.split('\n').count();
    let rows = (lines + 1).clamp(4, 40);
    let changed = block.text != block.starting;
    let error_id = format!("{id}-error");
    let hint_id = format!("{id}-hint");
    let error_line_no = props.error.as_ref().map(|e| e.1 as usize);
    let error_html = props.error.as_ref().map(|(name, line, col, message)| {
        let excerpt = error_line(&block.text, *line, *col);
        html! {
            // Not an alert: the editor names it (aria-describedby), and Check's verdict,
            // an alert, says it once when it is found.
            <div class="editor__error" id={error_id.clone()} data-testid="sql-error"
                data-line={line.to_string()} data-col={col.to_string()}>
                <p><strong>{ format!("{name}:{line}:{col}") }</strong>{ ": " }{ edit_message(message) }</p>
                if let Some((text, caret)) = excerpt {
                    <pre class="editor__excerpt" aria-hidden="true">{ crate::exercise::excerpt(&text, caret, false) }</pre>
                }
            </div>
        }
    });
    let described = match &props.error {
        Some(_) => format!("{hint_id} {error_id}"),
        None => hint_id.clone(),
    };
    html! {
        <figure class="block block--editable" data-block={block.index.to_string()} data-editable={block.id.clone()}>
            <label class="editor__label" for={id.clone()}>
                { t!("editor-label") }{ " " }<code>{ &block.id }</code>{ format!(" ({})", props.role) }
                if changed { <span class="editor__changed">{ " · " }{ t!("editor-changed") }</span> }
            </label>
            <div class="editor__frame">
                <div ref={gutter} class="editor__gutter" aria-hidden="true" data-testid="line-numbers">
                    { for (1..=lines).map(|n| {
                        let error = error_line_no == Some(n);
                        html! {
                            <span class={classes!("editor__line-number", error.then_some("editor__line-number--error"))}
                                data-testid={error.then_some("error-marker")} data-line={n.to_string()}>
                                { n }
                            </span>
                        }
                    }) }
                </div>
                <textarea
                    {id}
                    class="editor"
                    data-testid={format!("editor-{}", block.id)}
                    spellcheck="false"
                    autocomplete="off"
                    autocapitalize="off"
                    wrap="off"
                    rows={rows.to_string()}
                    aria-invalid={if props.error.is_some() { "true" } else { "false" }}
                    aria-describedby={described}
                    value={block.text.clone()}
                    {oninput}
                    {onkeydown}
                    {onfocus}
                    {onscroll}
                />
            </div>
            // In one column (a phone, a narrow window) the goals and Check come after
            // the whole text: this Check runs from here and brings them into view.
            <p class="editor__check">
                <button type="button" class="button button--primary" data-testid={format!("editor-check-{}", block.id)}
                    aria-disabled={if props.checking { "true" } else { "false" }} onclick={check_here}>
                    { t!("check-button") }
                </button>
            </p>
            <p class="editor__hint" id={hint_id}>
                <kbd>{ "Tab" }</kbd>{ t!("editor-indents") }<kbd>{ "Shift" }</kbd>{ "+" }<kbd>{ "Tab" }</kbd>{ t!("editor-outdents") }
                <kbd>{ "Esc" }</kbd>{ t!("editor-then") }<kbd>{ "Tab" }</kbd>{ t!("editor-moves-on") }
                { " · " }<kbd>{ "Ctrl" }</kbd>{ "+" }<kbd>{ "Enter" }</kbd>{ t!("editor-checks") }
            </p>
            // A fixed container: the error's arrival then leaves the text area in place
            // (and its focus and caret: Ctrl+Enter checks from inside it).
            <div class="editor__error-slot">{ for error_html }</div>
        </figure>
    }
}

/// An error in the learner's SQL as shown, in the learner's language: an empty block,
/// and a parse error's frame (`found ..., expected one of: ...`) reworded; the server's
/// own error texts stay as the server words them.
fn edit_message(message: &str) -> String {
    if message == lesson::EMPTY_BLOCK {
        t!("check-empty-block")
    } else {
        crate::i18n::parse_error(message)
    }
}

/// Replaces what changed between `old` and `new` in `area` with the browser's own
/// editing command, so the edit joins the undo history and fires `input` (which saves
/// it). `false` when the browser has no such command (the caller sets the value).
fn insert_text(area: &HtmlTextAreaElement, old: &str, new: &str) -> bool {
    let (from, to, text) = editing::replacement(old, new);
    if area.set_selection_range(from, to).is_err() {
        return false;
    }
    let document = gloo::utils::document();
    let Ok(exec) = js_sys::Reflect::get(&document, &"execCommand".into()) else {
        return false;
    };
    let Ok(exec) = exec.dyn_into::<js_sys::Function>() else {
        return false;
    };
    // Only deleting (an outdent of one line) is the `delete` command's job.
    let done = if text.is_empty() {
        exec.call3(&document, &"delete".into(), &false.into(), &JsValue::NULL)
    } else {
        exec.call3(&document, &"insertText".into(), &false.into(), &text.into())
    };
    done.is_ok_and(|v| v.is_truthy()) && area.value() == new
}

/// The element id of the editor of block `block`.
fn editor_id(block: &str) -> String {
    format!("editor-{block}")
}

/// Focuses the editor of `block` with the caret at `line:col` (1-based, characters) of
/// `text` (focusing scrolls it into view): "Go to the error".
fn place_caret(block: &str, text: &str, line: u32, col: u32) {
    let area = gloo::utils::document()
        .get_element_by_id(&editor_id(block))
        .and_then(|el| el.dyn_into::<HtmlTextAreaElement>().ok());
    if let Some(area) = area {
        let at = editing::caret_at(text, line, col);
        let _ = area.focus();
        let _ = area.set_selection_range(at, at);
    }
}

#[derive(Properties, PartialEq)]
struct ShownRunProps {
    lesson: Shared<Lesson>,
    shown: ShownRun,
}

/// The run Check shows: where the first failing goal failed (or a run of the solution),
/// in the player's panels with its own playhead.
#[function_component]
fn ShownRunPanel(props: &ShownRunProps) -> Html {
    let shown = &props.shown;
    let title = match &shown.failed_goal {
        Some(goal) => {
            let goal = crate::catalog::catalog().check_name_in(
                &props.lesson.id,
                goal,
                crate::i18n::lang().as_str(),
            );
            t!("shown-failed", goal = goal, seed = shown.seed.to_string())
        }
        None => t!("shown-solution", seed = shown.seed.to_string()),
    };
    html! {
        <section class="exercise__run" aria-label={t!("shown-label")} data-testid="failing-run"
            data-seed={shown.seed.to_string()} data-failed={shown.failed_goal.is_some().to_string()}>
            <h3 class="exercise__run-title">{ title }</h3>
            { match &shown.run {
                Ok(run) => html! {
                    <RunPlayer key={format!("{:p}", Rc::as_ptr(&run.0))} lesson={props.lesson.clone()} run={run.clone()} />
                },
                Err(error) => html! {
                    <div class="notice notice--error" role="alert">
                        <p class="notice__title">{ t!("shown-error") }</p>
                        <pre class="notice__detail">{ error }</pre>
                    </div>
                },
            } }
        </section>
    }
}

/// A player for one finished run: the lesson page's panels with a playhead of its own.
struct Mini(Player);

impl Reducible for Mini {
    type Action = PlayerAction;

    fn reduce(self: Rc<Self>, action: PlayerAction) -> Rc<Self> {
        let mut player = self.0.clone();
        player.update(action);
        if player == self.0 {
            self
        } else {
            Rc::new(Mini(player))
        }
    }
}

#[derive(Properties, PartialEq)]
struct RunPlayerProps {
    lesson: Shared<Lesson>,
    run: Shared<RunModel>,
}

#[function_component]
fn RunPlayer(props: &RunPlayerProps) -> Html {
    let player = {
        let (lesson, run) = (props.lesson.clone(), props.run.clone());
        use_reducer(move || {
            let mut route = LessonRoute::new(&lesson.id);
            route.seed = Some(run.key.seed);
            let mut player = Player::new(Rc::clone(&lesson.0), &route);
            player.update(PlayerAction::RunReady(run));
            Mini(player)
        })
    };
    let dispatch = {
        let dispatcher = player.dispatcher();
        Callback::from(move |action: PlayerAction| dispatcher.dispatch(action))
    };
    let reduced = use_reduced_motion();
    let p = &player.0;
    let run = props.run.clone();
    let head = p.head;
    let step = run.step_of(head.events);
    let view = use_state_view(Some(run.clone()), step);
    use_playback(p.playing, p.speed, reduced, dispatch.clone());
    use_player_keys(true, dispatch.clone());
    // Rows with anomalies so far: they change only when the playhead passes one.
    let passed = run.anomalies.partition_point(|a| a.event < head.events);
    let highlighted = use_memo((run.clone(), passed), |(run, passed)| {
        run.anomaly_rows(*passed)
    });

    let panels = view.map(|(view, current)| {
        let view = Shared(view);
        let marks = Rc::new(StepMarks::of(&run.trace[run.marked_events(head.events)]));
        let statements = Rc::new(statements(&run, &view, head.events));
        let instant = run.instant_ahead(head.events);
        html! {
            <>
                <WhyPanel run={run.clone()} events={head.events} view={Some(view.clone())} open={p.why} />
                <SessionCode run={run.clone()} view={view.clone()} {statements} fresh={Vec::<String>::new()} flash={0} />
                <div class={classes!("player__pair", (!current).then_some("player__pair--catching-up"))}>
                    <Tables view={view.clone()} marks={marks.clone()} sessions={run.sessions.clone()} dialect={run.applied.scenario.dialect}
                        highlighted={highlighted.clone()} {instant} />
                    <Waits view={view} {marks} sessions={run.sessions.clone()} dialect={run.applied.scenario.dialect} {instant} />
                </div>
            </>
        }
    });
    html! {
        <div class="player" data-testid="player" data-pending="false"
            data-settings={format!("seed={}", run.key.seed)}>
            <Transport head={head} events={run.events()} end_us={run.end_us()} playing={p.playing}
                speed={p.speed} dispatch={dispatch.clone()} />
            <Narration run={run.clone()} head={head} playing={p.playing} />
            <Lanes run={run.clone()} t_us={head.t_us} {reduced} dispatch={dispatch.clone()}>
                <AnomalyNav run={run.clone()} events={head.events} why_open={p.why} dispatch={dispatch.clone()} />
            </Lanes>
            <>{ for panels }</>
            <Outcome summary={run.summary.clone()} previous={None} exercise=true />
            <EventLog run={run.clone()} events={head.events} {dispatch} />
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After the last seed, Check builds the run it shows: the label says so rather than
    /// stay on the last seed while virtual time starts over.
    #[test]
    fn progress_names_the_run_to_show_after_the_seeds() {
        let at = |seeds_done| CheckProgress {
            seeds_done,
            seeds: 5,
            steps: 2,
            now_us: 1_500,
        };
        assert_eq!(
            check_progress_text(&at(4), &[7, 8, 9, 10, 11]),
            "seed 11 (5 of 5), 2 engine steps, 1.5 ms of virtual time"
        );
        assert_eq!(
            check_progress_text(&at(5), &[7, 8, 9, 10, 11]),
            "the seeds are checked; now the run to show: 2 engine steps, 1.5 ms of virtual time"
        );
    }
}
