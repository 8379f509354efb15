//! The lesson page: title, and the player as a stage that fits one screen. The stage
//! holds the toggles, the transport (pinned), the timeline, each session's current
//! statement, the wait-for graph and the locks held now; the tables, the outcome, the
//! event log and the lesson's text are tabs of a dock beside it (below it on a phone),
//! so none of them scrolls the stage away.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

use engine::StateView;
use yew::prelude::*;

use super::anomalies::AnomalyNav;
use super::code::{statements, SessionCode};
use super::lanes::Lanes;
use super::log::EventLog;
use super::narrative::Narrative;
use super::outcome::Outcome;
use super::predict::{Ask, Verdict};
use super::tables::Tables;
use super::transport::{Cancelled, Narration, SeedControl, Simulating, Toggles, Transport};
use super::waits::Waits;
use super::why::WhyPanel;
use crate::hooks::{use_full_view, use_pinned_height};
use crate::player::{Player, PlayerAction, Shared};
use crate::predict::{self, Answer, Answers};
use crate::present::{recent_changes, StepMarks, TableFilter, RECENT_LOOK_BACK, RECENT_PER_TABLE};
use crate::route::{Route, ScheduleRoute};
use crate::{i18n, t};

#[derive(Properties, PartialEq)]
pub struct LessonPageProps {
    pub player: Player,
    /// The state at the playhead (of the newest run received).
    pub view: Option<Shared<StateView>>,
    /// `false` while the view of an earlier moment is shown (a long replay is on its way).
    pub view_current: bool,
    pub reduced: bool,
    pub dispatch: Callback<PlayerAction>,
    pub on_toggle: Callback<(String, String)>,
    /// Run another seed (a new URL).
    pub on_seed: Callback<u64>,
}

/// The dock's tabs, in order (the names of `tab=`).
const TABS: [&str; 4] = crate::route::DOCK_TABS;

fn tab_label(id: &str) -> String {
    match id {
        "lesson" => t!("tab-lesson"),
        "tables" => t!("tab-tables"),
        "outcome" => t!("tab-outcome"),
        _ => t!("tab-events"),
    }
}

