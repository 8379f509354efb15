//! Cutting a PostgreSQL script into the statements a client sends one at a time, as
//! `psql` does: at each `;` outside quotes, dollar quotes and comments.

/// The statements of `script`, trimmed, in order; empty ones and ones holding only
/// comments are dropped.
pub fn statements(script: &str) -> Vec<String> {
    let bytes = script.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    // Whether the current statement has anything but blanks and comments.
    let mut content = false;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                i = script[i..].find('\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = block_comment_end(bytes, i);
                continue;
            }
            b'\'' | b'"' => {
                content = true;
                i = quoted_end(bytes, i, c);
                continue;
            }
            b'$' => {
                content = true;
                if let Some(tag) = dollar_tag(&script[i..]) {
                    let body = i + tag.len();
                    i = script[body..]
                        .find(tag)
                        .map_or(bytes.len(), |n| body + n + tag.len());
                    continue;
                }
            }
            b';' => {
                if content {
                    out.push(script[start..i].trim().to_string());
                }
                start = i + 1;
                content = false;
            }
            c if !c.is_ascii_whitespace() => content = true,
            _ => {}
        }
        i += 1;
    }
    if content {
        out.push(script[start..].trim().to_string());
    }
    out
}

/// The end of a `/* */` comment starting at `i` (they nest in PostgreSQL).
fn block_comment_end(bytes: &[u8], mut i: usize) -> usize {
    let mut depth = 0;
    while i < bytes.len() {
        if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// Just past the closing `quote` of a literal starting at `i`; a doubled quote is
/// part of the literal.
fn quoted_end(bytes: &[u8], mut i: usize, quote: u8) -> usize {
    i += 1;
    while i < bytes.len() {
        if bytes[i] == quote {
            if bytes.get(i + 1) == Some(&quote) {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i += 1;
    }
    i
}

/// `$$` or `$tag$` at the start of `text`; `$1` (a parameter) is none.
fn dollar_tag(text: &str) -> Option<&str> {
    let rest = &text[1..];
    let len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    let tag_starts_well = rest.bytes().next().is_some_and(|b| !b.is_ascii_digit());
    (rest.as_bytes().get(len) == Some(&b'$') && (len == 0 || tag_starts_well))
        .then(|| &text[..len + 2])
}

#[cfg(test)]
mod tests {
    use super::statements;

    #[test]
    fn cuts_at_semicolons_outside_quotes_and_comments() {
        let script = "BEGIN;\nSELECT 'a;b', \"x;y\" -- c;d\nFROM t; /* e; /* f; */ g; */\n\nCOMMIT;\n-- only a comment;\n";
        assert_eq!(
            statements(script),
            [
                "BEGIN",
                "SELECT 'a;b', \"x;y\" -- c;d\nFROM t",
                // A comment before a statement goes with it, as psql sends it.
                "/* e; /* f; */ g; */\n\nCOMMIT"
            ]
        );
    }

    #[test]
    fn keeps_dollar_quoted_bodies_whole() {
        let script = "DO $$ BEGIN PERFORM 1; END $$;\nDO $body$ BEGIN RAISE NOTICE '$$;'; END $body$;\nSELECT $1";
        assert_eq!(
            statements(script),
            [
                "DO $$ BEGIN PERFORM 1; END $$",
                "DO $body$ BEGIN RAISE NOTICE '$$;'; END $body$",
                "SELECT $1"
            ]
        );
    }

    #[test]
    fn doubled_quotes_stay_in_the_literal() {
        assert_eq!(
            statements("SELECT 'it''s; fine';;"),
            ["SELECT 'it''s; fine'"]
        );
    }
}
