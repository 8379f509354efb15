//! The embed route and the embed code: one lesson's player without site chrome, for an
//! `<iframe>` in a blog post. Pure data and text (tested natively); the browser side
//! (height reports, the clipboard) is in `components/embed.rs`, and the host page's
//! half is `www/embed.js`.
//!
//! `#/embed/<id>?<toggle>=<value>&...&t=<ms>&e=<events>&seed=<n>&view=compact|full&theme=light|dark`:
//! the lesson route's parameters, plus how much of the player to show (`view`, compact
//! by default) and a theme that wins over the system's (`theme`, none by default: the
//! widget follows `prefers-color-scheme`).

use std::fmt;

use crate::problem::LinkProblem;
use crate::route::{split_query, LessonRoute};
use crate::state::Theme;

pub const VIEW_PARAM: &str = "view";
pub const THEME_PARAM: &str = "theme";

/// The `type` of the message the widget posts to its parent page with its height
/// (`{ type: "lockstep:height", height }`); `www/embed.js` listens for it.
pub const HEIGHT_MESSAGE: &str = "lockstep:height";

/// Height of the `<iframe>` in the embed code: what the widget gets when the host page
/// does not load `embed.js` (it scrolls inside), and before the first height report.
/// The compact view fits in it at a blog column's width (`e2e/embed.test.mjs` measures).
pub const FALLBACK_HEIGHT_PX: u32 = 480;

/// The same for `view=full`, which shows every panel.
pub const FALLBACK_HEIGHT_FULL_PX: u32 = 900;

/// The script that fits the iframe to the widget, next to the app's `index.html`.
pub const EMBED_SCRIPT: &str = "embed.js";

/// How much of the player an embed shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EmbedView {
    /// Toggles, transport, lanes and the outcome: fits a blog column.
    #[default]
    Compact,
    /// Every panel of the player (code, tables, wait-for graph, event log too).
    Full,
}

impl EmbedView {
    pub fn as_str(self) -> &'static str {
        match self {
            EmbedView::Compact => "compact",
            EmbedView::Full => "full",
        }
    }

    pub fn parse(text: &str) -> Option<EmbedView> {
        match text {
            "compact" => Some(EmbedView::Compact),
            "full" => Some(EmbedView::Full),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EmbedRoute {
    /// Lesson, toggles, playhead and seed, read exactly as `#/lesson/` reads them.
    pub lesson: LessonRoute,
    pub view: EmbedView,
    /// An explicit theme; `None` follows the system (and so, usually, the host page).
    pub theme: Option<Theme>,
}

impl EmbedRoute {
    pub fn new(lesson: LessonRoute) -> EmbedRoute {
        EmbedRoute {
            lesson,
            ..EmbedRoute::default()
        }
    }

    /// Reads the query of `#/embed/<id>?...`: `view` and `theme` here, the rest as a
    /// lesson route's. A bad `view` or `theme` is explained like a bad `t`.
    pub fn parse(id: &str, query: &str) -> EmbedRoute {
        let mut view = EmbedView::default();
        let mut theme = None;
        let mut problems = Vec::new();
        let (own, rest) = split_query(query, &[VIEW_PARAM, THEME_PARAM]);
        for (name, value) in own {
            if name == VIEW_PARAM {
                match EmbedView::parse(value) {
                    Some(v) => view = v,
                    None => problems.push(LinkProblem::View {
                        value: value.to_owned(),
                    }),
                }
            } else {
                match Theme::parse(value) {
                    Some(t) => theme = Some(t),
                    None => problems.push(LinkProblem::Theme {
                        value: value.to_owned(),
                    }),
                }
            }
        }
        let mut lesson = LessonRoute::parse(id, &rest);
        lesson.problems.extend(problems);
        EmbedRoute {
            lesson,
            view,
            theme,
        }
    }

    /// The same embed (view, theme) showing another state of the lesson.
    pub fn with_lesson(&self, lesson: LessonRoute) -> EmbedRoute {
        EmbedRoute {
            lesson,
            view: self.view,
            theme: self.theme,
        }
    }
}

impl fmt::Display for EmbedRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The lesson route writes its parameters; only the path differs.
        let lesson = self.lesson.to_string();
        let query = lesson.split_once('?').map_or("", |(_, q)| q);
        let mut params: Vec<String> = query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        if self.view != EmbedView::default() {
            params.push(format!("{VIEW_PARAM}={}", self.view.as_str()));
        }
        if let Some(theme) = self.theme {
            params.push(format!("{THEME_PARAM}={}", theme.as_str()));
        }
        write!(f, "/embed/{}", self.lesson.id)?;
        if !params.is_empty() {
            write!(f, "?{}", params.join("&"))?;
        }
        Ok(())
    }
}

/// The page address an embed's `src` starts from: `href` without its fragment, so the
/// code works from whichever host and path serve the app.
pub fn app_address(href: &str) -> &str {
    href.split_once('#').map_or(href, |(base, _)| base)
}