#[function_component]
pub fn LessonPage(props: &LessonPageProps) -> Html {
    let player = &props.player;
    let lesson = &player.lesson;
    let pending = player.pending();
    let exercise = lesson.kind == lesson::Kind::Exercise;
    // The words of the lesson in the page's language (its SQL, toggles and checks are
    // the original's); a lesson not translated yet says so.
    let (shown_lesson, translated) = crate::catalog::catalog()
        .get_in(&lesson.id, i18n::lang().as_str())
        .map(|(entry, translated)| (Rc::clone(&entry.lesson), translated))
        .unwrap_or((Rc::clone(&lesson.0), true));
    let settings_text = |s: &lesson::Settings| {
        s.iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };

    let warnings = (!player.warnings.is_empty()).then(|| {
        html! {
            <div class="notice notice--warning" role="status" data-testid="url-warnings">
                <p class="notice__title">{ t!("url-warnings-title") }</p>
                <ul>{ for player.warnings.iter().map(|w| html! { <li>{ super::with_code(&w.text()) }</li> }) }</ul>
            </div>
        }
    });

    let schedule_note = {
        let mut seeded = player.route();
        seeded.schedule = None;
        schedule_note(player, &Route::Lesson(seeded).href())
    };
    let statements = Rc::new(match (&player.run, &props.view) {
        (Some(run), Some(view)) => statements(run, view, player.head.events),
        _ => Vec::new(),
    });
    // In the player, so a link names it (`tab=`) and a language switch keeps it.
    let tab = player.tab;
    let filter = use_state(TableFilter::default);
    let full = use_full_view(
        player.run.clone(),
        player
            .run
            .as_ref()
            .map_or(0, |run| run.step_of(player.head.events)),
        filter.active(),
    );
    // Rows with anomalies so far, for the tables' highlight and filter: they change
    // only when the playhead passes an anomaly.
    let passed = player.run.as_ref().map_or(0, |run| {
        run.anomalies
            .partition_point(|a| a.event < player.head.events)
    });
    let highlighted: Rc<BTreeSet<(String, String)>> =
        use_memo((player.run.clone(), passed), |(run, passed)| {
            run.as_ref()
                .map(|run| run.anomaly_rows(*passed))
                .unwrap_or_default()
        });
    // Predict, then run: answers are kept per lesson; a question about these settings
    // that is neither answered nor skipped takes the stage's place until it is.
    let answers = use_state(|| (lesson.id.clone(), predict::load(&lesson.id)));
    let current_answers: Answers = if answers.0 == lesson.id {
        answers.1.clone()
    } else {
        predict::load(&lesson.id)
    };
    let predicting = use_state(predict::enabled);
    // Turned off in a question itself, and back on in the Lesson tab.
    let set_predicting = {
        let predicting = predicting.clone();
        Callback::from(move |on: bool| {
            predict::set_enabled(on);
            predicting.set(on);
        })
    };
    let play_when_ready = use_state(|| false);
    {
        let play_when_ready = play_when_ready.clone();
        let dispatch = props.dispatch.clone();
        let ready = player.current().is_some();
        let playing = player.playing;
        // A link to a moment (`t=`, `anomaly=`) stays on it, as Skip does: the learner
        // came for that moment, and Play is a key away.
        let at_link_moment = player.at_link_moment;
        use_effect_with((*play_when_ready, ready), move |&(wanted, ready)| {
            if wanted && ready {
                play_when_ready.set(false);
                if !at_link_moment {
                    dispatch.emit(PlayerAction::Home);
                    if !playing {
                        dispatch.emit(PlayerAction::TogglePlay);
                    }
                }
            }
        });
    }
    // A link to a moment (`t=`, `e=`, `anomaly=`) is shown unasked, as a replayed
    // schedule (Explore's counterexample) is: the learner came for that moment. Its
    // settings stay unasked after the playhead moves on, until "Ask me again"; other
    // settings ask as usual.
    let linked_settings: Rc<RefCell<Option<_>>> = use_mut_ref(|| None);
    let asked_again = use_mut_ref(|| false);
    if player.at_link_moment && !*asked_again.borrow() {
        *linked_settings.borrow_mut() = Some(player.key.settings.clone());
    }
    let answer: Callback<(String, Option<Answer>)> = {
        let (linked_settings, asked_again) = (linked_settings.clone(), asked_again.clone());
        let answers = answers.clone();
        let id = lesson.id.clone();
        let current = current_answers.clone();
        let play_when_ready = play_when_ready.clone();
        Callback::from(move |(name, a): (String, Option<Answer>)| {
            if a.is_none() {
                *asked_again.borrow_mut() = true;
                *linked_settings.borrow_mut() = None;
            }
            let next = current.with(&name, a);
            predict::save(&id, &next);
            answers.set((id.clone(), next));
            if matches!(a, Some(Answer::Choice(_))) {
                play_when_ready.set(true);
            }
        })
    };
    let linked = linked_settings.borrow().as_ref() == Some(&player.key.settings);
    let asking = (*predicting && !exercise && !linked && player.key.schedule.is_none())
        .then(|| predict::asking(&shown_lesson, &player.key.settings, &current_answers))
        .flatten()
        .cloned();
    // Questions in the page's language: a translation keeps their names, conditions
    // and measures, so answers and verdicts are the same.
    let verdicts: Vec<Html> = predict::questions_for(&shown_lesson, &player.key.settings)
        .filter_map(|q| match current_answers.get(&q.name) {
            Some(Answer::Choice(choice)) => Some((q, choice)),
            _ => None,
        })
        .map(|(q, choice)| {
            let judged = player.current().and_then(|run| {
                run.summary
                    .questions
                    .iter()
                    .find(|(name, _)| *name == q.name)
                    .map(|(_, j)| j.clone())
            });
            let name = q.name.clone();
            let on_again = answer.reform(move |()| (name.clone(), None));
            html! {
                <Verdict question={q.clone()} {choice} {judged} route={player.route()} {on_again} />
            }
        })
        .collect();
    // The stage's top is drawn (and may stick to the window's top) while a run shows.
    use_pinned_height(asking.is_none() && player.run.is_some() && player.error.is_none());
    let (stage, dock) = match (&player.run, &player.error) {
        _ if asking.is_some() => {
            let q = asking.clone().expect("matched");
            let name = q.name.clone();
            let on_answer = answer.reform(move |a: Answer| (name.clone(), Some(a)));
            let on_off = set_predicting.reform(|()| false);
            let words_lang = crate::catalog::words_lang(&lesson.id);
            (
                html! { <Ask question={q} {on_answer} {on_off} {words_lang} /> },
                None,
            )
        }
        _ if player.cancelled.is_some() => (
            html! {
                <Cancelled progress={player.cancelled.unwrap_or_default()} dispatch={props.dispatch.clone()} />
            },
            None,
        ),
        (_, Some(error)) => (
            html! {
                <div class="notice notice--error" role="alert" data-testid="run-error">
                    <p class="notice__title">{ t!("run-error-title") }</p>
                    <pre class="notice__detail">{ error }</pre>
                    <p>{ t!("run-error-hint") }</p>
                </div>
            },
            None,
        ),
        (None, None) => (
            html! {
                <Simulating progress={player.progress} over={false} dispatch={props.dispatch.clone()} />
            },
            None,
        ),
        (Some(run), None) => {
            let head = player.head;
            let marks = Rc::new(StepMarks::of(&run.trace[run.marked_events(head.events)]));
            let recent = Rc::new(recent_changes(
                &run.trace[..head.events],
                RECENT_PER_TABLE,
                RECENT_LOOK_BACK,
            ));
            let instant = run.instant_ahead(head.events);
            let view = props.view.clone();
            let statements = statements.clone();
            let busy = if props.view_current { "false" } else { "true" };
            let catching_up = (!props.view_current).then_some("player__pair--catching-up");
            let on_filter = {
                let filter = filter.clone();
                Callback::from(move |f: TableFilter| filter.set(f))
            };
            let stage = html! {
                <>
                    <div class="stage__pinned">
                        <div class="stage__bar">
                            <Transport
                                head={head}
                                events={run.events()}
                                end_us={run.end_us()}
                                playing={player.playing}
                                speed={player.speed}
                                idle={player.idle()}
                                dispatch={props.dispatch.clone()}
                            />
                            // The anomaly buttons sit in the timeline's header, beside its marks.
                        </div>
                        // Cut to its slot, so stepping never moves the lanes.
                        <Narration run={run.clone()} head={head} playing={player.playing} cut=true />
                        <Lanes run={run.clone()} t_us={head.t_us} reduced={props.reduced} dispatch={props.dispatch.clone()}>
                            <AnomalyNav run={run.clone()} events={head.events} why_open={player.why} dispatch={props.dispatch.clone()} />
                        </Lanes>
                    </div>
                    if let Some(view) = view.clone() {
                        <div class={classes!("stage__now", "player__pair", catching_up)} aria-busy={busy}>
                            <SessionCode
                                run={run.clone()}
                                view={view.clone()}
                                statements={statements}
                                fresh={player.fresh.clone()}
                                flash={player.flash}
                                compact={true}
                            />
                            <div class="stage__side">
                                <super::conflict::ConflictNarration run={run.clone()} dispatch={props.dispatch.clone()} />
                                <WhyPanel run={run.clone()} events={head.events} view={Some(view.clone())} open={player.why} />
                                <Waits view={view.clone()} marks={marks.clone()} sessions={run.sessions.clone()} dialect={run.applied.scenario.dialect} {instant} />
                            </div>
                        </div>
                    }
                    <SeedControl seed={player.key.seed} lesson_seed={lesson.seed} on_seed={props.on_seed.clone()} />
                </>
            };
            let tables = view.map(|view| {
                html! {
                    <div class={classes!("player__pair", catching_up)} aria-busy={busy}>
                        <Tables view={view} marks={marks} {recent} sessions={run.sessions.clone()} dialect={run.applied.scenario.dialect}
                            highlighted={highlighted.clone()} filter={(*filter).clone()} {on_filter}
                            full={full.clone()} filterable={true} {instant} />
                    </div>
                }
            });
            let outcome = html! {
                <Outcome
                    summary={run.summary.clone()}
                    previous={player.previous.clone()}
                    {exercise}
                />
            };
            let events = html! {
                <EventLog run={run.clone()} events={head.events} dispatch={props.dispatch.clone()} />
            };
            (stage, Some((tables, outcome, events)))
        }
    };

    let shown = player
        .run
        .as_ref()
        .map(|r| settings_text(&r.key.settings))
        .unwrap_or_default();
    // The lesson's text explains what the run shows: while a question waits for its
    // answer, the tab says so instead of giving the answer away.
    let narrative = player.run.as_ref().map(|run| {
        if asking.is_some() {
            return html! {
                <p class="muted" data-testid="narrative-hidden">{ t!("predict-narrative-hidden") }</p>
            };
        }
        html! {
            <Narrative
                lesson={lesson.clone()}
                run={run.clone()}
                statements={statements.clone()}
                fresh={player.fresh.clone()}
                flash={player.flash}
            />
        }
    });
    let narrative = narrative.map(|n| {
        let switch = (!lesson.questions.is_empty()).then(|| {
            let onchange = set_predicting.reform(|e: Event| {
                e.target_unchecked_into::<web_sys::HtmlInputElement>().checked()
            });
            let label = format!(" {}", t!("predict-switch", count = lesson.questions.len()));
            html! {
                <label class="predict-switch">
                    <input type="checkbox" data-testid="predict-switch" checked={*predicting} {onchange} />
                    { label }
                </label>
            }
        });
        html! { <>{ for switch }{ n }</> }
    });
    let (tables, outcome, events) = match dock {
        Some((t, o, e)) => (t, Some(o), Some(e)),
        // While a question waits, the run's tabs say why they are empty, as the lesson's
        // text does (a tab chosen before the question appeared stays chosen).
        None if asking.is_some() => {
            let hidden = || {
                Some(html! {
                    <p class="muted" data-testid="panel-hidden">{ t!("predict-panel-hidden") }</p>
                })
            };
            (hidden(), hidden(), hidden())
        }
        None => (None, None, None),
    };
    let panels: [Option<Html>; 4] = [narrative, tables, outcome, events];
    let on_tab_key = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: KeyboardEvent| {
            let i = TABS.iter().position(|id| *id == tab).unwrap_or(0);
            let next = match e.key().as_str() {
                "ArrowRight" => (i + 1) % TABS.len(),
                "ArrowLeft" => (i + TABS.len() - 1) % TABS.len(),
                "Home" => 0,
                "End" => TABS.len() - 1,
                _ => return,
            };
            // Handled here: the player's own arrow keys must not step as well.
            e.prevent_default();
            e.stop_propagation();
            dispatch.emit(PlayerAction::ChooseTab(TABS[next]));
            if let Some(el) =
                gloo::utils::document().get_element_by_id(&format!("tab-{}", TABS[next]))
            {
                if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                    let _ = el.focus();
                }
            }
        })
    };
    let dock = html! {
        <aside class="dock" aria-label={t!("dock-label")} data-testid="dock">
            <div class="dock__tabs" role="tablist" aria-label={t!("dock-tabs-label")} onkeydown={on_tab_key}>
                { for TABS.iter().map(|&id| {
                    let label = tab_label(id);
                    let selected = tab == id;
                    let onclick = {
                        let dispatch = props.dispatch.clone();
                        Callback::from(move |_: MouseEvent| dispatch.emit(PlayerAction::ChooseTab(id)))
                    };
                    html! {
                        <button type="button" role="tab" id={format!("tab-{id}")} class="dock__tab"
                            data-testid={format!("tab-{id}")}
                            aria-selected={if selected { "true" } else { "false" }}
                            aria-controls={format!("tabpanel-{id}")}
                            tabindex={if selected { "0" } else { "-1" }}
                            {onclick}>{ label }</button>
                    }
                }) }
            </div>
            { for TABS.iter().zip(panels).map(|(&id, panel)| html! {
                <div role="tabpanel" id={format!("tabpanel-{id}")} class="dock__panel"
                    aria-labelledby={format!("tab-{id}")} tabindex="0" hidden={tab != id}>
                    <>{ for panel }</>
                </div>
            }) }
        </aside>
    };

    // "Compare with this": the run now on the left, the other value on the right.
    let compare_links: Vec<(String, String, String)> = lesson
        .toggles
        .iter()
        .flat_map(|t| t.values.iter().map(move |v| (t, v)))
        .filter(|(t, v)| player.key.settings.get(&t.name) != Some(v.as_str()))
        .filter_map(|(t, v)| {
            let right = lesson.settings_with(
                player
                    .key
                    .settings
                    .iter()
                    .filter(|(n, _)| *n != t.name)
                    .chain([(t.name.as_str(), v.as_str())]),
            );
            let right = right.ok()?;
            let mut route = crate::compare::CompareRoute::of(
                lesson,
                &player.key.settings,
                &right,
                Some(player.key.seed),
            );
            // Both runs shown at the moment the learner is looking at.
            route.time_us = (player.head.t_us > 0).then_some(player.head.t_us);
            Some((t.name.clone(), v.clone(), Route::Compare(route).href()))
        })
        .collect();

    html! {
        <article class="lesson lesson--stage" data-testid="lesson" data-lesson={lesson.id.clone()}
            data-kind={if exercise { "exercise" } else { "lesson" }}>
            <header class="lesson__head">
                <p class="lesson__crumbs">
                    <a href={Route::Home.href()}>{ t!("all-lessons") }</a>
                    { " · " }
                    <a href={Route::Schedule(ScheduleRoute::from(player.route())).href()} data-testid="open-scheduler"
                        title={t!("open-scheduler-title")}>{ t!("open-scheduler") }</a>
                    { " · " }
                    <a href={Route::Matrix(lesson.id.clone()).href()} data-testid="open-matrix"
                        title={t!("open-matrix-title")}>{ t!("open-matrix") }</a>
                    // An exercise shown as a lesson (a shared link): its editor is elsewhere.
                    if exercise {
                        { " · " }
                        <a href={Route::Exercise(lesson.id.clone()).href()} data-testid="open-exercise"
                            title={t!("open-exercise-title")}>{ t!("open-exercise") }</a>
                    }
                </p>
                // An untranslated lesson's own words are English: say so to screen readers.
                <h2 class="lesson__title" lang={(!translated).then_some("en")}>{ &shown_lesson.title }</h2>
                // The title: on a narrow stage the summary is two lines, cut, and whole
                // while focused (so it is focusable) or hovered.
                // While a question waits, the summary (which often states the answer:
                // "one claim reads 9 pages") waits too.
                if asking.is_some() {
                    <p class="lesson__summary muted" data-testid="summary-hidden">{ t!("predict-summary-hidden") }</p>
                } else {
                    <p class="lesson__summary" lang={(!translated).then_some("en")} tabindex="0"
                        title={shown_lesson.summary.clone()}>{ &shown_lesson.summary }</p>
                }
                <super::Untranslated lesson_id={lesson.id.clone()} />
                <super::embed::CopyEmbed route={player.route()} title={shown_lesson.title.clone()} />
            </header>
            <>{ for warnings }</>
            <>{ for schedule_note }</>
            <section
                class={classes!("player", pending.then_some("player--stale"))}
                aria-label={t!("player-label")}
                aria-busy={if pending { "true" } else { "false" }}
                data-testid="player"
                data-settings={shown}
                data-pending={if pending { "true" } else { "false" }}
            >
                <div class="stage" data-testid="stage">
                    <Toggles
                        toggles={toggles_in(lesson, &shown_lesson)}
                        settings={player.key.settings.clone()}
                        fresh={player.fresh.clone()}
                        pending={pending}
                        on_toggle={props.on_toggle.clone()}
                        compare={compare_links}
                        words_lang={crate::catalog::words_lang(&lesson.id)}
                    />
                    <>{ for verdicts }</>
                    if pending && player.run.is_some() && asking.is_none() {
                        <Simulating progress={player.progress} over={true} dispatch={props.dispatch.clone()} />
                    }
                    { stage }
                </div>
                { dock }
            </section>
        </article>
    }
}

