//! BTEQ dot commands in Teradata scripts. A line that starts with `.` is a command to the
//! client, not SQL: `.SET SESSION TRANSACTION ANSI|BTET` picks the session mode (before
//! logon in real BTEQ) and `.REPEAT n` sends the next request n times. The commands are
//! blanked out (newlines kept, so spans and line numbers still match the lesson) before
//! the SQL is parsed.

/// Teradata's two transaction semantics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SessionMode {
    /// Teradata mode: each request is its own transaction unless inside BT ... ET.
    #[default]
    Btet,
    /// ANSI mode: a transaction lasts until COMMIT or ROLLBACK.
    Ansi,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bteq {
    pub mode: SessionMode,
    /// `.REPEAT n`: (byte offset where the command's line ends, n). The next request
    /// after that offset runs n times.
    pub repeats: Vec<(usize, u32)>,
}

/// Most repetitions one `.REPEAT` may ask for (a runaway guard).
pub const MAX_REPEAT: u32 = 100_000;

/// Splits BTEQ commands from SQL. Returns the text with command lines blanked, the
/// commands understood, or a located message for a command it does not know how to run.
pub fn preprocess(text: &str) -> Result<(String, Bteq), (usize, String)> {
    let mut out = String::with_capacity(text.len());
    let mut bteq = Bteq::default();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(cmd) = trimmed.strip_prefix('.') {
            let at = offset + (line.len() - trimmed.len());
            let words: Vec<String> = cmd
                .trim()
                .trim_end_matches(';')
                .split_whitespace()
                .map(|w| w.to_ascii_uppercase())
                .collect();
            match words
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .as_slice()
            {
                ["SET", "SESSION", "TRANSACTION", "ANSI"] => bteq.mode = SessionMode::Ansi,
                ["SET", "SESSION", "TRANSACTION", "BTET"] => bteq.mode = SessionMode::Btet,
                ["REPEAT", n] => match n.parse::<u32>() {
                    Ok(n) if (1..=MAX_REPEAT).contains(&n) => {
                        bteq.repeats.push((offset + line.len(), n))
                    }
                    _ => {
                        return Err((
                            at,
                            format!(".REPEAT needs a count from 1 to {MAX_REPEAT}, found '{n}'"),
                        ))
                    }
                },
                // Connection commands mean nothing in a simulation.
                ["LOGON", ..]
                | ["LOGOFF", ..]
                | ["QUIT", ..]
                | ["EXIT", ..]
                | ["SET", "WIDTH", ..] => {}
                _ => return Err((at, format!("not simulated: BTEQ command .{}", cmd.trim()))),
            }
            out.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        } else {
            out.push_str(line);
        }
        offset += line.len();
    }
    Ok((out, bteq))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_blanked_and_understood() {
        let text =
            ".SET SESSION TRANSACTION ANSI\nSELECT 1;\n.REPEAT 3\nINSERT INTO q VALUES (1);\n";
        let (sql, bteq) = preprocess(text).unwrap();
        assert_eq!(sql.len(), text.len());
        assert_eq!(sql.lines().nth(1), Some("SELECT 1;"));
        assert!(sql.lines().next().unwrap().trim().is_empty());
        assert_eq!(bteq.mode, SessionMode::Ansi);
        assert_eq!(bteq.repeats, [(text.find("INSERT").unwrap(), 3)]);
    }

    #[test]
    fn unknown_commands_are_refused_with_their_position() {
        assert_eq!(
            preprocess("SELECT 1;\n  .EXPORT FILE x\n"),
            Err((12, "not simulated: BTEQ command .EXPORT FILE x".into()))
        );
        assert!(preprocess(".REPEAT 0\n").is_err());
    }
}
