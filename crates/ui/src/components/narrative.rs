//! The lesson's narrative, its Markdown rendered at build time (the lesson crate escapes
//! raw HTML, so the HTML is safe to insert), with each SQL block filled in live: the text
//! for the current toggles, switched text marked, and the statements sessions are at.

use std::rc::Rc;

use engine::{Block, Source};
use lesson::Lesson;
use yew::prelude::*;

use super::code::CodeListing;
use crate::catalog::catalog;
use crate::player::Shared;
use crate::present::StatementMark;
use crate::run::{RunModel, Statement};
use crate::t;

#[derive(Properties, PartialEq)]
pub struct NarrativeProps {
    pub lesson: Shared<Lesson>,
    pub run: Shared<RunModel>,
    /// Per session, the statement it is at.
    pub statements: Rc<Vec<Option<Statement>>>,
    pub fresh: Vec<String>,
    pub flash: u32,
}

/// A piece of the narrative: HTML from the lesson crate, or the place of block N.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    Html(String),
    Block(usize),
}

const PLACEHOLDER: &str = "<div class=\"lockstep-block\" data-block=\"";

/// Splits the narrative HTML at its block placeholders.
pub fn parts(html: &str) -> Vec<Part> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(PLACEHOLDER) {
        let after = &rest[at + PLACEHOLDER.len()..];
        let Some(quote) = after.find('"') else { break };
        let Ok(index) = after[..quote].parse::<usize>() else {
            break;
        };
        let Some(close) = after.find("</div>") else {
            break;
        };
        if at > 0 {
            out.push(Part::Html(rest[..at].to_string()));
        }
        out.push(Part::Block(index));
        rest = after[close + "</div>".len()..].trim_start_matches('\n');
    }
    if !rest.is_empty() {
        out.push(Part::Html(rest.to_string()));
    }
    // The page shows the title already; the narrative's headings sit under it.
    if let Some(Part::Html(first)) = out.first_mut() {
        if first.starts_with("<h1>") {
            if let Some(end) = first.find("</h1>") {
                *first = first[end + "</h1>".len()..].trim_start().to_string();
            }
        }
    }
    for part in &mut out {
        if let Part::Html(html) = part {
            *html = demote_headings(html);
        }
    }
    out.retain(|p| !matches!(p, Part::Html(h) if h.trim().is_empty()));
    out
}

/// The page's `<h1>` is the site and its `<h2>` the lesson's title, so the narrative's
/// headings start at `<h3>`: its `#` and `##` (the first `#`, the title, is dropped) are
/// `<h3>`, `###` `<h4>` and so on, down to `<h6>`, with no level skipped after the
/// title for a screen reader's outline.
fn demote_headings(html: &str) -> String {
    let mut out = html.to_string();
    for level in (1..=6).rev() {
        let to = (level + 1).clamp(3, 6);
        for (from, into) in [
            (format!("<h{level}"), format!("<h{to}")),
            (format!("</h{level}>"), format!("</h{to}>")),
        ] {
            out = out.replace(&from, &into);
        }
    }
    out
}

/// What the narrative shows in turn: a part of the text, or one note for the blocks in a
/// row that the run leaves out under one condition.
enum Item<'p> {
    Part(&'p Part),
    Off { when: String, count: usize },
}