/// The toggles with their labels and help in the page's language: a translation's when
/// it names the same toggles and values, else the original's.
pub(crate) fn toggles_in(original: &lesson::Lesson, shown: &lesson::Lesson) -> Vec<lesson::Toggle> {
    let same = |a: &lesson::Toggle, b: &lesson::Toggle| a.name == b.name && a.values == b.values;
    if original.toggles.len() == shown.toggles.len()
        && original
            .toggles
            .iter()
            .zip(&shown.toggles)
            .all(|(a, b)| same(a, b))
    {
        shown.toggles.clone()
    } else {
        original.toggles.clone()
    }
}

/// A replayed schedule (`schedule=`, e.g. Explore's counterexample) is said so, with
/// the way back to the seeded scheduler's run (`back`), on the lesson page and in an
/// embed alike.
pub(crate) fn schedule_note(player: &Player, back: &str) -> Option<Html> {
    let schedule = player.key.schedule.as_ref()?;
    let problem = player.run.as_ref().and_then(|r| r.schedule_problem.clone());
    let untimed = schedule.mode == engine::Mode::Untimed;
    Some(html! {
        <div class={classes!("notice", problem.is_some().then_some("notice--warning"))} role="status" data-testid="schedule-note"
            data-schedule={schedule.to_string()}>
            <p>
                { t!("schedule-note-before") }<code>{ schedule.to_string() }</code>
                { if untimed { t!("schedule-note-untimed") } else { String::new() } }
                // Past a pick that cannot be made the run stops; it never goes on seeded.
                { if problem.is_some() { t!("schedule-note-stopped") } else { t!("schedule-note-after") } }{ " " }
                <a href={back.to_string()}>{ t!("schedule-note-back") }</a>
            </p>
            if let Some(problem) = problem {
                <p data-testid="schedule-problem">{ t!("schedule-problem", problem = crate::problem::ReplayProblem::Schedule(problem).text()) }</p>
            }
        </div>
    })
}
