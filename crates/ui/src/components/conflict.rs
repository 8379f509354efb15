//! A replayed counterexample in the player: its narration with the two conflicting steps
//! highlighted and the sentence that says why, and a mark on the lanes for each of those
//! two steps (see [`crate::conflict`]).

use yew::prelude::*;

use crate::conflict::{conflict_steps, ConflictStep};
use crate::exploring::{conflict_text, step_text};
use crate::player::{PlayerAction, Shared};
use crate::present::ms_label;
use crate::run::RunModel;
use crate::t;
use crate::zoom::Window;

fn seek(dispatch: &Callback<PlayerAction>, events: usize) -> Callback<MouseEvent> {
    let dispatch = dispatch.clone();
    Callback::from(move |e: MouseEvent| {
        // The track under a mark would seek by time, landing after the instant.
        e.stop_propagation();
        dispatch.emit(PlayerAction::SeekEvents(events));
    })
}

#[derive(Properties, PartialEq)]
pub struct ConflictMarksProps {
    pub run: Shared<RunModel>,
    pub session: String,
    /// The page's language: the marks' labels quote the steps in it.
    pub lang: crate::i18n::Lang,
    /// The stretch of time the lanes show.
    pub window: Window,
    pub dispatch: Callback<PlayerAction>,
}

/// The conflicting steps of one session, as buttons on its lane track: two at most, so
/// each is a tab stop; clicking one moves the playhead just after it.
#[function_component]
pub fn ConflictMarks(props: &ConflictMarksProps) -> Html {
    let w = props.window;
    let marks = conflict_steps(&props.run)
        .into_iter()
        .filter(|s| s.session == props.session && (w.from_us..=w.to_us).contains(&s.at_us))
        .map(|s: ConflictStep| {
            let left = (w.fraction(s.at_us) * 100.0).clamp(0.0, 100.0);
            let label = t!("conflict-step", step = s.step + 1, line = &s.line);
            let edge = if left < 4.0 {
                Some("conflict-mark--start")
            } else if left > 96.0 {
                Some("conflict-mark--end")
            } else {
                None
            };
            html! {
                <button type="button" class={classes!("conflict-mark", edge)} style={format!("left: {left:.3}%")}
                    data-testid="conflict-step" data-step={s.step.to_string()} data-events={s.events.to_string()}
                    title={t!("conflict-step-at", label = &label, at = ms_label(s.at_us))} aria-label={label}
                    onclick={seek(&props.dispatch, s.events)}>{ "⇄" }</button>
            }
        });
    html! { <>{ for marks }</> }
}

#[derive(Properties, PartialEq)]
pub struct ConflictNarrationProps {
    pub run: Shared<RunModel>,
    pub dispatch: Callback<PlayerAction>,
}

/// The replayed schedule's steps, one line each, the conflicting two highlighted (each
/// seeks there) under the sentence that says why.
#[function_component]
pub fn ConflictNarration(props: &ConflictNarrationProps) -> Html {
    let Some(c) = props.run.explained() else {
        return html! {};
    };
    let Some(conflict) = &c.conflict else {
        return html! {};
    };
    let bounds = &props.run.bounds;
    let lines = c.steps.iter().enumerate().map(|(k, step)| {
        let hot = k == conflict.read || k == conflict.write;
        let events = bounds.get(k + 1).copied().unwrap_or_default();
        html! {
            <li class={classes!("conflict__step", hot.then_some("conflict__step--hot"))}
                data-conflict={hot.to_string()}>
                <button type="button" class="link-button" onclick={seek(&props.dispatch, events)}>
                    { step_text(step) }</button>
            </li>
        }
    });
    html! {
        <details class="panel conflict" data-testid="conflict-narration" open=true>
            <summary class="conflict__summary" data-testid="conflict-summary">{ conflict_text(conflict) }</summary>
            <ol class="conflict__steps">{ for lines }</ol>
        </details>
    }
}
