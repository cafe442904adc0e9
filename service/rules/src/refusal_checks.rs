//! What every game's refusal tests hold its rules to: each refusal names its rule in words
//! first, the game lists each rule once under a kebab-case id with a test case, and the game's
//! rules page explains every one of them.

use std::collections::BTreeSet;

use crate::game::{Game, Rule, RuleError, RuleErrorKind};

/// `refusal` refuses an illegal action by `rule`, and its message starts with the rule's words.
pub fn assert_breaks(refusal: &RuleError, rule: Rule) {
    assert_eq!(refusal.kind, RuleErrorKind::IllegalAction, "{refusal}");
    assert_eq!(refusal.rule, Some(rule), "{refusal}");
    assert!(
        refusal.message.starts_with(&format!("{}: ", rule.text)),
        "{refusal}"
    );
}

/// `G` lists `rules`, each under a kebab-case id of its own, and the test cases cover exactly
/// those ids.
pub fn assert_listed_and_covered<'a, G: Game>(
    rules: &[Rule],
    covered: impl IntoIterator<Item = &'a str>,
) {
    assert_eq!(G::rules(), rules, "Game::rules lists the game's rules");
    let listed: BTreeSet<&str> = rules.iter().map(|rule| rule.id).collect();
    assert_eq!(listed.len(), rules.len(), "two rules share an id");
    for id in &listed {
        let kebab = id
            .split('-')
            .all(|word| !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase()));
        assert!(kebab, "`{id}` is not kebab-case");
    }
    let covered: BTreeSet<&str> = covered.into_iter().collect();
    assert_eq!(
        covered, listed,
        "rules without a case, or cases of unlisted rules"
    );
}

/// The rules page's `## Refusals` section has a table row `| `id` | words | ... |` for each
/// rule, in order, with exactly the rule's words, and says how the server reports it.
pub fn assert_documented(page: &str, rules: &[Rule]) {
    let section = page
        .split("\n## Refusals\n")
        .nth(1)
        .expect("the rules page has a `## Refusals` section")
        .split("\n## ")
        .next()
        .unwrap_or_default();
    assert!(
        section.contains("`ILLEGAL_ACTION`"),
        "the section says the id is what ILLEGAL_ACTION reports"
    );
    let rows: Vec<(&str, &str)> = section
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let id = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            Some((id, *cells.get(2)?))
        })
        .collect();
    let expected: Vec<(&str, &str)> = rules.iter().map(|rule| (rule.id, rule.text)).collect();
    assert_eq!(rows, expected, "one row per rule, in order, with its words");
}
