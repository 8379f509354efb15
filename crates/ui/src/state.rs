//! The app state and its reducer: pure data, no browser access, so it is tested natively.

use std::rc::Rc;

use yew::Reducible;

use crate::catalog::Catalog;
use crate::i18n::Lang;
use crate::player::{Player, PlayerAction};
use crate::problem::LinkProblem;
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

/// One entry of the lesson list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonSummary {
    pub id: String,
    pub title: String,
    pub summary: String,
    /// Scenario IDs the lesson reproduces (Q2, Q3).
    pub covers: Vec<String>,
    /// Toggle labels, for "what can I change here".
    pub toggles: Vec<String>,
    /// A translation of the lesson into the language asked for exists; else the title
    /// and summary are English and the list says so.
    pub translated: bool,
    /// An exercise: its checks are goals the learner reaches by changing the SQL.
    pub exercise: bool,
    /// The database the lesson's SQL is written for; the list groups lessons by it.
    pub dialect: engine::Dialect,
}

impl LessonSummary {
    pub fn list(catalog: &Catalog) -> Vec<LessonSummary> {
        LessonSummary::list_in(catalog, Lang::En)
    }

    /// The list in `lang`: each lesson's translation, or its English text.
    pub fn list_in(catalog: &Catalog, lang: Lang) -> Vec<LessonSummary> {
        catalog
            .entries
            .iter()
            .map(|entry| {
                let (entry, translated) = catalog
                    .get_in(&entry.lesson.id, lang.as_str())
                    .unwrap_or((entry, lang == Lang::En));
                let lesson = &entry.lesson;
                LessonSummary {
                    id: lesson.id.clone(),
                    title: lesson.title.clone(),
                    summary: lesson.summary.clone(),
                    covers: lesson.covers.clone(),
                    toggles: lesson.toggles.iter().map(|t| t.label.clone()).collect(),
                    translated,
                    exercise: lesson.kind == lesson::Kind::Exercise,
                    dialect: lesson.dialect,
                }
            })
            .collect()
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    pub route: Route,
    /// What `prefers-color-scheme` says now; followed until the user picks a theme.
    pub system_theme: Theme,
    /// The user's explicit choice, persisted in `localStorage`.
    pub chosen_theme: Option<Theme>,
    pub lessons: Vec<LessonSummary>,
    /// The first of the browser's languages the interface speaks (`navigator.languages`).
    pub browser_lang: Lang,
    /// The language switch's choice, persisted in `localStorage`.
    pub chosen_lang: Option<Lang>,
    /// `lang=` of the URL, which wins over both.
    pub url_lang: Option<Lang>,
    /// A `lang=` of the URL that names no language of the interface, shown on every page.
    pub lang_problem: Option<LinkProblem>,
    /// The player of the lesson on screen (a lesson route whose file parsed).
    pub player: Option<Player>,
}

impl State {
    /// The state for a route at start-up.
    pub fn new(route: Route, catalog: &Catalog) -> State {
        let mut state = State {
            lessons: LessonSummary::list(catalog),
            ..State::default()
        };
        state.navigate(route, catalog);
        state
    }

    /// The theme in effect: the user's choice, else the system's.
    pub fn theme(&self) -> Theme {
        // An embed follows its `theme=`, else the system (as its host page does), never
        // the theme saved for the site.
        if let Route::Embed(embed) = &self.route {
            return embed.theme.unwrap_or(self.system_theme);
        }
        self.chosen_theme.unwrap_or(self.system_theme)
    }

    /// The interface's language: the URL's `lang=`, else the switch's choice, else the
    /// browser's. An embed, like its theme, never takes the site's saved choice.
    pub fn lang(&self) -> Lang {
        let saved = match self.route {
            Route::Embed(_) => None,
            Route::Compare(ref compare) if compare.embed => None,
            _ => self.chosen_lang,
        };
        self.url_lang.or(saved).unwrap_or(self.browser_lang)
    }

    /// The `lang=` internal links carry: the language in effect once the URL named one
    /// or it is not English (so English URLs stay as they were).
    pub fn link_lang(&self) -> Option<Lang> {
        let lang = self.lang();
        (self.url_lang.is_some() || lang != Lang::En).then_some(lang)
    }