#[function_component]
pub fn Narrative(props: &NarrativeProps) -> Html {
    let lesson = props.lesson.clone();
    let parts = use_memo(lesson, |lesson| {
        // The translation's text when there is one: it shares the original's blocks.
        let narrative = catalog()
            .get_in(&lesson.id, crate::i18n::lang().as_str())
            .map(|(e, translated)| (parts(&e.narrative_html), translated));
        narrative.unwrap_or_else(|| (Vec::new(), true))
    });
    // An untranslated lesson's text is English: a screen reader reads it so.
    let (parts, translated) = (&parts.0, parts.1);
    let run = &props.run;
    // The statements each session is at that lie in rendered block `shown`. A setup
    // statement's range is in the joined setup script: it is marked in its own block.
    let statements_in = |shown: usize| -> Vec<StatementMark> {
        let block = run.applied.blocks[shown].engine_block;
        props
            .statements
            .iter()
            .enumerate()
            .filter_map(|(i, st)| {
                let st = st.as_ref()?;
                let range = match (st.source, block?) {
                    (Source::Setup, Block::Setup) => {
                        let (k, range) = run.applied.setup_span(st.range.clone())?;
                        (k == shown).then_some(range)?
                    }
                    (Source::Session(j), Block::Session(k)) if j == k && j == i => st.range.clone(),
                    _ => return None,
                };
                Some(StatementMark { session: i, range })
            })
            .collect()
    };
    // Blocks this run leaves out, each as its condition; one note for a row of them
    // under the same condition (a lesson's third and fourth workers).
    let off_when = |index: usize| -> Option<String> {
        if run.applied.blocks.iter().any(|b| b.block == index) {
            return None;
        }
        let when = props.lesson.blocks.get(index).map(|b| {
            b.when
                .iter()
                .map(|c| format!("{} = {}", c.toggle, c.values.join(&t!("block-or"))))
                .collect::<Vec<_>>()
                .join(&t!("block-and"))
        });
        Some(when.unwrap_or_default())
    };
    let mut items: Vec<Item> = Vec::new();
    for part in parts.iter() {
        let when = match part {
            Part::Block(index) => off_when(*index),
            Part::Html(_) => None,
        };
        let Some(when) = when else {
            items.push(Item::Part(part));
            continue;
        };
        // The previous item, past text that is only white space.
        let previous = (items.iter_mut().rev())
            .find(|item| !matches!(item, Item::Part(Part::Html(h)) if h.trim().is_empty()));
        match previous {
            Some(Item::Off {
                when: before,
                count,
            }) if *before == when => *count += 1,
            _ => items.push(Item::Off { when, count: 1 }),
        }
    }
    let rendered = items.into_iter().map(|item| match item {
        Item::Off { when, count } => html! {
            <p class="block-off muted" data-testid="block-off" data-count={count.to_string()}>
                { t!("block-off", when = when, count = count) }
            </p>
        },
        Item::Part(Part::Html(html)) => Html::from_html_unchecked(AttrValue::from(
            crate::i18n::localize_links(html).into_owned(),
        )),
        Item::Part(Part::Block(index)) => {
            let Some((shown, block)) = run
                .applied
                .blocks
                .iter()
                .enumerate()
                .find(|(_, b)| b.block == *index)
            else {
                return html! {};
            };
            let label = super::exercise::role_label(&block.role);
            html! {
                <figure class="block" data-block={index.to_string()}>
                    <figcaption class="block__label">{ label }</figcaption>
                    <CodeListing
                        text={AttrValue::from(block.text.clone())}
                        toggled={block.toggled.clone()}
                        statements={statements_in(shown)}
                        sessions={run.sessions.clone()}
                        fresh={props.fresh.clone()}
                        flash={props.flash}
                    />
                </figure>
            }
        }
    });
    html! {
        <div class="narrative__body prose" data-testid="narrative" lang={(!translated).then_some("en")}>{ for rendered }</div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_placeholders() {
        let html = "<h1>T</h1>\n<div class=\"lockstep-block\" data-block=\"0\"></div>\n<p>x</p>\n<div class=\"lockstep-block\" data-block=\"1\"></div>\n";
        assert_eq!(
            parts(html),
            [
                Part::Block(0),
                Part::Html("<p>x</p>\n".into()),
                Part::Block(1)
            ]
        );
        assert_eq!(
            parts("<p>a</p><h2 id=\"x\">B</h2>"),
            [Part::Html("<p>a</p><h3 id=\"x\">B</h3>".into())]
        );
        // No level skipped below the lesson's <h2>: # and ## are <h3>, ### <h4>.
        assert_eq!(
            demote_headings("<h1>A</h1><h2>B</h2><h3>C</h3><h5>D</h5><h6>E</h6>"),
            "<h3>A</h3><h3>B</h3><h4>C</h4><h6>D</h6><h6>E</h6>"
        );
    }
}
