//! Counted places with a limit per key: the spectator streams of a match, the streams of a
//! seat, the open matches of a client. Claiming one past the limit fails; dropping a claimed
//! [`Slot`] frees it at once, however its holder ends (a stream dropped by its connection, a
//! match that ends or whose actor stops).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard};

type Counts<K> = Arc<Mutex<HashMap<K, usize>>>;

pub struct Slots<K: Hash + Eq> {
    /// Slots per key; 0 lifts the limit.
    limit: usize,
    taken: Counts<K>,
}

/// One claimed place; dropping it frees the place.
#[derive(Debug)]
pub struct Slot<K: Hash + Eq> {
    key: K,
    taken: Counts<K>,
}

fn lock<K>(counts: &Mutex<HashMap<K, usize>>) -> MutexGuard<'_, HashMap<K, usize>> {
    counts
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<K: Hash + Eq + Clone> Slots<K> {
    pub fn new(limit: usize) -> Self {
        Self {
            limit,
            taken: Arc::default(),
        }
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// A slot of `key`, or `None` when all of its slots are taken.
    pub fn claim(&self, key: &K) -> Option<Slot<K>> {
        let mut taken = lock(&self.taken);
        if self.limit != 0 && taken.get(key).is_some_and(|&count| count >= self.limit) {
            return None;
        }
        *taken.entry(key.clone()).or_default() += 1;
        Some(Slot {
            key: key.clone(),
            taken: Arc::clone(&self.taken),
        })
    }

    /// The slots of `key` taken now.
    pub fn taken(&self, key: &K) -> usize {
        lock(&self.taken).get(key).copied().unwrap_or(0)
    }
}

impl<K: Hash + Eq> Drop for Slot<K> {
    fn drop(&mut self) {
        let mut taken = lock(&self.taken);
        if let Some(count) = taken.get_mut(&self.key) {
            *count -= 1;
            // A key with no slot taken takes no room.
            if *count == 0 {
                taken.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_counted_per_key_and_freed_on_drop() {
        let slots = Slots::new(2);
        let first = slots.claim(&"m").unwrap();
        let _second = slots.claim(&"m").unwrap();
        assert!(slots.claim(&"m").is_none(), "the limit is reached");
        let _elsewhere = slots.claim(&"other").unwrap();
        drop(first);
        assert_eq!(slots.taken(&"m"), 1);
        let _third = slots.claim(&"m").unwrap();
        assert_eq!(slots.taken(&"m"), 2);
    }

    #[test]
    fn keys_without_slots_take_no_room_and_zero_lifts_the_limit() {
        let slots = Slots::new(1);
        drop(slots.claim(&1).unwrap());
        assert!(lock(&slots.taken).is_empty());
        let unlimited = Slots::new(0);
        let held: Vec<_> = (0..100).map(|_| unlimited.claim(&"k").unwrap()).collect();
        assert_eq!(unlimited.taken(&"k"), held.len());
    }
}
