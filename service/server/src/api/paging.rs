//! AIP-158 pagination: page sizes and opaque page tokens.
//!
//! A token names the listing it continues and a position in it, so a token from another listing
//! or another filter is refused rather than silently giving a wrong page.

use crate::error::ServiceError;

pub const DEFAULT_PAGE_SIZE: usize = 50;
pub const MAX_PAGE_SIZE: usize = 500;

/// `page_size` as AIP-158 reads it: 0 is the default, too many is cut to the maximum.
pub fn page_size(requested: i32) -> Result<usize, ServiceError> {
    match requested {
        0 => Ok(DEFAULT_PAGE_SIZE),
        n if n < 0 => Err(ServiceError::InvalidArgument(format!(
            "page_size {n} is negative; use 0 for the default of {DEFAULT_PAGE_SIZE}"
        ))
        .at("page_size")),
        n => Ok((n as usize).min(MAX_PAGE_SIZE)),
    }
}

/// The page of `items` from `offset`, at most `size` long, and the token of the next page
/// (empty after the last), for listings read whole and paged by position.
pub fn slice<'a, T>(scope: &str, items: &'a [T], offset: usize, size: usize) -> (&'a [T], String) {
    let start = offset.min(items.len());
    let end = start.saturating_add(size).min(items.len());
    let next = if end < items.len() {
        encode(scope, end)
    } else {
        String::new()
    };
    (&items[start..end], next)
}

/// Writes a token for the page starting at `position` of the listing `scope` names (a
/// number, or a name without line breaks).
pub fn encode(scope: &str, position: impl std::fmt::Display) -> String {
    format!("{scope}\n{position}")
        .bytes()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Reads a token; empty means the first page.
pub fn decode<T: std::str::FromStr>(scope: &str, token: &str) -> Result<Option<T>, ServiceError> {
    if token.is_empty() {
        return Ok(None);
    }
    let refuse = || {
        ServiceError::InvalidArgument(
            "page_token is not one this listing issued with these filters; start again without \
             a page_token"
                .to_owned(),
        )
        .at("page_token")
    };
    if !token.len().is_multiple_of(2) || !token.is_ascii() {
        return Err(refuse());
    }
    let bytes = (0..token.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&token[i..i + 2], 16))
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|_| refuse())?;
    let text = String::from_utf8(bytes).map_err(|_| refuse())?;
    let (token_scope, position) = text.rsplit_once('\n').ok_or_else(refuse)?;
    if token_scope != scope {
        return Err(refuse());
    }
    position.parse().map(Some).map_err(|_| refuse())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_sizes_follow_aip_158() {
        assert_eq!(page_size(0).unwrap(), DEFAULT_PAGE_SIZE);
        assert_eq!(page_size(7).unwrap(), 7);
        assert_eq!(page_size(100_000).unwrap(), MAX_PAGE_SIZE);
        assert_eq!(page_size(-1).unwrap_err().reason(), "INVALID_ARGUMENT");
    }

    #[test]
    fn tokens_round_trip_only_within_their_scope() {
        let token = encode("matches|soccer-chess|0", 42);
        assert_eq!(decode("matches|soccer-chess|0", &token).unwrap(), Some(42));
        assert_eq!(decode::<u64>("matches|soccer-chess|0", "").unwrap(), None);
        // A name as the position, as bots are listed.
        let by_name = encode("bots", "Bravo_2");
        assert_eq!(
            decode("bots", &by_name).unwrap(),
            Some("Bravo_2".to_owned())
        );
        for (scope, bad) in [
            ("matches||0", token.as_str()),
            ("matches|soccer-chess|0", "zz"),
            ("matches|soccer-chess|0", "abc"),
            ("matches|soccer-chess|0", "not a token"),
        ] {
            assert_eq!(
                decode::<u64>(scope, bad).unwrap_err().reason(),
                "INVALID_ARGUMENT",
                "{bad}"
            );
        }
    }

    #[test]
    fn a_listing_read_whole_pages_by_position() {
        let items: Vec<u32> = (0..5).collect();
        let (first, token) = slice("x", &items, 0, 2);
        assert_eq!(first, [0, 1]);
        let offset: usize = decode("x", &token).unwrap().unwrap();
        let (second, token) = slice("x", &items, offset, 2);
        assert_eq!(second, [2, 3]);
        let (last, token) = slice("x", &items, decode("x", &token).unwrap().unwrap(), 2);
        assert_eq!((last, token.as_str()), (&[4][..], ""));
        let (past, token) = slice("x", &items, 9, 2);
        assert!(past.is_empty() && token.is_empty());
    }
}
