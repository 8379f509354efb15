use yew::prelude::*;

use crate::i18n::Lang;
use crate::route::Route;
use crate::state::Theme;
use crate::t;

#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    pub theme: Theme,
    pub on_toggle_theme: Callback<()>,
    pub lang: Lang,
    pub on_lang: Callback<Lang>,
    /// A slimmer header for the player, which needs the height.
    #[prop_or_default]
    pub compact: bool,
}

#[function_component]
pub fn Header(props: &HeaderProps) -> Html {
    // A skip link, first in the tab order and shown when focused: past the logo and the
    // language and theme controls to the page. A button, as `#main` would be a route.
    let skip = Callback::from(|_: MouseEvent| {
        if let Some(main) = gloo::utils::document()
            .get_element_by_id("main")
            .and_then(|m| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(m).ok())
        {
            let _ = main.focus();
        }
    });
    html! {
        <header class={classes!("site-header", props.compact.then_some("site-header--compact"))}>
            <button type="button" class="skip-link" data-testid="skip-link" onclick={skip}>{ t!("skip-to-content") }</button>
            <div class="site-header__titles">
                <h1 class="site-header__name">
                    <a href={Route::Home.href()}>{ "Lockstep" }</a>
                </h1>
                <p class="site-header__tagline">{ t!("tagline") }</p>
            </div>
            <div class="site-header__controls">
                <LangSwitch lang={props.lang} on_change={props.on_lang.clone()} />
                <ThemeSwitch theme={props.theme} on_toggle={props.on_toggle_theme.clone()} />
            </div>
        </header>
    }
}

#[derive(Properties, PartialEq)]
pub struct ThemeSwitchProps {
    pub theme: Theme,
    pub on_toggle: Callback<()>,
}

/// A button that names the theme shown ("☀ Light") and, in its accessible name, what a
/// press does: the name starts with the visible word, so a voice command that says
/// what it sees finds it. A `<button>` gives keyboard focus, Enter and Space for free.
#[function_component]
pub fn ThemeSwitch(props: &ThemeSwitchProps) -> Html {
    let dark = props.theme == Theme::Dark;
    let onclick = props.on_toggle.reform(|_: MouseEvent| ());
    html! {
        <button
            type="button"
            class={classes!("theme-switch", dark.then_some("theme-switch--dark"))}
            id="theme-switch"
            aria-label={if dark { t!("theme-label-dark") } else { t!("theme-label-light") }}
            title={if dark { t!("theme-to-light") } else { t!("theme-to-dark") }}
            {onclick}
        >
            <span class="theme-switch__icon" aria-hidden="true">{ if dark { "☾" } else { "☀" } }</span>
            <span class="theme-switch__text">{ if dark { t!("theme-dark") } else { t!("theme-light") } }</span>
        </button>
    }
}

#[derive(Properties, PartialEq)]
pub struct LangSwitchProps {
    pub lang: Lang,
    pub on_change: Callback<Lang>,
}

thread_local! {
    /// Set by a choice in the switch: the header is rebuilt in the new language (it is
    /// keyed by it), and the new switch takes the focus back, so a keyboard user stays
    /// where they were.
    static REFOCUS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The interface's language: a native `<select>` (keyboard and screen readers know it),
/// each language named in itself, with its `lang` so it is pronounced right.
#[function_component]
pub fn LangSwitch(props: &LangSwitchProps) -> Html {
    let select = use_node_ref();
    {
        let select = select.clone();
        use_effect_with((), move |_| {
            if REFOCUS.with(|r| r.replace(false)) {
                if let Some(el) = select.cast::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        });
    }
    let onchange = props.on_change.reform(|e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        REFOCUS.with(|r| r.set(true));
        Lang::parse(&value).unwrap_or_default()
    });
    html! {
        <label class="lang-switch">
            <span class="visually-hidden">{ t!("language") }</span>
            <select ref={select} data-testid="lang-switch" title={t!("language")} {onchange}>
                { for Lang::ALL.iter().map(|&lang| html! {
                    <option value={lang.as_str()} lang={lang.as_str()} selected={lang == props.lang}>
                        { lang.native_name() }
                    </option>
                }) }
            </select>
        </label>
    }
}
