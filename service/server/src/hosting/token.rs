//! Seat tokens: 32 random bytes from the operating system, written as 64 hex digits.

use std::fmt;

const TOKEN_BYTES: usize = 32;

/// The secret that lets a caller act for a seat.
#[derive(Clone, PartialEq, Eq)]
pub struct SeatToken(String);

impl SeatToken {
    pub fn generate() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; TOKEN_BYTES];
        getrandom::fill(&mut bytes)?;
        Ok(Self(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Compares in time that depends only on the lengths, so response timing does not reveal
    /// how much of a guess was right.
    pub fn matches(&self, presented: &str) -> bool {
        let (ours, theirs) = (self.0.as_bytes(), presented.as_bytes());
        if ours.len() != theirs.len() {
            return false;
        }
        ours.iter()
            .zip(theirs)
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
    }
}

/// Never prints the secret, so a token cannot leak through a log line.
impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_64_hex_digits_and_differ() {
        let a = SeatToken::generate().unwrap();
        let b = SeatToken::generate().unwrap();
        assert_eq!(a.expose().len(), 64);
        assert!(a.expose().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn only_the_exact_token_matches() {
        let token = SeatToken::generate().unwrap();
        assert!(token.matches(token.expose()));
        let mut wrong = token.expose().to_owned();
        let last = if wrong.ends_with('0') { "1" } else { "0" };
        wrong.replace_range(63.., last);
        assert!(!token.matches(&wrong));
        assert!(!token.matches(&token.expose()[..63]));
        assert!(!token.matches(""));
        assert!(!format!("{token:?}").contains(token.expose()));
    }
}
