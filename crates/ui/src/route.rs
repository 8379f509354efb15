//! Hash routes. The app lives in one `index.html` served from any static host (or an
//! iframe), so the route is carried in the URL fragment: `#/`, `#/debug/panic`, and
//! later `#/lesson/<id>` and `#/embed/<id>?toggle=value`.

use std::fmt;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Route {
    /// `#/` (also an empty or missing hash): the lesson list.
    #[default]
    Home,
    /// `#/debug/panic`: panics on purpose, so the browser tests can prove that a wasm
    /// panic shows the error panel instead of a dead page.
    DebugPanic,
    /// Anything else; keeps the path so the page can say what was not found.
    NotFound(String),
}

impl Route {
    /// Parses `location.hash` (with or without the leading `#`). A query after `?`
    /// is ignored here; routes that take options will read it.
    pub fn parse(hash: &str) -> Route {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let path = hash.split('?').next().unwrap_or_default();
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        match segments.as_slice() {
            [] => Route::Home,
            ["debug", "panic"] => Route::DebugPanic,
            _ => Route::NotFound(path.to_owned()),
        }
    }

    /// The `href` that leads to this route.
    pub fn href(&self) -> String {
        format!("#{self}")
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Route::Home => f.write_str("/"),
            Route::DebugPanic => f.write_str("/debug/panic"),
            Route::NotFound(path) => f.write_str(path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Route;

    #[test]
    fn parses_hashes() {
        let cases = [
            ("", Route::Home),
            ("#", Route::Home),
            ("#/", Route::Home),
            ("#/?theme=dark", Route::Home),
            ("#/debug/panic", Route::DebugPanic),
            ("/debug/panic/", Route::DebugPanic),
            ("#/nope", Route::NotFound("/nope".to_owned())),
        ];
        for (hash, want) in cases {
            assert_eq!(Route::parse(hash), want, "hash {hash:?}");
        }
    }

    #[test]
    fn href_round_trips() {
        for route in [Route::Home, Route::DebugPanic] {
            assert_eq!(Route::parse(&route.href()), route);
        }
    }
}
