//! What an API key lets its holder do.

/// One permission of an API key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Join matches and act in them as the bot.
    Play,
    /// Challenge other bots and answer challenges.
    Challenge,
    /// Change the bot and manage its keys.
    Manage,
    /// Run the server's events and manage every bot; only on keys that belong to no bot.
    Operator,
}

impl Scope {
    pub const ALL: [Scope; 4] = [
        Scope::Play,
        Scope::Challenge,
        Scope::Manage,
        Scope::Operator,
    ];

    /// The stored bit; never reused.
    fn bit(self) -> u32 {
        match self {
            Scope::Play => 1,
            Scope::Challenge => 2,
            Scope::Manage => 4,
            Scope::Operator => 8,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scope::Play => "PLAY",
            Scope::Challenge => "CHALLENGE",
            Scope::Manage => "MANAGE",
            Scope::Operator => "OPERATOR",
        }
    }
}

/// A set of scopes, stored as bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scopes(u32);

impl Scopes {
    /// What a bot's first key may do: everything a bot may.
    pub const BOT: Scopes = Scopes(1 | 2 | 4);
    pub const OPERATOR: Scopes = Scopes(8);

    pub fn of(scopes: impl IntoIterator<Item = Scope>) -> Self {
        Self(scopes.into_iter().fold(0, |bits, scope| bits | scope.bit()))
    }

    /// The scopes of stored bits, ignoring bits no scope has (a newer server's).
    pub fn from_bits(bits: u32) -> Self {
        Self(bits & Scope::ALL.iter().fold(0, |all, s| all | s.bit()))
    }

    pub fn bits(self) -> u32 {
        self.0
    }

    pub fn has(self, scope: Scope) -> bool {
        self.0 & scope.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every scope of `self` is among `other`'s.
    pub fn within(self, other: Scopes) -> bool {
        self.0 & !other.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Scope> {
        Scope::ALL.into_iter().filter(move |s| self.has(*s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_round_trip_through_their_bits() {
        let scopes = Scopes::of([Scope::Play, Scope::Manage]);
        assert_eq!(Scopes::from_bits(scopes.bits()), scopes);
        assert!(scopes.has(Scope::Play) && !scopes.has(Scope::Challenge));
        assert_eq!(
            scopes.iter().collect::<Vec<_>>(),
            [Scope::Play, Scope::Manage]
        );
        assert!(scopes.within(Scopes::BOT) && !Scopes::OPERATOR.within(Scopes::BOT));
        assert_eq!(Scopes::from_bits(0xff), Scopes::of(Scope::ALL));
        let distinct: std::collections::HashSet<u32> = Scope::ALL.iter().map(|s| s.bit()).collect();
        assert_eq!(distinct.len(), Scope::ALL.len());
    }
}