/// Where `embed.js` is for the app at `app`: the same directory, so the code works from
/// whichever host and path serve the app (`https://x.org/lockstep/index.html?a=1` →
/// `https://x.org/lockstep/embed.js`).
pub fn script_address(app: &str) -> String {
    let page = app.split_once('?').map_or(app, |(page, _)| page);
    let dir = page.rfind('/').map_or(page, |slash| &page[..=slash]);
    format!("{dir}{EMBED_SCRIPT}")
}

/// What a blogger pastes: an `<iframe>` of `route` on the app at `app` (an absolute
/// address without a fragment), and on a second line the `<script>` that fits its height
/// (a page with several widgets needs it once; loading it twice is harmless). `title`
/// names the widget for screen readers.
pub fn embed_code(app: &str, route: &EmbedRoute, title: &str) -> String {
    let height = match route.view {
        EmbedView::Compact => FALLBACK_HEIGHT_PX,
        EmbedView::Full => FALLBACK_HEIGHT_FULL_PX,
    };
    format!(
        "<iframe src=\"{src}\" title=\"{title}\" width=\"100%\" height=\"{height}\" \
         style=\"border:0;max-width:720px\" loading=\"lazy\"></iframe>\n\
         <script src=\"{script}\" defer></script>",
        // `href`, not the bare route: it keeps the page's `lang=`.
        src = lesson::escape_html(&format!(
            "{app}{}",
            crate::route::Route::Embed(route.clone()).href()
        )),
        title = lesson::escape_html(&format!("Lockstep: {title}")),
        script = lesson::escape_html(&script_address(app)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::{Route, Seek};

    fn embed(hash: &str) -> EmbedRoute {
        match Route::parse(hash) {
            Route::Embed(e) => e,
            other => panic!("{hash}: {other:?}"),
        }
    }

    #[test]
    fn parses_view_theme_and_the_lesson_parameters() {
        let e = embed("#/embed/queue-wait-or-skip?readpast=off&t=1500&view=full&theme=dark");
        assert_eq!(e.lesson.id, "queue-wait-or-skip");
        assert_eq!(e.lesson.toggles, [("readpast".into(), "off".into())]);
        assert_eq!(e.lesson.seek, Seek::Time(1_500_000));
        assert_eq!(e.view, EmbedView::Full);
        assert_eq!(e.theme, Some(Theme::Dark));
        assert!(e.lesson.problems.is_empty());

        let e = embed("#/embed/x");
        assert_eq!((e.view, e.theme), (EmbedView::Compact, None));

        let e = embed("#/embed/x?view=huge&theme=blue&t=soon");
        assert_eq!((e.view, e.theme), (EmbedView::Compact, None));
        assert_eq!(e.lesson.problems.len(), 3, "{:?}", e.lesson.problems);
        assert!(e.lesson.toggles.is_empty(), "view/theme are not toggles");
    }

    #[test]
    fn round_trips() {
        for hash in [
            "#/embed/queue-wait-or-skip",
            "#/embed/queue-wait-or-skip?readpast=off&t=1500",
            "#/embed/send-double-click?guard=applock&t=12.5&e=30&seed=4&view=full&theme=light",
        ] {
            let route = Route::parse(hash);
            assert_eq!(route.href(), hash);
        }
    }

    #[test]
    fn the_embed_code_points_at_this_app() {
        assert_eq!(
            app_address("https://example.org/lockstep/index.html#/lesson/x?t=1"),
            "https://example.org/lockstep/index.html"
        );
        assert_eq!(
            app_address("http://127.0.0.1:8080/"),
            "http://127.0.0.1:8080/"
        );
        let Route::Lesson(lesson) = Route::parse("#/lesson/queue-wait-or-skip?readpast=off&t=1500")
        else {
            panic!()
        };
        let code = embed_code(
            "http://127.0.0.1:8080/",
            &EmbedRoute::new(lesson.clone()),
            "Wait or skip: \"READPAST\"",
        );
        assert_eq!(
            code,
            "<iframe src=\"http://127.0.0.1:8080/#/embed/queue-wait-or-skip?readpast=off&amp;t=1500\" \
             title=\"Lockstep: Wait or skip: &quot;READPAST&quot;\" width=\"100%\" height=\"480\" \
             style=\"border:0;max-width:720px\" loading=\"lazy\"></iframe>\n\
             <script src=\"http://127.0.0.1:8080/embed.js\" defer></script>"
        );
        let mut full = EmbedRoute::new(lesson);
        full.view = EmbedView::Full;
        let code = embed_code("https://example.org/lockstep/index.html?x=1", &full, "t");
        assert!(code.contains("height=\"900\""), "{code}");
        assert!(code.contains("view=full"), "{code}");
        assert!(
            code.ends_with("<script src=\"https://example.org/lockstep/embed.js\" defer></script>"),
            "{code}"
        );
    }

    #[test]
    fn the_script_sits_next_to_the_app() {
        for (app, script) in [
            ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/embed.js"),
            ("https://x.org/a/b/index.html", "https://x.org/a/b/embed.js"),
            ("https://x.org/a/?q=1/2", "https://x.org/a/embed.js"),
            (
                "file:///home/me/dist/index.html",
                "file:///home/me/dist/embed.js",
            ),
        ] {
            assert_eq!(script_address(app), script);
        }
    }
}
