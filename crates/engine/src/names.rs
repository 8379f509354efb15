//! Names of variables, tables and the like, which the engine keeps lowercase.

use std::borrow::Cow;

/// `name` lowercased for a lookup, copied only when it has capitals (most names in
/// scripts are already lowercase, and a lookup runs per row or statement).
pub(crate) fn lower(name: &str) -> Cow<'_, str> {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(name)
    }
}
