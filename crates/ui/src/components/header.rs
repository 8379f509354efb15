use yew::prelude::*;

use crate::route::Route;
use crate::state::Theme;

pub const TAGLINE: &str = "Watch database job queues and locks behave, one step at a time.";

#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    pub theme: Theme,
    pub on_toggle_theme: Callback<()>,
    /// A slimmer header for the player, which needs the height.
    #[prop_or_default]
    pub compact: bool,
}

#[function_component]
pub fn Header(props: &HeaderProps) -> Html {
    html! {
        <header class={classes!("site-header", props.compact.then_some("site-header--compact"))}>
            <div class="site-header__titles">
                <h1 class="site-header__name">
                    <a href={Route::Home.href()}>{ "Lockstep" }</a>
                </h1>
                <p class="site-header__tagline">{ TAGLINE }</p>
            </div>
            <ThemeSwitch theme={props.theme} on_toggle={props.on_toggle_theme.clone()} />
        </header>
    }
}

#[derive(Properties, PartialEq)]
pub struct ThemeSwitchProps {
    pub theme: Theme,
    pub on_toggle: Callback<()>,
}

/// A toggle button: its label stays "Dark theme" and `aria-pressed` says whether it is
/// on, which is how screen readers expect a toggle to behave. A `<button>` gives
/// keyboard focus, Enter and Space for free.
#[function_component]
pub fn ThemeSwitch(props: &ThemeSwitchProps) -> Html {
    let dark = props.theme == Theme::Dark;
    let onclick = props.on_toggle.reform(|_: MouseEvent| ());
    html! {
        <button
            type="button"
            class="theme-switch"
            id="theme-switch"
            aria-pressed={if dark { "true" } else { "false" }}
            aria-label="Dark theme"
            title={if dark { "Switch to the light theme" } else { "Switch to the dark theme" }}
            {onclick}
        >
            <span class="theme-switch__icon" aria-hidden="true">{ if dark { "☾" } else { "☀" } }</span>
            <span class="theme-switch__text">{ if dark { "Dark" } else { "Light" } }</span>
        </button>
    }
}
