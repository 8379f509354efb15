//! The lesson page: title, toggles, the player's panels, and the narrative beside them.

use std::rc::Rc;

use engine::StateView;
use yew::prelude::*;

use super::anomalies::AnomalyNav;
use super::code::{statements, SessionCode};
use super::lanes::Lanes;
use super::log::EventLog;
use super::narrative::Narrative;
use super::outcome::Outcome;
use super::tables::Tables;
use super::transport::{Cancelled, Narration, Simulating, Toggles, Transport};
use super::waits::Waits;
use super::why::WhyPanel;
use crate::player::{Player, PlayerAction, Shared};
use crate::present::{recent_changes, StepMarks};
use crate::route::Route;

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
}

#[function_component]
pub fn LessonPage(props: &LessonPageProps) -> Html {
    let player = &props.player;
    let lesson = &player.lesson;
    let pending = player.pending();
    let exercise = lesson.kind == lesson::Kind::Exercise;
    let settings_text = |s: &lesson::Settings| {
        s.iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };

    let warnings = (!player.warnings.is_empty()).then(|| {
        html! {
            <div class="notice notice--warning" role="status" data-testid="url-warnings">
                <p class="notice__title">{ "This link could not be followed exactly" }</p>
                <ul>{ for player.warnings.iter().map(|w| html! { <li>{ w }</li> }) }</ul>
            </div>
        }
    });

    let statements = Rc::new(match (&player.run, &props.view) {
        (Some(run), Some(view)) => statements(run, view, player.head.events),
        _ => Vec::new(),
    });
    let body = match (&player.run, &player.error) {
        _ if player.cancelled.is_some() => html! {
            <Cancelled progress={player.cancelled.unwrap_or_default()} dispatch={props.dispatch.clone()} />
        },
        (_, Some(error)) => html! {
            <div class="notice notice--error" role="alert" data-testid="run-error">
                <p class="notice__title">{ "This setting cannot be simulated" }</p>
                <pre class="notice__detail">{ error }</pre>
                <p>{ "Switch a toggle back to see a run." }</p>
            </div>
        },
        (None, None) => html! {
            <Simulating progress={player.progress} over={false} dispatch={props.dispatch.clone()} />
        },
        (Some(run), None) => {
            let head = player.head;
            let marks = Rc::new(StepMarks::of(&run.trace[run.marked_events(head.events)]));
            let recent = Rc::new(recent_changes(&run.trace[..head.events], 3, 5000));
            let view = props.view.clone();
            let statements = statements.clone();
            let highlight = Rc::new(run.highlighted_rows(head.events));
            html! {
                <>
                    <Transport
                        head={head}
                        events={run.events()}
                        end_us={run.end_us()}
                        playing={player.playing}
                        speed={player.speed}
                        dispatch={props.dispatch.clone()}
                    />
                    <AnomalyNav run={run.clone()} events={head.events} why_open={player.why} dispatch={props.dispatch.clone()} />
                    <WhyPanel run={run.clone()} events={head.events} view={view.clone()} open={player.why} />
                    <Narration run={run.clone()} head={head} playing={player.playing} />
                    <Lanes run={run.clone()} t_us={head.t_us} reduced={props.reduced} dispatch={props.dispatch.clone()} />
                    if let Some(view) = view.clone() {
                        <SessionCode
                            run={run.clone()}
                            view={view.clone()}
                            statements={statements}
                            fresh={player.fresh.clone()}
                            flash={player.flash}
                        />
                        <div class={classes!("player__pair", (!props.view_current).then_some("player__pair--catching-up"))}
                            aria-busy={if props.view_current { "false" } else { "true" }}>
                            <Tables view={view.clone()} marks={marks.clone()} {recent} sessions={run.sessions.clone()} {highlight} />
                            <Waits view={view} marks={marks} sessions={run.sessions.clone()} />
                        </div>
                    }
                    <Outcome
                        summary={run.summary.clone()}
                        previous={player.previous.clone()}
                        {exercise}
                    />
                    <EventLog run={run.clone()} events={head.events} dispatch={props.dispatch.clone()} />
                </>
            }
        }
    };

    let shown = player
        .run
        .as_ref()
        .map(|r| settings_text(&r.key.settings))
        .unwrap_or_default();
    let narrative = player.run.as_ref().map(|run| {
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

    html! {
        <article class="lesson" data-testid="lesson" data-lesson={lesson.id.clone()}
            data-kind={if exercise { "exercise" } else { "lesson" }}>
            <header class="lesson__head">
                <p class="lesson__crumbs"><a href={Route::Home.href()}>{ "← All lessons" }</a></p>
                <h2 class="lesson__title">{ &lesson.title }</h2>
                <p class="lesson__summary">{ &lesson.summary }</p>
                <super::embed::CopyEmbed route={player.route()} title={lesson.title.clone()} />
            </header>
            { for warnings }
            <div class="lesson__grid">
                <section
                    class={classes!("player", pending.then_some("player--stale"))}
                    aria-label="Player"
                    aria-busy={if pending { "true" } else { "false" }}
                    data-testid="player"
                    data-settings={shown}
                    data-pending={if pending { "true" } else { "false" }}
                >
                    <Toggles
                        toggles={lesson.toggles.clone()}
                        settings={player.key.settings.clone()}
                        fresh={player.fresh.clone()}
                        pending={pending}
                        on_toggle={props.on_toggle.clone()}
                    />
                    if pending && player.run.is_some() {
                        <Simulating progress={player.progress} over={true} dispatch={props.dispatch.clone()} />
                    }
                    { body }
                </section>
                <aside class="narrative" aria-label="Lesson text">{ for narrative }</aside>
            </div>
        </article>
    }
}
