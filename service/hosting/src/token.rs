//! Seat tokens: 32 random bytes from the operating system, written as 64 hex digits.
//!
//! The plain token exists only between its generation and the JoinMatch answer that shows it
//! once. Everything that lasts (the match actor, its record, the store) keeps its SHA-256 hash,
//! so neither a memory dump nor a copy of the database lets anyone act for a seat.

use std::fmt;

use sha2::{Digest, Sha256};

const TOKEN_BYTES: usize = 32;

/// A freshly drawn token, to be handed to the player once and then dropped.
pub struct SeatToken(String);

impl SeatToken {
    pub fn generate() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; TOKEN_BYTES];
        getrandom::fill(&mut bytes)?;
        Ok(Self(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// The hash that stands in for the token from now on.
    pub fn hash(&self) -> TokenHash {
        TokenHash::of(&self.0)
    }

    /// Gives the plain token away, for the one answer that shows it.
    pub fn reveal(self) -> String {
        self.0
    }
}

/// The credential a seat held by an account (a bot) is known by, in place of a seat token: the
/// API edge presents it for a call once it has checked the account's API key. It begins with a
/// control character, which no `authorization` header can carry, so no client can present it
/// as a seat token; the seat keeps only its hash, as for a token.
pub fn account_credential(account_id: &str) -> String {
    format!("\u{1}account\u{1}{account_id}")
}

/// Whether a presented credential is an account's (see [`account_credential`]).
pub fn is_account_credential(credential: &str) -> bool {
    credential.starts_with('\u{1}')
}

/// Never prints the secret, so a token cannot leak through a log line.
impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(..)")
    }
}

/// The SHA-256 hash of a seat token: what a match keeps to recognise its seats.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TokenHash([u8; 32]);

impl TokenHash {
    pub fn of(token: &str) -> Self {
        Self(Sha256::digest(token.as_bytes()).into())
    }

    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        bytes.try_into().ok().map(Self)
    }

    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Hashes the presented token and compares in constant time, so response timing does not
    /// reveal how much of a guess was right.
    pub fn matches(&self, presented: &str) -> bool {
        let presented = Self::of(presented);
        self.0
            .iter()
            .zip(presented.0)
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenHash(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_64_hex_digits_and_differ() {
        let a = SeatToken::generate().unwrap().reveal();
        let b = SeatToken::generate().unwrap().reveal();
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn only_the_exact_token_matches_its_hash() {
        let token = SeatToken::generate().unwrap();
        assert!(!format!("{token:?}").contains(&token.0));
        let hash = token.hash();
        let plain = token.reveal();
        assert!(hash.matches(&plain));
        let mut wrong = plain.clone();
        let last = if wrong.ends_with('0') { "1" } else { "0" };
        wrong.replace_range(63.., last);
        assert!(!hash.matches(&wrong));
        assert!(!hash.matches(&plain[..63]));
        assert!(!hash.matches(""));
        assert_ne!(hash.as_bytes().as_slice(), plain.as_bytes());
        assert_eq!(TokenHash::from_bytes(hash.as_bytes()), Some(hash));
        assert_eq!(TokenHash::from_bytes(&[1, 2, 3]), None);
    }
}
