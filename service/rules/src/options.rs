//! Match options: typed, validated, always defaulted.

use std::collections::BTreeMap;
use std::fmt;

use crate::game::RuleError;

/// A value given for an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Int(i64),
    Bool(bool),
    Text(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(v) => write!(f, "{v}"),
            Self::Bool(v) => write!(f, "{v}"),
            Self::Text(v) => write!(f, "{v:?}"),
        }
    }
}

/// The type and range of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Int { min: i64, max: i64 },
    Bool,
    Choice(Vec<&'static str>),
}

/// One option a variant accepts, as listed by `ListVariants`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: OptionKind,
    pub default: OptionValue,
}

impl OptionSpec {
    pub fn int(
        name: &'static str,
        description: &'static str,
        min: i64,
        max: i64,
        default: i64,
    ) -> Self {
        Self {
            name,
            description,
            kind: OptionKind::Int { min, max },
            default: OptionValue::Int(default),
        }
    }

    pub fn boolean(name: &'static str, description: &'static str, default: bool) -> Self {
        Self {
            name,
            description,
            kind: OptionKind::Bool,
            default: OptionValue::Bool(default),
        }
    }

    pub fn choice(
        name: &'static str,
        description: &'static str,
        choices: Vec<&'static str>,
        default: &'static str,
    ) -> Self {
        Self {
            name,
            description,
            kind: OptionKind::Choice(choices),
            default: OptionValue::Text(default.to_owned()),
        }
    }

    fn check(&self, value: &OptionValue) -> Result<(), RuleError> {
        let ok = match (&self.kind, value) {
            (OptionKind::Int { min, max }, OptionValue::Int(v)) => (*min..=*max).contains(v),
            (OptionKind::Bool, OptionValue::Bool(_)) => true,
            (OptionKind::Choice(choices), OptionValue::Text(v)) => choices.contains(&v.as_str()),
            _ => false,
        };
        if ok {
            return Ok(());
        }
        let expected = match &self.kind {
            OptionKind::Int { min, max } => format!("an integer from {min} to {max}"),
            OptionKind::Bool => "true or false".to_owned(),
            OptionKind::Choice(choices) => format!("one of {}", choices.join(", ")),
        };
        Err(RuleError::invalid_option(format!(
            "option `{}` got {value}, expected {expected}",
            self.name
        )))
    }
}

/// Validated options with every default filled in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    values: BTreeMap<String, OptionValue>,
}

impl Options {
    /// Checks `given` against `specs`: unknown names and out-of-range values are errors, missing
    /// ones take their defaults.
    pub fn resolve(
        specs: &[OptionSpec],
        given: &BTreeMap<String, OptionValue>,
    ) -> Result<Self, RuleError> {
        for name in given.keys() {
            if !specs.iter().any(|s| s.name == name) {
                let known: Vec<_> = specs.iter().map(|s| s.name).collect();
                return Err(RuleError::invalid_option(format!(
                    "unknown option `{name}`; this variant accepts: {}",
                    if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    }
                )));
            }
        }
        let mut values = BTreeMap::new();
        for spec in specs {
            let value = given
                .get(spec.name)
                .cloned()
                .unwrap_or_else(|| spec.default.clone());
            spec.check(&value)?;
            values.insert(spec.name.to_owned(), value);
        }
        Ok(Self { values })
    }

    pub fn all(&self) -> &BTreeMap<String, OptionValue> {
        &self.values
    }

    /// The value of an integer option. Panics on a name the variant does not declare: that is a
    /// bug in the engine, not bad input (input was checked by [`Options::resolve`]).
    pub fn int(&self, name: &str) -> i64 {
        match self.values.get(name) {
            Some(OptionValue::Int(v)) => *v,
            other => panic!("option `{name}` is not a declared integer: {other:?}"),
        }
    }

    pub fn bool(&self, name: &str) -> bool {
        match self.values.get(name) {
            Some(OptionValue::Bool(v)) => *v,
            other => panic!("option `{name}` is not a declared boolean: {other:?}"),
        }
    }

    pub fn text(&self, name: &str) -> &str {
        match self.values.get(name) {
            Some(OptionValue::Text(v)) => v,
            other => panic!("option `{name}` is not a declared choice: {other:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::int("sets", "sets per game", 1, 200, 30),
            OptionSpec::boolean("own_goals", "allow own goals", false),
            OptionSpec::choice(
                "style",
                "winning style",
                vec!["golden_goal", "halves"],
                "halves",
            ),
        ]
    }

    #[test]
    fn defaults_fill_missing_values() {
        let options = Options::resolve(&specs(), &BTreeMap::new()).unwrap();
        assert_eq!(options.int("sets"), 30);
        assert!(!options.bool("own_goals"));
        assert_eq!(options.text("style"), "halves");
    }

    #[test]
    fn given_values_override_defaults() {
        let given = BTreeMap::from([("sets".to_owned(), OptionValue::Int(5))]);
        assert_eq!(Options::resolve(&specs(), &given).unwrap().int("sets"), 5);
    }

    #[test]
    fn unknown_names_wrong_types_and_out_of_range_values_are_rejected() {
        for (name, value) in [
            ("nope", OptionValue::Int(1)),
            ("sets", OptionValue::Int(0)),
            ("sets", OptionValue::Bool(true)),
            ("style", OptionValue::Text("chaos".into())),
        ] {
            let given = BTreeMap::from([(name.to_owned(), value)]);
            let err = Options::resolve(&specs(), &given).unwrap_err();
            assert_eq!(err.kind, crate::RuleErrorKind::InvalidOption);
        }
    }
}
