//! The event log: the trace's one-line events around the playhead (each says who and
//! why), the current one marked; clicking an event moves the playhead there. It shows
//! a fixed window (a few events before the current one, more after), so a run of
//! 30 000 events stays fast and the current event never scrolls out of sight.

use yew::prelude::*;

use crate::player::{PlayerAction, Shared};
use crate::present::{ms_label, session_class};
use crate::run::RunModel;
use crate::t;

#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    pub run: Shared<RunModel>,
    /// Events shown so far; the current event is the last of them.
    pub events: usize,
    pub dispatch: Callback<PlayerAction>,
}

/// Events listed before and after the current one.
const BEFORE: usize = 6;
const AFTER: usize = 12;

#[function_component]
pub fn EventLog(props: &EventLogProps) -> Html {
    let run = &props.run;
    let n = run.events();
    let current = props.events.checked_sub(1);
    let centre = current.unwrap_or(0);
    let from = centre.saturating_sub(BEFORE);
    let to = (from + BEFORE + AFTER + 1).min(n);
    let step = run.step_events(run.step_of(props.events));
    let rows = (from..to).map(|i| {
        let entry = &run.trace[i];
        let session = entry.event.session().and_then(|s| run.session_index(s));
        let is_current = Some(i) == current;
        let onclick = {
            let dispatch = props.dispatch.clone();
            Callback::from(move |_: MouseEvent| dispatch.emit(PlayerAction::SeekEvents(i + 1)))
        };
        html! {
            <li
                key={i}
                class={classes!("log__item", is_current.then_some("log__item--current"), (i >= props.events && step.contains(&i)).then_some("log__item--same-step"), (i >= props.events).then_some("log__item--future"))}
                aria-current={is_current.then_some("step")}
                data-index={i.to_string()}
            >
                <button type="button" class="log__button" {onclick} title={t!("log-seek")}>
                    <span class="log__time">{ ms_label(entry.at_us) }</span>
                    <span class={classes!("log__who", session.map(session_class))} aria-hidden="true"></span>
                    <span class="log__text">{ crate::i18n::event_line(&entry.event) }</span>
                </button>
            </li>
        }
    });
    let seek = |events: usize| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(PlayerAction::SeekEvents(events)))
    };
    html! {
        <section class="panel log" aria-labelledby="log-heading" data-testid="event-log">
            <h3 id="log-heading" class="panel__title">
                { t!("tab-events") }
                <span class="panel__note">{ t!("log-note", count = n) }</span>
            </h3>
            <ol class="log__list">
                // Controls, so a keyboard reaches the events out of the window: each
                // moves the playhead to the nearest of them, and the window follows.
                if from > 0 {
                    <li class="log__more muted">
                        <button type="button" class="link-button" data-testid="log-earlier" title={t!("log-seek")}
                            onclick={seek(from)}>{ t!("log-earlier", count = from) }</button>
                    </li>
                }
                <>{ for rows }</>
                if to < n {
                    <li class="log__more muted">
                        <button type="button" class="link-button" data-testid="log-later" title={t!("log-seek")}
                            onclick={seek(to + 1)}>{ t!("log-later", count = n - to) }</button>
                    </li>
                }
            </ol>
        </section>
    }
}