    fn navigate(&mut self, route: Route, catalog: &Catalog) {
        self.player = match &route {
            Route::Lesson(lesson_route)
            | Route::Embed(crate::route::EmbedRoute {
                lesson: lesson_route,
                ..
            }) => {
                let lesson = catalog.lesson(&lesson_route.id);
                match (self.player.take(), lesson) {
                    (Some(mut player), Some(_)) if player.lesson.id == lesson_route.id => {
                        player.navigate(lesson_route);
                        Some(player)
                    }
                    (_, Some(lesson)) => Some(Player::new(Rc::clone(lesson), lesson_route)),
                    (_, None) => None,
                }
            }
            _ => None,
        };
        self.route = route;
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Navigate(Route),
    /// A new URL: its route, its `lang=`, and that `lang=` when it names no language.
    Located(Route, Option<Lang>, Option<LinkProblem>),
    /// The language switch: an explicit choice, which a `lang=` in the URL follows.
    ChooseLang(Lang),
    SystemThemeChanged(Theme),
    /// Switches to the other theme and makes that an explicit choice.
    ToggleTheme,
    Player(PlayerAction),
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::Navigate(route) => next.navigate(route, &crate::catalog::catalog()),
            Action::Located(route, lang, lang_problem) => {
                next.url_lang = lang;
                next.lang_problem = lang_problem;
                next.navigate(route, &crate::catalog::catalog());
            }
            Action::ChooseLang(lang) => {
                next.chosen_lang = Some(lang);
                if next.url_lang.is_some() {
                    next.url_lang = Some(lang);
                }
            }
            Action::SystemThemeChanged(theme) => next.system_theme = theme,
            Action::ToggleTheme => next.chosen_theme = Some(self.theme().toggled()),
            Action::Player(action) => match next.player.as_mut() {
                Some(player) => player.update(action),
                None => return self,
            },
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

    #[test]
    fn a_lesson_route_opens_its_player_and_keeps_it_across_toggles() {
        let catalog = crate::catalog::catalog();
        let state = State::new(
            Route::parse("#/lesson/queue-wait-or-skip?readpast=off"),
            &catalog,
        );
        assert!(!state.lessons.is_empty());
        let player = state.player.as_ref().expect("a player");
        assert_eq!(player.key.settings.get("readpast"), Some("off"));
        let state = reduce(
            state,
            [Action::Navigate(Route::parse(
                "#/lesson/queue-wait-or-skip?readpast=on",
            ))],
        );
        assert_eq!(
            state.player.as_ref().unwrap().key.settings.get("readpast"),
            Some("on")
        );
        let state = reduce(state, [Action::Navigate(Route::Home)]);
        assert!(state.player.is_none());
    }

    #[test]
    fn the_language_is_the_urls_then_the_chosen_then_the_browsers() {
        let state = State {
            browser_lang: Lang::Ja,
            ..State::default()
        };
        assert_eq!(state.lang(), Lang::Ja);
        assert_eq!(state.link_lang(), Some(Lang::Ja));
        let state = reduce(state, [Action::ChooseLang(Lang::En)]);
        assert_eq!(state.lang(), Lang::En);
        assert_eq!(state.link_lang(), None, "English links stay as they were");
        let state = reduce(
            state,
            [Action::Located(
                Route::parse("#/lesson/queue-wait-or-skip"),
                Some(Lang::Pl),
                None,
            )],
        );
        assert_eq!(state.lang(), Lang::Pl);
        // The switch moves the URL's language with it, and the player stays.
        let events_before = state.player.as_ref().unwrap().head.events;
        let state = reduce(state, [Action::ChooseLang(Lang::En)]);
        assert_eq!(
            (state.lang(), state.link_lang()),
            (Lang::En, Some(Lang::En))
        );
        assert_eq!(state.player.as_ref().unwrap().head.events, events_before);
        // An embed takes its URL's language or the browser's, not the site's choice.
        let state = reduce(
            state,
            [
                Action::ChooseLang(Lang::Pl),
                Action::Located(Route::parse("#/embed/queue-wait-or-skip"), None, None),
            ],
        );
        assert_eq!(state.lang(), Lang::Ja);
    }

    #[test]
    fn unknown_lessons_have_no_player() {
        let state = State::new(
            Route::parse("#/lesson/no-such-lesson"),
            &crate::catalog::catalog(),
        );
        assert!(state.player.is_none());
        assert!(matches!(state.route, Route::Lesson(_)));
    }
}
