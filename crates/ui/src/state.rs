//! The app state and its reducer: pure data, no browser access, so it is tested natively.

use std::rc::Rc;

use yew::Reducible;

use crate::route::Route;

/// Light or dark colours; `<html data-theme>` carries it to the CSS.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

impl Theme {
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    pub fn parse(text: &str) -> Option<Theme> {
        match text {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }

    pub fn toggled(self) -> Theme {
        match self {
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Light,
        }
    }
}

/// One entry of the lesson list (filled from the lesson crate in a later issue).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonSummary {
    pub id: String,
    pub title: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    pub route: Route,
    /// What `prefers-color-scheme` says now; followed until the user picks a theme.
    pub system_theme: Theme,
    /// The user's explicit choice, persisted in `localStorage`.
    pub chosen_theme: Option<Theme>,
    pub lessons: Vec<LessonSummary>,
}

impl State {
    /// The theme in effect: the user's choice, else the system's.
    pub fn theme(&self) -> Theme {
        self.chosen_theme.unwrap_or(self.system_theme)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Navigate(Route),
    SystemThemeChanged(Theme),
    /// Switches to the other theme and makes that an explicit choice.
    ToggleTheme,
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::Navigate(route) => next.route = route,
            Action::SystemThemeChanged(theme) => next.system_theme = theme,
            Action::ToggleTheme => next.chosen_theme = Some(self.theme().toggled()),
        }
        if next == *self {
            // Same Rc: yew skips the re-render.
            self
        } else {
            Rc::new(next)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reduce(state: State, actions: impl IntoIterator<Item = Action>) -> State {
        let mut state = Rc::new(state);
        for action in actions {
            state = state.reduce(action);
        }
        Rc::unwrap_or_clone(state)
    }

    #[test]
    fn theme_follows_the_system_until_chosen() {
        let state = reduce(State::default(), [Action::SystemThemeChanged(Theme::Dark)]);
        assert_eq!(state.theme(), Theme::Dark);

        let state = reduce(state, [Action::ToggleTheme]);
        assert_eq!(state.chosen_theme, Some(Theme::Light));
        assert_eq!(state.theme(), Theme::Light);

        // An explicit choice wins over later system changes.
        let state = reduce(
            state,
            [
                Action::SystemThemeChanged(Theme::Light),
                Action::SystemThemeChanged(Theme::Dark),
            ],
        );
        assert_eq!(state.theme(), Theme::Light);
    }

    #[test]
    fn toggle_twice_returns_to_the_start() {
        let state = reduce(State::default(), [Action::ToggleTheme, Action::ToggleTheme]);
        assert_eq!(state.theme(), Theme::Light);
        assert_eq!(state.chosen_theme, Some(Theme::Light));
    }

    #[test]
    fn unchanged_state_keeps_its_rc() {
        let state = Rc::new(State::default());
        let next = state.clone().reduce(Action::Navigate(Route::Home));
        assert!(Rc::ptr_eq(&state, &next));
    }

    #[test]
    fn navigate_sets_the_route() {
        let state = reduce(State::default(), [Action::Navigate(Route::DebugPanic)]);
        assert_eq!(state.route, Route::DebugPanic);
    }

    #[test]
    fn theme_names_round_trip() {
        for theme in [Theme::Light, Theme::Dark] {
            assert_eq!(Theme::parse(theme.as_str()), Some(theme));
        }
        assert_eq!(Theme::parse("blue"), None);
    }
}
