//! API keys: `pmk_<key id>_<secret>`. The key id is public (it names the key in listings and
//! logs); the secret is 32 random bytes shown once, and only its SHA-256 hash is kept, compared
//! in constant time, as seat tokens are.

use std::time::SystemTime;

use pitchmate_hosting::token::{SeatToken, TokenHash};
use pitchmate_store::ApiKeyRow;

use crate::error::LeagueError;
use crate::scope::Scopes;
use crate::{nanos, time};

/// What every API key begins with, which tells it apart from a seat token (64 hex digits).
pub const PREFIX: &str = "pmk_";

/// An API key as kept: everything but its secret.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey {
    pub key_id: String,
    /// The bot the key acts for; `None` for an operator key.
    pub bot_id: Option<String>,
    pub label: String,
    pub scopes: Scopes,
    pub create_time: SystemTime,
    pub revoke_time: Option<SystemTime>,
    secret_hash: TokenHash,
}

/// A key just made, with the secret its one answer shows.
pub struct IssuedKey {
    pub key: ApiKey,
    /// The whole key, as the holder presents it.
    pub secret: String,
}

impl std::fmt::Debug for IssuedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IssuedKey")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

/// Prints everything but the hash.
impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiKey")
            .field("key_id", &self.key_id)
            .field("bot_id", &self.bot_id)
            .field("label", &self.label)
            .field("scopes", &self.scopes)
            .field("create_time", &self.create_time)
            .field("revoke_time", &self.revoke_time)
            .finish_non_exhaustive()
    }
}

impl ApiKey {
    /// A new key with a fresh id and secret.
    pub fn issue(
        bot_id: Option<String>,
        label: String,
        scopes: Scopes,
        now: SystemTime,
    ) -> Result<IssuedKey, LeagueError> {
        let no_randomness =
            |e: getrandom::Error| LeagueError::Unavailable(format!("no randomness for a key: {e}"));
        let key_id = crate::accounts::random_id()?;
        let secret = SeatToken::generate().map_err(no_randomness)?.reveal();
        let key = ApiKey {
            secret_hash: TokenHash::of(&secret),
            key_id: key_id.clone(),
            bot_id,
            label,
            scopes,
            create_time: now,
            revoke_time: None,
        };
        Ok(IssuedKey {
            key,
            secret: format!("{PREFIX}{key_id}_{secret}"),
        })
    }

    /// Whether `secret` is this key's, compared in constant time.
    pub fn opens_with(&self, secret: &str) -> bool {
        self.secret_hash.matches(secret)
    }

    pub fn is_revoked(&self) -> bool {
        self.revoke_time.is_some()
    }

    pub fn to_row(&self) -> ApiKeyRow {
        ApiKeyRow {
            key_id: self.key_id.clone(),
            bot_id: self.bot_id.clone(),
            label: self.label.clone(),
            scopes: self.scopes.bits(),
            secret_hash: self.secret_hash.as_bytes().to_vec(),
            create_time_nanos: nanos(self.create_time),
            revoke_time_nanos: self.revoke_time.map(nanos),
        }
    }

    /// `None` for a row whose hash is not a SHA-256 (no server writes one).
    pub fn from_row(row: ApiKeyRow) -> Option<Self> {
        Some(ApiKey {
            secret_hash: TokenHash::from_bytes(&row.secret_hash)?,
            key_id: row.key_id,
            bot_id: row.bot_id,
            label: row.label,
            scopes: Scopes::from_bits(row.scopes),
            create_time: time(row.create_time_nanos),
            revoke_time: row.revoke_time_nanos.map(time),
        })
    }
}

/// Whether a presented bearer credential is an API key rather than a seat token.
pub fn is_api_key(presented: &str) -> bool {
    presented.starts_with(PREFIX)
}

/// The key id and secret of a presented key; `None` when it is not shaped like one.
pub fn parse(presented: &str) -> Option<(&str, &str)> {
    let (key_id, secret) = presented.strip_prefix(PREFIX)?.split_once('_')?;
    let hex = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| b.is_ascii_hexdigit());
    (hex(key_id, 16) && hex(secret, 64)).then_some((key_id, secret))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_issued_key_opens_with_its_own_secret_only() {
        let issued =
            ApiKey::issue(None, "ops".into(), Scopes::OPERATOR, SystemTime::now()).unwrap();
        assert!(is_api_key(&issued.secret));
        let (key_id, secret) = parse(&issued.secret).unwrap();
        assert_eq!(key_id, issued.key.key_id);
        assert!(issued.key.opens_with(secret));
        let other = ApiKey::issue(None, "ops".into(), Scopes::OPERATOR, SystemTime::now()).unwrap();
        assert_ne!(other.key.key_id, issued.key.key_id);
        assert!(!issued.key.opens_with(parse(&other.secret).unwrap().1));
        assert!(!format!("{issued:?}").contains(secret), "never printed");
    }

    #[test]
    fn keys_survive_their_row() {
        let issued = ApiKey::issue(
            Some("b1".into()),
            "ci".into(),
            Scopes::BOT,
            SystemTime::now(),
        )
        .unwrap();
        let back = ApiKey::from_row(issued.key.to_row()).unwrap();
        assert_eq!(back, issued.key);
        assert!(back.opens_with(parse(&issued.secret).unwrap().1));
    }

    #[test]
    fn malformed_keys_are_not_parsed() {
        for bad in [
            "",
            "pmk_",
            "pmk_abc_def",
            "pmk_0123456789abcdef",
            "pmk_0123456789abcdeg_0000000000000000000000000000000000000000000000000000000000000000",
            "pmk_0123456789abcdef_000000000000000000000000000000000000000000000000000000000000000",
            "abc_0123456789abcdef_0000000000000000000000000000000000000000000000000000000000000000",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
