//! The commitment a match publishes to its seed before anyone acts, so that once the seed is
//! revealed anyone can check it was fixed from the start.

use sha2::{Digest, Sha256};

/// What the commitment hashes first, so it can never be mistaken for another hash of the same
/// bytes.
pub const COMMITMENT_DOMAIN: &[u8] = b"pitchmate/seed/v1";

/// SHA-256 over [`COMMITMENT_DOMAIN`], the salt, then the seed.
pub fn seed_commitment(salt: &[u8], seed: &[u8]) -> [u8; 32] {
    let mut hash = Sha256::new();
    hash.update(COMMITMENT_DOMAIN);
    hash.update(salt);
    hash.update(seed);
    hash.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commitment_is_sha256_of_domain_salt_and_seed() {
        // Computed independently: python3 -c "import hashlib; print(hashlib.sha256(
        // b'pitchmate/seed/v1' + bytes(32) + bytes([1]) * 32).hexdigest())"
        let got: String = seed_commitment(&[0; 32], &[1; 32])
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            got,
            "62e7b890fb7916eaad71c8643404dd6645def240af57e118ae57618d8bb85a98"
        );
    }
}
