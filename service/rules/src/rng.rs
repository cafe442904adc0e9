//! The seeded generators every engine draws its chance from.
//!
//! A match's chance is fixed by its [`Seed`]. Matches are created with a 256-bit ChaCha20 seed:
//! ChaCha20 is a stream cipher, so its outputs say nothing about the seed or about what comes
//! next, and a seat that sees every roll so far still cannot foresee the next one. Matches
//! created before that kept a 64-bit SplitMix64 seed, whose state each output gives away; they
//! still replay through SplitMix64, exactly as they were played.
//!
//! How outputs become rolls ([`Rng::below`]) is part of the rules, so that a replay checker in
//! any language can reproduce them: see `docs/api.md`.

use std::fmt;

use chacha20::ChaCha20Rng;
use rand_core::{Rng as _, SeedableRng};

/// What a match's chance is drawn from.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seed {
    /// The ChaCha20 key: RFC 8439's block function with this key, a zero nonce and the block
    /// counter from 0; each `u64` is the next eight bytes of keystream, little-endian.
    ChaCha20([u8; 32]),
    /// The generator of matches created before seeds were committed; kept so they replay.
    SplitMix64(u64),
}

impl Seed {
    /// The ChaCha20 seed a client names with a number: the number's eight little-endian bytes,
    /// then 24 zero bytes.
    pub fn from_number(number: u64) -> Self {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&number.to_le_bytes());
        Seed::ChaCha20(key)
    }

    /// The seed as bytes: the ChaCha20 key, or SplitMix64's number little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Seed::ChaCha20(key) => key.to_vec(),
            Seed::SplitMix64(number) => number.to_le_bytes().to_vec(),
        }
    }
}

/// A seed is a secret until its match is over; logs and panics never print it.
impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seed::ChaCha20(_) => f.write_str("Seed::ChaCha20(..)"),
            Seed::SplitMix64(_) => f.write_str("Seed::SplitMix64(..)"),
        }
    }
}

/// A match's generator, or a fast one for playouts and tests ([`Rng::new`]).
#[derive(Clone, PartialEq, Eq)]
pub struct Rng(Generator);

#[derive(Clone, PartialEq, Eq)]
enum Generator {
    SplitMix64 { state: u64 },
    ChaCha20(Box<ChaChaStream>),
}

/// ChaCha20's generator, which its crate leaves without `Clone` (a copied stream repeats its
/// outputs); a game state is cloned to try actions on, so the copy here is deliberate.
#[derive(PartialEq, Eq)]
struct ChaChaStream(ChaCha20Rng);

impl Clone for ChaChaStream {
    fn clone(&self) -> Self {
        Self(ChaCha20Rng::deserialize_state(&self.0.serialize_state()))
    }
}

impl Rng {
    /// A SplitMix64 generator: small and fast, for playouts, tests and matches created before
    /// ChaCha20 seeds. Its outputs give its state away; never use it for a new match.
    pub const fn new(seed: u64) -> Self {
        Self(Generator::SplitMix64 { state: seed })
    }

    /// The generator a match with this seed draws from.
    pub fn from_seed(seed: &Seed) -> Self {
        match *seed {
            Seed::SplitMix64(number) => Self::new(number),
            Seed::ChaCha20(key) => Self(Generator::ChaCha20(Box::new(ChaChaStream(
                ChaCha20Rng::from_seed(key),
            )))),
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        match &mut self.0 {
            Generator::SplitMix64 { state } => {
                *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = *state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            }
            Generator::ChaCha20(stream) => stream.0.next_u64(),
        }
    }

    /// A uniform integer in `0..bound` (rejection sampling, no modulo bias). `bound` must be > 0.
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "Rng::below needs a positive bound");
        let zone = u64::MAX - (u64::MAX % bound);
        loop {
            let value = self.next_u64();
            if value < zone {
                return value % bound;
            }
        }
    }

    /// One roll of a die with `sides` faces: `1..=sides`.
    pub fn roll(&mut self, sides: u8) -> u8 {
        self.below(u64::from(sides)) as u8 + 1
    }

    /// Picks an element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// Game states are printed in test failures and traces; the generator's state is the seed.
impl fmt::Debug for Rng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Generator::SplitMix64 { .. } => f.write_str("Rng::SplitMix64(..)"),
            Generator::ChaCha20(_) => f.write_str("Rng::ChaCha20(..)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        for seed in [Seed::SplitMix64(42), Seed::from_number(42)] {
            let mut a = Rng::from_seed(&seed);
            let mut b = Rng::from_seed(&seed);
            for _ in 0..100 {
                assert_eq!(a.next_u64(), b.next_u64());
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn splitmix_sequence_is_pinned() {
        // Matches created before ChaCha20 replay through this generator: changing it changes
        // their history.
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn chacha_sequence_is_rfc_8439_keystream() {
        // RFC 8439 appendix A.1, test vector 1: the all-zero key, nonce and counter give the
        // keystream 76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28 ...
        let mut rng = Rng::from_seed(&Seed::ChaCha20([0; 32]));
        assert_eq!(rng.next_u64(), 0x903d_f1a0_ade0_b876);
        assert_eq!(rng.next_u64(), 0x28bd_8653_e56a_5d40);
        assert_eq!(Seed::from_number(0), Seed::ChaCha20([0; 32]));
    }

    #[test]
    fn generators_differ_by_what_they_drew() {
        let mut a = Rng::from_seed(&Seed::from_number(9));
        let b = a.clone();
        a.next_u64();
        assert_ne!(a, b);
        assert_ne!(
            Rng::from_seed(&Seed::from_number(1)),
            Rng::from_seed(&Seed::from_number(2))
        );
        assert_ne!(
            Rng::from_seed(&Seed::from_number(1)),
            Rng::from_seed(&Seed::SplitMix64(1))
        );
    }

    #[test]
    fn debug_output_never_shows_the_seed() {
        let seed = Seed::ChaCha20([0xab; 32]);
        let shown = format!("{seed:?} {:?}", Rng::from_seed(&seed));
        assert!(!shown.contains("171") && !shown.contains("ab"), "{shown}");
    }

    #[test]
    fn dice_stay_in_range_and_hit_every_face() {
        for seed in [Seed::SplitMix64(7), Seed::from_number(7)] {
            let mut rng = Rng::from_seed(&seed);
            let mut seen = [false; 6];
            for _ in 0..1000 {
                let face = rng.roll(6);
                assert!((1..=6).contains(&face));
                seen[usize::from(face - 1)] = true;
            }
            assert!(seen.iter().all(|s| *s));
        }
    }
}
